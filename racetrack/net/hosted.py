"""A game as the server holds it, and the referee's verdict on a proposed move.

A hosted game is a race's setup written as a replay writes it (the track whole, every rule
option, the cars, the seed), its seats (a human's with the hash of its token, or a computer's
with its level), the time each move may take and what happens when it runs out, and the
``RaceState`` its moves made. The setup is read back through the replay's own reader
(``racetrack.replay``), so a track or rule set a client sends is checked exactly as a file a
player hands the game, and an exported game is a replay that ``racetrack replay --verify``
accepts. The seed is the server's: the lots for the order of play are drawn from it when the
race is set up (``racetrack.game.Race``), and it is recorded with the setup.

``judge`` is the referee: a move without the seat's token, in a finished game, for a turn that
is not the next one (stale), out of turn, or illegal is refused with a code and a sentence (the
engine's own for an illegal move), and nothing changes.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from racetrack.errors import FileProblemError
from racetrack.game import Race, RaceState
from racetrack.lineup import CAR_COLOURS
from racetrack.model import Action, Move
from racetrack.net.codes import same_hash, secret_hash
from racetrack.net.protocol import ProtocolError
from racetrack.replay import FORMAT_KEY, FORMAT_VERSION, replay_data, replay_from_document
from racetrack.yamlio import YamlDocument

#: The largest seed the server draws.
MAX_SEED = 10**9


@dataclass(frozen=True)
class Seat:
    """One seat of a game: ``index`` is its car's index in the setup (seat ``index + 1`` to
    players); a human's seat is held by whoever has its token."""

    index: int
    kind: str  # "human" or "computer"
    level: str | None = None  # a computer seat's driver
    token_hash: str = ""

    @property
    def number(self) -> int:
        return self.index + 1


@dataclass(frozen=True)
class TimeRule:
    """How long a human seat may think about a move (``None``: as long as it likes), and what
    the server does when the time is up: play that move with a computer driver of ``level``,
    or (``drop``) retire the car."""

    move_time: float | None = None
    on_timeout: str = "computer"
    level: str = "medium"


@dataclass(frozen=True)
class MoveRecord:
    """A move as stored: its number in the game (from 0), the seat's car index, the move as
    text, who made it (``player``, ``computer``, ``timeout``) and when (Unix seconds)."""

    number: int
    seat: int
    move: str
    by: str = "player"
    at: float = 0.0


class SetupError(ProtocolError):
    """A new game cannot be set up as asked (the reason names the problem)."""

    def __init__(self, reason: str):
        super().__init__("bad-setup", reason)


def _bundled_track_data(name: str) -> dict[str, Any]:
    from racetrack.track import bundled_track_paths, load_track, track_to_data

    for path in bundled_track_paths():
        if path.stem == name:
            return track_to_data(load_track(path))
    names = ", ".join(p.stem for p in bundled_track_paths())
    raise SetupError(f"no bundled track is named {name[:64]!r}; send the track itself, or "
                     f"one of: {names}")


def _bundled_rules_data(name: str) -> dict[str, Any]:
    from racetrack.rules import bundled_variant_names, load_rules

    if name not in bundled_variant_names():
        raise SetupError(f"no bundled rule set is named {name[:64]!r}; send the rules "
                         f"themselves, or one of: {', '.join(bundled_variant_names())}")
    return load_rules(name).to_data()


def new_setup(message: dict[str, Any], seed: int | None = None) -> dict[str, Any]:
    """The setup of a game a ``create`` message asks for (checked already for its shape by
    ``protocol.create_fields``): bundled names resolved, cars named and coloured by seat."""
    track = message["track"]
    rules = message["rules"]
    cars = []
    taken: set[str] = set()
    for index, seat in enumerate(message["seats"]):
        colour = CAR_COLOURS[index % len(CAR_COLOURS)]
        name = seat.get("name") or (colour.title() if seat["kind"] == "computer"
                                    else f"Player {index + 1}")
        base, extra = name, 2
        while name in taken:
            name, extra = f"{base} {extra}", extra + 1
        taken.add(name)
        cars.append({"name": name, "colour": colour,
                     "driver": seat["level"] if seat["kind"] == "computer" else "human",
                     **({"team": seat["team"]} if seat.get("team") else {})})
    return {"track": {"data": _bundled_track_data(track) if isinstance(track, str) else track},
            "rules": _bundled_rules_data(rules) if isinstance(rules, str) else rules,
            "seed": secrets.randbelow(MAX_SEED) if seed is None else seed,
            "cars": cars}


