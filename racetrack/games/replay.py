"""Replays: a race saved as its setup plus its moves, and re-simulated to check or watch it.

This is the race's file format; re-simulating and checking a recording is written once for
both games in ``racetrack.games.recording``.

The file is YAML (format ``racetrack-replay: 3``, or 4 for a race a person took over part way;
versions 1 and 2 still load): the track
embedded whole with a hash of its canonical text, the rule set with every option, the cars and
their drivers, the seed, every move in order (a steered missile's moves too) and the recorded
result. Nothing random is left out, so re-simulating the moves
re-creates every state; a move that is not legal when re-simulated is reported by its number.
"""

from __future__ import annotations

import functools
import hashlib
import os
from dataclasses import dataclass
from typing import Any, ClassVar

from racetrack.base.errors import ReplayError, RulesError, TrackError
from racetrack.base.fields import MAX_NAME, MAX_TEXT, Field, Reader, describe_key
from racetrack.base.yamlio import Limits, YamlDocument, load_yaml, write_yaml
from racetrack.board.geometry import Vec
from racetrack.board.track import (
    TRACK_LIMITS,
    Track,
    is_track_folder_file,
    load_track,
    track_from_document,
    track_to_data,
    track_to_yaml,
)
from racetrack.engine.model import (
    MAX_ITEMS,
    MISSILE_MARK,
    Action,
    CarSetup,
    CarStatus,
    Handover,
    Kit,
    Move,
)
from racetrack.engine.shop import starting_kit
from racetrack.games.race import MAX_CARS, Race, RaceState
from racetrack.games.recording import Recording
from racetrack.rules.options import OPTIONS_BY_KEY
from racetrack.rules.ruleset import rules_from_document
from racetrack.search.drivers import LEVELS

FORMAT_KEY = "racetrack-replay"
#: Version 2 records a steered missile's moves (``[car, x, y, steer]``); version 1 files,
#: written before missiles were steered, load and verify unchanged. Version 3 lists every rule
#: option, and a version-3 file lacking one is refused; files of versions 1 and 2 may lack
#: the options added after their first writers, which take their earlier behaviour (said in
#: the log). Version 4 adds a car's ``taken-over``: the computer driver that drove it before a
#: person took over, and after how many moves; only such a race is written as version 4, so
#: every other file still reads in a game that knows version 3.
FORMAT_VERSION = 4
HANDOVER_VERSION = 4
PLAIN_VERSION = 3
READ_VERSIONS = (1, 2, 3, 4)
#: The first version whose rules must be whole.
WHOLE_RULES = 3
MAX_REPLAY_BYTES = 16 * 1024 * 1024
#: No race is longer: every car moves once a round, and every race stops after
#: ``max-rounds`` rounds (plus the cars choosing their start points).
MAX_MOVES = MAX_CARS * (OPTIONS_BY_KEY["max-rounds"].high + 1)
#: The values a replay may hold: its track, every move (a list and four values), and room
#: for the rules, the cars and the result. ``save_replay`` writes with the same limits, so
#: the game never writes a replay it would refuse to read.
REPLAY_LIMITS = Limits(bytes=MAX_REPLAY_BYTES,
                       nodes=TRACK_LIMITS.nodes + 5 * MAX_MOVES + 20_000)


@functools.lru_cache(maxsize=64)
def track_hash(track: Track) -> str:
    """A fingerprint of a track's canonical text: equal tracks, equal hashes (remembered, as
    the race in progress is saved after every move)."""
    return hashlib.sha256(track_to_yaml(track).encode("utf-8")).hexdigest()


def result_data(state: RaceState) -> dict[str, Any]:
    outcome = state.outcome
    if outcome is None:
        return {"finished": False}
    names = [car.name for car in state.race.cars]
    return {"finished": True,
            "winner": names[outcome.winner] if outcome.winner is not None else None,
            "ranking": [names[i] for i in outcome.ranking],
            "turns": outcome.rounds,
            "reason": outcome.reason,
            # Where each car ended and how far it got: a file whose setup was edited (a car's
            # direction, say) re-simulates to other places even where the ranking agrees.
            "cars": [{"status": car.status.value, "at": list(car.position),
                      "progress": car.progress} for car in state.cars]}


