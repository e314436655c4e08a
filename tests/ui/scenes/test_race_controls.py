"""The race table that forgives: keys for players without a mouse or a keypad, a question
before a move that puts the car out, taking moves back, and the computers finishing the race
at once when no person races on."""

from __future__ import annotations

import pygame
import pytest

from racetrack.championship import Championship, Entrant
from racetrack.geometry import Vec
from racetrack.model import CarStatus
from racetrack.outlook import Look
from racetrack.replay import load_replay
from racetrack.settings import PlayerChoice, load_settings
from racetrack.track import find_track
from racetrack.ui import picking
from racetrack.ui.render import marks
from racetrack.ui.scenes.menu import MenuScene
from racetrack.ui.scenes.results import ResultsScene
from tests.ui.conftest import (
    baker_race,
    button,
    click,
    from_menu,
    press,
    run,
    settle_outlooks,
)

DIGIT_KEYS = {(-1, -1): pygame.K_7, (0, -1): pygame.K_8, (1, -1): pygame.K_9,
              (-1, 0): pygame.K_4, (0, 0): pygame.K_5, (1, 0): pygame.K_6,
              (-1, 1): pygame.K_1, (0, 1): pygame.K_2, (1, 1): pygame.K_3}


def anns_turn(app, scene, limit=200):
    """Frames until Ann (car 0) is to move and nothing glides."""
    for _ in range(limit):
        if scene.human_turn or scene.state.is_over:
            return
        if scene.thinking is not None:
            scene.thinking.result(timeout=30)
        run(app, 1, 0.1)
    raise AssertionError("Ann's turn never came")


def test_the_arrows_and_wasd_choose_a_point_and_enter_or_space_goes_there(app):
    scene = baker_race(app)
    anns_turn(app, scene)
    start = scene.state.cars[0].position
    press(app, pygame.K_RIGHT)  # from the unchanged move's point (here the car), one right
    assert scene.chosen == start + (1, 0)
    assert scene.state.history == []  # choosing is not moving
    press(app, pygame.K_LEFT)
    assert scene.chosen == start
    press(app, pygame.K_d)
    assert scene.chosen == start + (1, 0)
    press(app, pygame.K_RETURN)
    assert scene.state.cars[0].position == start + (1, 0)
    assert scene.chosen is None
    anns_turn(app, scene)
    here = scene.state.cars[0].position
    press(app, pygame.K_SPACE)  # nothing chosen: the first press chooses the ring's point
    assert scene.chosen == here + (1, 0) and scene.state.cars[0].position == here
    press(app, pygame.K_s)  # S: down from there (the wall is up)
    assert scene.chosen == here + (1, 1)
    press(app, pygame.K_SPACE)
    assert scene.state.cars[0].velocity == Vec(1, 1)


def test_the_top_row_digits_act_as_the_keypad(app):
    scene = baker_race(app)
    anns_turn(app, scene)
    start = scene.state.cars[0].position
    press(app, pygame.K_6)
    assert scene.state.cars[0].position == start + (1, 0)
    anns_turn(app, scene)
    press(app, pygame.K_KP6)
    assert scene.state.cars[0].velocity == Vec(2, 0)


def test_the_keys_step_to_the_nearest_point_within_45_degrees():
    ring = [Vec(x, y) for x in (4, 5, 6) for y in (1, 2, 3)]
    assert picking.step_towards(ring, Vec(5, 2), (1, 0)) == Vec(6, 2)
    assert picking.step_towards(ring, Vec(6, 2), (1, 0)) is None  # nothing further right
    assert picking.step_towards(ring, Vec(6, 2), (0, -1)) == Vec(6, 1)
    plus = [Vec(5, 2), Vec(4, 2), Vec(6, 2), Vec(5, 1), Vec(5, 3)]
    assert picking.step_towards(plus, Vec(6, 2), (0, -1)) == Vec(5, 1)  # round the ring
    assert picking.first_choice(plus, Vec(5, 2), (0, 1)) == Vec(5, 3)
    assert picking.first_choice([Vec(9, 9), Vec(1, 1)], Vec(2, 2), None) == Vec(1, 1)


def test_a_move_that_puts_the_car_out_asks_first_and_esc_keeps_the_car(app):
    scene = baker_race(app)
    anns_turn(app, scene)
    scene.state.place(0, Vec(30, 22), Vec(6, 0), damage=1)
    found = {tuple(o.target): o for o in settle_outlooks(app, scene)}
    assert found[(36, 22)].out and found[(36, 22)].look is Look.WALL
    assert marks.OUT_MARK in marks.entries(list(found.values()))  # the legend names it
    point = tuple(round(v) for v in scene.camera.to_screen(36, 22))
    click(app, point)
    assert scene.state.history == [] and scene.pending == Vec(36, 22)
    assert any("puts your car out" in toast.text for toast in scene.toasts)
    press(app, pygame.K_ESCAPE)  # no: the question goes, the race is not paused
    assert scene.pending is None and app.scenes[-1] is scene
    click(app, point)
    press(app, pygame.K_RETURN)  # yes
    assert scene.state.cars[0].status is CarStatus.OUT
    # A safe point is played at the first click.
    safe = next(o for o in found.values() if o.look is Look.SAFE)
    assert not safe.out


