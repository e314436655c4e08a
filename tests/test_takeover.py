"""Taking over a recorded game: the chosen seats become human from that point, the others stay
computer players, and the new game re-plays the moves so far."""

from __future__ import annotations

import pytest

from racetrack.game import Race
from racetrack.lineup import computer_line_up
from racetrack.playout import play_out, race_drivers, trees_players
from racetrack.rules import load_rules
from racetrack.takeover import take_over
from racetrack.track import find_track, load_track
from racetrack.trees import TreesGame, load_tree_rules


def test_a_race_is_taken_over_by_the_cars_chosen():
    race = Race(load_track(find_track("oval")), load_rules("gardner"),
                computer_line_up(["expert", "easy", "hard"]), seed=6)
    final = play_out(race.start(), race_drivers(race))
    state = race.start()
    for _, move in final.history[:7]:
        state.apply(move)
    new, resumed = take_over(race, state, {0, 2})
    assert [car.driver for car in new.cars] == ["human", "easy", "human"]
    assert (new.track, new.rules, new.seed) == (race.track, race.rules, race.seed)
    assert resumed.history == state.history and resumed.cars == state.cars
    assert set(race_drivers(new)) == {1}
    assert [car.driver for car in race.cars] == ["expert", "easy", "hard"]  # left alone


def test_a_game_of_graph_trees_is_taken_over_too():
    rules = load_tree_rules("levi")
    game = TreesGame(rules, TreesGame.default_players(["greedy", "greedy"]), seed=3)
    state = game.start()
    players = trees_players(game)
    for _ in range(4):
        state.apply(players[state.current_player].choose(state))
    new, resumed = take_over(game, state, [1])
    assert [p.is_human for p in new.players] == [False, True]
    assert resumed.history == state.history and set(trees_players(new)) == {0}


def test_nothing_to_take_over():
    race = Race(load_track(find_track("oval")), load_rules("gardner"),
                computer_line_up(["easy"]), seed=1)
    with pytest.raises(ValueError, match="at least one"):
        take_over(race, race.start(), [])
    with pytest.raises(ValueError, match="no seat 3"):
        take_over(race, race.start(), [3])
    final = play_out(race.start(), race_drivers(race))
    with pytest.raises(ValueError, match="over"):
        take_over(race, final, [0])