def replay_data(state: RaceState) -> dict[str, Any]:
    """Plain data for a race so far: setup, every move and (if over) the result."""
    race = state.race
    reference = {"file": race.track.source} if race.track.source else {}
    taken_over = any(car.handover is not None for car in race.cars)
    return {
        FORMAT_KEY: HANDOVER_VERSION if taken_over else PLAIN_VERSION,
        "track": {**reference, "hash": track_hash(race.track),
                  "data": track_to_data(race.track)},
        "rules": race.rules.to_data(),
        "seed": race.seed,
        "cars": [car_data(race, c) for c in race.cars],
        "moves": [[car, move.target.x, move.target.y, *_marks(move)]
                  for car, move in state.history],
        "result": result_data(state),
    }


def _marks(move: Move) -> list[str]:
    """A move's row beyond its car and point: its action, or the mark of a missile's move."""
    if move.missile:
        return [MISSILE_MARK]
    return [move.action.value] if move.action else []


def car_data(race: Race, car: CarSetup) -> dict[str, Any]:
    """One car's setup for the file; its kit written out whole wherever a kit counts, so the
    replay does not depend on how the shop chose it."""
    kit = starting_kit(race.rules, car)
    return {"name": car.name, "colour": car.colour, "driver": car.driver,
            **({"can-swim": True} if car.can_swim else {}),
            **({"reverse": True} if car.reverse else {}),
            **({"team": car.team} if car.team else {}),
            **({"budget": car.budget} if car.budget is not None else {}),
            **({"taken-over": {"from": car.handover.driver, "after-moves": car.handover.after}}
               if car.handover is not None else {}),
            **({"kit": kit.to_data()} if car.kit is not None or kit != Kit() else {})}


def save_replay(state: RaceState, path: str | os.PathLike[str], exclusive: bool = False) -> None:
    """Write the race atomically (the file is either the old one or the new one, whole);
    ``ReplayError`` if it would be too large to read back (no race of the rules' length is).
    Where ``exclusive``, only as a new file: ``FileExistsError`` if ``path`` is taken."""
    write_yaml(path, replay_data(state), REPLAY_LIMITS, ReplayError, exclusive=exclusive)


@dataclass(frozen=True)
class Replay(Recording[RaceState]):
    """A loaded replay: the race's setup, its moves and the result it claims (re-simulated
    and checked as any recording is, ``racetrack.games.recording``)."""

    track_hash_matches: bool = True
    track_changed: bool = False  # the track file it names has changed since (embedded is used)

    noun: ClassVar[str] = "race"
    result_keys: ClassVar[tuple[str, ...]] = ("finished", "winner", "ranking", "turns",
                                              "reason", "cars")
    optional_result_keys: ClassVar[tuple[str, ...]] = ("cars",)

    @property
    def race(self) -> Race:
        return self.setup  # type: ignore[return-value]

    @property
    def title(self) -> str:
        return self.race.track.name

    @property
    def describe(self) -> str:
        race = self.race
        return f"{race.track.name} · {race.rules.name} · {', '.join(self.players)}"

    @staticmethod
    def result_of(state: RaceState) -> dict[str, Any]:
        return result_data(state)

    def move_words(self, player: int, move: Move) -> str:
        name = self.race.cars[player].name
        if move.missile:
            return f"{name}'s missile to {tuple(move.target)}"
        return f"{name} to {tuple(move.target)}{_with(move)}"


def _with(move: Move) -> str:
    return f" and {move.action.value}" if move.action else ""


def load_replay(path: str | os.PathLike[str]) -> Replay:
    """Read a replay file; every problem is a ``ReplayError`` naming the file (and line)."""
    return replay_from_document(load_yaml(path, ReplayError, REPLAY_LIMITS))


