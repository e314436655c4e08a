"""Replays: a race saved as its setup plus its moves, and re-simulated to check or watch it.

The file is YAML (format ``racetrack-replay: 1``): the track embedded whole with a hash of its
canonical text, the rule set with every option, the cars and their drivers, the seed, every move
in order and the recorded result. Nothing random is left out, so re-simulating the moves
re-creates every state; a move that is not legal when re-simulated is reported by its number.
"""

from __future__ import annotations

import functools
import hashlib
import os
from dataclasses import dataclass
from typing import Any

from racetrack.errors import IllegalMoveError, Problem, ReplayError, RulesError, TrackError
from racetrack.game import Race, RaceState
from racetrack.geometry import Vec
from racetrack.model import Action, CarSetup, Kit, Move
from racetrack.rules.ruleset import rules_from_data
from racetrack.shop import starting_kit
from racetrack.track import Track, track_from_data, track_to_data, track_to_yaml
from racetrack.yamlio import atomic_write_text, dump_yaml, load_yaml

FORMAT_KEY = "racetrack-replay"
FORMAT_VERSION = 1
MAX_REPLAY_BYTES = 16 * 1024 * 1024
MAX_MOVES = 200_000


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
    return {
        FORMAT_KEY: FORMAT_VERSION,
        "track": {**reference, "hash": track_hash(race.track),
                  "data": track_to_data(race.track)},
        "rules": race.rules.to_data(),
        "seed": race.seed,
        "cars": [car_data(race, c) for c in race.cars],
        "moves": [[car, move.target.x, move.target.y, *([move.action.value] if move.action
                                                          else [])]
                  for car, move in state.history],
        "result": result_data(state),
    }


def car_data(race: Race, car: CarSetup) -> dict[str, Any]:
    """One car's setup for the file; its kit written out whole wherever a kit counts, so the
    replay does not depend on how the shop chose it."""
    kit = starting_kit(race.rules, car)
    return {"name": car.name, "colour": car.colour, "driver": car.driver,
            **({"can-swim": True} if car.can_swim else {}),
            **({"reverse": True} if car.reverse else {}),
            **({"team": car.team} if car.team else {}),
            **({"budget": car.budget} if car.budget is not None else {}),
            **({"kit": kit.to_data()} if car.kit is not None or kit != Kit() else {})}


def save_replay(state: RaceState, path: str | os.PathLike[str]) -> None:
    """Write the race atomically (the file is either the old one or the new one, whole)."""
    atomic_write_text(path, dump_yaml(replay_data(state)))


@dataclass(frozen=True)
class Replay:
    """A loaded replay: the race's setup, its moves and the result it claims."""

    race: Race
    moves: tuple[tuple[int, Move], ...]
    result: dict[str, Any]
    track_hash_matches: bool
    file: str
    track_changed: bool = False  # the track file it names has changed since (embedded is used)

    def states(self):
        """Every state from the start, one after each move (re-simulated, so checked)."""
        state = self.race.start()
        yield state.clone()
        for number, (car, move) in enumerate(self.moves, start=1):
            self._apply(state, number, car, move)
            yield state.clone()

    def final_state(self) -> RaceState:
        state = self.race.start()
        for number, (car, move) in enumerate(self.moves, start=1):
            self._apply(state, number, car, move)
        return state

    def _apply(self, state: RaceState, number: int, car: int, move: Move) -> None:
        name = self.race.cars[car].name if 0 <= car < len(self.race.cars) else f"car {car}"
        if state.is_over:
            raise ReplayError(Problem(self.file, None, f"move {number} ({name} to "
                                                       f"{tuple(move.target)}): the race was "
                                                       "already over"))
        if state.current_car != car:
            expected = self.race.cars[state.current_car].name
            raise ReplayError(Problem(self.file, None, f"move {number} is {name}'s, but it is "
                                                       f"{expected}'s turn"))
        try:
            state.apply(move)
        except IllegalMoveError as exc:
            raise ReplayError(Problem(self.file, None, f"move {number} ({name} to "
                                                       f"{tuple(move.target)}"
                                                       f"{_with(move)}) is illegal: "
                                                       f"{exc}")) from None

    def verify(self) -> RaceState:
        """Re-simulate every move and compare the result; raise ``ReplayError`` if not equal."""
        state = self.final_state()
        recorded = self.result
        if recorded and (recorded.get("finished") or state.is_over):
            actual = result_data(state)
            for key in ("finished", "winner", "ranking", "turns", "reason", "cars"):
                if key == "cars" and "cars" not in recorded:
                    continue  # written before the cars were recorded
                if recorded.get(key) != actual.get(key):
                    raise ReplayError(Problem(
                        self.file, None, f"the recorded result does not match the moves: "
                                         f"{key} is {recorded.get(key)!r} in the file but "
                                         f"{actual.get(key)!r} when re-simulated"))
        return state


