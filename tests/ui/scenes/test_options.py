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
