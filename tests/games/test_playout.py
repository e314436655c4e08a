"""One loop plays a game out, and one rule seeds its computer players, wherever it runs."""

from __future__ import annotations

import json

import pytest

from racetrack.board.track import find_track, load_track
from racetrack.cli import main
from racetrack.engine.model import CarSetup
from racetrack.games.lineup import computer_line_up
from racetrack.games.playout import driver_seed, play_out, race_drivers, race_result, trees_players
from racetrack.games.race import Race
from racetrack.games.trees import TreesGame, load_tree_rules
from racetrack.rules import load_rules


def oval_race(levels, seed=4):
    return Race(load_track(find_track("oval")), load_rules("gardner"),
                computer_line_up(levels), seed=seed)


def test_each_seat_has_its_own_seed_from_the_game_seed():
    seeds = {driver_seed(game, seat) for game in range(50) for seat in range(8)}
    assert len(seeds) == 400
    drivers = race_drivers(oval_race(["easy", "medium"], seed=4))
    assert [d.seed for d in drivers.values()] == [driver_seed(4, 0), driver_seed(4, 1)]


def test_the_command_line_races_as_play_out_does(capsys):
    state = play_out(oval_race(["easy", "medium"]).start(),
                     race_drivers(oval_race(["easy", "medium"])))
    assert main(["race", "oval", "--rules", "gardner", "--driver", "easy", "--driver",
                 "medium", "--seed", "4", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == race_result(state)
    assert printed["cars"][0]["driver"] == "easy"


def test_play_out_plays_graph_trees_through_the_same_protocol():
    rules = load_tree_rules("levi")
    game = TreesGame(rules, TreesGame.default_players(["greedy"] * rules.players), seed=2)
    final = play_out(game.start(), trees_players(game))
    assert final.is_over and final.outcome is not None


def test_a_human_seat_is_named():
    race = Race(load_track(find_track("oval")), load_rules("gardner"),
                [*computer_line_up(["easy"]), CarSetup("Ann", "blue", "human")])
    with pytest.raises(KeyError, match="seat 1"):
        play_out(race.start(), race_drivers(race))
