"""Positions you can write down: a car's state as one line of text.

As chess's FEN does for a board, a car's position holds everything the rules read for its next
move, in a line a player can type into a bug report or ``racetrack solve --position``::

    20,24 0,0 1                    at rest on (20, 24), progress 1 (a standing start)
    31,5 4,-2 3 pit dmg=2          moving, pit stop made, two damage
    12,30 1,1 2 off@41.6           off the track (Nystrom), left 41.6 squares from the finish
    12,30 1,1 0 off@41.6 lost=1    the same, having gone back round the end of a line since
    8,3 -2,0 1 launch kit=1/2/0    may launch (Pope); good brakes 1, turbo 2, boosters 0
    14,6 2,0 1 areas=5             checkpoint areas 1 and 3 passed (bits 0 and 2)

The first three fields are the point, the velocity and the progress (lines passed); then, in
any order, ``pit``, ``launch``, ``off`` (``off@D`` with the distance to go where it left),
``lost=N`` (off the track on a detour: lines un-passed round their ends since it left, which
it may pass again), ``dmg=N``, ``miss=N`` (turns still to miss), ``kit=B/T/R``, ``areas=N`` (the
checkpoint areas passed this lap, area k as bit k), ``out`` and ``finished``.

A whole race's position, its cars' positions and whose turn it is, is the race's own
(``racetrack.games.race_position``): the rules read a car, the race holds the turns.
"""

from __future__ import annotations

import re
from dataclasses import replace

from racetrack.base.errors import RacetrackError
from racetrack.board.geometry import Vec
from racetrack.engine.model import CarState, CarStatus, Kit

_PAIR = re.compile(r"^(-?\d+),(-?\d+)$")


class PositionError(RacetrackError):
    """A position string that cannot be read; the message says which part and why."""


def car_position(car: CarState) -> str:
    """A car's state as a position string (see the module's description)."""
    parts = [f"{car.position.x},{car.position.y}", f"{car.velocity.x},{car.velocity.y}",
             str(car.progress)]
    if car.pitted:
        parts.append("pit")
    if car.launch:
        parts.append("launch")
    if car.off_track:
        parts.append("off" if car.exit_distance is None else f"off@{car.exit_distance:g}")
        if car.lines_lost:
            parts.append(f"lost={car.lines_lost}")
    if car.damage:
        parts.append(f"dmg={car.damage}")
    if car.missed_turns:
        parts.append(f"miss={car.missed_turns}")
    kit = car.kit
    if kit.brakes or kit.turbo or kit.boosters:
        parts.append(f"kit={kit.brakes}/{kit.turbo}/{kit.boosters}")
    if car.areas:
        parts.append(f"areas={car.areas}")
    if car.status is CarStatus.OUT:
        parts.append("out")
    elif car.status is CarStatus.FINISHED:
        parts.append("finished")
    return " ".join(parts)


def parse_car_position(text: str, base: CarState | None = None) -> CarState:
    """A car's state from a position string. What the string does not hold (money, gadgets,
    a finish record) is taken from ``base``, if given."""
    fields = text.split()
    if len(fields) < 3:
        raise PositionError(f"a car's position needs a point, a velocity and a progress "
                            f"('x,y vx,vy progress'), not {text!r}")
    point = _pair(fields[0], "point")
    velocity = _pair(fields[1], "velocity")
    progress = whole_number(fields[2], "progress")
    car = base or CarState(position=point)
    changes: dict = {"position": point, "velocity": velocity, "progress": progress,
                     "pitted": False, "launch": False, "off_track": False,
                     "exit_distance": None, "lines_lost": 0, "damage": 0, "missed_turns": 0,
                     "areas": 0,
                     "status": CarStatus.RACING}
    kit = car.kit
    for field in fields[3:]:
        name, _, value = field.partition("=")
        if field == "pit":
            changes["pitted"] = True
        elif field == "launch":
            changes["launch"] = True
        elif field == "off" or field.startswith("off@"):
            changes["off_track"] = True
            if field.startswith("off@"):
                try:
                    changes["exit_distance"] = float(field[4:])
                except ValueError:
                    raise PositionError(f"'off@' needs a distance, not {field[4:]!r}") from None
        elif name == "lost":
            changes["lines_lost"] = whole_number(value, "lost")
        elif name == "dmg":
            changes["damage"] = whole_number(value, "dmg")
        elif name == "miss":
            changes["missed_turns"] = whole_number(value, "miss")
        elif name == "areas":
            changes["areas"] = whole_number(value, "areas")
        elif name == "kit":
            uses = value.split("/")
            if len(uses) != 3:
                raise PositionError(f"'kit=' needs brakes/turbo/boosters, not {value!r}")
            brakes, turbo, boosters = (whole_number(u, "kit") for u in uses)
            kit = replace(kit, brakes=brakes, turbo=turbo, boosters=boosters)
        elif field in ("out", "finished"):
            changes["status"] = CarStatus.OUT if field == "out" else CarStatus.FINISHED
        else:
            raise PositionError(f"unknown part {field!r} of a car's position; parts: pit, "
                                "launch, off, off@D, lost=N, dmg=N, miss=N, kit=B/T/R, areas=N, "
                                "out, finished")
    try:
        return replace(car, kit=kit if isinstance(kit, Kit) else Kit(), **changes)
    except ValueError as error:
        raise PositionError(str(error)) from None


def _pair(text: str, what: str) -> Vec:
    found = _PAIR.match(text)
    if not found:
        raise PositionError(f"the {what} must be two whole numbers 'x,y', not {text!r}")
    return Vec(int(found.group(1)), int(found.group(2)))


def whole_number(text: str, what: str) -> int:
    """A whole number of a position (``what`` names it in the error); none is negative but a
    progress."""
    try:
        value = int(text)
    except ValueError:
        raise PositionError(f"{what} must be a whole number, not {text!r}") from None
    if what != "progress" and value < 0:
        raise PositionError(f"{what} must not be negative, not {value}")
    return value