def _with(move: Move) -> str:
    return f" and {move.action.value}" if move.action else ""


def load_replay(path: str | os.PathLike[str]) -> Replay:
    """Read a replay file; every problem is a ``ReplayError`` naming the file (and line)."""
    doc = load_yaml(path, ReplayError, MAX_REPLAY_BYTES)
    data = doc.data
    file = str(path)

    def fail(where: tuple, message: str) -> ReplayError:
        return ReplayError(doc.problem(where, message))

    if not isinstance(data, dict):
        raise fail((), "a replay file must be a YAML mapping")
    if data.get(FORMAT_KEY) != FORMAT_VERSION:
        raise fail((FORMAT_KEY,), f"not a replay of format version {FORMAT_VERSION} "
                                  f"('{FORMAT_KEY}: {FORMAT_VERSION}' missing or different)")
    for key in ("track", "rules", "cars", "moves"):
        if key not in data:
            raise fail((), f"missing '{key}'")
    track_part = data["track"]
    if not isinstance(track_part, dict) or "data" not in track_part:
        raise fail(("track",), "'track' must hold the embedded track under 'data'")
    try:
        track = track_from_data(track_part["data"], f"{file} (embedded track)")
        rules = rules_from_data(data["rules"], f"{file} (embedded rules)")
    except (TrackError, RulesError) as exc:
        raise ReplayError(exc.problems) from None
    cars = data["cars"]
    if not isinstance(cars, list) or not cars:
        raise fail(("cars",), "'cars' must be a list of cars")
    setups = []
    for index, car in enumerate(cars):
        if not isinstance(car, dict) or not isinstance(car.get("name"), str):
            raise fail(("cars", index), "each car needs a 'name'")
        for flag in ("can-swim", "reverse"):
            if not isinstance(car.get(flag, False), bool):
                raise fail(("cars", index, flag), f"'{flag}' must be true or false")
        kit = None
        if "kit" in car:
            try:
                kit = Kit.from_data(car["kit"])
            except (TypeError, ValueError) as exc:
                raise fail(("cars", index, "kit"), str(exc)) from None
        budget = car.get("budget")
        if budget is not None and (isinstance(budget, bool) or not isinstance(budget, int)
                                   or budget < 0):
            raise fail(("cars", index, "budget"), "'budget' must be a whole number of dollars")
        setups.append(CarSetup(car["name"], str(car.get("colour", "red")),
                               str(car.get("driver", "human")), car.get("can-swim", False),
                               car.get("reverse", False), kit=kit, budget=budget,
                               team=str(car.get("team", ""))))
    names = [setup.name for setup in setups]
    if len(set(names)) != len(names):
        twice = next(name for name in names if names.count(name) > 1)
        raise fail(("cars",), f"two cars are named {twice!r}: every car needs its own name")
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise fail(("seed",), "'seed' must be a whole number")
    moves_data = data["moves"]
    if not isinstance(moves_data, list) or len(moves_data) > MAX_MOVES:
        raise fail(("moves",), f"'moves' must be a list of at most {MAX_MOVES} moves")
    moves = []
    actions = [a.value for a in Action]
    for number, entry in enumerate(moves_data, start=1):
        if (not isinstance(entry, list) or len(entry) not in (3, 4)
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in entry[:3])):
            raise fail(("moves", number - 1), f"move {number} must be [car, x, y] in whole "
                                              "numbers, or [car, x, y, action]")
        action = None
        if len(entry) == 4:
            if entry[3] not in actions:
                raise fail(("moves", number - 1, 3), f"move {number}: unknown action "
                                                     f"{entry[3]!r}; actions: "
                                                     f"{', '.join(actions)}")
            action = Action(entry[3])
        moves.append((entry[0], Move(Vec(entry[1], entry[2]), action)))
    result = data.get("result") if "result" in data else {}
    if not isinstance(result, dict):
        raise fail(("result",), "'result' must be a mapping")
    try:
        race = Race(track, rules, setups, seed)
    except ValueError as exc:
        raise fail(("cars",), str(exc)) from None
    recorded_hash = track_part.get("hash")
    return Replay(race, tuple(moves), result, recorded_hash == track_hash(track), file,
                  _track_changed(track_part.get("file"), recorded_hash))


def _track_changed(reference: Any, recorded_hash: Any) -> bool:
    """Whether the track file the replay names now differs from the one raced on."""
    if not isinstance(reference, str) or not reference:
        return False
    try:
        from racetrack.track import load_track

        current = load_track(reference)
    except (TrackError, OSError, ValueError):
        return False
    return track_hash(current) != recorded_hash