def replay_from_document(doc: YamlDocument) -> Replay:
    """A replay from a parsed file, every field checked (the first problem is raised)."""
    root = Reader(doc, ReplayError).root
    if not isinstance(doc.data, dict):
        root.fail("a replay file must be a YAML mapping")
    version = root[FORMAT_KEY].value if root[FORMAT_KEY].present else None
    if type(version) is not int or version not in READ_VERSIONS:
        root[FORMAT_KEY].equals(FORMAT_VERSION, f"not a replay of format version 1 to "
                                                f"{FORMAT_VERSION} ('{FORMAT_KEY}: "
                                                f"{FORMAT_VERSION}' missing or different)")
    root.keys(_TOP_KEYS, what="a replay file")
    root.require("track")
    part = root["track"]
    part.keys(("file", "hash", "data"), what="'track'")
    if not part["data"].present:
        part.fail("'track' must hold the embedded track under 'data'")
    root.require("rules", "cars", "moves", "result")
    reference = part["file"].text(MAX_PATH, default=None, nullable=True)
    recorded_hash = part["hash"].text(64, default=None, nullable=True)
    try:
        track = track_from_document(doc.sub(("track", "data")))
        rules = rules_from_document(doc.sub(("rules",)), whole=version >= WHOLE_RULES)
    except (TrackError, RulesError) as exc:
        raise ReplayError(exc.problems) from None
    setups = [_car(item, version) for item in root["cars"].items(MAX_CARS, item="car", low=1)]
    names = [setup.name for setup in setups]
    if len(set(names)) != len(names):
        twice = next(name for name in names if names.count(name) > 1)
        root["cars"].fail(f"two cars are named {twice!r}: every car needs its own name")
    seed = root["seed"].whole(-MAX_SEED, MAX_SEED, default=0)
    moves = _moves(root["moves"], len(setups), steered=version >= 2)
    for number, setup in enumerate(setups):
        if setup.handover is not None and setup.handover.after > len(moves):
            root.reader.fail(("cars", number, "taken-over", "after-moves"),
                             f"taken over after {setup.handover.after} moves, but the race "
                             f"has {len(moves)}")
    result = _result(root["result"])
    try:
        race = Race(track, rules, setups, seed)
    except ValueError as exc:
        raise ReplayError(doc.problem(("cars",), str(exc))) from None
    return Replay(race, tuple(moves), result, doc.file, recorded_hash == track_hash(track),
                  _track_changed(reference, recorded_hash))


_TOP_KEYS = (FORMAT_KEY, "track", "rules", "seed", "cars", "moves", "result")
_CAR_KEYS = ("name", "colour", "driver", "can-swim", "reverse", "team", "budget", "kit")
_HANDOVER_KEYS = ("from", "after-moves")
#: The longest path a replay names its track by.
MAX_PATH = 4_096
#: The largest seed a file may hold.
MAX_SEED = 10**18
#: No coordinate of a move is farther out (a track's paper ends at 10,000).
MAX_MOVE_COORD = 1_000_000
#: The most money or budget a car's setup may hold.
MAX_BUDGET = 10**9


def _car(field: Field, version: int = FORMAT_VERSION) -> CarSetup:
    field.keys((*_CAR_KEYS, "taken-over") if version >= HANDOVER_VERSION else _CAR_KEYS,
               what="a car")
    kit = None
    if field["kit"].present:
        kit_field = field["kit"].named("a car's kit")
        kit_field.keys(Kit.__dataclass_fields__, unknown="kit item")
        items = {key: (kit_field[key].flag() if key == "submarine" else
                       kit_field[key].whole(0, MAX_BUDGET if key == "money" else MAX_ITEMS))
                 for key in kit_field.value}
        kit = Kit(**items)
    driver = field["driver"].choice(("human", *LEVELS), default="human", unknown="driver",
                                    valid="drivers")
    handover = None
    if field["taken-over"].present:
        part = field["taken-over"].named("a car's take-over")
        part.keys(_HANDOVER_KEYS, what="'taken-over'")
        if driver != "human":
            part.fail("only a car a person drives can have been taken over")
        handover = Handover(part["from"].choice(LEVELS, unknown="driver", valid="drivers"),
                            part["after-moves"].whole(1, MAX_MOVES))
    return CarSetup(field["name"].text(MAX_NAME), field["colour"].text(MAX_NAME, default="red"),
                    driver,
                    field["can-swim"].flag(default=False), field["reverse"].flag(default=False),
                    kit=kit, budget=field["budget"].whole(0, MAX_BUDGET, default=None),
                    team=field["team"].text(MAX_NAME, default="", empty=True),
                    handover=handover)


