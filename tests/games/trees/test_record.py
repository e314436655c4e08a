"""Saved games: save, load and re-simulate; a tampered file is refused with the move number."""

from __future__ import annotations

import json

import pytest

from racetrack.base.errors import ReplayError
from racetrack.cli import main
from racetrack.games.trees import TreesGame, load_tree_rules
from racetrack.games.trees.ai import GreedyPlayer
from racetrack.games.trees.record import load_game, save_game


@pytest.fixture(scope="module")
def played():
    rules = load_tree_rules("quick")
    game = TreesGame(rules, TreesGame.default_players(["greedy", "greedy"]), seed=4)
    players = [GreedyPlayer(4), GreedyPlayer(5)]
    state = game.start()
    while not state.is_over:
        state.apply(players[state.current].choose(state))
    return state


def test_save_load_and_verify_round_trip(tmp_path, played):
    path = tmp_path / "game.yaml"
    save_game(played, path)
    saved = load_game(path)
    assert saved.game == played.game and saved.game.seed == 4
    final = saved.verify()
    assert final.tracks == played.tracks and final.outcome == played.outcome
    states = list(saved.states())
    assert len(states) == len(played.history) + 1
    assert states[-1].scores() == played.scores()


def test_an_illegal_move_in_a_tampered_file_is_named_by_its_number(tmp_path, played):
    path = tmp_path / "game.yaml"
    save_game(played, path)
    text = path.read_text()
    third = str(played.history[2][1])
    path.write_text(text.replace(f"'{third}'", "'branch 0,0 to 1,1'", 1))
    with pytest.raises(ReplayError, match=r"move 3 \(Red: branch 0,0 to 1,1\) is illegal"):
        load_game(path).verify()


def test_a_tampered_result_is_refused(tmp_path, played):
    path = tmp_path / "game.yaml"
    save_game(played, path)
    winner = played.game.players[played.outcome.winner].name
    loser = next(p.name for p in played.game.players if p.name != winner)
    path.write_text(path.read_text().replace(f"winner: {winner}", f"winner: {loser}"))
    with pytest.raises(ReplayError, match="winner is"):
        load_game(path).verify()


@pytest.mark.parametrize("text, words", [
    ("racetrack-trees: 1\n", "'game: graph-trees' expected"),
    ("racetrack-trees: 1\ngame: graph-trees\nrules: {name: x, players: 5}\nplayers: []\n"
     "moves: []\n", "embedded rules"),
    ("racetrack-trees: 1\ngame: graph-trees\nrules: {name: x}\nplayers: [{name: A}]\n"
     "moves: []\n", "for 2 players, not 1"),
    ("racetrack-trees: 1\ngame: graph-trees\nrules: {name: x}\nplayers: [{name: A}, "
     "{name: B}]\nmoves: [[0, 'jump to 3,3']]\n", "move 1: not a move"),
    ("- just a list\n", "must be a YAML mapping"),
])
def test_broken_files_are_refused_in_one_line(tmp_path, text, words):
    path = tmp_path / "broken.yaml"
    path.write_text(text)
    with pytest.raises(ReplayError, match=words):
        load_game(path)


def test_headless_play_prints_deterministic_json_and_saves_a_game_that_verifies(tmp_path,
                                                                               capsys):
    path = tmp_path / "g.yaml"
    assert main(["trees-play", "--rules", "quick", "--seed", "3", "--json", "--save",
                 str(path)]) == 0
    first = capsys.readouterr().out
    assert main(["trees-play", "--rules", "quick", "--seed", "3", "--json"]) == 0
    assert capsys.readouterr().out == first
    result = json.loads(first)
    assert result["finished"] and result["seed"] == 3 and len(result["scores"]) == 2
    assert main(["trees-replay", str(path), "--verify"]) == 0
    assert "result matches" in capsys.readouterr().out
    path.write_text(path.read_text().replace("seed: 3", "seed: x"))
    assert main(["trees-replay", str(path), "--verify"]) == 1
    assert "'seed' must be a whole number" in capsys.readouterr().err


def test_the_window_commands_refuse_bad_choices_before_opening_a_window(tmp_path, capsys):
    assert main(["trees", "--players", "human,robot"]) == 1
    assert "unknown player kind 'robot'; kinds: human, greedy" in capsys.readouterr().err
    assert main(["trees-play", "--players", "human,greedy"]) == 1
    assert "computer players only" in capsys.readouterr().err
    for count in (3, 5, 50):
        assert main(["trees-play", "--players", ",".join(["greedy"] * count)]) == 1
        err = capsys.readouterr().err.splitlines()
        assert len(err) == 1 and err[0].startswith("error: --players: "), err
    assert "at most 4 players" in " ".join(err)
    race = tmp_path / "race.yaml"
    race.write_text("racetrack-replay: 1\ntrack: {}\n")
    assert main(["trees-replay", str(race)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a saved Graph Trees game" in err


def test_the_default_players_fill_every_seat_of_the_rules(capsys, tmp_path):
    """Four seats from a rules file based on ``levi-4``, on a small sheet so that the game the
    command plays is short (the seats, not the game, are what is counted)."""
    import json

    from racetrack.cli import main

    small = tmp_path / "small-four.yaml"
    small.write_text("name: small-four\nbase: levi-4\nboard:\n  width: 10\n  height: 10\n")
    assert main(["trees-play", "--rules", str(small), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert len(result["scores"]) == 4


def test_a_finished_game_is_saved_in_its_folder_whatever_the_players_are_called(
        tmp_path, monkeypatch, played):
    """Player names are user text: ``x/../../records`` once overwrote the records file."""
    from dataclasses import replace

    from racetrack.games.trees.game import Player
    from racetrack.games.trees.record import GAMES, games_dir

    monkeypatch.setenv("RACETRACK_HOME", str(tmp_path / "home"))
    records = tmp_path / "home" / "data" / "records.yaml"
    records.parent.mkdir(parents=True)
    records.write_text("kept\n")
    for hostile in ("x/../../records", "../../../../tmp/evil", "..", "/", "é" * 100):
        game = replace(played.game, players=(Player(hostile, "red", "greedy"),
                                             Player("Bob", "blue", "greedy")))
        state = game.start()
        for _, move in played.history:
            state.apply(move)
        path = GAMES.save_finished(state)
        assert path.parent == games_dir() and path.is_file() and load_game(path)
    assert records.read_text() == "kept\n"
    assert {p.parent for p in tmp_path.rglob("*.yaml")} == {records.parent, games_dir()}
