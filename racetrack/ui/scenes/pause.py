"""The pause menu over a race (Esc): resume, how to play these rules, settings, restart, abandon
the race (after a question), or leave for the main menu (the race is kept to resume)."""

from __future__ import annotations

import pygame

from racetrack import archive
from racetrack.ui import theme
from racetrack.ui.gui import Page
from racetrack.ui.scenes.form import FormScene


class PauseScene(FormScene):
    idles = True
    overlay = True
    caption = "Paused"

    def __init__(self, app, race_scene):
        super().__init__(app)
        self.race_scene = race_scene

    def layout(self, page: Page, width: int, height: int) -> None:
        actions = [("Resume", self.resume, "Back to the race (Esc)"),
                   ("How to play", self.help, "These rules drawn: moves, dots, crosses"),
                   ("Settings", self.settings, "Sound, pencils, computer speed, window"),
                   ("Restart race", self.restart, "The same race from the start"),
                   ("Abandon race", self.abandon, "Leave it for good: it is not kept"),
                   ("Quit to menu", self.to_menu, "The race is kept: resume it from the menu")]
        if self.race_scene.back_to is not None:  # a test race: back to where it began
            actions[-1] = (self.race_scene.back_to[0], self.back_to,
                           "Back to the drawing (a test race is not kept)")
        step = min(theme.px(60), (height - theme.px(150)) // len(actions))
        top = max(theme.px(120), height // 2 - step * len(actions) // 2 + theme.px(20))
        button_width = min(theme.px(320), width - 40)
        for number, (text, action, tip) in enumerate(actions):
            page.button((width // 2 - button_width // 2, top + number * step, button_width,
                         step - theme.px(12)), text, action, tooltip=tip,
                        style="danger" if text == "Abandon race" else "big")

    def resume(self) -> None:
        self.app.pop()

    def back(self) -> None:
        self.resume()

    def help(self) -> None:
        race = self.race_scene.race
        self.app.routes.help(race.rules, race.track)

    def settings(self) -> None:
        self.app.routes.settings()

    def restart(self) -> None:
        self.app.routes.restart(self.race_scene)

    def abandon(self) -> None:
        self.form.confirm("Abandon race", "Abandon this race? It will not be kept to "
                          "resume.", "Abandon", self._abandoned)

    def _abandoned(self) -> None:
        self.race_scene.close()
        if self.race_scene.progress is not None:
            archive.discard_unfinished(self.race_scene.progress)
        self._menu()

    def to_menu(self) -> None:
        self.race_scene.close()
        self._menu()

    def _menu(self) -> None:
        self.app.routes.menu()

    def back_to(self) -> None:
        """From a race started elsewhere (the editor's test race): back there, the race
        dropped (it was a test; the drawing is what the player came from)."""
        self.race_scene.close()
        if self.race_scene.progress is not None:
            archive.discard_unfinished(self.race_scene.progress)
        self.race_scene.back_to[1]()

    def draw_paper(self, surface: pygame.Surface) -> None:
        shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        shade.fill((*theme.palette().paper, 205))
        surface.blit(shade, (0, 0))
        buttons = self.page.widgets if self.page is not None else []
        top = buttons[0].rect.y if buttons else surface.get_height() // 2
        text = theme.ui_font(56, bold=True).render("Paused", True, theme.palette().ink)
        surface.blit(text, text.get_rect(midbottom=(surface.get_width() // 2,
                                                    top - theme.px(16))))
