"""The main menu: new race, Graph Trees, track editor, replays, settings, quit."""

from __future__ import annotations

import pygame

from racetrack import archive
from racetrack.ui import theme
from racetrack.ui.input import Intent, Key
from racetrack.ui.widgets import Button, Form, paper_background, title


class MenuScene:
    def __init__(self, app):
        self.app = app
        self.form = Form()
        self.unfinished = None
        self._size = None

    def _layout(self) -> None:
        width, height = self.app.size
        self.unfinished = archive.load_unfinished()
        entries = [
            ("New race", self.new_race, True, ""),
            ("Graph Trees", self.trees, True, "Levi's territory game on the same paper"),
            ("Track editor", self.editor, True, ""),
            ("Replays", self.replays, True, ""),
            ("Settings", self.settings, True, ""),
            ("Quit", self.app.quit, True, ""),
        ]
        if self.unfinished is not None:
            track = self.unfinished.race.track.name
            entries.insert(0, ("Resume race", self.resume, True,
                               f"Carry on with the race on {track} that was interrupted"))
        top = max(220, height // 2 - 120 - (33 if self.unfinished else 0))
        self.form.widgets = [Button(pygame.Rect(width // 2 - 160, top + i * 66, 320, 54),
                                    text=text, action=action, enabled=enabled, tooltip=why)
                             for i, (text, action, enabled, why) in enumerate(entries)]
        self._size = (width, height)

    def new_race(self) -> None:
        from racetrack.ui.scenes.setup import SetupScene

        self.app.push(SetupScene(self.app))

    def resume(self) -> None:
        from racetrack.ui.launch import continue_race

        replay, self.unfinished = self.unfinished, None
        self._size = None
        if replay is None:
            return
        try:
            state = replay.final_state()
        except ValueError:
            archive.discard_unfinished()
            return
        if state.is_over:
            archive.discard_unfinished()
            return
        continue_race(self.app, replay.race, state, replace=False)

    def trees(self) -> None:
        from racetrack.ui.scenes.trees_menu import TreesMenuScene

        self.app.push(TreesMenuScene(self.app))

    def editor(self) -> None:
        from racetrack.ui.scenes.editor import EditorScene

        self.app.push(EditorScene(self.app))

    def replays(self) -> None:
        from racetrack.ui.scenes.replays import ReplaysScene

        self.app.push(ReplaysScene(self.app))

    def settings(self) -> None:
        from racetrack.ui.scenes.options import OptionsScene

        self.app.push(OptionsScene(self.app))

    def handle(self, intent: Intent) -> None:
        if self._size != self.app.size:
            self._layout()
        if isinstance(intent, Key) and intent.name == "escape":
            self.app.quit()
            return
        self.form.handle(intent)

    def on_show(self) -> None:
        """Back on top (from a race, the replays, ...): "Resume race" may have come or gone."""
        self._size = None

    def update(self, dt: float) -> None:
        if self._size != self.app.size:
            self._layout()

    def draw(self, surface: pygame.Surface) -> None:
        paper_background(surface)
        width = surface.get_width()
        title(surface, "Racetrack", (width // 2, 110), 96)
        sub = theme.font(28).render("the graph-paper car race of Gardner, Baker and Nystrom",
                                    True, theme.MUTED)
        surface.blit(sub, sub.get_rect(center=(width // 2, 170)))
        self.form.draw(surface)
