"""The main menu: new race, championship, Graph Trees, track editor, replays, settings, quit
(and resume race or championship when one was interrupted)."""

from __future__ import annotations

import pygame

from racetrack import archive
from racetrack.championship import Championship, ChampionshipError, load_championship
from racetrack.championship import default_path as championship_path
from racetrack.ui import theme
from racetrack.ui.input import Intent, Key
from racetrack.ui.widgets import Button, Form, paper_background, title, wrap


class MenuScene:
    def __init__(self, app):
        self.app = app
        self.form = Form()
        self.unfinished = None
        self.series: Championship | None = None  # a saved championship not yet over
        self.series_problem = ""  # why the saved championship cannot be read
        self.notice = ""  # a damaged interrupted race, kept aside
        self._size = None

    def _layout(self) -> None:
        width, height = self.app.size
        found = archive.read_unfinished()
        self.unfinished = found.replay
        self.notice = found.message or self.notice
        self._find_championship()
        if self.unfinished is not None and self.series is not None:
            from racetrack.ui.launch import is_next_race

            if is_next_race(self.series, self.unfinished.race):
                self.unfinished = None  # Resume championship goes on with it
        entries = [
            ("New race", self.new_race, True, ""),
            ("Championship", self.championship, True,
             "A series of races: points, and prize money for the next race's shop"),
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
        if self.series is not None:
            done, total = len(self.series.results), len(self.series.tracks)
            entries.insert(1 if self.unfinished is None else 2,
                           ("Resume championship", self.resume_championship, True,
                            f"Race {done + 1} of {total} is next"))
        # Up to nine entries: they close up to stay in the window.
        top = max(220, height // 2 - 120 - 33 * (len(entries) - 7))
        step = max(46, min(66, (height - 16 - top) // len(entries)))
        self.form.widgets = [Button(pygame.Rect(width // 2 - 160, top + i * step, 320,
                                                step - 12), text=text, action=action,
                                    enabled=enabled, tooltip=why)
                             for i, (text, action, enabled, why) in enumerate(entries)]
        self._size = (width, height)

    def _find_championship(self) -> None:
        """The saved championship, if there is one to go on with; a damaged one is reported
        (and left where it is)."""
        self.series, self.series_problem = None, ""
        if not championship_path().exists():
            return
        try:
            found = load_championship(championship_path())
        except ChampionshipError as exc:
            self.series_problem = exc.problems[0].message
            return
        if not found.is_over:
            self.series = found

    def new_race(self) -> None:
        from racetrack.ui.scenes.setup import SetupScene

        self.app.push(SetupScene(self.app))

    def championship(self) -> None:
        from racetrack.ui.scenes.championship import ChampionshipSetupScene

        self.app.push(ChampionshipSetupScene(self.app, championship_path(),
                                             self.series_problem))
        self._size = None

    def resume_championship(self) -> None:
        from racetrack.settings import load_settings
        from racetrack.ui.launch import resume_championship

        series, self.series = self.series, None
        self._size = None
        if series is not None:
            resume_championship(self.app, series, championship_path(),
                                load_settings().animation_seconds)

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
        notes = [f"The saved championship cannot be read: {self.series_problem}"
                 if self.series_problem else "", self.notice]
        lines = [line for note in notes if note for line in wrap(note, width // 8)]
        if len(lines) > 2:  # two lines fit between the title and the buttons
            lines = [lines[0], lines[1][:-1] + "…"] if len(notes) == 1 or not all(notes) \
                else [wrap(note, width // 8)[0] + "…" for note in notes]
        for i, line in enumerate(lines):
            text = theme.font(19).render(line, True, (180, 40, 40))
            surface.blit(text, text.get_rect(center=(width // 2, 193 + i * 17)))
        self.form.draw(surface)
