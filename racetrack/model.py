"""The values a race is made of: cars, moves, candidates, events and the outcome.

All are frozen dataclasses or string enums, so they compare, hash, print readably and can be
shared between states without copying.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from racetrack.geometry import ZERO, Vec


class CarStatus(StrEnum):
    RACING = "racing"
    FINISHED = "finished"
    OUT = "out"


class MoveKind(StrEnum):
    """What a candidate move does, beyond going to its point."""

    DRIVE = "drive"          # an ordinary move on the track
    COLLISION = "collision"  # onto another car (only when the rules allow it)
    CRASH = "crash"          # into the wall: the crash rules apply
    LEAVE = "leave"          # off the track, where the rules allow driving off it
    OFF = "off"              # from off the track to another point off it
    RETURN = "return"        # from off the track back onto it
    PLACE = "place"          # before the start: taking a point on the start line


class EventKind(StrEnum):
    MOVED = "moved"
    SKIDDED = "skidded"
    CRASHED = "crashed"
    COLLIDED = "collided"
    DAMAGED = "damaged"
    LEFT_TRACK = "left-track"
    BACK_ON_TRACK = "back-on-track"
    CHECKPOINT = "checkpoint"
    LAP = "lap"
    FINISHED = "finished"
    OUT = "out"
    MISSED_TURN = "missed-turn"
    STUCK = "stuck"
    PLACED = "placed"
    PIT_STOP = "pit-stop"
    NEEDS_PIT = "needs-pit"
    RACE_OVER = "race-over"


@dataclass(frozen=True)
class CarSetup:
    """A car as the players set it up before the race."""

    name: str
    colour: str = "red"
    driver: str = "human"
    can_swim: bool = False
    reverse: bool = False  # races the circuit the other way round (where the rules allow)

    @property
    def is_human(self) -> bool:
        return self.driver == "human"


@dataclass(frozen=True)
class FinishRecord:
    """When and how a car crossed the finish: for ranking cars that finish in the same round."""

    round: int
    turn_position: int  # its place in the round's order of moving
    fraction: float     # where along its finishing move it met the line
    past: float         # how far beyond the line it ended


@dataclass(frozen=True)
class CarState:
    """Everything about one car that changes during a race."""

    position: Vec
    velocity: Vec = ZERO
    progress: int = 1
    damage: int = 0
    status: CarStatus = CarStatus.RACING
    missed_turns: int = 0
    off_track: bool = False
    exit_distance: float | None = None
    finish: FinishRecord | None = None
    out_round: int | None = None
    moves: int = 0
    pitted: bool = False  # has made its pit stop (where the rules require one)
    launch: bool = False  # braked to a full stop last move: may launch (Pope's rule)

    @property
    def racing(self) -> bool:
        return self.status is CarStatus.RACING


@dataclass(frozen=True)
class Move:
    """A player's choice for a turn: the lattice point the car goes to."""

    target: Vec

    def __post_init__(self) -> None:
        object.__setattr__(self, "target", Vec(int(self.target[0]), int(self.target[1])))

    def __str__(self) -> str:
        return f"{self.target.x},{self.target.y}"

    @classmethod
    def parse(cls, text: str) -> Move:
        """A move from ``"x,y"`` (what ``str`` gives)."""
        x, _, y = text.partition(",")
        return cls(Vec(int(x), int(y)))


@dataclass(frozen=True)
class Candidate:
    """One point the current car might go to this turn, with the rules' verdict on it."""

    target: Vec
    velocity: Vec
    legal: bool
    kind: MoveKind = MoveKind.DRIVE
    reason: str = ""
    unchanged: bool = False  # the last move repeated exactly: the "no change" point
    note: str = ""  # a special move's name: "power braking", "launch", ...

    @property
    def move(self) -> Move:
        return Move(self.target)


@dataclass(frozen=True)
class Event:
    """Something that happened in a race, for the log, the HUD and tests."""

    kind: EventKind
    car: int | None
    message: str
    position: Vec | None = None
    amount: int = 0


@dataclass(frozen=True)
class Outcome:
    """How a race ended: the ranking of car indexes (best first), the winner and why."""

    ranking: tuple[int, ...]
    winner: int | None
    reason: str
    rounds: int
