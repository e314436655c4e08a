"""Every number of the rules is an option: a house rule is a YAML edit (``base: baker-bond``
and the one number changed), and the engine reads it."""

from __future__ import annotations

import textwrap
from dataclasses import replace

from racetrack.board.geometry import Vec
from racetrack.cli import main
from racetrack.engine.model import Action, CarSetup, CarStatus, Kit, Move, team_standings
from racetrack.engine.moves import power_brakes
from racetrack.engine.shop import can_buy, check_kit
from racetrack.games.race import Race
from racetrack.rules import rules_from_text
from tests.conftest import make_track

CORRIDOR = """
    outer: [[0, 0], [40, 0], [40, 6], [0, 6]]
    start: {a: [2, 0], b: [2, 6], forward: [1, 0]}
    finish: {a: [36, 0], b: [36, 6], forward: [1, 0]}
"""


def house(base, text):
    return rules_from_text(f"base: {base}\n" + textwrap.dedent(text))


def solo(rules, kit, extra=""):
    """Ann (with ``kit`` where the rules have a shop) and Bob parked out of the way."""
    bob = Kit(damage=20) if kit is not None else None
    race = Race(make_track(textwrap.dedent(CORRIDOR) + textwrap.dedent(extra)), rules,
                [CarSetup("Ann", kit=kit), CarSetup("Bob", kit=bob)])
    state = race.start()
    state.place(1, Vec(20, 5))
    return state


def test_shop_prices():
    rules = house("baker-bond", "prices: {damage: 10, missiles: 50}")
    assert Kit(damage=2, missiles=1).cost(rules.prices()) == 70
    assert check_kit(rules, CarSetup("Ann", kit=Kit(damage=11))) is not None
    assert not can_buy(rules, Kit(damage=6, money=40), 100, "missiles")


def test_missile_damage_and_boost():
    rules = house("baker-bond", "gadgets: {missile-damage: 5, missile-boost: 3}")
    state = solo(rules, Kit(missiles=1, damage=9))
    state.place(0, Vec(5, 3), Vec(3, 0))
    state.place(1, Vec(11, 3))
    state.apply(Move(Vec(8, 2), Action.MISSILE))
    boosted = [c.target for c in state.candidates() if c.note.value == "turbo"]
    assert Vec(11, 3) in boosted and Vec(10, 3) in boosted  # 3 east boosted by 2 or 3
    state.apply(Move(Vec(11, 3), missile=True))  # its owner steers it 3 + 3 = 6 east
    assert state.cars[1].damage == 5


def test_the_sprayer_s_slick_size():
    rules = house("baker-bond", "gadgets: {oil-size: 5}")
    state = solo(rules, Kit(sprayers=1, damage=9))
    state.place(0, Vec(10, 3), Vec(2, 0))
    state.apply(Move(Vec(12, 3), Action.OIL))
    (x0, y0), _, (x1, y1), _ = state.oil[0]
    assert (x1 - x0, y1 - y0) == (5, 5) and x1 == 11.5  # its edge half a square behind


def test_collectable_values():
    rules = house("baker-advanced", "pickups: {penny: 4, dime: 1}")
    coins = """
        collectables:
        - {kind: penny, at: [5, 3]}
        - {kind: dime, at: [6, 3]}
    """
    state = solo(rules, None, coins)
    state.place(0, Vec(4, 3), Vec(2, 0))
    state.apply(Move(Vec(6, 3)))
    assert (state.cars[0].kit.turbo, state.cars[0].kit.damage) == (2 + 4, 1)


def test_good_brakes_reach():
    rules = house("baker-advanced", "equipment: {brakes-reach: 3}")
    state = solo(rules, None)
    state.place(0, Vec(5, 3), Vec(4, 0))
    special = {tuple(c.velocity) for c in state.candidates() if c.note == "good brakes"}
    assert (1, 0) in special and (2, 0) in special


def test_turbo_and_boosters_reach():
    rules = house("baker-bond", "equipment: {turbo-reach: 3, boosters-reach: 4}")
    state = solo(rules, Kit(turbo=1, boosters=1, damage=9))
    state.place(0, Vec(5, 3), Vec(2, 0))
    special = {tuple(c.velocity): c.note.value for c in state.candidates() if c.note}
    assert special[(5, 0)] == "turbo" and special[(6, 0)] == "rocket boosters"
    assert (7, 0) not in special


def test_power_braking_limit():
    rules = house("gordon", "movement: {power-braking-limit: 3}")
    assert power_brakes(Vec(6, 0), rules.movement_power_braking_limit) == [
        Vec(5, 0), Vec(4, 0), Vec(3, 0)]
    state = Race(make_track(CORRIDOR), rules, [CarSetup("Ann")]).start()
    state.place(0, Vec(5, 3), Vec(6, 0))
    assert Vec(3, 0) in {c.velocity for c in state.candidates() if c.legal}


def test_the_crawl_s_step():
    rules = house("levi", "crawl-step: 2")
    state = Race(make_track(CORRIDOR), rules, [CarSetup("Ann")]).start()
    car = state.cars[0]
    state.set_car(0, replace(car, position=Vec(10, 7), velocity=Vec(0, 1), off_track=True))
    assert len(state.candidates()) == 24  # every point up to two squares away


def test_team_points_and_prizes():
    rules = house("baker-teams", "teams: {first: 5, second: 3, third: 0}\n"
                                 "prizes: {first: 100}")
    cars = (CarSetup("A", team="Red"), CarSetup("B", team="Blue"), CarSetup("C", team="Red"))
    assert team_standings(cars, (0, 1, 2), points_by_place=rules.team_points) == [
        ("Red", 5), ("Blue", 3)]
    assert rules.prize_money == (100, 20, 10)


def test_a_championship_pays_the_rules_prizes_and_points(tmp_path):
    from racetrack.games.championship import Championship, Entrant, run_headless

    path = tmp_path / "house.yaml"
    path.write_text("base: baker\nprizes: {first: 70, second: 0}\nteams: {first: 5}\n")
    series = Championship(str(path), ["riddler-opolis"],
                          [Entrant("Ann", "red", "expert"), Entrant("Bob", "blue", "easy")],
                          seed=3)
    (state,) = run_headless(series)
    winner, second = series.results[0]["ranking"]
    assert state.cars[state.outcome.ranking[0]].status is not CarStatus.OUT
    assert series.results[0]["prizes"] == {winner: 70, second: 0}
    assert series.points[winner] == 5


def test_racetrack_rules_documents_each_number_with_its_source(capsys):
    assert main(["rules", "baker-bond"]) == 0
    text = capsys.readouterr().out
    for key in ("prices.guns", "gadgets.missile-damage", "pickups.dime", "teams.first",
                "prizes.first", "crawl-step", "equipment.boosters-reach",
                "movement.power-braking-limit", "movement.first-move", "blocked"):
        assert key in text, key
    assert "3 points of damage" in text and "Rear-shooting" in text
