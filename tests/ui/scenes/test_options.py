"""The settings screen: changes apply at once and are kept."""

from __future__ import annotations

from racetrack.settings import load_settings
from racetrack.ui.scenes.menu import MenuScene
from racetrack.ui.scenes.options import OptionsScene
from tests.ui.conftest import click, pick, run


def test_settings_apply_at_once_and_are_kept(app):
    app.push(MenuScene(app))
    options = OptionsScene(app)
    app.push(options)
    run(app, 1)
    choices = [w for w in options.form.widgets if hasattr(w, "choices")]
    speed = next(c for c in choices if "normal" in c.choices)
    pick(app, speed, "fast")
    toggles = [w for w in options.form.widgets if type(w).__name__ == "Toggle"]
    click(app, toggles[2].rect.center)  # mute
    saved = load_settings()
    assert saved.animation_seconds == 0.15 and saved.muted and app.sound.muted
    slider = next(w for w in options.form.widgets if type(w).__name__ == "Slider")
    slider.set(30)
    assert load_settings().volume == 30


def test_a_ui_scale_the_window_cannot_fit_is_drawn_smaller_and_the_screen_says_so(app):
    app.push(MenuScene(app))
    options = OptionsScene(app)
    app.push(options)
    run(app, 1)
    assert options.note().startswith("Changes apply at once")
    scale = next(c for c in options.form.widgets if "200%" in getattr(c, "choices", ()))
    pick(app, scale, "200%")
    run(app, 2)
    assert load_settings().ui_scale == "200%"
    assert app.ui_scale() < 1.0  # a 1000 x 700 window fits no more
    assert "is drawn at 99%, the most this window fits" in app.scenes[-1].note()


def test_the_window_size_chosen_is_kept_for_this_screen_only(app):
    app.fixed = False  # a player's window, not a test's fixed one
    app.push(MenuScene(app))
    options = OptionsScene(app)
    app.push(options)
    run(app, 1)
    window = next(c for c in options.form.widgets if "1024 x 700" in getattr(c, "choices", ()))
    pick(app, window, "1024 x 700")
    app.settings_writer.wait()
    kept = load_settings()
    assert kept.window_for(app.screen_at_start) == (1024, 700)
    assert kept.window_for((app.screen_at_start[0] + 640, 4000)) is None
