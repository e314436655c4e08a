"""Championships in the window: choosing the series, and the standings between its races.

The New championship screen is the New race screen with the tracks clicked in the order they
are raced (2 to 6; a track may come twice). Each race then goes shop (with the money carried),
race, results, standings; the series is saved after every race, so the menu can resume it.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import pygame

from racetrack.championship import Championship, ChampionshipError, Entrant, set_aside
from racetrack.lineup import line_up
from racetrack.settings import update_settings
from racetrack.track import bundled_track_paths, find_track, load_track
from racetrack.ui import theme
from racetrack.ui.gui import Page
from racetrack.ui.render.words import shorten, wrap_pixels
from racetrack.ui.saving import Saving
from racetrack.ui.scenes.form import FormScene, heading
from racetrack.ui.scenes.setup import SetupScene

MIN_RACES, MAX_RACES = 2, 6
ERROR = theme.ERROR


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

    def remember(self) -> None:
        """Keep the players; New race's track and rules stay New race's."""
        with contextlib.suppress(OSError, ValueError):
            update_settings(players=self.chosen_players())

    def layout_take_backs(self, page, x: int, y: int, right: int) -> int:
        """None: a championship's points count, so its races never take moves back."""
        return y

    def track_buttons(self) -> list:
        return [*super().track_buttons(),
                ("Remove last track", self.undo, "Take the last track out of the series",
                 bool(self.series))]

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
        players = self.chosen_players()
        cars = line_up(rules, players)
        entrants = [Entrant(car.name, car.colour, car.driver, car.team) for car in cars]
        self.remember()
        try:
            series = Championship(self.rules.value, self.track_names(), entrants,
                                  overrides=self.overrides())
            if self.problem:
                set_aside(self.path)  # the damaged file is kept beside, not written over
            series.save(self.path, replace=True)  # the player chose to start anew
        except (ValueError, OSError) as exc:
            self.error = str(exc)
            return
        self.par.close()
        self.app.routes.championship_race(series, self.path)

    def draw_paper(self, surface: pygame.Surface) -> None:
        super().draw_paper(surface)
        names = [self.tracks[i].track.name for i in self.series]
        if names:
            text = f"{len(names)} races: " + ", ".join(f"{n}. {name}" for n, name in
                                                      enumerate(names, start=1))
        else:
            text = f"Click the tracks in the order to race them ({MIN_RACES} to {MAX_RACES})"
        font = theme.ui_font(22)  # the series chosen so far: the screen's news, readable
        y = theme.px(64)
        for line in wrap_pixels(text, font, self.panel_x - theme.px(30))[:2]:
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


