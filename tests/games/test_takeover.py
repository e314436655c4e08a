"""Taking over a recorded game: the chosen seats become human from that point, the others stay
computer players, and the new game re-plays the moves so far."""

from __future__ import annotations

import pytest

from racetrack.board.track import find_track, load_track
from racetrack.engine.model import CarSetup, Handover
from racetrack.games.lineup import computer_line_up
from racetrack.games.playout import play_out, race_drivers, trees_players
from racetrack.games.race import Race
from racetrack.games.takeover import take_over
from racetrack.games.trees import TreesGame, load_tree_rules
from racetrack.rules import load_rules


def test_a_race_is_taken_over_by_the_cars_chosen():
    race = Race(load_track(find_track("oval")), load_rules("gardner"),
                computer_line_up(["expert", "easy", "hard"]), seed=6)
    final = play_out(race.start(), race_drivers(race))
    state = race.start()
    for _, move in final.history[:7]:
        state.apply(move)
    new, resumed = take_over(race, state, {0, 2})
    assert [car.driver for car in new.cars] == ["human", "easy", "human"]
    # Human only from the take-over: who drove each car before is kept, and when it changed.
    assert [car.handover for car in new.cars] == [Handover("expert", 7), None,
                                                  Handover("hard", 7)]
    assert [new.cars[0].driver_at(m) for m in (0, 6, 7, 30)] == ["expert", "expert",
                                                                 "human", "human"]
    assert not new.cars[0].human_all_along and new.cars[1].driver_at(3) == "easy"
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


def test_a_taken_over_race_is_saved_with_its_hand_over_and_verifies(tmp_path):
    """The replay says the car was the computer's until the take-over, a person's after;
    it re-simulates like any other, and a race nobody took over is written as before."""
    from racetrack.games.replay import load_replay, replay_data, save_replay

    race = Race(load_track(find_track("oval")), load_rules("gardner"),
                computer_line_up(["expert", "easy"]), seed=2)
    final = play_out(race.start(), race_drivers(race))
    assert replay_data(final)["racetrack-replay"] == 3  # nothing new: readable as ever
    state = race.start()
    for _, move in final.history[:5]:
        state.apply(move)
    new, resumed = take_over(race, state, {1})
    for _, move in final.history[5:]:  # the person happens to drive as the computer would
        resumed.apply(move)
    path = tmp_path / "taken.yaml"
    save_replay(resumed, path)
    data = replay_data(resumed)
    assert data["racetrack-replay"] == 4
    assert data["cars"][1]["driver"] == "human"
    assert data["cars"][1]["taken-over"] == {"from": "easy", "after-moves": 5}
    assert "taken-over" not in data["cars"][0]
    replay = load_replay(path)
    assert replay.race.cars[1].handover == Handover("easy", 5)
    assert replay.verify().outcome == resumed.outcome


def test_a_time_trial_taken_over_from_a_computer_is_no_record():
    from racetrack.games.records import is_time_trial

    race = Race(load_track(find_track("oval")), load_rules("gardner"),
                [CarSetup("Solo", "red", "hard")], seed=1)
    state = race.start()
    state.apply(state.legal_moves()[0])
    taken, _ = take_over(race, state, {0})
    assert not is_time_trial(taken)
    from_the_start, _ = take_over(race, race.start(), {0})
    assert is_time_trial(from_the_start) and from_the_start.cars[0].handover is None
