"""The window fits the screen it opens on, goes fullscreen and back, and the widgets and
sounds follow the settings."""

from __future__ import annotations

import pygame
import pytest

from racetrack.settings import Settings, load_settings
from racetrack.ui import theme
from racetrack.ui.app import MIN_SIZE, App, auto_scale, fitting_scale, window_size
from racetrack.ui.scenes.menu import MenuScene
from racetrack.ui.sound import Sounds
from tests.ui.conftest import press, run


@pytest.mark.parametrize("screen", [(800, 600), (1024, 768), (1280, 800), (1366, 768),
                                    (1920, 1080), (2560, 1440), (3840, 2160)])
def test_the_window_never_reaches_past_the_screen(screen):
    for wanted in (None, (1280, 800), (5000, 3000), (700, 500)):
        (width, height), maximise = window_size(screen, wanted)
        assert width <= screen[0] and height <= screen[1]
        assert width >= min(MIN_SIZE[0], screen[0]) and height >= min(MIN_SIZE[1], screen[1])
        if maximise:
            assert (width, height) == screen


def test_a_small_screen_gets_all_of_it_and_a_large_one_keeps_the_players_size():
    assert window_size((800, 600), None) == ((800, 600), True)
    assert window_size((1920, 1080), (1500, 900)) == ((1500, 900), False)
    assert window_size((1920, 1080), None) == ((1280, 800), False)


def test_the_ui_scale_grows_with_the_window_but_stays_readable():
    assert auto_scale((1280, 800)) == 1.0
    assert auto_scale((800, 600)) == 0.85
    assert 1.1 < auto_scale((1920, 1080)) < 1.3
    assert auto_scale((3840, 2160)) <= 2.0


def test_f11_goes_fullscreen_and_back(app):
    app.push(MenuScene(app))
    run(app, 1)
    press(app, pygame.K_F11)
    assert app.fullscreen
    press(app, pygame.K_F11)
    assert not app.fullscreen and app.size == (1000, 700)


def test_new_settings_restyle_the_widgets_and_the_pencils(app):
    app.push(MenuScene(app))
    run(app, 1)
    red = theme.palette().pencil("red")
    generation = app.generation
    app.apply_settings(Settings(ui_scale="125%", colour_blind=True, volume=20, muted=True))
    run(app, 1)
    # 125 % does not fit a 1000 x 700 window: it is drawn at the most that does.
    assert app.generation == generation + 1 and theme.LOOKS.scale == fitting_scale(app.size)
    assert 0.95 < theme.LOOKS.scale < 1.25
    assert theme.palette().pencil("red") != red
    assert app.sound.muted and load_settings().ui_scale == "125%"
    app.apply_settings(Settings())
    assert theme.palette().pencil("red") == red


def test_sounds_are_silent_and_harmless_without_a_device(monkeypatch):
    def refuse(*args, **kwargs):
        raise pygame.error("no audio device")

    monkeypatch.setattr(pygame.mixer, "get_init", lambda: None)
    monkeypatch.setattr(pygame.mixer, "init", refuse)
    sounds = Sounds(80)
    assert not sounds.ready
    sounds.play("crash")  # nothing happens, nothing breaks
    assert sounds.played == ["crash"]


def test_the_window_size_is_remembered_when_it_was_not_fixed(tmp_path, monkeypatch):
    monkeypatch.setenv("RACETRACK_HOME", str(tmp_path / "home"))
    made = App()
    try:
        made.push(MenuScene(made))
        made.step(1 / 30)
        made.finish()
        assert load_settings().window_for(made.screen_at_start) == made.size
        assert load_settings().window_for((made.size[0] + 1000, 2000)) is None
    finally:
        pygame.quit()


def test_the_window_sleeps_while_nothing_changes_and_a_finished_job_wakes_it(app):
    from concurrent.futures import ThreadPoolExecutor

    from racetrack.ui.app import SETTLE_MS
    from racetrack.ui.waking import WAKE, waking

    app.push(MenuScene(app))
    run(app, 2)
    press(app, pygame.K_TAB)
    assert app.busy  # just after an input: the widgets' hover looks may still change
    app._last_input -= SETTLE_MS
    assert not app.busy  # the menu alone changes nothing: no frame is drawn
    assert not app.sleep(0.05)  # nothing came
    with ThreadPoolExecutor(1) as pool:
        waking(pool.submit(lambda: 42))
        assert app.sleep(5)  # woken by the job, long before the timeout
    assert any(event.type == WAKE for event in app._held)
    drawn = app.frames_drawn
    app.step()
    assert app.frames_drawn == drawn + 1 and not app._held


def test_the_loop_draws_a_few_frames_after_an_input_then_none(app):
    import threading

    app.push(MenuScene(app))
    timer = threading.Timer(2.5, lambda: pygame.event.post(pygame.event.Event(pygame.QUIT)))
    timer.start()
    app.run()  # draws for a second after opening, then sleeps until the Quit
    assert 1 <= app.frames_drawn < 90  # at 60 frames a second it would be 150


def test_a_race_waiting_for_the_player_stops_animating(app):
    from tests.ui.conftest import baker_race, settle_outlooks

    scene = baker_race(app)
    settle_outlooks(app, scene)
    run(app, 40, 0.1)  # the start's messages fade, the camera settles
    assert scene.human_turn and not scene.animating
    press(app, pygame.K_RIGHT)  # a key changes what shows: a frame follows, no animation
    assert not scene.animating
