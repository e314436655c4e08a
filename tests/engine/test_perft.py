"""Move counts per depth (perft) from fixed positions, for every variant, as kept in files.

The counts in ``tests/data/perft/`` were written by ``tools/perft.py``; the transition must
still give them, and the game's own moves (clone and apply) must give them too.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from racetrack.engine.model import Move
from racetrack.engine.position import parse_car_position
from racetrack.games.race import RaceState
from racetrack.rules import bundled_variant_names
from tools.perft import count, solo_race

FOLDER = Path(__file__).parents[1] / "data" / "perft"


def cases(variant: str) -> list[dict]:
    return yaml.safe_load((FOLDER / f"{variant}.yaml").read_text())["positions"]


def test_every_variant_has_its_counts():
    assert sorted(p.stem for p in FOLDER.glob("*.yaml")) == bundled_variant_names()


@pytest.mark.parametrize("variant", bundled_variant_names())
def test_the_transition_gives_the_kept_counts(variant):
    for case in cases(variant):
        depth = len(case["counts"])
        assert count(variant, case["track"], case["position"], depth) == case["counts"], case


def game_perft(state: RaceState, depth: int) -> int:
    """The same count by the game: every legal move applied to a copy of the race."""
    if depth == 0:
        return 1
    total = 0
    for move in state.legal_moves():
        after = state.clone()
        after.apply(Move(move.target))
        total += game_perft(after, depth - 1)
    return total


@pytest.mark.parametrize("variant", bundled_variant_names())
def test_the_game_gives_the_same_counts(variant):
    for case in cases(variant)[::3]:
        race = solo_race(variant, case["track"])
        car = parse_car_position(case["position"], race.start().cars[0])
        state = RaceState(race, [car])
        assert [game_perft(state, d) for d in (1, 2)] == case["counts"][:2], case
