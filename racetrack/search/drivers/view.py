"""What a computer driver reads of a race: its setup and its state, as two protocols.

The drivers sit below the games. They choose a move from what a race shows them and never
change the race, so they read it through these protocols, which ``racetrack.games.race``'s
``Race`` and ``RaceState`` keep (``tests/search/drivers/test_view.py`` checks that they do).
A driver that needs something more of the race adds it here first, where the one place says
all a driver may know.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from racetrack.board.course import Course
from racetrack.engine.model import Action, Candidate, CarSetup, CarState, Missile, Move
from racetrack.rules.ruleset import RuleSet


@runtime_checkable
class RaceSetupView(Protocol):
    """A race's fixed setup, as a driver reads it."""

    rules: RuleSet
    cars: tuple[CarSetup, ...]
    order: tuple[int, ...]  # the cars' indexes in the order they move

    def course_of(self, index: int) -> Course:
        """The course car ``index`` races (a circuit raced in reverse is a course of its own)."""
        ...


@runtime_checkable
class RaceView(Protocol):
    """A race's state, as a driver reads it."""

    race: RaceSetupView
    cars: Sequence[CarState]
    still: Sequence[int]  # per car, the turns running it has stood still (standoffs end)

    @property
    def current_car(self) -> int | None:
        """The car whose turn it is (``None`` once the race is over)."""
        ...

    @property
    def placing(self) -> bool:
        """Whether the cars are still choosing their start points."""
        ...

    @property
    def missiles(self) -> Sequence[Missile]:
        """The missiles in flight."""
        ...

    @property
    def steering(self) -> Missile | None:
        """The missile the current car's player moves now, or ``None`` for the car's move."""
        ...

    def candidates(self) -> list[Candidate]:
        """The current car's candidate points, legal or not."""
        ...

    def candidates_for(self, index: int) -> list[Candidate]:
        """Car ``index``'s candidate points as if it were its turn now."""
        ...

    def actions(self) -> list[Action]:
        """What the current car may do this turn besides moving (fire a missile, spray oil)."""
        ...

    def action_problem(self, move: Move, candidate: Candidate) -> str | None:
        """Why the move's action cannot go with it, or ``None`` when it can."""
        ...

    def damage_limit(self, index: int) -> int | None:
        """The most damage car ``index`` survives (``None``: no limit)."""
        ...
