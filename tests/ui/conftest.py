"""Window tests run on SDL's dummy video driver, with settings in a temporary home."""

from __future__ import annotations

import os

import pygame
import pytest

from racetrack.settings import PlayerChoice
from racetrack.track import find_track
from racetrack.ui.scenes.menu import MenuScene

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.setenv("RACETRACK_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("RACETRACK_SCREENSHOTS", str(tmp_path / "shots"))
    from racetrack.ui.app import App

    made = App((1000, 700))
    yield made
    pygame.quit()


def click(app, pos, frames=1):
    """Post a real mouse click (down and up) and run frames."""
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0),
                                         buttons=(0, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    run(app, frames)


def press(app, key, frames=1, mod=0):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode=""))
    run(app, frames)


def run(app, frames, dt=1 / 30):
    for _ in range(frames):
        app.step(dt)


def pick(app, control, value, frames=2):
    """Choose ``value`` from a drop-down list as a player would: open it, click the entry."""
    click(app, control.rect.center, frames)
    listing = control.element.current_state.options_selection_list
    assert listing is not None, "the list did not open"
    shown = control.label_of(value)
    item = next(i for i in listing.item_list if i["text"] == shown)
    shown = listing.item_list_container.rect
    if item["button_element"] is None or not shown.collidepoint(
            item["button_element"].rect.center):  # scrolled out of the open list: scroll to it
        listing.scroll_bar.set_scroll_from_start_percentage(
            listing.item_list.index(item) / len(listing.item_list))
        run(app, frames)
    click(app, item["button_element"].rect.center, frames)


def button(scene, text):
    """A scene's button by its words (the start of them)."""
    return next(w for w in scene.form.widgets if getattr(w, "text", "").startswith(text))


def from_menu(app, words):
    """Open the main menu and click its button ``words``; the scene it opens."""
    menu = MenuScene(app)
    app.push(menu)
    run(app, 1)
    click(app, button(menu, words).rect.center)
    return app.scenes[-1]


def baker_race(app, seed=5, intro=False):
    app.push(MenuScene(app))
    players = (PlayerChoice("Ann", "red", "human"), PlayerChoice("Bob", "blue", "easy"))
    scene = app.routes.start_race(find_track("oval"), "baker", players, seed=seed,
                             animation_seconds=0.0, replace=False)
    if not intro:
        scene._start_following()
    scene.preparing.result()
    return scene


def settle_outlooks(app, scene):
    run(app, 1)
    scene.finish_outlooks()
    run(app, 1)
    return scene.current_outlooks()
