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


CORRIDOR = """
    outer: [[0, 0], [40, 0], [40, 6], [0, 6]]
    start: {a: [2, 0], b: [2, 6], forward: [1, 0]}
    finish: {a: [36, 0], b: [36, 6], forward: [1, 0]}
"""


def bond_race(cars=("Ann", "Bob"), extra="", variant="baker-bond", budget=None, kits=None):
    import textwrap

    from racetrack.game import Race
    from racetrack.model import CarSetup
    from racetrack.rules import load_rules
    from tests.conftest import make_track

    kits = kits or {}
    setups = [CarSetup(name, kit=kits.get(name), budget=budget) for name in cars]
    return Race(make_track(textwrap.dedent(CORRIDOR) + textwrap.dedent(extra)),
                load_rules(variant), setups)


def test_firing_while_stopping_does_not_blow_up_the_car_and_the_missile_flies():
    from racetrack.geometry import Vec
    from racetrack.model import Action, EventKind, Kit, Missile, Move

    state = bond_race(kits={"Ann": Kit(missiles=1, damage=5, money=45)}).start()
    state.place(0, Vec(5, 3), Vec(1, 0))
    state.place(1, Vec(5, 1), Vec(0, 0))
    events = state.apply(Move(Vec(5, 3), Action.MISSILE))  # fire and stop
    assert not any(e.kind is EventKind.MISSILE_HIT for e in events)
    assert state.cars[0].damage == 0
    assert state.missiles == [Missile(0, Vec(8, 3), Vec(3, 0))]  # flew at once: 3 east


def test_drivers_do_not_fire_into_their_own_car_or_drive_onto_a_missile():
    from racetrack.ai import make_driver
    from racetrack.geometry import Vec
    from racetrack.model import Action, Kit, Missile

    state = bond_race(kits={"Ann": Kit(missiles=1, turbo=1, damage=5, money=35)}).start()
    state.place(0, Vec(5, 3), Vec(1, 0))
    state.place(1, Vec(8, 3), Vec(0, 0))  # a rival where the missile lands
    driver = make_driver("expert", 1)

    def worth(target):
        candidate = next(c for c in state.candidates() if c.target == Vec(*target))
        return driver._worth(state, candidate, Action.MISSILE)

    assert worth((5, 3))  # fire and stop: the missile flies on to Bob
    assert not worth((8, 3))  # turbo onto Bob's point: the missile would hit Ann too
    # A rival's missile lying on a point: no driver ends its move there.
    state.place(1, Vec(5, 1), Vec(0, 0))
    state.missiles.append(Missile(1, Vec(7, 3), Vec(0, 0)))
    move = driver.choose(state)
    assert move.target != Vec(7, 3)


def test_without_a_shop_championship_money_accumulates():
    from racetrack.championship import Championship, Entrant, run_headless

    series = Championship("baker-teams", ["oval", "oval"],
                          [Entrant("Red", "red", "expert"), Entrant("Blue", "blue", "easy")],
                          seed=3)
    run_headless(series)
    prizes = {name: sum(r["prizes"][name] + r["kept"][name] for r in series.results)
              for name in ("Red", "Blue")}
    assert series.money == prizes and sum(prizes.values()) == 2 * (30 + 20)


def test_a_car_that_is_out_scores_no_points_and_no_prize():
    from dataclasses import replace

    from racetrack.championship import Championship, Entrant
    from racetrack.model import CarStatus

    series = Championship("baker-teams", ["oval"],
                          [Entrant("Red", "red", "easy"), Entrant("Blue", "blue", "easy")])
    state = series.next_race().start()
    state.set_car(1, replace(state.cars[1], status=CarStatus.OUT, out_round=1))
    state.over = True
    result = series.record(state)
    assert result["ranking"] == ["Red", "Blue"]
    assert series.points == {"Red": 3, "Blue": 0} and series.money == {"Red": 30, "Blue": 0}


