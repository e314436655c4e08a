"""The replays folder: the race in progress, finished races, listing, renaming, deleting."""

from __future__ import annotations

import pytest

from racetrack.board.track import find_track, load_track
from racetrack.engine.model import CarSetup
from racetrack.games import archive
from racetrack.games.race import Race
from racetrack.games.replay import load_replay
from racetrack.rules import load_rules
from racetrack.search.drivers import make_driver


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("RACETRACK_HOME", str(tmp_path / "home"))


def a_race(moves=None):
    track = load_track(find_track("riddler-opolis"))
    race = Race(track, load_rules("gardner"), [CarSetup("Ann", "red", "expert")], seed=1)
    state = race.start()
    driver = make_driver("expert")
    while not state.is_over and (moves is None or len(state.history) < moves):
        state.apply(driver.choose(state))
    return state


def test_the_race_in_progress_is_kept_and_can_be_resumed():
    state = a_race(moves=3)
    archive.record_progress(state)
    replay = archive.load_unfinished()
    assert replay is not None and len(replay.moves) == 3
    resumed = replay.final_state()
    assert resumed.cars == state.cars and not resumed.is_over


def test_a_finished_race_is_saved_and_the_unfinished_copy_forgotten():
    state = a_race()
    archive.record_progress(state)
    path = archive.save_finished(state)
    assert path.exists() and archive.load_unfinished() is None
    entries = archive.saved_races()
    assert [e.path for e in entries] == [path]
    assert entries[0].winner == "Ann" and entries[0].title == "Riddler-opolis"
    assert entries[0].players == ("Ann",)


def test_rename_and_delete():
    path = archive.save_finished(a_race())
    renamed = archive.rename(path, "My best lap / ever")
    assert renamed.name == "My best lap  ever.yaml" and load_replay(renamed)
    with pytest.raises(ValueError):
        archive.rename(renamed, "///")
    archive.delete(renamed)
    assert archive.saved_races() == []


def test_a_broken_file_is_listed_with_its_problem():
    folder = archive.replays_dir()
    folder.mkdir(parents=True)
    (folder / "broken.yaml").write_text("racetrack-replay: 1\nmoves: [\n")
    entries = archive.saved_races()
    assert len(entries) == 1 and entries[0].replay is None and "YAML" in entries[0].problem


def test_a_race_that_is_already_over_is_not_offered_for_resuming():
    archive.record_progress(a_race())
    assert archive.load_unfinished() is None


def test_a_damaged_interrupted_race_is_kept_aside_and_said():
    archive.record_progress(a_race(moves=3))
    path = archive.unfinished_path()
    path.write_text(path.read_text().replace("driver: expert", "driver: godlike"))
    found = archive.read_unfinished()
    assert found.races == () and "unknown driver 'godlike'" in found.messages[0]
    assert "kept as unfinished-race.yaml.bad" in found.messages[0]
    assert not path.exists() and path.with_name("unfinished-race.yaml.bad").exists()
    assert archive.read_unfinished() == archive.InterruptedRaces()


def test_several_interrupted_races_are_kept_side_by_side_and_discarded_one_by_one():
    first, second = a_race(moves=2), a_race(moves=4)
    paths = [archive.new_progress_path(first), None]
    archive.record_progress(first, paths[0])
    paths[1] = archive.new_progress_path(second)
    assert paths[1] != paths[0]  # never the same file, even in the same second
    archive.record_progress(second, paths[1])
    races = archive.unfinished_races()
    assert sorted(len(r.replay.moves) for r in races) == [2, 4]
    assert {r.path for r in races} == set(paths)
    archive.discard_unfinished(paths[0])
    assert [len(r.replay.moves) for r in archive.unfinished_races()] == [4]
    finished = a_race()
    archive.save_finished(finished, progress=paths[1])
    assert archive.unfinished_races() == []


def test_the_single_file_of_earlier_versions_is_still_offered():
    archive.record_progress(a_race(moves=3))
    races = archive.unfinished_races()
    assert [r.path.name for r in races] == [archive.UNFINISHED]


def a_trees_game(moves=None):
    from racetrack.games.trees import TreesGame, load_tree_rules
    from racetrack.games.trees.ai import make_player

    game = TreesGame(load_tree_rules("quick"), TreesGame.default_players(["greedy", "greedy"]),
                     seed=2)
    state = game.start()
    players = [make_player("greedy", 1), make_player("greedy", 2)]
    while not state.is_over and (moves is None or len(state.history) < moves):
        state.apply(players[state.current_player].choose(state))
    return state


def shelves():
    from racetrack.games.trees.record import GAMES

    return {"races": (archive.RACES, a_race), "graph trees": (GAMES, a_trees_game)}


@pytest.mark.parametrize("name", ["races", "graph trees"])
def test_both_shelves_keep_games_in_progress_side_by_side_and_the_old_single_file(name):
    shelf, play = shelves()[name]
    first, second = play(moves=2), play(moves=4)
    paths = [shelf.new_progress_path(first)]
    shelf.record_progress(first, paths[0])
    paths.append(shelf.new_progress_path(second))
    assert paths[1] != paths[0] and paths[0].parent.name == archive.UNFINISHED_DIR
    shelf.record_progress(second, paths[1])
    shelf.record_progress(play(moves=3))  # where an earlier version kept its one game
    found = shelf.unfinished()
    assert sorted(len(u.recording.moves) for u in found) == [2, 3, 4]
    assert shelf.legacy_path() in {u.path for u in found}
    assert all(str(len(u.recording.moves)) in u.describe for u in found)
    finished = play()
    saved = shelf.save_finished(finished, progress=paths[1])
    assert not paths[1].exists() and saved.parent == shelf.folder()
    [entry] = shelf.saved()
    assert entry.recording.verify().is_over and entry.players == shelf.load(saved).players
    renamed = shelf.rename(saved, "kept")
    with pytest.raises(ValueError, match=f"there is already a {shelf.item}"):
        shelf.rename(shelf.save_finished(finished), "kept")
    shelf.delete(renamed)
    assert len(shelf.saved()) == 1
