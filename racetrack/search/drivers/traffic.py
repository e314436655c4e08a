"""Driving among other cars: who gives way when two cars stand in each other's way, and which
moves one car could shut.

The drivers' table is a lone car's; these questions add the other cars. A car is *held up*
when the best of its moves, by the table, is refused only because another car stands on the
point (``Refusal.OCCUPIED`` or an avoidable collision). Two cars holding each other up (head on
in a one-lane passage) would wait for ever if both waited, so both drivers work out the same
answer from the same state: the car with more turns to go gives way, the other waits for it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from racetrack.board.geometry import ZERO, Vec
from racetrack.engine.model import Candidate, Refusal
from racetrack.engine.movement import CHANGES
from racetrack.search.drivers.view import RaceView
from racetrack.search.solver import UNSOLVED

#: Refusals that only another car's point makes.
BLOCKED = frozenset({Refusal.OCCUPIED, Refusal.AVOIDABLE_COLLISION})

#: Turns to go of each candidate, for one car (the driver's table, as that car sees it).
Valuer = Callable[[int, list[Candidate]], list[int]]


@dataclass(frozen=True)
class HoldUp:
    """Car ``index`` would rather be at ``wished`` (where car ``by`` stands): ``to_go`` turns
    to go by that move, ``loss`` turns more by the best move it is allowed."""

    index: int
    by: int
    wished: Vec
    to_go: int
    loss: int


def hold_up(state: RaceView, index: int, candidates: Sequence[Candidate],
            value: Valuer) -> HoldUp | None:
    """How another car holds car ``index`` up, if it does."""
    legal = [c for c in candidates if c.legal]
    blocked = [c for c in candidates if not c.legal and c.refusal in BLOCKED]
    if not blocked:
        return None
    values = value(index, legal + blocked)
    best_legal = min(values[:len(legal)], default=UNSOLVED)
    wishes = values[len(legal):]
    best = min(wishes)
    if best >= best_legal or best >= UNSOLVED:
        return None
    wished = blocked[wishes.index(best)].target
    by = next((j for j, car in enumerate(state.cars)
               if j != index and car.racing and car.position == wished), None)
    if by is None:
        return None
    return HoldUp(index, by, wished, best, best_legal - best if best_legal < UNSOLVED else 1)


def gives_way(state: RaceView, mine: HoldUp, value: Valuer) -> bool:
    """Whether the current car, held up as ``mine``, should give way: the car in its way is
    held up by it in turn and the current car has further to go (or as far, and moves later
    in the order). The other car, asking the same question on its turn, gets the other
    answer, so one waits and one gives way."""
    theirs = hold_up(state, mine.by, state.candidates_for(mine.by), value)
    if theirs is None or theirs.by != mine.index:
        return False  # it will move on: wait for it
    order = state.race.order
    return (mine.to_go, order.index(mine.index)) > (theirs.to_go, order.index(theirs.index))


def giving_way(options: Sequence[Candidate], here: Vec) -> list[int]:
    """The options that clear the way: every move but standing still."""
    return [i for i, c in enumerate(options) if not (c.target == here and c.velocity == ZERO)]


def reachable_points(state: RaceView, index: int, near: Vec, radius: int) -> list[set[Vec]]:
    """For each other racing car within ``radius`` squares of ``near``, the points its next
    move could end on by the rules' ordinary choices (where it would go unchanged, and the
    points around that): enough to say whether it could take a point first."""
    changes = CHANGES[state.race.rules.movement_choices]
    found = []
    for j, car in enumerate(state.cars):
        if j == index or not car.racing or car.missed_turns:
            continue
        ahead = car.position + car.velocity
        if max(abs(ahead.x - near.x), abs(ahead.y - near.y)) > radius:
            continue
        found.append({ahead + change for change in changes})
    return found
