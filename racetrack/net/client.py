"""The client side: a connection that comes back by itself, and a game mirrored from the server.

``Session`` keeps one websocket to a server open: when it is lost it connects again (waiting a
little longer each time) and calls ``on_open`` so the owner can ask to join its games again
from the last move it saw. Replies are matched to requests by their ``id``; everything else
(moves, players coming and going) goes to ``on_message``.

``Mirror`` is a client's copy of a game: the race built from the setup the server sent, read
as a replay is (the server is trusted no more than a file), and every move the server tells
applied through the same engine. A move the engine refuses means the copy is wrong, and the
owner asks for the game again. The server's word is final: a client never plays a move before
the server has accepted it.

``ThreadedSession`` runs a session on a thread of its own for the window, whose frame must
never wait on the network: it sends from any thread and hands messages over in a queue.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import queue
import ssl
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from racetrack.errors import RacetrackError
from racetrack.game import RaceState
from racetrack.model import Move
from racetrack.net import protocol
from racetrack.net.hosted import race_of
from racetrack.net.protocol import ProtocolError, encode

log = logging.getLogger(__name__)

#: The largest message a client takes from a server (a game's setup holds its whole track).
MAX_SERVER_MESSAGE = 32 * 1024 * 1024
#: Seconds between attempts to connect again: growing, to this at most.
RETRY_FIRST, RETRY_MOST = 0.2, 5.0


class OnlineError(RacetrackError):
    """Something the player must be told: no server there, a wrong token, a game set aside."""


def check_url(url: str) -> str:
    """A server's address as ``ws://host:port`` or ``wss://host:port`` (a bare ``host:port``
    is taken as ``ws://``); ``OnlineError`` otherwise."""
    text = url.strip()
    if "://" not in text:
        text = f"ws://{text}"
    if not text.startswith(("ws://", "wss://")) or len(text) > 300 or \
            not text.split("://", 1)[1].strip("/"):
        raise OnlineError(f"{url!r} is not a server address (ws://HOST:PORT or "
                          "wss://HOST:PORT)")
    return text


async def open_socket(url: str) -> ClientConnection:
    """One websocket to the server (TLS with the system's certificates for ``wss://``)."""
    context = ssl.create_default_context() if url.startswith("wss://") else None
    return await connect(url, ssl=context, max_size=MAX_SERVER_MESSAGE, compression=None,
                         open_timeout=10, close_timeout=3, ping_interval=20, ping_timeout=20)


class Session:
    """A connection to one server that comes back when lost."""

    def __init__(self, url: str, on_message: Callable[[dict], Awaitable[None] | None],
                 on_open: Callable[[Session], Awaitable[None]] | None = None,
                 patience: float = 300.0, on_state: Callable[[str], None] | None = None):
        self.url = check_url(url)
        self.on_message = on_message
        self.on_open = on_open
        self.on_state = on_state  # told "connecting", "connected", "lost"
        self.patience = patience  # seconds without a connection before giving up
        self.ws: ClientConnection | None = None
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future] = {}
        self._stopped = False
        self.connected = asyncio.Event()

    def _state(self, words: str) -> None:
        if self.on_state is not None:
            self.on_state(words)

    async def run(self) -> None:
        """Stay connected until ``stop``; ``OnlineError`` when no connection could be made
        for ``patience`` seconds."""
        delay, lost_since = RETRY_FIRST, time.monotonic()
        while not self._stopped:
            self._state("connecting")
            try:
                self.ws = await open_socket(self.url)
            except (TimeoutError, OSError, InvalidHandshake, InvalidURI) as exc:
                if isinstance(exc, InvalidURI) or \
                        time.monotonic() - lost_since > self.patience:
                    raise OnlineError(f"cannot reach the server at {self.url}: "
                                      f"{_why(exc)}") from None
                self._state("lost")
                await asyncio.sleep(delay)
                delay = min(delay * 2, RETRY_MOST)
                continue
            delay = RETRY_FIRST
            try:
                await self._serve()
            finally:
                self.connected.clear()
                self.ws = None
                for future in self._waiting.values():
                    if not future.done():
                        future.set_exception(ConnectionError("the connection was lost"))
                self._waiting.clear()
            lost_since = time.monotonic()
            if not self._stopped:
                self._state("lost")

    async def _serve(self) -> None:
        assert self.ws is not None
        ws = self.ws
        try:
            self.connected.set()
            self._state("connected")
            opened = asyncio.create_task(self.on_open(self)) if self.on_open else None
            async for text in ws:
                try:
                    message = protocol.parse(text)
                except ProtocolError as exc:
                    log.warning("the server sent what is not a message: %s", exc.reason)
                    continue
                ident = message.get("id")
                if isinstance(ident, int) and ident in self._waiting:
                    future = self._waiting.pop(ident)
                    if not future.done():
                        future.set_result(message)
                    continue
                outcome = self.on_message(message)
                if asyncio.iscoroutine(outcome):
                    await outcome
            if opened is not None and not opened.done():
                opened.cancel()
        except ConnectionClosed:
            pass

    async def send(self, kind: str, **fields: Any) -> None:
        """Send a message now (``ConnectionError`` if not connected)."""
        if self.ws is None:
            raise ConnectionError("not connected")
        try:
            await self.ws.send(encode(kind, **fields))
        except ConnectionClosed:
            raise ConnectionError("the connection was lost") from None

    async def request(self, kind: str, timeout: float = 30.0, **fields: Any) -> dict:
        """Send a message and wait for the reply to it."""
        ident = next(self._ids)
        future = asyncio.get_running_loop().create_future()
        self._waiting[ident] = future
        try:
            await self.send(kind, id=ident, **fields)
            return await asyncio.wait_for(future, timeout)
        finally:
            self._waiting.pop(ident, None)

    async def stop(self) -> None:
        self._stopped = True
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()


