"""The velocities a car may choose: the movement options' changes and the special moves.

Pure functions of a velocity, used by the transition (``racetrack.engine.transition``) for every
batch of states; nothing here knows the track.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np

from racetrack.board.geometry import Vec
from racetrack.engine.model import Special

#: Changes to the last move that each movement option allows.
CHANGES: dict[str, tuple[Vec, ...]] = {
    "plus": (Vec(0, 0), Vec(1, 0), Vec(-1, 0), Vec(0, 1), Vec(0, -1)),
    "square": tuple(Vec(dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1)),
    "square-24": tuple(Vec(dx, dy) for dy in (-2, -1, 0, 1, 2) for dx in (-2, -1, 0, 1, 2)),
}
#: A crawling car's single steps (Levi's rule 5): one square in any direction.
CRAWL_STEPS = tuple(Vec(dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy)
#: How far each special move reaches by default (``equipment.*-reach``): Baker's good brakes
#: and turbo two squares, rocket boosters three.
REACHES = (2, 2, 3)
#: The special moves a car's kit pays for: which, its direction, and how far a component may
#: change. In this order a move that a cheaper special (or an ordinary change) reaches is
#: never offered again.
SPECIALS = ((Special.GOOD_BRAKES, "slower", 2), (Special.TURBO, "faster", 2),
            (Special.BOOSTERS, "faster", 3))


def crawl_steps(step: int = 1) -> tuple[Vec, ...]:
    """A crawling car's moves (``crawl-step``): any point up to ``step`` squares away in
    each component, staying put excepted."""
    return tuple(Vec(dx, dy) for dy in range(-step, step + 1) for dx in range(-step, step + 1)
                 if dx or dy)


def specials(reaches: tuple[int, int, int] = REACHES) -> tuple[tuple[Special, str, int], ...]:
    """``SPECIALS`` with the rules' reaches for good brakes, turbo and rocket boosters."""
    return tuple((special, direction, reach)
                 for (special, direction, _), reach in zip(SPECIALS, reaches, strict=True))


def power_brakes(velocity: Vec, limit: int = 2) -> list[Vec]:
    """Tom Gordon's power braking: shorter moves along the same line as ``velocity``, each
    component dropping by at most ``limit`` (two; beyond what the ordinary changes allow or
    not)."""
    if velocity.is_zero:
        return []
    g = math.gcd(abs(velocity.x), abs(velocity.y))
    ux, uy = velocity.x // g, velocity.y // g
    found = []
    for k in range(g - 1, 0, -1):
        if (g - k) * max(abs(ux), abs(uy)) > limit:
            break
        found.append(Vec(k * ux, k * uy))
    return found


def power_brake_arrays(vx: np.ndarray, vy: np.ndarray, limit: int = 2,
                       ) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """``power_brakes`` for arrays of velocities, in the same order: for each drop (the
    first, the second, ... up to ``limit``), (rows that have it, its x, its y)."""
    g = np.gcd(np.abs(vx), np.abs(vy))
    safe = np.maximum(g, 1)
    ux, uy = vx // safe, vy // safe
    unit = np.maximum(np.abs(ux), np.abs(uy))
    found = []
    for drop in range(1, limit + 1):
        k = g - drop
        rows = np.flatnonzero((g > 0) & (k >= 1) & (drop * unit <= limit))
        found.append((rows, k[rows] * ux[rows], k[rows] * uy[rows]))
    return found


def special_velocities(velocity: Vec, choices: str, direction: str, reach: int) -> list[Vec]:
    """Moves that good brakes, turbo or rocket boosters make possible from ``velocity``.

    Under the plus movement (Baker) one component changes, as usual, but by ``reach`` squares
    (or anything between the ordinary change and that): toward zero for "slower", never past
    it (so 3 east brakes to 1 east), away from zero for "faster" (a component at rest may go
    either way). Under the square movements each component may change as usual, or by up to
    ``reach - 1`` squares more than the usual most in the special's direction. The list may
    include ordinary moves; the caller keeps only the new ones.
    """
    step = max(abs(c.x) for c in CHANGES[choices])
    far = step + reach - 1

    def stretched(c: int) -> list[int]:
        sign = (c > 0) - (c < 0)
        if direction == "slower":
            return [c - k * sign for k in range(step + 1, min(far, abs(c)) + 1)] if c else []
        if c == 0:
            return [k * s for k in range(step + 1, far + 1) for s in (1, -1)]
        return [c + k * sign for k in range(step + 1, far + 1)]

    found: list[Vec] = []
    if choices == "plus":
        for x in stretched(velocity.x):
            found.append(Vec(x, velocity.y))
        for y in stretched(velocity.y):
            found.append(Vec(velocity.x, y))
        return found
    xs = [velocity.x + d for d in range(-step, step + 1)]
    ys = [velocity.y + d for d in range(-step, step + 1)]
    for x in xs + stretched(velocity.x):
        for y in ys + stretched(velocity.y):
            found.append(Vec(x, y))
    return found


def special_reach(choices: str, reaches: tuple[int, int, int] = REACHES) -> int:
    """How far from its own value a component may be made by any special move."""
    step = max(abs(c.x) for c in CHANGES[choices])
    return step + max(reaches) - 1


def component_class(c: np.ndarray, choices: str,
                    reaches: tuple[int, int, int] = REACHES) -> np.ndarray:
    """Velocity components grouped so that every special move's offsets depend only on the
    group: the sign, and the size up to one more than any special reaches."""
    cap = special_reach(choices, reaches) + 1
    return np.sign(c) * np.minimum(np.abs(c), cap)


@cache
def special_offsets(choices: str, cx: int, cy: int, reaches: tuple[int, int, int] = REACHES,
                    ) -> tuple[tuple[Special, tuple[Vec, ...]], ...]:
    """For a velocity whose components fall in classes (``cx``, ``cy``): each special move's
    changes to it, in order, without those an ordinary change or an earlier special makes."""
    velocity = Vec(cx, cy)
    seen = {velocity + c for c in CHANGES[choices]}
    found = []
    for special, direction, reach in specials(reaches):
        offsets = []
        for w in special_velocities(velocity, choices, direction, reach):
            if w not in seen:
                seen.add(w)
                offsets.append(w - velocity)
        found.append((special, tuple(offsets)))
    return tuple(found)
