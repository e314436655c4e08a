"""Regression tests for the review of Baker's advanced rules, James Bond mode and
championships."""

from __future__ import annotations

import pytest

from racetrack.championship import ChampionshipError, load_championship

BASE = """racetrack-championship: 1
rules: baker-bond
tracks: [oval, oval]
seed: 1
entrants:
- {name: Red, colour: red, driver: medium}
- {name: Blue, colour: blue, driver: easy}
"""
MANY = "".join(f"- {{name: X{i}, colour: red, driver: easy}}\n" for i in range(20))


@pytest.mark.parametrize("text", [
    BASE.replace("seed: 1", "seed: .inf"),
    BASE + "points: {Red: .inf}\n",
    BASE + "money: {Red: .inf}\n",
    BASE + "money: {Red: -500}\n",
    BASE + "money: {Red: 100000000}\n",
    BASE + "money: {Red: 1.9}\n",
    BASE + "money: {Ghost: 5}\n",
    BASE + "money: 100000000\n",
    BASE + "points: true\n",
    BASE + "points: {Red: true}\n",
    BASE.replace("driver: easy", "driver: wizard"),
    BASE + MANY,
    BASE + "results: [hello]\n",
    BASE + "results: [{}]\n",
    BASE + "results: [{track: oval, ranking: [Ghost], prizes: {}, kept: {}}]\n",
    BASE + "results: [{track: oval, ranking: [Red], prizes: {Red: -1}, kept: {}}]\n",
    BASE.replace("[oval, oval]", "[nosuch]"),
    BASE.replace("[oval, oval]", "oval"),
    BASE.replace("name: Blue", "name: 5"),
    BASE + "overrides: [1, 2]\n",
    BASE.replace("racetrack-championship: 1", "racetrack-championship: true"),
])
def test_a_hostile_championship_file_is_one_damaged_file_error(tmp_path, text):
    path = tmp_path / "championship.yaml"
    path.write_text(text)
    with pytest.raises(ChampionshipError, match="championship file"):
        load_championship(path)


def test_a_sound_championship_file_still_loads(tmp_path):
    path = tmp_path / "championship.yaml"
    path.write_text(BASE + "money: {Red: 40}\npoints: {Red: 3, Blue: 2}\nresults:\n"
                    "- {track: oval, ranking: [Red, Blue], prizes: {Red: 30, Blue: 20},\n"
                    "   kept: {Red: 10, Blue: 0}}\n")
    series = load_championship(path)
    assert series.money == {"Red": 40, "Blue": 0} and series.race_number == 2


def test_a_collectable_past_the_item_cap_is_clamped_not_a_crash():
    import textwrap

    from racetrack.game import Race
    from racetrack.geometry import Vec
    from racetrack.model import MAX_ITEMS, CarSetup, Kit, Move
    from racetrack.rules import load_rules
    from tests.conftest import make_track

    track = make_track(textwrap.dedent("""
        outer: [[0, 0], [40, 0], [40, 6], [0, 6]]
        start: {a: [2, 0], b: [2, 6], forward: [1, 0]}
        finish: {a: [36, 0], b: [36, 6], forward: [1, 0]}
        collectables:
          - {kind: dime, at: [6, 3]}
          - {kind: penny, at: [7, 3]}
    """))
    from dataclasses import replace

    state = Race(track, load_rules("baker-advanced"), [CarSetup("Ann")]).start()
    state.place(0, Vec(4, 3), Vec(3, 0))
    # Kits this large only come from many collectables (or a script).
    state.set_car(0, replace(state.cars[0], kit=Kit(damage=MAX_ITEMS - 2, turbo=MAX_ITEMS)))
    state.apply(Move(Vec(7, 3)))
    assert state.cars[0].kit.damage == MAX_ITEMS and state.cars[0].kit.turbo == MAX_ITEMS