def _why(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) or type(exc).__name__


async def ask_once(url: str, kind: str, **fields: Any) -> dict:
    """Connect, send one request, return its reply (``OnlineError`` for an error reply or no
    server)."""
    url = check_url(url)
    try:
        ws = await open_socket(url)
    except (TimeoutError, OSError, InvalidHandshake, InvalidURI) as exc:
        raise OnlineError(f"cannot reach the server at {url}: {_why(exc)}") from None
    async with ws:
        await ws.send(encode(kind, id=1, **fields))
        try:
            async for text in ws:
                message = protocol.parse(text)
                if message.get("id") == 1:
                    if message["type"] == "error":
                        raise OnlineError(str(message.get("reason", "refused")))
                    return message
        except ConnectionClosed as exc:
            raise OnlineError(f"the server closed the connection: {exc}") from None
    raise OnlineError("the server closed the connection without an answer")


class Mirror:
    """A client's copy of a game, made by the same engine from what the server told."""

    def __init__(self, message: dict):
        try:
            self.race = race_of(message["setup"], "the server's game")
        except ProtocolError as exc:
            raise OnlineError(f"the server's game cannot be read: {exc.reason}") from None
        except (KeyError, TypeError) as exc:
            raise OnlineError(f"the server's game cannot be read: {exc}") from None
        self.game = message["game"]
        you = message.get("you")
        self.seat: int | None = you - 1 if isinstance(you, int) else None
        self.state: RaceState = self.race.start()
        self.bys: list[str] = []
        self.message = message
        self.catch_up(message)

    @property
    def number(self) -> int:
        return len(self.state.history)

    def catch_up(self, message: dict) -> list:
        """Apply the moves of a ``game`` message the copy lacks; the events they made."""
        first = message.get("first", 0)
        events = []
        for offset, (seat, move) in enumerate(message.get("moves", [])):
            events += self.take(first + offset, seat, move) or []
        self.message = message
        return events

    def take(self, number: int, seat: int, move: str, by: str = "player") -> list | None:
        """Apply the server's move ``number``; ``None`` if the copy has it already.
        ``OnlineError`` if the copy is missing earlier moves or the engine refuses it."""
        if number < self.number:
            return None
        if number > self.number:
            raise OnlineError(f"move {number} came before move {self.number}")
        if self.state.current_car != seat - 1:
            raise OnlineError(f"move {number} is seat {seat}'s, but the copy has another "
                              "seat to move")
        try:
            events = self.state.apply(Move.parse(move))
        except (ValueError, TypeError) as exc:
            raise OnlineError(f"move {number} ({move}) does not re-simulate here: {exc}") \
                from None
        self.bys.append(by)
        return events

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.state.current_car == self.seat


class ThreadedSession:
    """A session on a thread of its own, for the window: ``send`` from any thread, and
    ``poll`` the messages (and the connection's ups and downs) each frame."""

    def __init__(self, url: str, join: Callable[[], list[tuple[str, dict]]],
                 patience: float = 3600.0, heard: Callable[[], None] | None = None):
        """``join()`` gives the messages to send each time the connection opens (asking for
        the game again from the last move seen); ``heard()`` is called on the network's
        thread after each message is put in the inbox (the window, which sleeps between
        inputs, is woken by it to take the message in)."""
        self.inbox: queue.Queue[dict] = queue.Queue()
        self.join = join
        self.heard = heard
        self.loop = asyncio.new_event_loop()
        self.session = Session(url, self._message, self._opened, patience, self._state)
        self.thread = threading.Thread(target=self._run, name="online", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_until_complete(self.session.run())
        except OnlineError as exc:
            self._put({"type": "connection", "state": "failed", "reason": str(exc)})
        except Exception as exc:  # never let the thread die silently
            log.exception("the online connection failed")
            self._put({"type": "connection", "state": "failed", "reason": str(exc)})
        finally:
            self.loop.close()

    def _message(self, message: dict) -> None:
        self._put(message)

    def _state(self, words: str) -> None:
        self._put({"type": "connection", "state": words})

    def _put(self, message: dict) -> None:
        self.inbox.put(message)
        if self.heard is not None:
            self.heard()

    async def _opened(self, session: Session) -> None:
        for kind, fields in self.join():
            await session.send(kind, **fields)

    def send(self, kind: str, **fields: Any) -> None:
        """Send when connected (a message sent while the connection is down is dropped: the
        caller sees the connection's state and proposes again)."""
        async def go() -> None:
            with contextlib.suppress(ConnectionError):
                await self.session.send(kind, **fields)

        if self.loop.is_running():
            asyncio.run_coroutine_threadsafe(go(), self.loop)

    def poll(self) -> list[dict]:
        found = []
        with contextlib.suppress(queue.Empty):
            while True:
                found.append(self.inbox.get_nowait())
        return found

    def close(self) -> None:
        if self.loop.is_running():
            asyncio.run_coroutine_threadsafe(self.session.stop(), self.loop)