def race_of(setup: dict[str, Any], where: str = "the game's setup") -> Race:
    """The race a setup describes, read as a replay file is read (every value checked);
    ``SetupError`` with the first problem otherwise."""
    document = {FORMAT_KEY: FORMAT_VERSION, **setup, "moves": [],
                "result": {"finished": False}}
    try:
        return replay_from_document(YamlDocument(document, where)).race
    except FileProblemError as exc:
        raise SetupError(exc.problems[0].message) from None
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise SetupError(f"{where} cannot be read: {exc}") from None


def setup_of(race: Race) -> dict[str, Any]:
    """A race's setup as a replay writes it (what the server stores and sends)."""
    data = replay_data(race.start())
    return {key: data[key] for key in ("track", "rules", "seed", "cars")}


@dataclass
class HostedGame:
    """A game the server serves: its setup, seats, time rule and the state its moves made."""

    id: int
    race: Race
    seats: tuple[Seat, ...]
    time: TimeRule
    watch_hash: str
    created: float
    state: RaceState = field(init=False)
    records: list[MoveRecord] = field(default_factory=list)
    setup: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.state = self.race.start()

    # -- reading -----------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.state.is_over

    @property
    def number(self) -> int:
        """The number of the next move (the moves made so far)."""
        return len(self.state.history)

    def seat_of(self, token: str) -> Seat | None:
        """The human seat a token holds, or ``None``."""
        wanted = secret_hash(token)
        found = None
        for seat in self.seats:  # every seat compared, in constant time each
            if seat.token_hash and same_hash(seat.token_hash, wanted):
                found = seat
        return found

    @property
    def current_seat(self) -> Seat | None:
        car = self.state.current_car
        return None if car is None else self.seats[car]

    @property
    def turn_started(self) -> float:
        return self.records[-1].at if self.records else self.created

    @property
    def deadline(self) -> float | None:
        """When the seat to move runs out of time (``None``: no limit, or a computer's turn)."""
        seat = self.current_seat
        if seat is None or seat.kind != "human" or self.time.move_time is None:
            return None
        return self.turn_started + self.time.move_time

    def name(self, index: int) -> str:
        return self.race.cars[index].name

    def turn(self, now: float) -> dict[str, Any] | None:
        """Whose turn it is, as the protocol tells it: the seat, the move's number, the
        deadline and time left, and the moves the engine allows (so a bot needs no engine of
        its own)."""
        seat = self.current_seat
        if seat is None:
            return None
        deadline = self.deadline
        state = self.state
        return {"seat": seat.number, "name": self.name(seat.index), "number": self.number,
                "deadline": deadline,
                "left": None if deadline is None else max(0.0, round(deadline - now, 3)),
                "legal": [str(move) for move in state.legal_moves()],
                "actions": [action.value for action in state.actions()],
                "steering": state.steering is not None}

    def cars(self) -> list[dict[str, Any]]:
        """Where every car is, for clients without an engine."""
        return [{"seat": i + 1, "name": self.name(i), "at": list(car.position),
                 "velocity": list(car.velocity), "status": car.status.value,
                 "damage": car.damage}
                for i, car in enumerate(self.state.cars)]

    def seat_list(self, present: set[int]) -> list[dict[str, Any]]:
        return [{"seat": seat.number, "name": self.name(seat.index), "kind": seat.kind,
                 **({"level": seat.level} if seat.level else {}),
                 "present": seat.kind == "computer" or seat.index in present}
                for seat in self.seats]

    # -- the referee ---------------------------------------------------------------------------

    def judge(self, seat: Seat | None, number: int, move: Move) -> tuple[str, str] | None:
        """Why the move is refused (code, sentence), or ``None`` if it is to be played."""
        state = self.state
        if seat is None:
            return "token", "that token holds no seat in this game"
        if state.is_over:
            return "over", "the race is over"
        if number != self.number:
            return "stale", (f"move {number} is not the next one: {self.number} moves have "
                             "been made (catch up and move again)")
        if state.current_car != seat.index:
            current = state.current_car
            return "turn", (f"it is {self.name(current)}'s turn, not "
                            f"{self.name(seat.index)}'s")
        reason = state.check(move)
        if reason is not None:
            return "illegal", reason
        return None

    def play(self, record: MoveRecord) -> list:
        """Apply a move already judged (or stored): the engine checks it again."""
        events = self.state.apply(Move.parse(record.move))
        self.records.append(record)
        return events

    def retirement(self) -> Move:
        """The move that retires the car to move (a seat that drops out)."""
        car = self.state.current_car
        assert car is not None
        return Move(self.state.cars[car].position, Action.RETIRE)

    def replay(self) -> dict[str, Any]:
        """The game so far as a replay file's data."""
        return replay_data(self.state)