def ann_drives_into_the_wall(app, scene) -> None:
    """Ann speeds east along the bottom straight with the top-row digits until the wall puts
    her out, saying yes when asked."""
    for _ in range(30):
        anns_turn(app, scene)
        if not scene.state.cars[0].racing:
            return
        found = settle_outlooks(app, scene)
        out = [o for o in found if o.out]
        legal = [o for o in found if o.candidate.legal]
        target = out[0].target if out else max(
            legal, key=lambda o: (o.candidate.velocity.x, -abs(o.candidate.velocity.y))).target
        key = DIGIT_KEYS[tuple(target - picking.base_point(scene.state))]
        press(app, key)
        if out:
            assert scene.pending == target and scene.state.cars[0].racing  # asked first
            press(app, key)  # the same point again: yes
            return
    raise AssertionError("Ann never went out")


@pytest.mark.long
def test_with_no_person_racing_the_computers_finish_the_race_at_once(app):
    scene = baker_race(app)
    ann_drives_into_the_wall(app, scene)
    assert scene.state.cars[0].status is CarStatus.OUT and not scene.state.is_over
    run(app, 2)
    assert scene.finish_button is not None and "Enter" in scene.finish_button.text
    press(app, pygame.K_RETURN)
    assert scene.finishing is not None
    scene.finishing.result(timeout=120)
    run(app, 40, 0.1)
    results = app.scenes[-1]
    assert isinstance(results, ResultsScene) and results.state.is_over
    assert results.saving.wait(30)
    final = load_replay(results.saving.path).verify()  # the computers' moves replay
    assert final.cars == results.state.cars


@pytest.mark.long
def test_take_back_returns_the_move_and_the_computer_moves_since_and_saves_what_stood(app):
    scene = baker_race(app)
    assert scene.undo
    anns_turn(app, scene)
    assert scene.take_back_button is None  # nothing to take back yet
    press(app, pygame.K_6)
    anns_turn(app, scene)
    moved = list(scene.state.history)
    assert [car for car, _ in moved] == [0, 1]
    run(app, 1)
    assert scene.take_back_button is not None
    click(app, scene.take_back_button.rect.center)
    assert scene.state.history == [] and scene.state.current_car == 0
    press(app, pygame.K_8)  # another move instead
    anns_turn(app, scene)
    press(app, pygame.K_z, mod=pygame.KMOD_CTRL)
    assert scene.state.history == []
    press(app, pygame.K_6)
    anns_turn(app, scene)
    press(app, pygame.K_6)
    anns_turn(app, scene)
    press(app, pygame.K_BACKSPACE)
    stood = list(scene.state.history)
    assert [car for car, _ in stood] == [0, 1]
    scene.flush()  # the race in progress, as kept on disk, holds the moves that stood
    kept = load_replay(scene.progress)
    assert list(kept.moves) == stood
    kept.verify()


def test_take_backs_are_off_in_a_time_trial_and_in_a_championship(app):
    app.push(MenuScene(app))
    trial = app.routes.start_race(find_track("oval"), "baker",
                                  (PlayerChoice("Ann", "red", "human"),), seed=1,
                                  animation_seconds=0.0, replace=False)
    assert not trial.undo
    press(app, pygame.K_6)
    press(app, pygame.K_z, mod=pygame.KMOD_CTRL)
    assert len(trial.state.history) == 1
    assert any("cannot be taken back" in toast.text for toast in trial.toasts)
    trial.close()
    series = Championship("baker", ["oval", "oval"], [Entrant("Ann", "red", "human"),
                                                      Entrant("Bot", "blue", "easy")])
    app.routes.championship_race(series, replace=False)
    assert not app.scenes[-1].undo
    app.scenes[-1].close()


def test_take_backs_follow_the_setting_on_the_new_race_screen(app):
    setup = from_menu(app, "New race")
    toggle = setup.take_backs_toggle
    assert toggle.value
    click(app, toggle.rect.center)
    assert not toggle.value
    click(app, button(setup, "Start race").rect.center)
    race = app.scenes[-1]
    assert not race.undo
    race.close()
    assert not load_settings().take_backs  # remembered for the next race
