"""Championships in the window: choosing the series, and the standings between its races.

The New championship screen is the New race screen with the tracks clicked in the order they
are raced (2 to 6; a track may come twice). Each race then goes shop (with the money carried),
race, results, standings; the series is saved after every race, so the menu can resume it.
"""

from __future__ import annotations

import contextlib
from dataclasses import replace
from pathlib import Path

import pygame

from racetrack.championship import Championship, ChampionshipError, Entrant, set_aside
from racetrack.model import CarSetup
from racetrack.settings import save_settings
from racetrack.track import bundled_track_paths, find_track, load_track
from racetrack.ui import theme
from racetrack.ui.input import Intent, Key
from racetrack.ui.launch import championship_race, team_cars
from racetrack.ui.scenes.setup import SetupScene, wrap_pixels
from racetrack.ui.widgets import Button, Form, paper_background, title, wrap

MIN_RACES, MAX_RACES = 2, 6
ERROR = (180, 40, 40)


class ChampionshipSetupScene(SetupScene):
    """Players and rules as for one race; the tracks are clicked in order into a series."""

    track_heading = "Tracks in order"
    start_label = "Start series"
    caption = "New championship"

    def __init__(self, app, path: Path | None = None, problem: str = ""):
        super().__init__(app)
        self.path = path  # where the championship is saved (None: the user data folder)
        self.problem = problem  # the saved championship could not be read: it is set aside
        self.series: list[int] = []
        if self.chosen_rules().equipment_shop != "design" and "baker-bond" in self.variants:
            self.rules.set("baker-bond")  # prize money is for the shop

    @property
    def reversible(self) -> bool:
        return False  # every car races a series' tracks the usual way round

    @property
    def time_trial(self) -> bool:
        return False

    @property
    def can_start(self) -> bool:
        return MIN_RACES <= len(self.series) <= MAX_RACES

    def pick(self, index: int) -> None:
        self.selected = index
        if len(self.series) < MAX_RACES:
            self.series.append(index)
        self.relayout()

    def undo(self) -> None:
        if self.series:
            self.series.pop()
            self.relayout()

    def picker_top(self) -> int:
        return theme.px(140)  # room for the series' order above the list

    def extra_widgets(self, page) -> None:
        left, room = theme.px(16), self.panel_x - theme.px(24)
        page.button((left + min(theme.px(200), room // 2 - theme.px(6)) + theme.px(12),
                     self.app.size[1] - theme.px(66), min(theme.px(160), room // 2 - theme.px(6)),
                     theme.px(50)), "Remove last track", self.undo, enabled=bool(self.series),
                    tooltip="Take the last track out of the series")

    def badge(self, index: int) -> str:
        return " ".join(str(n) for n, i in enumerate(self.series, start=1) if i == index)

    def track_names(self) -> list[str]:
        """The series' tracks as the championship file names them: a bundled track by its
        name, the player's own by its file."""
        bundled = set(bundled_track_paths())
        return [self.tracks[i].path.stem if self.tracks[i].path in bundled
                else str(self.tracks[i].path) for i in self.series]

    def start(self) -> None:
        if not self.can_start:
            return
        rules = self.chosen_rules()
        players = tuple(replace(p, name=p.name.strip() or f"Player {i + 1}", reverse=False)
                        for i, p in enumerate(self.players))
        cars = team_cars(rules, [CarSetup(p.name, p.colour, p.driver, team=p.team_name)
                                 for p in players])
        entrants = [Entrant(car.name, car.colour, car.driver, car.team) for car in cars]
        with contextlib.suppress(OSError):
            save_settings(self.settings.with_race(self.settings.track, self.rules.value,
                                                  players, self.moves_value))
        try:
            series = Championship(self.rules.value, self.track_names(), entrants,
                                  overrides=self.overrides())
            if self.problem:
                set_aside(self.path)  # the damaged file is kept beside, not written over
            series.save(self.path)
        except (ValueError, OSError) as exc:
            self.error = str(exc)
            return
        self.par.close()
        championship_race(self.app, series, self.path, self.settings.animation_seconds)

    def draw_paper(self, surface: pygame.Surface) -> None:
        super().draw_paper(surface)
        names = [self.tracks[i].track.name for i in self.series]
        if names:
            text = f"{len(names)} races: " + ", ".join(f"{n}. {name}" for n, name in
                                                      enumerate(names, start=1))
        else:
            text = f"Click the tracks in the order to race them ({MIN_RACES} to {MAX_RACES})"
        font = theme.ui_font(19)
        y = theme.px(66)
        for line in wrap_pixels(text, font, self.panel_x - theme.px(30))[:3]:
            surface.blit(font.render(line, True, theme.TEXT if names else theme.MUTED),
                         (theme.px(16), y))
            y += font.get_linesize()

    def notes(self) -> list[tuple[str, tuple[int, int, int]]]:
        found = []
        if self.error:
            found.append((self.error, ERROR))
        if self.problem:
            found.append(("The saved championship could not be read: a new one keeps it "
                          "beside, as championship-damaged", ERROR))
        if self.chosen_rules().equipment_shop != "design":
            found.append(("These rules have no shop: the prize money only counts in the "
                          "standings", theme.MUTED))
        return found


class StandingsScene:
    """The championship after a race: every entrant's points, places and money carried, the
    teams' totals, and on to the next race (or the final standings)."""

    def __init__(self, app, series: Championship, path: Path | None = None,
                 animation_seconds: float = 0.35, problem: str = ""):
        self.app = app
        self.series = series
        self.path = path
        self.animation_seconds = animation_seconds
        self.problem = problem  # the save failed: said in one line
        self.form = Form()
        self._size: tuple[int, int] | None = None
        self.next_name = "" if series.is_over else _track_name(series.next_track)

    def _layout(self) -> None:
        width, height = self.app.size
        actions = [("Back to menu", self.to_menu)]
        if not self.series.is_over:
            actions.insert(0, (f"Next race: {self.next_name}", self.next_race))
        widths = [360 if text.startswith("Next") else 220 for text, _ in actions]
        x = width // 2 - (sum(widths) + 30 * (len(widths) - 1)) // 2
        widgets = []
        for (text, action), w in zip(actions, widths, strict=True):
            widgets.append(Button(pygame.Rect(x, height - 90, w, 54), text=text, action=action,
                                  size=28))
            x += w + 30
        self.form.widgets = widgets
        self._size = (width, height)

    def next_race(self) -> None:
        try:
            championship_race(self.app, self.series, self.path, self.animation_seconds)
        except ChampionshipError as exc:  # its track was edited or removed since: say so
            self.problem = exc.problems[0].message

    def to_menu(self) -> None:
        from racetrack.ui.scenes.menu import MenuScene

        self.app.reset(MenuScene(self.app))

    def handle(self, intent: Intent) -> None:
        if self._size != self.app.size:
            self._layout()
        if isinstance(intent, Key) and intent.name == "escape":
            self.to_menu()
            return
        self.form.handle(intent)

    def update(self, dt: float) -> None:
        if self._size != self.app.size:
            self._layout()

    def draw(self, surface: pygame.Surface) -> None:
        paper_background(surface)
        width = surface.get_width()
        series = self.series
        done, total = len(series.results), len(series.tracks)
        title(surface, "Final standings" if series.is_over else "Championship standings",
              (width // 2, 60), 54)
        sub = (f"after race {done} of {total}" if done else f"{total} races, none raced yet") \
            + f" · {series.rules} rules · 3, 2 and 1 points a race; $30, $20 and $10 prizes"
        text = theme.font(22).render(sub, True, theme.MUTED)
        surface.blit(text, text.get_rect(center=(width // 2, 104)))
        colours = theme.palette()
        entrants = {e.name: e for e in series.entrants}
        table = pygame.Rect(width // 2 - min(440, width // 2 - 20), 130, 0, 0)
        table.w = 2 * (width // 2 - table.x)
        header = theme.font(20, bold=True)
        money_word = "money" if series.is_over else "carried"
        columns = [(table.x + 84, "entrant"), (table.right - 400, "places"),
                   (table.right - 190, "points"), (table.right - 100, money_word)]
        for x, word in columns:
            surface.blit(header.render(word, True, theme.MUTED), (x, table.y))
        y = table.y + 24
        rows = series.standings()
        step = 52
        for place, (name, points, money) in enumerate(rows, start=1):
            entrant = entrants[name]
            row = pygame.Rect(table.x, y, table.w, step - 6)
            pygame.draw.rect(surface, theme.PANEL, row, border_radius=8)
            pygame.draw.rect(surface, theme.PANEL_EDGE, row, 1, border_radius=8)
            middle = row.centery
            big = theme.font(28, bold=True)
            number = big.render(f"{place}.", True, theme.TEXT)
            surface.blit(number, number.get_rect(midleft=(row.x + 12, middle)))
            pygame.draw.circle(surface, colours.pencil(entrant.colour), (row.x + 64, middle),
                               10)
            who = name + ("" if entrant.driver == "human" else f" ({entrant.driver})") + \
                (f" · {entrant.team}" if entrant.team else "")
            label = theme.font(26).render(who, True, theme.TEXT)
            surface.blit(label, label.get_rect(midleft=(row.x + 84, middle)))
            places = " ".join(_ordinal(p) for p in series.places(name)) or "-"
            for x, text, font in ((columns[1][0], places, theme.font(24)),
                                  (columns[2][0], str(points), big),
                                  (columns[3][0], f"${money}", theme.font(26))):
                rendered = font.render(text, True, theme.TEXT)
                surface.blit(rendered, rendered.get_rect(midleft=(x, middle)))
            y += step
        teams = series.team_standings()
        if teams:
            y += 6
            line = "Teams: " + ",  ".join(f"{team} {points} points (${money})"
                                          for team, points, money in teams)
            text = theme.font(26, bold=True).render(line, True, theme.TEXT)
            surface.blit(text, text.get_rect(midtop=(width // 2, y)))
            y += 34
        if series.results:
            last = series.results[-1]
            prizes = ", ".join(f"{n} ${last['prizes'][n]}" for n in last["ranking"]
                               if last["prizes"][n])
            kept = ", ".join(f"{n} ${last['kept'][n]}" for n in last["ranking"]
                             if last["kept"][n])
            lines = wrap(f"Race {done}, {last['track']} · prizes: {prizes or 'none'} · money "
                         f"kept: {kept or 'none'}", max(40, table.w // 10))
            if not series.is_over:
                lines.append(f"Each car has $"
                             f"{series.ruleset().equipment_budget} plus what it carries in "
                             f"the next shop")
            y += 4
            for line in lines[:3]:
                text = theme.font(22).render(line, True, theme.MUTED)
                surface.blit(text, text.get_rect(midtop=(width // 2, y)))
                y += 22
        if series.is_over:
            winner = rows[0][0]
            text = theme.font(30, bold=True).render(f"{winner} wins the championship!", True,
                                                    theme.palette().ink)
            surface.blit(text, text.get_rect(midtop=(width // 2, y + 14)))
        if self.problem:
            text = theme.font(22).render(self.problem[:100], True, ERROR)
            surface.blit(text, text.get_rect(center=(width // 2, surface.get_height() - 112)))
        self.form.draw(surface)


def _track_name(name: str) -> str:
    with contextlib.suppress(ValueError, OSError):
        return load_track(find_track(name)).name
    return Path(name).stem


def _ordinal(place: int | None) -> str:
    if place is None:
        return "-"
    suffixes = {1: "st", 2: "nd", 3: "rd"}
    return f"{place}{suffixes.get(place if place < 20 else place % 10, 'th')}"
