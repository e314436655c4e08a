"""The replay viewer, the replays menu, and resuming a race after the window was closed."""

from __future__ import annotations

import pygame

from racetrack.base.settings import PlayerChoice
from racetrack.board.track import find_track
from racetrack.games import archive
from racetrack.games.replay import load_replay
from racetrack.search.drivers import make_driver
from racetrack.ui.app import App
from racetrack.ui.scenes.menu import MenuScene
from racetrack.ui.scenes.playback import PlaybackScene
from racetrack.ui.scenes.race import RaceScene
from racetrack.ui.scenes.replays import ReplaysScene
from tests.ui.conftest import click, press, run


def finished_replay(app):
    app.push(MenuScene(app))
    players = (PlayerChoice("Ann", "red", "expert"), PlayerChoice("Bob", "blue", "easy"))
    scene = app.routes.start_race(find_track("riddler-opolis"), "gardner", players, seed=3,
                             animation_seconds=0.02, replace=False)
    scene.preparing.result()
    for _ in range(3000):
        if scene.thinking is not None:
            scene.thinking.result(timeout=30)  # frames are instant; the driver's thread is not
        run(app, 1, 0.1)
        if not isinstance(app.scenes[-1], RaceScene):
            break
    assert app.scenes[-1].saving.wait(30)  # written behind the results
    entries = archive.saved_races()
    assert len(entries) == 1, "a finished race is saved automatically"
    return entries[0]


