"""A whole race played as a person would: clicking candidate points on the paper."""

from __future__ import annotations

import pygame

from racetrack.ai import make_driver
from racetrack.settings import PlayerChoice, load_settings
from racetrack.track import find_track
from racetrack.ui.scenes.menu import MenuScene
from racetrack.ui.scenes.pause import PauseScene
from racetrack.ui.scenes.race import RaceScene
from racetrack.ui.scenes.results import ResultsScene
from racetrack.ui.scenes.setup import SetupScene
from tests.ui.conftest import click, press, run


def race_scene(app, players, track="riddler-opolis", rules="gardner", seed=1):
    app.push(MenuScene(app))
    scene = app.routes.start_race(find_track(track), rules, players, seed=seed,
                             animation_seconds=0.1, replace=False)
    scene.preparing.result()
    return scene


def test_a_whole_race_by_clicking_candidate_points(app):
    scene = race_scene(app, (PlayerChoice("Ann", "red", "human"),))
    coach = make_driver("expert")
    clicks = 0
    while not scene.state.is_over:
        target = coach.choose(scene.state).target
        click(app, tuple(round(v) for v in scene.camera.to_screen(*target)), frames=4)
        clicks += 1
        assert clicks < 60
    assert scene.state.cars[0].finish is not None
    run(app, 60)
    assert isinstance(app.scenes[-1], ResultsScene)


def test_computer_cars_take_their_turns_and_glide(app):
    scene = race_scene(app, (PlayerChoice("Ann", "red", "human"),
                             PlayerChoice("Bot", "blue", "expert")), seed=2)
    for _ in range(200):
        if scene.human_turn:
            break
        if scene.thinking is not None:
            scene.thinking.result(timeout=30)
        run(app, 1)
    before = len(scene.state.history)
    first = scene.state.legal_moves()[0].target
    click(app, tuple(round(v) for v in scene.camera.to_screen(*first)), frames=1)
    assert len(scene.state.history) == before + 1
    for _ in range(200):
        if scene.thinking is not None:
            scene.thinking.result(timeout=30)
        run(app, 1)
        if scene.state.current_car == 0 and scene.glide is None:
            break
    assert scene.state.history[-1][0] == 1  # the computer moved after Ann
    assert len(scene.state.trails[1]) >= 2


def test_an_illegal_point_is_refused_with_the_reason(app):
    scene = race_scene(app, (PlayerChoice("Ann", "red", "human"),))
    scene.state.place(0, (0, -6), (0, -1))  # heading into the outer wall
    illegal = next(c for c in scene.state.candidates() if not c.legal)
    click(app, tuple(round(v) for v in scene.camera.to_screen(*illegal.target)))
    assert scene.state.history == []
    assert any("Not there" in toast.text for toast in scene.toasts)


def test_numpad_keys_move_like_the_grid(app):
    scene = race_scene(app, (PlayerChoice("Ann", "red", "human"),))
    start = scene.state.cars[0].position
    press(app, pygame.K_KP6, frames=4)  # one square east of the unchanged point
    assert scene.state.cars[0].position == (start.x + 1, start.y)
    press(app, pygame.K_KP3, frames=4)  # then one more east and one south
    assert scene.state.cars[0].velocity == (2, 1)


def test_zoom_and_pan_leave_follow_mode(app):
    scene = race_scene(app, (PlayerChoice("Ann", "red", "human"),))
    scale = scene.camera.scale
    pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=2))
    run(app, 1)
    assert scene.camera.scale > scale
    press(app, pygame.K_LEFT)
    assert not scene.camera.followed
    press(app, pygame.K_f)
    assert scene.camera.followed


def test_escape_pauses_and_resumes(app):
    race_scene(app, (PlayerChoice("Ann", "red", "human"),))
    press(app, pygame.K_ESCAPE)
    assert isinstance(app.scenes[-1], PauseScene)
    press(app, pygame.K_ESCAPE)
    assert isinstance(app.scenes[-1], RaceScene)


def test_menu_to_a_race_with_the_keyboard_remembers_the_choices(app):
    app.push(MenuScene(app))
    run(app, 1)
    press(app, pygame.K_RETURN)  # "New race" has the focus
    assert isinstance(app.scenes[-1], SetupScene)
    setup = app.scenes[-1]
    start = next(w for w in setup.form.widgets if getattr(w, "text", "") == "Start race")
    start.press()
    assert isinstance(app.scenes[-1], RaceScene)
    saved = load_settings()
    assert saved.track == setup.tracks[setup.selected].path.stem
    assert [p.driver for p in saved.players] == ["human", "medium"]


def test_f12_saves_a_screenshot(app, tmp_path):
    app.push(MenuScene(app))
    run(app, 1)
    press(app, pygame.K_F12)
    assert list((tmp_path / "shots").glob("racetrack-*.png"))
