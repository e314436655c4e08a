"""Time trials in the window: a solo race recorded, reported on the results, with its ghost."""

from __future__ import annotations

import pygame
import pytest

from racetrack.base.settings import PlayerChoice
from racetrack.board.track import find_track
from racetrack.games.records import TrialKey, load_records
from racetrack.search.drivers import make_driver
from racetrack.ui.scenes.menu import MenuScene
from racetrack.ui.scenes.trial import TrialResultsScene
from tests.ui.conftest import click, press, run


def drive_solo_race(app, rules="gardner", overrides=None):
    """Click the expert's points until the race is over; return the results scene."""
    app.push(MenuScene(app))
    scene = app.routes.start_race(find_track("riddler-opolis"), rules,
                             (PlayerChoice("Ann", "red", "human"),), seed=1, animation_seconds=0.1,
                             replace=False, overrides=overrides)
    coach = make_driver("expert")
    while not scene.state.is_over:
        target = coach.choose(scene.state).target
        click(app, tuple(round(v) for v in scene.camera.to_screen(*target)), frames=4)
        assert len(scene.state.history) < 60
    run(app, 60)
    results = app.scenes[-1]
    assert isinstance(results, TrialResultsScene)
    results.par_job.result(timeout=120)
    assert results.recording.wait(30)  # the run is recorded behind the frame
    run(app, 2)
    if results.reading is not None:  # the records read again behind the frame
        assert results.reading.wait(30)
        run(app, 2)
    if results.noting is not None:  # and then the par noted
        assert results.noting.wait(10)
    return results


def test_a_solo_race_is_recorded_and_reported(app):
    results = drive_solo_race(app)
    assert results.result.new_best and results.result.turns == 12
    assert results.headline()[0] == "New best! 12 turns"
    assert results.par_text == "par 12"
    record = load_records().find(results.key)
    assert (record.best, record.player, record.runs) == (12, "Ann", 1)
    assert record.par == 12  # noted once the par was worked out
    press(app, pygame.K_ESCAPE)
    assert isinstance(app.scenes[-1], MenuScene)


def test_a_second_run_is_not_a_new_best_and_shows_the_ghosts(app):
    drive_solo_race(app, overrides={"movement.choices": "square-24"})
    app.scenes.clear()
    results = drive_solo_race(app, overrides={"movement.choices": "square-24"})
    assert not results.result.new_best and results.result.runs == 2
    assert results.key.rules_name == "gardner + square-24"
    assert results.headline()[0] == f"{results.result.turns} turns"
    before = app.screen.copy()
    ghost = next(w for w in results.form.widgets if w.text == "Show ghost")
    click(app, ghost.rect.center, frames=1)
    assert results.ghost_shown and ghost.text == "Hide ghost"
    assert len(results.best_path) == results.result.turns + 1
    # The pale lines are drawn on the sheet.
    assert pygame.image.tobytes(app.screen, "RGB") != pygame.image.tobytes(before, "RGB")


def test_a_damaged_records_file_is_kept_and_mentioned(app):
    from racetrack.games.records import records_path

    path = records_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("racetrack-records: 99\n")
    results = drive_solo_race(app)
    assert results.result.new_best and results.result.kept_aside.name == "records.yaml.bad"
    assert "kept as records.yaml.bad" in results.problem
    assert path.with_name("records.yaml.bad").read_text() == "racetrack-records: 99\n"
    assert len(load_records()) == 1
    assert TrialKey.of(results.state.race.track, results.state.race.rules) == results.key


@pytest.mark.long
def test_setup_offers_moves_for_any_variant_and_shows_the_trial(app):
    from racetrack.base.settings import load_settings
    from racetrack.ui.scenes.race import RaceScene
    from racetrack.ui.scenes.setup import SetupScene

    app.push(MenuScene(app))
    setup = SetupScene(app)
    app.push(setup)
    run(app, 1)
    assert not setup.time_trial  # a human and a computer
    setup.remove()
    run(app, 1)
    assert setup.time_trial and setup.best() is None
    setup.rules.set("baker")
    setup.moves.step(3)  # rule set's own -> 5 plus -> 9 square -> 25 square-24
    assert setup.moves_value == "square-24"
    assert setup.chosen_rules().name == "baker + square-24"
    run(app, 1)  # the par is asked for, off the frame
    setup.par.jobs[setup.trial_key()].result(timeout=120)
    run(app, 1)
    start = next(w for w in setup.form.widgets if getattr(w, "text", "") == "Start race")
    start.press()
    race = app.scenes[-1]
    assert isinstance(race, RaceScene)
    assert race.race.rules.movement_choices == "square-24"
    assert race.race.rules.cars == "collide"  # still Baker's otherwise
    assert load_settings().moves == "square-24"


def test_the_setup_screen_reads_the_records_off_the_frame(app):
    """Ten thousand records take most of a second to read: the screen opens at once, says it
    is reading them, and shows the best run once they are in."""
    from racetrack.base.settings import Settings, save_settings
    from racetrack.board.track import load_track
    from racetrack.games.records import Record, TrialKey, records_path, save_records
    from racetrack.rules import load_rules
    from racetrack.ui.loading import Loading
    from racetrack.ui.scenes.setup import SetupScene
    from tests.hostile_corpus import records_file

    records_file(records_path(), 2_000)
    oval, rules = load_track(find_track("oval")), load_rules("gardner")
    key = TrialKey.of(oval, rules)
    save_records(load_records().with_record(
        Record(oval.name, key.track_hash, rules, 23, "Ann", "2026-11-27", 4, (), 21)))
    save_settings(Settings(track="oval", rules="gardner",
                           players=(PlayerChoice("Ann", "red", "human"),)))
    app.push(MenuScene(app))
    setup = SetupScene(app)
    # Nothing read on the window's thread: the table arrives in a frame once read.
    assert isinstance(setup.reading, Loading) and len(setup.records) == 0
    app.push(setup)
    assert setup.reading is None or setup.reading.wait(60)
    run(app, 2)
    assert setup.time_trial and setup.best() is not None and setup.best().best == 23
