"""The pause menu over a race (Esc): resume, restart, or leave for the main menu."""

from __future__ import annotations

import pygame

from racetrack.ui.input import Intent, Key
from racetrack.ui.widgets import Button, Form, title


class PauseScene:
    overlay = True

    def __init__(self, app, race_scene):
        self.app = app
        self.race_scene = race_scene
        self.form = Form()
        self._layout()

    def _layout(self) -> None:
        width, height = self.app.size
        actions = [("Resume", self.resume), ("Restart race", self.restart),
                   ("Quit to menu", self.to_menu)]
        self.form.widgets = [Button(pygame.Rect(width // 2 - 150, height // 2 - 60 + i * 64,
                                                300, 50), text=text, action=action)
                             for i, (text, action) in enumerate(actions)]

    def resume(self) -> None:
        self.app.pop()

    def restart(self) -> None:
        from racetrack.ui.scenes.race import RaceScene

        old = self.race_scene
        old.close()
        self.app.pop()
        self.app.replace(RaceScene(self.app, old.race, old.drivers, old.animation_seconds,
                                   old.on_over, record=old.record))

    def to_menu(self) -> None:
        from racetrack.ui.scenes.menu import MenuScene

        self.race_scene.close()
        self.app.reset(MenuScene(self.app))

    def handle(self, intent: Intent) -> None:
        if isinstance(intent, Key) and intent.name == "escape":
            self.resume()
            return
        self._layout_if_resized()
        self.form.handle(intent)

    def _layout_if_resized(self) -> None:
        if self.form.widgets and self.form.widgets[0].rect.centerx != self.app.size[0] // 2:
            focus = self.form.focus
            self._layout()
            self.form.focus = focus

    def update(self, dt: float) -> None:
        pass

    def draw(self, surface: pygame.Surface) -> None:
        shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        shade.fill((250, 248, 240, 200))
        surface.blit(shade, (0, 0))
        title(surface, "Paused", (surface.get_width() // 2, surface.get_height() // 2 - 120))
        self.form.draw(surface)
