"""Choosing a candidate point from the keyboard, for players without a mouse or a keypad.

Two ways, both ending in a ``Move`` the core then checks:

- the keypad's digits, or the same digits on the top row of a laptop's keyboard, laid out like
  the grid round the point the unchanged move leads to (5 is that point, 8 one square up);
- the arrow keys or W, A, S and D, which move a highlight from point to point in their
  direction (the first press from the unchanged move's point), and Enter or Space to go there.
"""

from __future__ import annotations

from collections.abc import Iterable

from racetrack.game import RaceState
from racetrack.geometry import Vec

#: The keypad's digits (and the top row's), as steps from the unchanged move's point (y down).
DIGITS = {"7": (-1, -1), "8": (0, -1), "9": (1, -1),
          "4": (-1, 0), "5": (0, 0), "6": (1, 0),
          "1": (-1, 1), "2": (0, 1), "3": (1, 1)}
KEYPAD = {**{f"numpad{digit}": step for digit, step in DIGITS.items()}, **DIGITS}
#: The keys that move the highlight, and their directions on the screen (y down).
ARROWS = {"left": (-1, 0), "right": (1, 0), "up": (0, -1), "down": (0, 1),
          "a": (-1, 0), "d": (1, 0), "w": (0, -1), "s": (0, 1)}
#: The keys that go to the highlighted point.
CONFIRM = ("enter", "space")


def base_point(state: RaceState) -> Vec:
    """Where the current car's (or its missile's) unchanged move leads: the keypad's 5 and
    the first arrow press's starting place. A car crawling back from off the track moves
    round the point it stands on."""
    index = state.current_car
    assert index is not None
    missile = state.steering
    if missile is not None:
        return missile.position + missile.velocity
    car = state.cars[index]
    if car.off_track and state.race.rules.leaving_track == "crawl":
        return car.position
    return car.position + car.velocity


def keypad_target(state: RaceState, key: str) -> Vec | None:
    """The point a keypad (or top-row) digit names, or ``None`` for another key."""
    step = KEYPAD.get(key)
    return None if step is None else base_point(state) + step


def step_towards(points: Iterable[Vec], at: Vec, direction: tuple[int, int]) -> Vec | None:
    """The point a press of an arrow moves the highlight to from ``at``: the nearest point
    within 45 degrees of the arrow's direction (one straight along it first, then the one
    least to the side); ``None`` when there is none that way."""
    dx, dy = direction
    best: tuple[tuple[int, int, int, int], Vec] | None = None
    for point in points:
        vx, vy = point.x - at.x, point.y - at.y
        along = vx * dx + vy * dy
        aside = abs(vx * dy - vy * dx)
        if along <= 0 or aside > along:
            continue
        rank = (along + 2 * aside, aside, point.y, point.x)
        if best is None or rank < best[0]:
            best = (rank, point)
    return best[1] if best is not None else None


def first_choice(points: list[Vec], base: Vec, direction: tuple[int, int] | None) -> Vec:
    """The highlight's first place in a turn: from the unchanged move's point in the arrow's
    direction (the point itself when nothing lies that way, or for Enter); where that point is
    not among the candidates, the candidate nearest it."""
    if direction is not None:
        found = step_towards(points, base, direction)
        if found is not None:
            return found
    if base in points:
        return base
    return min(points, key=lambda p: ((p.x - base.x) ** 2 + (p.y - base.y) ** 2, p.y, p.x))
