"""A race's position as one line of text: its cars' positions and whose turn it is.

A race's position is its cars' positions (``racetrack.engine.position``, as ``racetrack solve
--position`` reads one) joined by `` / ``, then `` | `` and whose turn it is (an index into
the race's order) and the round: ``20,24 0,0 1 / 21,24 0,0 1 | 0 1``. Missiles, sprayed oil
and collectables taken are not part of it. It lives with the race, which holds the turns; a
car's position is the rules' own, which read one car at a time.
"""

from __future__ import annotations

from racetrack.engine.position import PositionError, car_position, parse_car_position, whole_number
from racetrack.games.race import Race, RaceState


def race_position(state: RaceState) -> str:
    """A race's position: every car's, then whose turn it is (an index into the race's
    order) and the round."""
    cars = " / ".join(car_position(car) for car in state.cars)
    return f"{cars} | {state.turn} {state.round}"


def parse_race_position(race: Race, text: str) -> RaceState:
    """The race state a race position string describes (for ``race``'s cars, in order)."""
    cars_text, _, turn_text = text.partition("|")
    parts = [p.strip() for p in cars_text.split("/")]
    if len(parts) != len(race.cars):
        raise PositionError(f"the race has {len(race.cars)} cars, the position {len(parts)}")
    start = race.start()
    cars = [parse_car_position(p, start.cars[i]) for i, p in enumerate(parts)]
    turn, round_ = 0, 1
    if turn_text.strip():
        numbers = turn_text.split()
        if len(numbers) != 2:
            raise PositionError(f"after '|' come the turn and the round, not {turn_text!r}")
        turn, round_ = (whole_number(n, "turn") for n in numbers)
        if not 0 <= turn < len(race.order):
            raise PositionError(f"turn {turn} is not one of the race's {len(race.order)} turns")
    return RaceState(race, cars, turn, round_, placed=True)
