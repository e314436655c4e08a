"""The main menu: resume an interrupted race or championship, new race, the tutorial, how to
play, play online, championship, Graph Trees, track editor, replays, settings, quit.

The buttons stack in one column, or two when the window is too short for one, so the menu
fits from 800 x 600 up.
"""

from __future__ import annotations

import pygame

from racetrack import archive
from racetrack.championship import Championship, ChampionshipError, load_championship
from racetrack.championship import default_path as championship_path
from racetrack.settings import load_settings
from racetrack.ui import theme
from racetrack.ui.gui import Page
from racetrack.ui.render.words import shorten
from racetrack.ui.scenes.form import FormScene


class MenuScene(FormScene):
    idles = True
    def __init__(self, app):
        super().__init__(app)
        self.unfinished: list[archive.Unfinished] = []
        self.series: Championship | None = None  # a saved championship not yet over
        self.series_problem = ""  # why the saved championship cannot be read
        self.notices: tuple[str, ...] = ()  # damaged interrupted races, kept aside
        self.title_bottom = 0

    def _read(self) -> None:
        """What there is to resume: interrupted races (but the championship's own) and a
        championship not yet over."""
        self._find_championship()
        found = archive.read_unfinished()
        races = list(found.races)
        self.notices = tuple(dict.fromkeys([*self.notices, *found.messages]))
        if self.series is not None:
            races = [u for u in races if not self.series.is_next_race(u.replay.race)]
        self.unfinished = races

    def entries(self) -> list[tuple[str, object, str, str | None]]:
        """(words, action, tooltip, style) for each button, top to bottom."""
        found: list[tuple[str, object, str, str | None]] = []
        if len(self.unfinished) == 1:
            race = self.unfinished[0].replay.race
            found.append(("Resume race", self.resume,
                          f"Carry on with the race on {race.track.name} that was interrupted",
                          "primary"))
        elif self.unfinished:
            found.append((f"Resume a race ({len(self.unfinished)})", self.resume_list,
                          "Races interrupted part way: resume one, or discard it", "primary"))
        if self.series is not None:
            done, total = len(self.series.results), len(self.series.tracks)
            found.append(("Resume championship", self.resume_championship,
                          f"Race {done + 1} of {total} is next", "primary"))
        first_time = not load_settings().tutorial_done
        found += [
            ("New race", self.new_race, "Choose a track, the rules and the players",
             None if found or first_time else "primary"),
            ("Tutorial race", self.tutorial,
             "A short race on the oval that walks you through the first turns",
             "primary" if first_time else None),
            ("How to play", self.help, "The rules drawn: how a car moves, what the dots mean",
             None),
            ("Play online", self.online, "Race friends on other machines: host, join, "
             "your games, watch", None),
            ("Championship", self.championship,
             "A series of races: points, and prize money for the next race's shop", None),
            ("Graph Trees", self.trees, "Levi's territory game on the same paper", None),
            ("Track editor", self.editor, "Draw your own tracks", None),
            ("Replays", self.replays, "Watch saved races again, rename or delete them", None),
            ("Settings", self.settings, "Window, UI scale, pencils, sound, computer speed",
             None),
            ("Quit", self.app.quit, "", None),
        ]
        return found

    def layout(self, page: Page, width: int, height: int) -> None:
        self._read()
        entries = self.entries()
        self.title_bottom = theme.px(190)
        notes = bool(self.series_problem) + len(self.notices)
        top = self.title_bottom + notes * theme.px(20) + (theme.px(4) if notes else 0)
        room = height - top - theme.px(16)
        step = min(theme.px(58), room // len(entries))
        columns = 1
        if step < theme.px(44):  # too short a window for one column: two
            columns = 2
            step = min(theme.px(58), room // ((len(entries) + 1) // 2))
        button_width = min(theme.px(330), (width - theme.px(60)) // columns)
        gap = theme.px(20)
        left = width // 2 - (button_width * columns + gap * (columns - 1)) // 2
        rows = (len(entries) + columns - 1) // columns
        for number, (text, action, tip, style) in enumerate(entries):
            column, row = divmod(number, rows)
            rect = (left + column * (button_width + gap), top + row * step, button_width,
                    step - theme.px(10))
            page.button(rect, text, action, tooltip=tip, style=style or "big")

    # -- actions --------------------------------------------------------------------------

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
        self.app.routes.new_race()

    def tutorial(self) -> None:
        self.app.routes.tutorial()

    def help(self) -> None:
        self.app.routes.help(load_settings().rules)

    def championship(self) -> None:
        self.app.routes.new_championship(self.series_problem)
        self.relayout()

    def resume_championship(self) -> None:
        series, self.series = self.series, None
        self.relayout()
        if series is not None:
            self.app.routes.resume_championship(series, championship_path())

    def resume(self, entry: archive.Unfinished | None = None) -> None:
        """Go on with an interrupted race (the only one, or the one chosen in the list)."""
        entry = entry or (self.unfinished[0] if self.unfinished else None)
        self.relayout()
        if entry is not None:
            self.app.routes.resume(entry)

    def resume_list(self) -> None:
        self.app.routes.interrupted(self.resume)

    def trees(self) -> None:
        self.app.routes.trees_menu()

    def online(self) -> None:
        self.app.routes.play_online()

    def editor(self) -> None:
        self.app.routes.editor()

    def replays(self) -> None:
        self.app.routes.replays()

    def settings(self) -> None:
        self.app.routes.settings()

    def back(self) -> None:
        self.app.quit()

    def on_show(self) -> None:
        """Back on top (from a race, the replays, ...): "Resume race" may have come or gone."""
        self.relayout()

    def draw_paper(self, surface) -> None:
        width = surface.get_width()
        name = theme.hand(theme.px(120), bold=True).render("Racetrack", True,
                                                            theme.palette().ink)
        surface.blit(name, name.get_rect(midtop=(width // 2, theme.px(18))))
        pencil = theme.palette().pencil("red")
        y = theme.px(18) + name.get_height() - theme.px(4)
        # A pencil trail under the name: a car's moves, speeding up along the line.
        x, points = width // 2 - name.get_width() // 2, []
        for speed in (1, 2, 3, 4, 5, 6, 7):
            points.append((x, y + (speed % 2) * theme.px(4)))
            x += speed * theme.px(12)
        pygame.draw.lines(surface, pencil, False, points, max(2, theme.px(3)))
        for point in points:
            pygame.draw.circle(surface, pencil, point, max(3, theme.px(4)))
        sub = theme.ui_font(24).render("the graph-paper car race of Gardner, Baker and "
                                       "Nystrom", True, theme.MUTED)
        surface.blit(sub, sub.get_rect(midtop=(width // 2, y + theme.px(14))))
        notes = [f"The saved championship cannot be read: {self.series_problem}"
                 if self.series_problem else "", *self.notices]
        for number, note in enumerate(note for note in notes if note):
            font = theme.ui_font(19)
            text = font.render(shorten(note, font, width - theme.px(40)), True, (180, 40, 40))
            surface.blit(text, text.get_rect(midtop=(width // 2, self.title_bottom -
                                                     theme.px(4) + number * theme.px(20))))

