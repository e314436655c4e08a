"""Move generation: every point a player's tracks might reach this turn, judged in one batch.

A candidate is a segment ``p -> q`` from a *source*: a track's tip (an extension, from the
track's velocity) or one of the player's nodes (a new track, from rest). All candidates of a
turn are tested against every segment on the paper at once: a bounding-box filter in numpy
picks the pairs that could meet, and one vectorised ``segments_touch`` decides them.

The rules, as written in ``docs/graph-trees.md``:

* the end ``q`` must be on the sheet (the edge counts);
* a segment may touch the paper's other segments only at its own start ``p``, and there only
  the player's own segments that end at ``p`` (a track's tip, a branch point); running along
  one of them (overlapping) is crossing it. So ``q`` is always a fresh lattice point that no
  track touches, and each player's tracks stay a tree;
* another player's segments, and another player's starting node, may not be touched at all;
* a new track may not leave its node in the direction any track already travels at that node
  (the direction a segment arrives in, or leaves in), compared as reduced vectors.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

import numpy as np

from racetrack.board.geometry import Vec, segments_touch


class Verdict(IntEnum):
    LEGAL = 0
    OFF_SHEET = 1
    SAME_DIRECTION = 2
    CROSSES_OWN = 3
    CROSSES_OTHER = 4


REASONS = {
    Verdict.LEGAL: "",
    Verdict.OFF_SHEET: "off the sheet",
    Verdict.SAME_DIRECTION: "a new track may not set off the way a track already runs here",
    Verdict.CROSSES_OWN: "it would touch or cross one of your own tracks",
    Verdict.CROSSES_OTHER: "it would touch or cross another player's track",
}


@dataclass(frozen=True)
class Paper:
    """Every segment drawn so far, as arrays, with its owner.

    A player's starting node is a segment of length zero, so nobody else may touch it even
    before its first track is drawn.
    """

    starts: np.ndarray  # (m, 2) float
    ends: np.ndarray    # (m, 2) float
    owners: np.ndarray  # (m,) int

    @classmethod
    def build(cls, roots: tuple[Vec, ...], segments: list[tuple[Vec, Vec, int]]) -> Paper:
        rows = [(r, r, i) for i, r in enumerate(roots)] + segments
        starts = np.array([a for a, _, _ in rows], dtype=float).reshape(-1, 2)
        ends = np.array([b for _, b, _ in rows], dtype=float).reshape(-1, 2)
        owners = np.array([o for _, _, o in rows], dtype=np.int64)
        return cls(starts, ends, owners)


def direction_codes(vectors: np.ndarray) -> np.ndarray:
    """One integer per vector for its reduced direction (for fast set membership)."""
    v = np.asarray(vectors, dtype=np.int64).reshape(-1, 2)
    divisor = np.gcd(v[:, 0], v[:, 1])
    divisor[divisor == 0] = 1
    d = v // divisor[:, None]
    return (d[:, 0] + 512) * 1024 + (d[:, 1] + 512)


def judge(paper: Paper, player: int, width: int, height: int, starts: np.ndarray,
          ends: np.ndarray, same_direction: np.ndarray | None = None) -> np.ndarray:
    """A ``Verdict`` per candidate segment ``starts[i] -> ends[i]`` of ``player``.

    ``same_direction`` marks the new tracks' candidates that set off the way a track already
    runs at their node.
    """
    n = len(starts)
    verdict = np.zeros(n, dtype=np.int64)
    if n == 0:
        return verdict
    p, q = np.asarray(starts, float), np.asarray(ends, float)
    off = (q[:, 0] < 0) | (q[:, 0] > width) | (q[:, 1] < 0) | (q[:, 1] > height)
    verdict[off] = Verdict.OFF_SHEET
    if same_direction is not None:
        verdict[~off & same_direction] = Verdict.SAME_DIRECTION
    # Pairs whose bounding boxes meet: only those can touch.
    a, b = paper.starts, paper.ends
    lo_c, hi_c = np.minimum(p, q), np.maximum(p, q)
    lo_s, hi_s = np.minimum(a, b), np.maximum(a, b)
    near = ((lo_c[:, None, 0] <= hi_s[None, :, 0]) & (hi_c[:, None, 0] >= lo_s[None, :, 0])
            & (lo_c[:, None, 1] <= hi_s[None, :, 1]) & (hi_c[:, None, 1] >= lo_s[None, :, 1]))
    ci, si = np.nonzero(near)
    touch = segments_touch(p[ci], q[ci], a[si], b[si])
    ci, si = ci[touch], si[touch]
    if len(ci) == 0:
        return verdict
    pc, qc, sa, sb = p[ci], q[ci], a[si], b[si]
    own = paper.owners[si] == player
    at_a = np.all(sa == pc, axis=1)
    at_b = np.all(sb == pc, axis=1)
    other = np.where(at_a[:, None], sb, sa) - pc  # the segment's far end, seen from p
    step = qc - pc
    cross = other[:, 0] * step[:, 1] - other[:, 1] * step[:, 0]
    along = (cross == 0) & (np.einsum("ij,ij->i", other, step) > 0)
    harmless = own & (at_a | at_b) & ~along
    bad = ~harmless
    worst = np.zeros(n, dtype=np.int64)
    np.maximum.at(worst, ci[bad], np.where(own[bad], Verdict.CROSSES_OWN,
                                           Verdict.CROSSES_OTHER))
    hit = (verdict == Verdict.LEGAL) & (worst > 0)
    verdict[hit] = worst[hit]
    return verdict
