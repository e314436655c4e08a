"""The online protocol's messages: versioned JSON objects, their limits and their checks.

Every message either way is one JSON object in one websocket text frame, with the protocol's
version under ``"v"`` and its kind under ``"type"`` (docs/online-protocol.md lists them all).
This module knows no socket: it turns text into a checked ``dict`` or a ``ProtocolError`` that
says what is wrong in a word (``code``) and a sentence (``reason``), and builds the messages the
server and clients send. Everything a client sends is untrusted: numbers must be finite whole
numbers in range, strings short, nesting shallow; fields a message does not use are ignored,
so later versions can add fields without breaking older peers.
"""

from __future__ import annotations

import json
import re
from typing import Any

from racetrack.ai import LEVELS
from racetrack.yamlio import MAX_DEPTH

VERSION = 1
#: The largest message a client may send (a new game with its own track drawn in), in bytes.
MAX_MESSAGE_BYTES = 1 << 20
#: The most values a message may hold (keys, items and scalars), as a track file's limit.
MAX_NODES = 100_000
#: Messages a client may send a second, on average, and in one burst.
RATE_PER_SECOND = 100.0
RATE_BURST = 200
#: The most seats a game has (the most cars a race takes).
MAX_SEATS = 12
#: The most games one ``status`` message asks about.
MAX_STATUS_GAMES = 200
#: The longest time per move: thirty days, in seconds.
MAX_MOVE_TIME = 30 * 24 * 3600.0
MAX_ID = 2**53 - 1
TIMEOUT_CHOICES = ("computer", "drop")
#: A move as text: the point, and an action or a missile's mark (``racetrack.model.Move``).
MOVE_TEXT = re.compile(r"-?\d{1,7},-?\d{1,7}(\+(missile|oil|steer|retire))?")

#: Client messages and what they require; every one may carry an ``id`` echoed in replies.
CLIENT_TYPES = ("create", "join", "watch", "leave", "move", "status", "export", "ping")


class ProtocolError(ValueError):
    """A message the server (or a client) will not act on: ``code`` is one word for programs,
    ``reason`` a sentence for people."""

    def __init__(self, code: str, reason: str):
        super().__init__(reason)
        self.code = code
        self.reason = reason


def encode(kind: str, **fields: Any) -> str:
    """A message as the text sent on the wire."""
    return json.dumps({"v": VERSION, "type": kind, **fields}, separators=(",", ":"),
                      allow_nan=False)


def _refuse_constant(name: str) -> float:
    raise ProtocolError("malformed", f"{name} is not a number JSON allows")


def parse(text: str | bytes) -> dict[str, Any]:
    """A message's JSON object, checked for size, nesting and version (either direction)."""
    if isinstance(text, bytes | bytearray | memoryview):
        raise ProtocolError("malformed", "messages are JSON text frames, not binary ones")
    if len(text) > MAX_MESSAGE_BYTES:
        raise ProtocolError("too-large", f"a message is at most {MAX_MESSAGE_BYTES} bytes")
    try:
        data = json.loads(text, parse_constant=_refuse_constant)
    except ProtocolError:
        raise
    except (ValueError, RecursionError):
        raise ProtocolError("malformed", "not a JSON object") from None
    if not isinstance(data, dict):
        raise ProtocolError("malformed", "a message is a JSON object")
    _check_shape(data)
    if data.get("v") != VERSION or type(data.get("v")) is not int:
        raise ProtocolError("version", f"this server speaks version {VERSION} of the "
                                       "protocol (\"v\": 1 in every message)")
    if not isinstance(data.get("type"), str):
        raise ProtocolError("malformed", "a message names its type under \"type\"")
    return data


def _check_shape(data: Any) -> None:
    """At most ``MAX_NODES`` values, nested at most ``MAX_DEPTH`` deep (a file's limits)."""
    count, stack = 0, [(data, 1)]
    while stack:
        value, depth = stack.pop()
        count += 1
        if count > MAX_NODES:
            raise ProtocolError("too-large", f"a message holds at most {MAX_NODES} values")
        if depth > MAX_DEPTH:
            raise ProtocolError("malformed", f"a message is nested at most {MAX_DEPTH} deep")
        if isinstance(value, dict):
            count += len(value)
            stack.extend((item, depth + 1) for item in value.values())
        elif isinstance(value, list):
            stack.extend((item, depth + 1) for item in value)


