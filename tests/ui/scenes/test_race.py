"""The race screen: a whole race played as a person would, clicking candidate points on the
paper; what each point does said before the click; the start's announcement and the zoom kept;
start points and launches clicked like moves; the action buttons."""

from __future__ import annotations

import pygame
import pytest

from racetrack.ai import make_driver
from racetrack.geometry import Vec
from racetrack.model import Action, Move
from racetrack.outlook import Look
from racetrack.settings import PlayerChoice, load_settings
from racetrack.track import find_track
from racetrack.ui.scenes.menu import MenuScene
from racetrack.ui.scenes.pause import PauseScene
from racetrack.ui.scenes.race import RaceScene
from racetrack.ui.scenes.results import ResultsScene
from racetrack.ui.scenes.setup import SetupScene
from tests.ui.conftest import baker_race, click, press, run, settle_outlooks


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
    press(app, pygame.K_LEFT)  # the arrows choose points: they leave the camera be
    assert scene.camera.followed
    press(app, pygame.K_LEFT, mod=pygame.KMOD_SHIFT)  # Shift and an arrow pan
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


def test_a_point_into_the_wall_is_marked_and_says_so_before_the_click(app):
    scene = baker_race(app)
    scene.state.place(0, Vec(30, 22), Vec(6, 0), damage=1)
    found = {tuple(o.target): o for o in settle_outlooks(app, scene)}
    assert found[(36, 22)].look is Look.WALL and found[(35, 22)].warning
    point = tuple(round(v) for v in scene.camera.to_screen(36, 22))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=point, rel=(0, 0),
                                         buttons=(0, 0, 0)))
    run(app, 1)
    assert scene.hover == Vec(36, 22)
    assert scene.outlook_at(scene.hover).words() == "hits the wall: +6 damage, 7/5: out"


def test_the_race_opens_on_the_whole_track_with_the_draw_then_follows(app):
    app.push(MenuScene(app))
    players = (PlayerChoice("Ann", "red", "human"), PlayerChoice("Bot", "blue", "easy"),
               PlayerChoice("Cy", "green", "easy"))
    scene = app.routes.start_race(find_track("hairpins"), "gardner", players, seed=3,
                             animation_seconds=0.0, replace=False)
    whole = scene.camera.scale
    assert scene.intro and not scene.camera.followed
    first = scene.race.cars[scene.race.order[0]].name
    assert f"{first} drew first move" in scene.intro_lines()[1]
    run(app, 120, 1 / 30)  # the announcement ends by itself
    assert not scene.intro and scene.camera.followed and scene.camera.scale > whole


def test_the_zoom_chosen_is_kept_for_the_next_race(app):
    scene = baker_race(app)
    for _ in range(3):
        press(app, pygame.K_PLUS)
    chosen = scene.camera.scale
    scene.close()
    again = baker_race(app, seed=6)  # at once: the file may still be being written
    app.settings_writer.wait()
    assert load_settings().zoom == pytest.approx(chosen, abs=0.01)
    assert again.camera.scale == pytest.approx(chosen, abs=0.01)


def test_a_move_makes_a_pencil_sound_and_the_list_shows_every_car(app):
    scene = baker_race(app)
    outlooks = settle_outlooks(app, scene)
    safe = next(o for o in outlooks if o.look is Look.SAFE and not o.candidate.unchanged)
    click(app, tuple(round(v) for v in scene.camera.to_screen(*safe.target)), frames=2)
    assert "move" in app.sound.played
    assert app.screen.get_at((app.size[0] - 20, 80)) != app.screen.get_at((app.size[0] // 2,
                                                                           app.size[1] - 30))


def screen(scene, point):
    return tuple(round(v) for v in scene.camera.to_screen(*point))


def test_the_second_player_clicks_a_start_point_and_the_first_gets_the_other(app):
    scene = race_scene(app, (PlayerChoice("Ann", "red", "human"),
                             PlayerChoice("Bob", "blue", "human")),
                       track="slanted-oval", rules="westinghouse")
    assert scene.state.placing and scene.state.current_car == 1
    click(app, screen(scene, Vec(20, 20)), frames=3)
    state = scene.state
    assert not state.placing and state.current_car == 0
    assert state.car(1).position == Vec(20, 20) and state.car(0).position == Vec(22, 23)


def test_a_launch_is_clicked_like_any_move(app):
    scene = race_scene(app, (PlayerChoice("Ann", "red", "human"),), track="oval", rules="pope")
    state = scene.state
    state.place(0, Vec(20, 22), velocity=Vec(1, 0))
    state.apply(Move(Vec(20, 22)))  # a full stop
    scene.camera.followed = False
    scene.camera.fit(scene.race.track.bounds)
    run(app, 2)
    click(app, screen(scene, Vec(26, 22)), frames=3)
    assert state.car(0).position == Vec(26, 22) and state.car(0).velocity == Vec(6, 0)


def test_clicking_the_missile_button_arms_the_missile(app):
    app.push(MenuScene(app))
    # Two players at the table: a computer car would only add its tables to the test.
    players = (PlayerChoice("Ann", "red", "human"), PlayerChoice("Bea", "blue", "human"))
    shop = app.routes.start_race(find_track("hazards"), "baker-bond", players, seed=3,
                            animation_seconds=0.05, replace=False)
    shop.change("missiles", True)
    shop.change("sprayers", True)
    click(app, shop.form.widgets[-1].rect.center)  # Done
    click(app, app.scenes[-1].form.widgets[-1].rect.center)  # Bea buys nothing
    scene = app.scenes[-1]
    scene.preparing.result()
    assert [a for a, _ in scene.action_buttons()] == [Action.OIL]  # at rest: no missile yet
    scene.state.place(0, scene.state.cars[0].position, Vec(2, 0))
    buttons = dict(scene.action_buttons())
    assert set(buttons) == {Action.MISSILE, Action.OIL}
    click(app, buttons[Action.MISSILE].rect.center)
    assert scene.armed is Action.MISSILE
    assert "armed" in dict(scene.action_buttons())[Action.MISSILE].text
    click(app, dict(scene.action_buttons())[Action.OIL].rect.center)
    assert scene.armed is Action.OIL
    click(app, dict(scene.action_buttons())[Action.OIL].rect.center)  # again: disarmed
    assert scene.armed is None