def test_viewer_controls(app):
    entry = finished_replay(app)
    replay = load_replay(entry.path)
    states = list(replay.states())
    viewer = PlaybackScene(app, replay, states)
    app.push(viewer)
    run(app, 1)
    press(app, pygame.K_RIGHT)
    press(app, pygame.K_RIGHT)
    assert viewer.index == 2
    press(app, pygame.K_END)
    assert viewer.index == len(states) - 1
    press(app, pygame.K_HOME)
    press(app, pygame.K_SPACE)  # play
    run(app, 40, 0.1)
    assert viewer.index >= 5
    press(app, pygame.K_SPACE)  # pause
    click(app, (viewer.bar.x + viewer.bar.w // 2, viewer.bar.centery))
    assert abs(viewer.index - (len(states) - 1) // 2) <= 1
    drawn = len(viewer.states[viewer.index].trails[0])
    assert drawn == 1 + sum(1 for car, _ in replay.moves[:viewer.index] if car == 0)
    last = len(states) - 1
    viewer.go(last - 2)
    press(app, pygame.K_SPACE)  # play the last two moves, and on past the end
    run(app, 30, 0.1)
    assert viewer.index == last and not viewer.playing  # it stops on the last move
    assert viewer.play_button.text == "play"
    assert viewer.toasts  # what the last moves did, and the end of the race
    press(app, pygame.K_HOME)
    assert viewer.index == 0 and viewer.toasts == []  # nothing told of the end at the start
    press(app, pygame.K_END)
    press(app, pygame.K_SPACE)  # play at the end plays again from the start
    run(app, 1, 0.1)
    assert viewer.playing and viewer.index <= 1 and viewer.toasts == []


def test_take_over_races_on_from_that_point_with_the_cars_chosen(app):
    entry = finished_replay(app)
    replay = load_replay(entry.path)
    viewer = PlaybackScene(app, replay, list(replay.states()))
    app.push(viewer)
    run(app, 1)
    viewer.go(4)
    viewer.take_over()  # asks which cars: the one to move is ticked to begin with
    run(app, 1)
    mover = viewer.states[4].current_player
    assert viewer.choosing == {mover}
    assert [t.value for t in viewer.seat_toggles] == [seat == mover for seat in range(2)]
    assert replay.setup.cars[1].driver == "easy"
    for seat in (1, 0):  # Bob, not Ann
        if viewer.seat_toggles[seat].value != (seat == 1):
            click(app, viewer.seat_toggles[seat].rect.center)
    assert viewer.choosing == {1}
    viewer.confirm_take_over()
    scene = app.scenes[-1]
    assert isinstance(scene, RaceScene) and len(scene.state.history) == 4
    assert [car.driver for car in scene.race.cars] == ["expert", "human"]
    assert set(scene.drivers) == {0}  # Ann drives herself on; Bob is the player's
    assert scene.race.seed == replay.setup.seed


def test_taking_over_can_be_cancelled_and_needs_a_car(app):
    entry = finished_replay(app)
    replay = load_replay(entry.path)
    viewer = PlaybackScene(app, replay, list(replay.states()))
    app.push(viewer)
    viewer.go(2)
    viewer.take_over()
    run(app, 1)
    viewer.choose_seat(viewer.states[2].current_player, False)
    viewer.confirm_take_over()
    assert app.scenes[-1] is viewer and viewer.toasts
    press(app, pygame.K_ESCAPE)
    assert viewer.choosing is None and app.scenes[-1] is viewer


def test_taking_over_leaves_an_interrupted_race_alone(app):
    entry = finished_replay(app)
    app.scenes.clear()
    app.push(MenuScene(app))
    waiting = app.routes.start_race(find_track("riddler-opolis"), "gardner",
                                    (PlayerChoice("Cy", "green", "human"),), seed=4,
                                    animation_seconds=0.02, replace=False)
    waiting.preparing.result()
    run(app, 2)
    coach = make_driver("expert")
    waiting.state.apply(coach.choose(waiting.state))
    waiting.flush()  # the autosaves under way land first, so none lands after the reading
    waiting.record(waiting.state)
    kept = waiting.progress.read_text()
    app.scenes.clear()
    app.push(MenuScene(app))
    replay = load_replay(entry.path)
    viewer = PlaybackScene(app, replay, list(replay.states()))
    app.push(viewer)
    viewer.go(2)
    viewer.take_over()
    viewer.confirm_take_over()
    scene = app.scenes[-1]
    assert isinstance(scene, RaceScene) and scene.progress != waiting.progress
    assert waiting.progress.read_text() == kept


def test_replays_menu_lists_opens_renames_and_deletes(app):
    finished_replay(app)
    app.scenes.clear()
    app.push(MenuScene(app))
    scene = ReplaysScene(app)
    app.push(scene)
    scene.listing.wait(10)  # the list is read off the window's thread
    run(app, 1)
    assert len(scene.entries) == 1 and scene.entries[0].winner
    scene.start_rename()
    scene.renaming.text = "Great race"
    press(app, pygame.K_RETURN)
    assert scene.entries[0].path.stem == "Great race"
    press(app, pygame.K_RETURN)  # open
    assert isinstance(app.scenes[-1], PlaybackScene)
    press(app, pygame.K_ESCAPE)
    assert app.scenes[-1] is scene
    press(app, pygame.K_DELETE)  # asks first
    assert len(scene.entries) == 1
    click(app, scene.form.dialogs[0].confirm_button.rect.center)
    assert scene.entries == []


def test_an_interrupted_race_is_resumed_from_the_menu(app, tmp_path):
    app.push(MenuScene(app))
    scene = app.routes.start_race(find_track("riddler-opolis"), "gardner",
                             (PlayerChoice("Ann", "red", "human"),), seed=1, animation_seconds=0.02,
                             replace=False)
    coach = make_driver("expert")
    for _ in range(2):
        target = coach.choose(scene.state).target
        click(app, tuple(round(v) for v in scene.camera.to_screen(*target)), frames=3)
    assert len(scene.state.history) == 2
    pygame.event.post(pygame.event.Event(pygame.QUIT))  # the window is closed mid-race
    run(app, 1)
    assert not app.running
    pygame.quit()
    again = App((1000, 700))
    menu = MenuScene(again)
    again.push(menu)
    run(again, 1)
    resume = menu.form.widgets[0]
    assert resume.text == "Resume race"
    resume.press()
    resumed = again.scenes[-1]
    assert isinstance(resumed, RaceScene) and len(resumed.state.history) == 2
    assert resumed.state.cars == scene.state.cars
