"""The values a game of Graph Trees is made of: tracks, moves, candidates and the outcome.

All are frozen dataclasses or string enums, so states can share them without copying, and a
move prints as the text a saved game stores (``Move.parse(str(move)) == move``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from racetrack.base.errors import RacetrackError
from racetrack.board.geometry import Vec


class MoveKind(StrEnum):
    EXTEND = "extend"  # one more segment on an existing track, from its velocity
    BRANCH = "branch"  # a new track from a node, as from a standing start
    PASS = "pass"      # leave the paper as it is this turn
    AGREE = "agree"    # pass and agree to end the game now


class Termination(StrEnum):
    NO_MOVES = "no player can move"
    AGREED = "the players agreed to end"
    TURN_LIMIT = "the turn limit was reached"


@dataclass(frozen=True)
class Track:
    """One line of a player's tree: the nodes it has run through, in order.

    Its velocity is its last segment; the next extension of this track starts from that.
    """

    owner: int
    nodes: tuple[Vec, ...]

    @property
    def tip(self) -> Vec:
        return self.nodes[-1]

    @property
    def velocity(self) -> Vec:
        return self.nodes[-1] - self.nodes[-2]

    def extended(self, point: Vec) -> Track:
        return Track(self.owner, (*self.nodes, point))


@dataclass(frozen=True)
class Move:
    """One turn's action. ``track`` is set for an extension, ``node`` for a branch."""

    kind: MoveKind
    target: Vec | None = None
    track: int | None = None
    node: Vec | None = None

    @classmethod
    def extend(cls, track: int, target: tuple[int, int]) -> Move:
        return cls(MoveKind.EXTEND, Vec(*target), track=track)

    @classmethod
    def branch(cls, node: tuple[int, int], target: tuple[int, int]) -> Move:
        return cls(MoveKind.BRANCH, Vec(*target), node=Vec(*node))

    @property
    def places(self) -> bool:
        """True for moves that draw a segment (extend or branch)."""
        return self.kind in (MoveKind.EXTEND, MoveKind.BRANCH)

    def __str__(self) -> str:
        if self.kind is MoveKind.EXTEND:
            return f"extend {self.track} to {self.target.x},{self.target.y}"
        if self.kind is MoveKind.BRANCH:
            return (f"branch {self.node.x},{self.node.y} to "
                    f"{self.target.x},{self.target.y}")
        return self.kind.value

    @classmethod
    def parse(cls, text: str) -> Move:
        """The move a text such as ``"branch 10,20 to 11,19"`` names; ``ValueError`` if none."""
        words = text.strip()
        if words in (MoveKind.PASS.value, MoveKind.AGREE.value):
            return cls(MoveKind(words))
        point = r"(-?\d{1,6}),(-?\d{1,6})"
        found = re.fullmatch(rf"extend (\d{{1,6}}) to {point}", words)
        if found:
            track, x, y = map(int, found.groups())
            return cls.extend(track, (x, y))
        found = re.fullmatch(rf"branch {point} to {point}", words)
        if found:
            nx, ny, x, y = map(int, found.groups())
            return cls.branch((nx, ny), (x, y))
        raise RacetrackError(f"not a move: {text!r} (expected 'extend T to X,Y', "
                             "'branch X,Y to X,Y', 'pass' or 'agree')")


@dataclass(frozen=True)
class Candidate:
    """A point a source (a track's tip, or a node to branch from) could go to, and the verdict."""

    move: Move
    legal: bool
    reason: str = ""

    @property
    def target(self) -> Vec:
        return self.move.target  # type: ignore[return-value]


@dataclass(frozen=True)
class Outcome:
    """How the game ended: why, every player's territory, the winner (None for a tie) and the
    ranking (most territory first; equal scores keep the seating order)."""

    termination: Termination
    scores: tuple[int, ...]
    winner: int | None
    ranking: tuple[int, ...]

    @property
    def reason(self) -> str:
        """Why the game ended, in words (as a race's outcome says it)."""
        return self.termination.value

    @classmethod
    def from_scores(cls, termination: Termination, scores: tuple[int, ...]) -> Outcome:
        ranking = tuple(sorted(range(len(scores)), key=lambda i: (-scores[i], i)))
        best = scores[ranking[0]]
        winner = ranking[0] if sum(s == best for s in scores) == 1 else None
        return cls(termination, scores, winner, ranking)