def test_kits_are_checked_under_rules_without_a_shop_and_money_against_the_budget():
    from racetrack.model import MAX_MONEY, CarSetup, Kit
    from racetrack.rules import load_rules
    from racetrack.shop import check_kit, suggested_kit

    advanced, bond = load_rules("baker-advanced"), load_rules("baker-bond")
    assert check_kit(advanced, CarSetup("Ann", kit=Kit(brakes=2, turbo=2))) is None
    assert check_kit(advanced, CarSetup("Ann")) is None
    for kit in (Kit(brakes=2, turbo=2, missiles=1), Kit(brakes=9, turbo=2),
                Kit(brakes=2, turbo=2, money=50), Kit(brakes=2, turbo=2, damage=5)):
        assert "standard kit" in check_kit(advanced, CarSetup("Ann", kit=kit))
    assert "no shop" in check_kit(advanced, CarSetup("Ann", budget=500))
    bought = suggested_kit(bond, 100)
    assert check_kit(bond, CarSetup("Ann", kit=bought)) is None
    rich = Kit(**{**bought.__dict__, "money": bought.money + 1000})
    assert "more than" in check_kit(bond, CarSetup("Ann", kit=rich))
    assert "budget" in check_kit(bond, CarSetup("Ann", budget=100 + MAX_MONEY + 1))
    with pytest.raises(ValueError, match="standard kit"):
        bond_race(variant="baker-advanced", kits={"Ann": Kit(brakes=2, turbo=2, guns=3)})


def test_a_replay_with_two_cars_of_one_name_is_refused(tmp_path):
    import yaml

    from racetrack.errors import ReplayError
    from racetrack.replay import load_replay, replay_data

    state = bond_race(cars=("Ann", "Bob")).start()
    data = replay_data(state)
    data["cars"][1]["name"] = "Ann"
    path = tmp_path / "twice.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    with pytest.raises(ReplayError, match="two cars are named 'Ann'"):
        load_replay(path)


def test_a_resumed_championship_race_must_have_the_kits_the_series_gives():
    from dataclasses import replace

    from racetrack.championship import Championship, Entrant
    from racetrack.model import Kit
    series = Championship("baker-bond", ["oval"],
                          [Entrant("Ann", "red", "easy"), Entrant("Bob", "blue", "easy")])
    assert series.is_next_race(series.next_race())
    cars = series.next_cars()
    richer = [replace(cars[0], budget=5000, kit=Kit(damage=99, money=4505)), cars[1]]
    assert not series.is_next_race(series.next_race(richer))
    armed = [cars[0], replace(cars[1], kit=Kit(missiles=3, money=10))]
    assert not series.is_next_race(series.next_race(armed))


def test_a_special_move_into_the_wall_spends_its_use():
    from racetrack.geometry import Vec
    from racetrack.model import Kit, MoveKind

    state = bond_race(variant="baker-advanced").start()
    state.place(0, Vec(3, 3), Vec(0, 2))  # turbo: 4 south, through the wall at y = 6
    crash = next(c for c in state.candidates()
                 if c.kind is MoveKind.CRASH and c.note == "turbo")
    before = state.cars[0].kit
    state.apply(crash.move)
    assert state.cars[0].kit == Kit(brakes=before.brakes, turbo=before.turbo - 1)


def test_championship_save_does_not_create_missing_folders(tmp_path, capsys):
    from racetrack.cli import main

    target = tmp_path / "no" / "such" / "series.yaml"
    assert main(["championship", "--tracks", "oval", "--rules", "baker-teams", "--driver",
                 "easy", "--save", str(target)]) != 0
    assert not (tmp_path / "no").exists()
    assert "cannot save" in capsys.readouterr().err


def test_a_car_that_went_out_scores_no_team_points_in_the_race_results():
    from racetrack.model import CarSetup, team_standings

    cars = [CarSetup("A", team="Red"), CarSetup("B", team="Blue"), CarSetup("C", team="Red")]
    assert team_standings(cars, (0, 1, 2)) == [("Red", 4), ("Blue", 2)]
    assert team_standings(cars, (0, 1, 2), out=frozenset({2})) == [("Red", 3), ("Blue", 2)]
