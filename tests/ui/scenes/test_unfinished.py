"""Interrupted races: kept side by side, listed, resumed, and discarded only after a question."""

from __future__ import annotations

from racetrack.games import archive
from racetrack.ui.scenes.menu import MenuScene
from racetrack.ui.scenes.race import RaceScene
from racetrack.ui.scenes.unfinished import UnfinishedScene
from tests.ui.conftest import baker_race, button, click, run, settle_outlooks


def test_interrupted_races_are_listed_resumed_and_discarded_after_a_question(app):
    for seed in (1, 2):
        scene = baker_race(app, seed=seed)
        settle_outlooks(app, scene)
        scene.play(scene.state.legal_moves()[0])
        scene.flush()
        app.scenes.clear()
    assert len(archive.unfinished_races()) == 2
    menu = MenuScene(app)
    app.push(menu)
    run(app, 1)
    click(app, button(menu, "Resume a race (2)").rect.center)
    listing = app.scenes[-1]
    assert isinstance(listing, UnfinishedScene)
    run(app, 1)
    click(app, button(listing, "Discard").rect.center)
    click(app, listing.form.dialogs[0].confirm_button.rect.center)
    assert len(archive.unfinished_races()) == 1
    run(app, 1)
    click(app, button(listing, "Resume").rect.center)
    assert isinstance(app.scenes[-1], RaceScene)