def client_message(text: str | bytes) -> dict[str, Any]:
    """A client's message, parsed and every field the server will use checked."""
    data = parse(text)
    kind = data["type"]
    if kind not in CLIENT_TYPES:
        raise ProtocolError("unknown-type", f"unknown message type {kind[:40]!r}; the types "
                                            f"are {', '.join(CLIENT_TYPES)}")
    if "id" in data:
        request_id(data)
    if kind in ("join", "leave", "move"):
        whole(data, "game", 1, MAX_ID)
    if kind in ("join", "move"):
        text_field(data, "token", 64)
    if kind in ("join", "watch"):
        whole(data, "since", 0, MAX_ID, default=0)
    if kind == "watch":
        text_field(data, "watch", 64)
    if kind == "move":
        whole(data, "number", 0, MAX_ID)
        move_text(data)
    if kind == "export":
        if "watch" in data:
            text_field(data, "watch", 64)
        else:
            whole(data, "game", 1, MAX_ID)
            if "token" in data:
                text_field(data, "token", 64)
    if kind == "status":
        games = data.get("games")
        if not isinstance(games, list) or len(games) > MAX_STATUS_GAMES:
            raise ProtocolError("malformed", f"\"games\" is a list of at most "
                                             f"{MAX_STATUS_GAMES} {{game, token}} objects")
        for entry in games:
            if not isinstance(entry, dict):
                raise ProtocolError("malformed", "each of \"games\" is {game, token}")
            whole(entry, "game", 1, MAX_ID)
            text_field(entry, "token", 64)
    if kind == "create":
        create_fields(data)
    return data


def request_id(data: dict[str, Any]) -> Any:
    value = data.get("id")
    if not (type(value) is int and abs(value) <= MAX_ID) and not (
            isinstance(value, str) and len(value) <= 64):
        raise ProtocolError("malformed", "\"id\" is a whole number or a string of at most "
                                         "64 characters")
    return value


def whole(data: dict[str, Any], key: str, low: int, high: int, default: int | None = None
          ) -> int:
    value = data.get(key, default)
    if type(value) is not int or not low <= value <= high:
        raise ProtocolError("malformed", f"\"{key}\" is a whole number from {low} to {high}")
    data[key] = value
    return value


def text_field(data: dict[str, Any], key: str, longest: int) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not 0 < len(value) <= longest:
        raise ProtocolError("malformed", f"\"{key}\" is a string of 1 to {longest} characters")
    return value


def move_text(data: dict[str, Any]) -> str:
    value = data.get("move")
    if not isinstance(value, str) or not MOVE_TEXT.fullmatch(value):
        raise ProtocolError("malformed", "\"move\" is a point as \"x,y\", maybe with an "
                                         "action: \"x,y+missile\", \"x,y+oil\", "
                                         "\"x,y+steer\"")
    return value


def create_fields(data: dict[str, Any]) -> None:
    """A new game's fields: the track and rules (a bundled name, or the whole thing as data,
    checked later as a file is), the seats, and the time per move."""
    for key in ("track", "rules"):
        value = data.get(key)
        if not (isinstance(value, str) and 0 < len(value) <= 64) and not isinstance(value,
                                                                                     dict):
            raise ProtocolError("malformed", f"\"{key}\" is a bundled {key} name or the "
                                             f"{key} itself as an object")
    seats = data.get("seats")
    if not isinstance(seats, list) or not 1 <= len(seats) <= MAX_SEATS:
        raise ProtocolError("malformed", f"\"seats\" lists 1 to {MAX_SEATS} seats")
    for seat in seats:
        if not isinstance(seat, dict) or seat.get("kind") not in ("human", "computer"):
            raise ProtocolError("malformed", "each seat is {\"kind\": \"human\"} or "
                                             "{\"kind\": \"computer\", \"level\": LEVEL}")
        if seat["kind"] == "computer" and seat.get("level") not in LEVELS:
            raise ProtocolError("malformed", f"a computer seat's level is one of "
                                             f"{', '.join(LEVELS)}")
        for key in ("name", "team"):
            if key in seat:
                text_field(seat, key, 40)
    time = data.get("move_time")
    if time is not None and (type(time) not in (int, float) or not 0 < time <= MAX_MOVE_TIME):
        raise ProtocolError("malformed", f"\"move_time\" is null (no limit) or seconds from "
                                         f"0 to {MAX_MOVE_TIME:.0f}")
    if data.get("on_timeout", "computer") not in TIMEOUT_CHOICES:
        raise ProtocolError("malformed", "\"on_timeout\" is \"computer\" or \"drop\"")
    if data.get("timeout_level", "medium") not in LEVELS:
        raise ProtocolError("malformed", f"\"timeout_level\" is one of {', '.join(LEVELS)}")
