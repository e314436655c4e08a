"""How to play: a page for every variant, with its movement drawn, reached from the New race
screen and the pause screen."""

from __future__ import annotations

import pygame
import pytest

from racetrack.rules import bundled_variant_names
from racetrack.ui.scenes.help import HelpScene
from racetrack.ui.scenes.menu import MenuScene
from racetrack.ui.scenes.pause import PauseScene
from racetrack.ui.scenes.setup import SetupScene
from tests.ui.conftest import baker_race, button, click, press, run


@pytest.mark.parametrize("rules", bundled_variant_names())
def test_how_to_play_draws_every_variant(app, rules):
    app.push(MenuScene(app))
    app.push(HelpScene(app, rules, "Oval"))
    run(app, 2)
    assert "rules" in app.scenes[-1].text()


def test_how_to_play_is_reached_from_setup_and_pause(app):
    app.push(MenuScene(app))
    setup = SetupScene(app)
    app.push(setup)
    run(app, 1)
    click(app, button(setup, "?").rect.center)
    assert isinstance(app.scenes[-1], HelpScene)
    press(app, pygame.K_ESCAPE)
    scene = baker_race(app)
    press(app, pygame.K_ESCAPE)
    pause = app.scenes[-1]
    assert isinstance(pause, PauseScene)
    click(app, button(pause, "How to play").rect.center)
    assert isinstance(app.scenes[-1], HelpScene) and app.scenes[-1].rules == scene.race.rules


def test_how_to_play_puts_each_rule_under_its_topic_and_only_what_the_track_has(app):
    from racetrack.track import find_track, load_track

    app.push(MenuScene(app))
    oval = HelpScene(app, "baker", load_track(find_track("oval")))
    assert "<b>Moves:</b>" in oval.text() and "Oil" not in oval.text()
    assert "These rules on Oval" in oval.text()
    hazards = HelpScene(app, "baker", load_track(find_track("hazards")))
    assert "<b>Oil:</b>" in hazards.text()
    assert "arrow keys" in oval.text() and "Ctrl+Z" in oval.text()
