"""Panning the paper: one drag and one key step, the same in the race and in Graph Trees."""

from __future__ import annotations

import pygame
import pytest

from racetrack.games.trees import TreesGame, load_tree_rules
from racetrack.ui.panning import DRAG_THRESHOLD, PAN_STEP, Drag, pan_by_key
from racetrack.ui.render.camera import Camera
from racetrack.ui.scenes.menu import MenuScene
from racetrack.ui.scenes.trees import TreesScene
from tests.ui.conftest import baker_race, press, run


def test_a_press_that_barely_moves_is_a_click_and_leaves_the_view():
    camera, drag = Camera(scale=20.0), Drag()
    drag.start((100, 100))
    assert not drag.move(camera, (102, 103), (2, 3))  # 5 pixels: a shaky hand, not a drag
    assert (camera.centre_x, camera.centre_y) == (0.0, 0.0)
    assert camera.followed
    assert drag.end()  # a click
    assert not drag.held


def test_a_press_moved_past_the_threshold_pans_by_every_pixel_from_then_on():
    camera, drag = Camera(scale=20.0), Drag()
    drag.start((100, 100))
    assert drag.move(camera, (104, 102), (4, 2))  # 6 pixels across plus down: a drag
    assert drag.move(camera, (103, 102), (-1, 0))  # back inside the threshold: still a drag
    assert (camera.centre_x, camera.centre_y) == pytest.approx((-3 / 20, -2 / 20))
    assert not camera.followed
    assert not drag.end()  # not a click


def test_motion_without_a_held_button_pans_nothing():
    camera, drag = Camera(scale=20.0), Drag()
    assert not drag.move(camera, (300, 300), (50, 50))  # never pressed
    assert not drag.end()  # a release without its press is no click either
    drag.start((100, 100))
    assert not drag.move(camera, (150, 150), (50, 50), dragging=False)  # the button is up
    assert (camera.centre_x, camera.centre_y) == (0.0, 0.0)


def test_with_no_threshold_the_view_follows_from_the_first_pixel():
    camera, drag = Camera(scale=10.0), Drag(threshold=0)
    drag.start((100, 100))
    assert drag.move(camera, (101, 100), (1, 0))
    assert camera.centre_x == pytest.approx(-0.1)


@pytest.mark.parametrize(("key", "dx", "dy"), [("left", PAN_STEP, 0), ("right", -PAN_STEP, 0),
                                               ("up", 0, PAN_STEP), ("down", 0, -PAN_STEP)])
def test_an_arrow_key_moves_the_paper_one_step_its_way(key, dx, dy):
    camera = Camera(scale=10.0)
    assert pan_by_key(camera, key)
    assert (camera.centre_x, camera.centre_y) == pytest.approx((-dx / 10, -dy / 10))


def test_other_keys_pan_nothing():
    camera = Camera()
    assert not pan_by_key(camera, "a")
    assert (camera.centre_x, camera.centre_y, camera.followed) == (0.0, 0.0, True)


# -- in the window, with real mouse events -----------------------------------------------------

def mouse_drag(app, start, steps):
    """Press the left button at ``start``, move by each of ``steps`` with it held, let go."""
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1))
    x, y = start
    for dx, dy in steps:
        x, y = x + dx, y + dy
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(x, y), rel=(dx, dy),
                                             buttons=(1, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(x, y), button=1))
    run(app, 1)


def screen(scene, point):
    return tuple(round(v) for v in scene.camera.to_screen(*point))


def race_on_anns_turn(app):
    scene = baker_race(app)
    for _ in range(200):
        if scene.human_turn:
            run(app, 1)
            return scene
        if scene.thinking is not None:
            scene.thinking.result(timeout=30)
        run(app, 1, 0.1)
    raise AssertionError("Ann's turn never came")


def trees_scene(app):
    app.push(MenuScene(app))
    game = TreesGame(load_tree_rules("quick"), TreesGame.default_players(["human", "human"]), 2)
    scene = app.routes.trees(game, replace=False)
    run(app, 1)
    return scene


def legal_target(scene):
    """A point a click would go to: a race's candidate, or a Graph Trees green dot."""
    if isinstance(scene, TreesScene):
        return next(c.target for c in scene.candidates() if c.legal)
    return scene.state.candidates()[0].target


@pytest.mark.parametrize("make", [race_on_anns_turn, trees_scene], ids=["race", "trees"])
def test_dragging_from_a_point_pans_and_moves_nothing(app, make):
    scene = make(app)
    moves = len(scene.state.history)
    start = screen(scene, legal_target(scene))
    before = (scene.camera.centre_x, scene.camera.centre_y)
    mouse_drag(app, start, [(10, 0), (20, 15), (10, 15)])
    scale = scene.camera.scale
    assert (scene.camera.centre_x, scene.camera.centre_y) == pytest.approx(
        (before[0] - 40 / scale, before[1] - 30 / scale))
    assert len(scene.state.history) == moves  # a drag is no click on the point
    assert scene.drag.press is None


@pytest.mark.parametrize("make", [race_on_anns_turn, trees_scene], ids=["race", "trees"])
def test_a_shaky_click_on_a_point_still_goes_there(app, make):
    scene = make(app)
    moves = len(scene.state.history)
    start = screen(scene, legal_target(scene))
    shake = DRAG_THRESHOLD // 2
    mouse_drag(app, start, [(shake, 0), (0, DRAG_THRESHOLD - shake)])
    assert len(scene.state.history) == moves + 1


def test_shift_and_an_arrow_pans_the_race(app):
    scene = race_on_anns_turn(app)
    x = scene.camera.centre_x
    press(app, pygame.K_LEFT, mod=pygame.KMOD_SHIFT)
    assert scene.camera.centre_x == pytest.approx(x - PAN_STEP / scene.camera.scale)
    assert not scene.camera.followed
