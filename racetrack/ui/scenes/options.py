"""Settings: how long computer moves glide; kept in the player's settings file."""

from __future__ import annotations

import contextlib
from dataclasses import replace

import pygame

from racetrack.settings import load_settings, save_settings
from racetrack.ui import theme
from racetrack.ui.input import Intent, Key
from racetrack.ui.widgets import Button, Cycler, Form, paper_background, title

SPEEDS = {"slow": 0.6, "normal": 0.35, "fast": 0.15, "instant": 0.0}


class OptionsScene:
    def __init__(self, app):
        self.app = app
        self.settings = load_settings()
        current = min(SPEEDS, key=lambda k: abs(SPEEDS[k] - self.settings.animation_seconds))
        width, height = app.size
        self.speed = Cycler(pygame.Rect(width // 2 - 220, 260, 440, 50),
                            label="Computer moves", choices=list(SPEEDS))
        self.speed.set(current)
        self.form = Form([self.speed, Button(pygame.Rect(width // 2 - 120, 340, 240, 50),
                                             text="Done", action=self.done)])

    def done(self) -> None:
        seconds = SPEEDS[self.speed.value]
        with contextlib.suppress(OSError):  # an unwritable settings folder costs only the memory
            save_settings(replace(self.settings, animation_seconds=seconds))
        self.app.pop()

    def handle(self, intent: Intent) -> None:
        if isinstance(intent, Key) and intent.name == "escape":
            self.done()
            return
        self.form.handle(intent)

    def update(self, dt: float) -> None:
        pass

    def draw(self, surface: pygame.Surface) -> None:
        paper_background(surface)
        title(surface, "Settings", (surface.get_width() // 2, 140))
        note = theme.font(24).render("Left and right change a setting; Enter on Done saves it.",
                                     True, theme.MUTED)
        surface.blit(note, note.get_rect(center=(surface.get_width() // 2, 200)))
        self.form.draw(surface)
