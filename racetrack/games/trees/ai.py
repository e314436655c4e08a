"""The greedy computer player: the move that gains most now, by territory and then by reach.

Each legal placement is scored:

1. its exact change in the player's territory, times ten. Only a segment that ends on the
   sheet's edge can fence off a new face (any other adds a loose end to the tree), so only
   those are re-scored with the full territory count; for the rest the change is minus the
   territory points the segment itself covers;
2. the gain in *reach*: lattice points nearer (in moves of one square, diagonals included) to
   one of the player's nodes than to any other player's, which draws the tree out towards
   open paper and the others' side;
3. a small penalty for speed above two, so tracks stay steerable;
4. a seeded random tie-break, so equal moves vary between games but replay the same.

Agreeing to end: the player estimates what it could still gain by playing on alone, its own
greedy way, for ``HORIZON`` moves while the others pass (``prospects``). When that is nothing,
no move it can make changes the score by its estimate: it offers to end, and it accepts an
offer (another player has agreed) it cannot better. It also agrees when no placement scores
above zero at all.
"""

from __future__ import annotations

import random

import numpy as np

from racetrack.board.geometry import Vec
from racetrack.games.trees.game import TreesState
from racetrack.games.trees.model import Move, MoveKind
from racetrack.games.trees.territory import territory

TERRITORY_WEIGHT = 10.0
SPEED_PENALTY = 0.3
#: Own moves looked ahead when judging whether playing on can still change the score.
HORIZON = 8


class GreedyPlayer:
    """Seeded: the same seed and state give the same move, whatever happened before."""

    name = "greedy"

    def __init__(self, seed: int = 0):
        self.seed = seed

    def choose(self, state: TreesState) -> Move:
        moves = state.placements()
        if not moves:
            return Move(MoveKind.AGREE)
        scores = self.score(state, moves)
        rng = random.Random(f"{self.seed}:{len(state.history)}")
        jitter = np.array([rng.random() for _ in moves]) * 1e-3
        best = int(np.argmax(scores + jitter))
        if scores[best] <= 0:
            return Move(MoveKind.AGREE)
        if scores[best] < TERRITORY_WEIGHT and self.prospects(state) <= 0:
            return Move(MoveKind.AGREE)  # nothing to gain by its estimate: offer, or accept
        return moves[best]

    def prospects(self, state: TreesState) -> int:
        """Territory the player to move could still gain by its own estimate: the most its
        greedy play gains within ``HORIZON`` of its own moves, the others passing."""
        player = state.current
        trial = state.clone()
        start = trial.territory(player).score
        for _ in range(HORIZON):
            moves = trial.placements(player)
            if not moves:
                break
            scores = self.score(trial, moves)
            best = int(np.argmax(scores))
            if scores[best] <= 0:
                break
            trial.agreed = frozenset()
            trial.apply_unchecked(moves[best])
            gain = trial.territory(player).score - start
            if gain > 0:
                return gain
            trial.current, trial.outcome = player, None  # the others pass
        return 0

    def score(self, state: TreesState, moves: list[Move]) -> np.ndarray:
        """Each move's value to the player whose turn it is (higher is better)."""
        rules, player = state.rules, state.current
        width, height = rules.width, rules.height
        starts = np.array([_start_of(state, m) for m in moves], dtype=np.int64)
        ends = np.array([m.target for m in moves], dtype=np.int64)

        # 1. Territory.
        own = state.territory(player)
        base = own.score
        gain = np.zeros(len(moves))
        on_edge = ((ends[:, 0] == 0) | (ends[:, 0] == width) | (ends[:, 1] == 0)
                   | (ends[:, 1] == height))
        others = [s for i, s in enumerate(rules.starts) if i != player]
        segments = state.segments(player)
        for i in range(len(moves)):
            if on_edge[i]:
                new = (Vec(*starts[i].tolist()), Vec(*ends[i].tolist()))
                after = territory(width, height, [*segments, new],
                                  rules.starts[player], others)
                gain[i] = after.score - base
            else:
                gain[i] = -_covered(own.points, starts[i], ends[i])

        # 2. Reach: Chebyshev distance to the nearest node, own against the others'.
        ys, xs = np.mgrid[0:height + 1, 0:width + 1]
        grid = np.column_stack([xs.ravel(), ys.ravel()])
        mine = _nearest(grid, np.array(state.nodes(player)))
        theirs = np.full(len(grid), np.inf)
        for other in range(len(state.game.players)):
            if other != player:
                theirs = np.minimum(theirs, _nearest(grid, np.array(state.nodes(other))))
        before = np.count_nonzero(mine < theirs)
        reach = np.abs(ends[:, None, :] - grid[None, :, :]).max(axis=2)
        after = np.count_nonzero(np.minimum(mine[None, :], reach) < theirs[None, :], axis=1)

        # 3. Speed.
        speed = np.abs(ends - starts).max(axis=1)
        return (TERRITORY_WEIGHT * gain + (after - before)
                - SPEED_PENALTY * np.maximum(0, speed - 2))


def _start_of(state: TreesState, move: Move):
    return state.tracks[move.track].tip if move.kind is MoveKind.EXTEND else move.node


def _nearest(grid: np.ndarray, nodes: np.ndarray) -> np.ndarray:
    return np.abs(grid[:, None, :] - nodes[None, :, :]).max(axis=2).min(axis=1)


def _covered(points: np.ndarray, start: np.ndarray, end: np.ndarray) -> int:
    """How many territory points the segment start -> end runs through."""
    dx, dy = int(end[0] - start[0]), int(end[1] - start[1])
    steps = np.gcd(dx, dy)
    k = np.arange(steps + 1)
    xs, ys = start[0] + k * (dx // steps), start[1] + k * (dy // steps)
    return int(points[ys, xs].sum())


def make_player(kind: str, seed: int = 0) -> GreedyPlayer:
    """A computer player by name; ``greedy`` is the one there is."""
    if kind != "greedy":
        raise ValueError(f"unknown computer player {kind!r}; players: greedy")
    return GreedyPlayer(seed)