def _moves(field: Field, cars: int, steered: bool = True) -> list[tuple[int, Move]]:
    """Every move, ``[car, x, y]``, ``[car, x, y, action]`` or (version 2) a missile's
    ``[car, x, y, steer]``; checked in one quick pass (a long race has a hundred thousand of
    them), the first bad one named by its number."""
    entries = field.value
    if not isinstance(entries, list) or len(entries) > MAX_MOVES:
        field.fail(f"'moves' must be a list of at most {MAX_MOVES} moves")
    actions: dict[str, Action | None] = {a.value: a for a in Action}
    if steered:
        actions[MISSILE_MARK] = None
    moves = []
    for number, entry in enumerate(entries, start=1):
        if (type(entry) is list and 3 <= len(entry) <= 4 and type(entry[0]) is int
                and type(entry[1]) is int and type(entry[2]) is int
                and 0 <= entry[0] < cars and abs(entry[1]) <= MAX_MOVE_COORD
                and abs(entry[2]) <= MAX_MOVE_COORD):
            action = None
            if len(entry) == 4:
                if not isinstance(entry[3], str) or entry[3] not in actions:
                    field.reader.fail(("moves", number - 1, 3),
                                      f"move {number}: unknown action {describe_key(entry[3])}; "
                                      f"actions: {', '.join(actions)}")
                action = actions[entry[3]]
            moves.append((entry[0], Move(Vec(entry[1], entry[2]), action,
                                         missile=len(entry) == 4 and action is None)))
        else:
            field.reader.fail(("moves", number - 1),
                              f"move {number} must be [car, x, y] in whole numbers (a car from "
                              f"0 to {cars - 1}, x and y within ±{MAX_MOVE_COORD:,}), or "
                              "[car, x, y, action]")
    return moves


def _result(field: Field) -> dict[str, Any]:
    """The recorded result: ``{finished: false}`` for a race cut short, or the whole of
    ``result_data``; what is shown of it (the winner's name) is checked like any name."""
    field.keys(("finished", "winner", "ranking", "turns", "reason", "cars"),
               what="'result'")
    finished = field["finished"].flag()
    if not finished:
        return {"finished": False}
    result: dict[str, Any] = {
        "finished": True,
        "winner": field["winner"].text(MAX_NAME, nullable=True),
        "ranking": [item.text(MAX_NAME) for item in
                    field["ranking"].items(MAX_CARS, item="ranked car")],
        "turns": field["turns"].whole(0, 10**9),
        "reason": field["reason"].text(MAX_TEXT, lines=True),
    }
    if field["cars"].present:
        cars = []
        for item in field["cars"].items(MAX_CARS, item="car"):
            item.keys(("status", "at", "progress"), what="a car's result")
            cars.append({"status": item["status"].choice([s.value for s in CarStatus]),
                         "at": list(item["at"].pair(-MAX_MOVE_COORD, MAX_MOVE_COORD,
                                                    whole=True)),
                         "progress": item["progress"].whole(-10**9, 10**9)})
        result["cars"] = cars
    return result


def _track_changed(reference: str | None, recorded_hash: str | None) -> bool:
    """Whether the track file the replay names now differs from the one raced on.

    The embedded track is the truth; the name is only a hint, followed only to a track file
    in the bundled or the player's tracks folder (read with a track's limits), never to any
    other file the replay may name.
    """
    if not reference or not is_track_folder_file(reference):
        return False
    try:
        current = load_track(reference)
    except (TrackError, OSError, ValueError):
        return False
    return track_hash(current) != recorded_hash