class StandingsScene(FormScene):
    """The championship after a race: every entrant's points, places and money carried, the
    teams' totals, and on to the next race (or the final standings)."""
    idles = True

    caption = "Championship standings"

    def __init__(self, app, series: Championship, path: Path | None = None,
                 problem: str = "", saving: Saving | None = None):
        super().__init__(app)
        self.series = series
        self.path = path
        self._problem = problem  # the next race could not start: said in one line
        self.saving = saving  # the standings being written after the race
        self.next_name = "" if series.is_over else _track_name(series.next_track)
        self.table = pygame.Rect(0, 0, 0, 0)

    @property
    def problem(self) -> str:
        """What went wrong, in one line: the next race, or the save after the last one."""
        if self._problem:
            return self._problem
        return self.saving.problem if self.saving is not None and self.saving.done else ""

    @problem.setter
    def problem(self, value: str) -> None:
        self._problem = value

    def layout(self, page: Page, width: int, height: int) -> None:
        actions = [("Back to menu", self.to_menu, "big")]
        if not self.series.is_over:
            actions.insert(0, (f"Next race: {self.next_name}", self.next_race, "primary"))
        gap = theme.px(24)
        widths = [min(theme.px(360 if style == "primary" else 220),
                      (width - theme.px(40)) // len(actions) - gap)
                  for _, _, style in actions]
        x = width // 2 - (sum(widths) + gap * (len(widths) - 1)) // 2
        for (text, action, style), w in zip(actions, widths, strict=True):
            page.button((x, height - theme.px(76), w, theme.px(54)), text, action, style=style)
            x += w + gap
        half = min(theme.px(440), width // 2 - theme.px(20))
        self.table = pygame.Rect(width // 2 - half, theme.px(130), 2 * half,
                                 height - theme.px(130) - theme.px(96))

    def next_race(self) -> None:
        try:
            self.app.routes.championship_race(self.series, self.path)
        except ChampionshipError as exc:  # its track was edited or removed since: say so
            self.problem = exc.problems[0].message

    def to_menu(self) -> None:
        self.app.routes.menu()

    def back(self) -> None:
        self.to_menu()

    def draw_paper(self, surface: pygame.Surface) -> None:
        width = surface.get_width()
        series = self.series
        done, total = len(series.results), len(series.tracks)
        heading(surface, "Final standings" if series.is_over else "Championship standings",
                (width // 2, theme.px(20)), 52, centred=True)
        rules = series.ruleset()
        points = ", ".join(str(p) for p in rules.team_points[:2]) + f" and {rules.teams_third}"
        prizes = ", ".join(f"${p}" for p in rules.prize_money[:2]) + f" and ${rules.prizes_third}"
        sub = (f"after race {done} of {total}" if done else f"{total} races, none raced yet") \
            + f" · {series.rules} rules · {points} points a race; {prizes} prizes"
        small = theme.ui_font(20)
        text = small.render(shorten(sub, small, width - theme.px(32)), True, theme.MUTED)
        surface.blit(text, text.get_rect(center=(width // 2, theme.px(96))))
        y = self.draw_table(surface)
        self.draw_notes(surface, y)

    def draw_table(self, surface: pygame.Surface) -> int:
        """Each entrant's row: place, pencil, name, places raced, points, money; returns the
        y below it."""
        series, table = self.series, self.table
        colours = theme.palette()
        entrants = {e.name: e for e in series.entrants}
        columns = [(table.x + theme.px(84), "entrant"), (table.right - theme.px(400), "places"),
                   (table.right - theme.px(190), "points"),
                   (table.right - theme.px(100), "money" if series.is_over else "carried")]
        header = theme.ui_font(18, bold=True)
        for x, word in columns:
            surface.blit(header.render(word, True, theme.MUTED), (x, table.y))
        rows = series.standings()
        step = max(theme.px(36), min(theme.px(52), (table.h - theme.px(140))
                                     // max(1, len(rows))))
        y = table.y + theme.px(24)
        big, font = theme.ui_font(26, bold=True), theme.ui_font(22)
        for place, (name, points, money) in enumerate(rows, start=1):
            entrant = entrants[name]
            row = pygame.Rect(table.x, y, table.w, step - theme.px(6))
            pygame.draw.rect(surface, theme.HIGHLIGHT if place == 1 and series.is_over
                             else theme.PANEL, row, border_radius=8)
            pygame.draw.rect(surface, theme.PANEL_EDGE, row, 1, border_radius=8)
            middle = row.centery
            number = big.render(f"{place}.", True, theme.TEXT)
            surface.blit(number, number.get_rect(midleft=(row.x + theme.px(12), middle)))
            pygame.draw.circle(surface, colours.pencil(entrant.colour),
                               (row.x + theme.px(64), middle), theme.px(10))
            who = name + ("" if entrant.driver == "human" else f" ({entrant.driver})") + \
                (f" · {entrant.team}" if entrant.team else "")
            who = shorten(who, font, columns[1][0] - columns[0][0] - theme.px(12))
            label = font.render(who, True, theme.TEXT)
            surface.blit(label, label.get_rect(midleft=(columns[0][0], middle)))
            places = " ".join(_ordinal(p) for p in series.places(name)) or "-"
            for x, words, face in ((columns[1][0], places, font),
                                   (columns[2][0], str(points), big),
                                   (columns[3][0], f"${money}", font)):
                rendered = face.render(words, True, theme.TEXT)
                surface.blit(rendered, rendered.get_rect(midleft=(x, middle)))
            y += step
        return y

    def draw_notes(self, surface: pygame.Surface, y: int) -> None:
        """Under the table: the teams, the last race's prizes, the winner, a problem."""
        series, width = self.series, surface.get_width()
        lines: list[tuple[str, pygame.font.Font, tuple[int, int, int]]] = []
        teams = series.team_standings()
        if teams:
            lines.append(("Teams: " + ",  ".join(f"{team} {points} points (${money})"
                                                  for team, points, money in teams),
                          theme.ui_font(22, bold=True), theme.TEXT))
        small = theme.ui_font(19)
        if series.results:
            last = series.results[-1]
            prizes = ", ".join(f"{n} ${last['prizes'][n]}" for n in last["ranking"]
                               if last["prizes"][n])
            kept = ", ".join(f"{n} ${last['kept'][n]}" for n in last["ranking"]
                             if last["kept"][n])
            words = f"Race {len(series.results)}, {last['track']} · prizes: " \
                    f"{prizes or 'none'} · money kept: {kept or 'none'}"
            lines += [(line, small, theme.MUTED)
                      for line in wrap_pixels(words, small, self.table.w)[:2]]
            if not series.is_over:
                lines.append((f"Each car has ${series.ruleset().equipment_budget} plus what it "
                              "carries in the next shop", small, theme.MUTED))
        if series.is_over:
            lines.append((f"{series.standings()[0][0]} wins the championship!",
                          theme.ui_font(28, bold=True), theme.palette().ink))
        if self.problem:
            lines.append((self.problem, small, ERROR))
        bottom = surface.get_height() - theme.px(86)
        for words, face, colour in lines:
            if y + face.get_linesize() > bottom:
                break
            text = face.render(shorten(words, face, width - theme.px(32)), True, colour)
            surface.blit(text, text.get_rect(midtop=(width // 2, y + theme.px(4))))
            y += face.get_linesize() + theme.px(2)


def _track_name(name: str) -> str:
    with contextlib.suppress(ValueError, OSError):
        return load_track(find_track(name)).name
    return Path(name).stem


def _ordinal(place: int | None) -> str:
    if place is None:
        return "-"
    suffixes = {1: "st", 2: "nd", 3: "rd"}
    return f"{place}{suffixes.get(place if place < 20 else place % 10, 'th')}"
