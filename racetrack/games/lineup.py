"""Line-ups: the cars of a race, made from who is playing.

The window (the New race screen, the editor's test race, the championship screens) and the
command line (``racetrack play``, ``race`` and ``championship``) set races up here, so a line-up
means the same wherever it is chosen: the players' choices become cars, cars given the same name
under team racing become one team's numbered cars, and computer drivers named only by their
level get the pencil colours in order. The next race of a championship, and finding it again
when it was interrupted, is the championship's own (``Championship.next_race``,
``Championship.is_next_race``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from racetrack.base.settings import PlayerChoice
from racetrack.engine.model import CarSetup
from racetrack.rules import RuleSet

#: The pencils computer drivers named by level race in, in order ("Red", "Blue", ...).
CAR_COLOURS = ("red", "blue", "green", "orange", "purple", "black", "brown", "pink")


def team_cars(rules: RuleSet, cars: Sequence[CarSetup]) -> list[CarSetup]:
    """Team racing: a car keeps the team chosen for it; cars given the same name are one
    player's (or one team's) cars, numbered to tell them apart, and without a chosen team that
    name is their team. Rules that do not score teams have none (rear guns would otherwise
    spare team-mates)."""
    if rules.teams_scoring == "none":
        return [replace(car, team="") for car in cars]
    counts: dict[str, int] = {}
    for car in cars:
        counts[car.name] = counts.get(car.name, 0) + 1
    seen: dict[str, int] = {}
    named = []
    for car in cars:
        seen[car.name] = seen.get(car.name, 0) + 1
        name = f"{car.name} {seen[car.name]}" if counts[car.name] > 1 else car.name
        named.append(replace(car, name=name, team=car.team or car.name))
    return named


def line_up(rules: RuleSet, players: Sequence[PlayerChoice]) -> list[CarSetup]:
    """The cars for the players chosen (on the New race screen, or with ``--players``)."""
    return team_cars(rules, [CarSetup(p.name, p.colour, p.driver, reverse=p.reverse,
                                      team=p.team_name) for p in players])


def computer_line_up(levels: Sequence[str], reverse: Sequence[int] = ()) -> list[CarSetup]:
    """Computer drivers of the given levels, named after their pencils ("Red", "Blue", ...);
    ``reverse`` numbers (from 1) the cars that race a circuit the other way round."""
    if len(levels) > len(CAR_COLOURS):
        raise ValueError(f"at most {len(CAR_COLOURS)} drivers")
    for number in reverse:
        if not 1 <= number <= len(levels):
            raise ValueError(f"--reverse {number}: there is no car {number}; the cars are "
                             f"numbered 1 to {len(levels)}")
    return [CarSetup(colour.title(), colour, level, reverse=number in reverse)
            for number, (colour, level) in enumerate(zip(CAR_COLOURS, levels, strict=False), 1)]
