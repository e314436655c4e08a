"""Replays: save, load and verify for every variant; tampering is caught at the right move."""

from __future__ import annotations

import pytest
import yaml

from racetrack.base.errors import ReplayError
from racetrack.board.track import find_track, load_track
from racetrack.engine.model import CarSetup
from racetrack.games.race import Race
from racetrack.games.replay import load_replay, save_replay
from racetrack.rules import bundled_variant_names, load_rules
from racetrack.search.drivers import make_driver


def play(variant, seed=1):
    track = load_track(find_track("riddler-opolis"))
    race = Race(track, load_rules(variant), [CarSetup("Ann", "red", "easy"),
                                             CarSetup("Bob", "blue", "hard")], seed=seed)
    drivers = [make_driver("easy", seed), make_driver("hard", seed + 1)]
    state = race.start()
    while not state.is_over:
        state.apply(drivers[state.current_car].choose(state))
    return state


@pytest.mark.parametrize("variant", bundled_variant_names())
def test_record_save_load_and_verify(variant, tmp_path):
    state = play(variant)
    path = tmp_path / "race.yaml"
    save_replay(state, path)
    replay = load_replay(path)
    assert replay.track_hash_matches
    final = replay.verify()
    assert [c for c in final.cars] == [c for c in state.cars]
    assert final.outcome == state.outcome
    states = list(replay.states())
    assert len(states) == len(state.history) + 1


def tampered(tmp_path, change):
    state = play("gardner")
    path = tmp_path / "race.yaml"
    save_replay(state, path)
    data = yaml.safe_load(path.read_text())
    change(data)
    path.write_text(yaml.safe_dump(data))
    return path


def test_saved_rules_are_whole_or_the_replay_is_refused(tmp_path):
    # A replay naming a variant but lacking an option must not race under the table's
    # default: verify refuses it in one line.
    def forget(data):
        del data["rules"]["cars"]
    with pytest.raises(ReplayError, match=r"lack the option 'cars'") as caught:
        load_replay(tampered(tmp_path, forget)).verify()
    assert "\n" not in str(caught.value)


def test_a_replay_of_today_lacking_a_newer_option_is_refused_too(tmp_path):
    # Format 3 lists every option: one naming levi without Levi's crawl back no farther on
    # (crawl-return) would otherwise re-simulate under the table's default, anywhere.
    def forget(data):
        assert data["racetrack-replay"] == 3
        del data["rules"]["movement"]["first-move"]
    with pytest.raises(ReplayError, match=r"lack the option 'movement.first-move'"):
        load_replay(tampered(tmp_path, forget)).verify()


def test_a_replay_saved_before_the_newer_options_loads_with_the_old_behaviour(tmp_path,
                                                                              caplog):
    import logging

    def older(data):
        data["racetrack-replay"] = 2
        del data["rules"]["movement"]["first-move"]
        del data["rules"]["blocked"]
    with caplog.at_level(logging.WARNING):
        replay = load_replay(tampered(tmp_path, older))
    assert replay.race.rules.movement_first_move == "free"
    assert replay.race.rules.blocked == "crash"
    # Said on load: which options the file lacks and what they were taken as.
    assert "written before the options movement.first-move, blocked" in caplog.text
    assert "movement.first-move: free, blocked: crash" in caplog.text


def test_an_illegal_move_is_named_by_its_number(tmp_path):
    def teleport(data):
        data["moves"][4][1] += 5
    with pytest.raises(ReplayError, match=r"move 5 \((Ann|Bob) to .*\) is illegal"):
        load_replay(tampered(tmp_path, teleport)).verify()


def test_a_changed_result_is_caught(tmp_path):
    def steal(data):
        data["result"]["ranking"] = list(reversed(data["result"]["ranking"]))
    with pytest.raises(ReplayError, match="ranking"):
        load_replay(tampered(tmp_path, steal)).verify()


def test_a_changed_track_is_detected_by_its_hash(tmp_path):
    def move_wall(data):
        data["track"]["data"]["name"] = "Renamed"
    replay = load_replay(tampered(tmp_path, move_wall))
    assert not replay.track_hash_matches


@pytest.mark.parametrize("text, fragment", [
    ("just text", "YAML mapping"),
    ("racetrack-replay: 7\n", "format version 1"),
    ("racetrack-replay: 1\ntrack: {}\nrules: {}\ncars: []\nmoves: []\n", "embedded track"),
    ("!!python/object:os.system {}\n", "no tags that build objects"),
])
def test_corrupt_files_give_clear_errors(tmp_path, text, fragment):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(ReplayError) as info:
        load_replay(path)
    assert fragment in str(info.value)


def test_a_replay_without_a_result_is_refused(tmp_path):
    """The game always writes a result; a file without one was cut off or edited, and
    re-simulating its moves would prove nothing."""
    def forget(data):
        del data["result"]
    with pytest.raises(ReplayError, match="missing 'result'"):
        load_replay(tampered(tmp_path, forget))


def test_an_overridden_race_replays_exactly(tmp_path):
    from racetrack.rules.overrides import apply_overrides

    rules = apply_overrides(load_rules("gardner"), {"movement.choices": "square-24"})
    race = Race(load_track(find_track("riddler-opolis")), rules,
                [CarSetup("Ann", "red", "expert"), CarSetup("Bob", "blue", "medium")], seed=3)
    drivers = [make_driver("expert", 3), make_driver("medium", 4)]
    state = race.start()
    while not state.is_over:
        state.apply(drivers[state.current_car].choose(state))
    # A 24-neighbour move: some change of two squares in one turn was made.
    trail = state.trails[0]
    steps = [b - a for a, b in zip(trail, trail[1:], strict=False)]
    assert any(abs((w - v).x) == 2 or abs((w - v).y) == 2
               for v, w in zip(steps, steps[1:], strict=False))
    path = tmp_path / "race.yaml"
    save_replay(state, path)
    replay = load_replay(path)
    assert replay.race.rules == rules and replay.race.rules.name == "gardner + square-24"
    final = replay.verify()
    assert final.cars == state.cars and final.outcome == state.outcome


@pytest.mark.parametrize("change, message", [
    (lambda car: car.update({"taken-over": {"from": "easy", "after-moves": 99999}}),
     "taken over after 99999 moves, but the race has"),
    (lambda car: car.update({"taken-over": {"from": "wizard", "after-moves": 2}}),
     "unknown driver"),
    (lambda car: car.update({"taken-over": {"from": "easy", "after-moves": 2},
                             "driver": "hard"}),
     "only a car a person drives can have been taken over"),
    (lambda car: car.update({"taken-over": {"from": "easy", "after-moves": 2, "x": 1}}),
     "'x'"),
])
def test_a_bad_take_over_is_refused_in_one_line(tmp_path, change, message):
    def taken(data):
        data["racetrack-replay"] = 4
        data["cars"][1]["driver"] = "human"
        change(data["cars"][1])
    with pytest.raises(ReplayError, match=message) as caught:
        load_replay(tampered(tmp_path, taken))
    assert "\n" not in str(caught.value)


def test_a_take_over_needs_the_version_that_knows_it(tmp_path):
    def early(data):
        data["cars"][1].update({"driver": "human",
                                "taken-over": {"from": "easy", "after-moves": 2}})
    with pytest.raises(ReplayError, match="taken-over"):
        load_replay(tampered(tmp_path, early))  # a version-3 file cannot hold one
