"""The end of a race: the winner and the ranking beside the finished race sheet (every trail on
the paper, as the time trial shows it), then rematch (or on with the series), watch the replay,
save it (only if the automatic save failed) or back to the menu."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame

from racetrack import archive
from racetrack.game import RaceState
from racetrack.model import CarStatus, team_standings
from racetrack.replay import load_replay
from racetrack.ui import theme
from racetrack.ui.gui import Page
from racetrack.ui.render import cars as draw_cars
from racetrack.ui.render.camera import Camera
from racetrack.ui.render.sheet import SheetCache
from racetrack.ui.render.words import shorten
from racetrack.ui.saving import Saving
from racetrack.ui.scenes.form import FormScene


class ResultsScene(FormScene):
    idles = True
    caption = "Results"

    def __init__(self, app, state: RaceState, rematch, saved: Saving | Path | None = None,
                 proceed: tuple[str, Callable[[], None]] | None = None):
        super().__init__(app)
        self.state = state
        self.rematch = rematch  # callable: start the same race again
        self.proceed = proceed  # instead of the rematch: a label and what it does (a series)
        # The replay being written behind the screen (a path: written already; None: the
        # automatic save failed).
        self.saving = saved if isinstance(saved, Saving) else Saving.finished(
            saved, "" if saved else "The replay could not be saved automatically")
        self.saved: Path | None = None
        self.saved_to = "Saving the replay…"
        self._saving_shown = False
        self._take_saving()
        self.sheet = SheetCache(state.race.course)
        self.camera = Camera(followed=False)
        self.trails = draw_cars.TrailCache()
        self.view = pygame.Rect(0, 0, 0, 0)
        self._picture: tuple[tuple, pygame.Surface] | None = None  # (what it shows, it)
        self._drawing: tuple[tuple, pygame.Surface] | None = None  # half drawn
        self.ranking = pygame.Rect(0, 0, 0, 0)
        self.header = 0

    # -- layout and actions ---------------------------------------------------------------

    def actions(self) -> list[tuple[str, Callable[[], None], str | None]]:
        found: list[tuple[str, Callable[[], None], str | None]] = []
        found.append((*(self.proceed or ("Rematch", self.rematch)), "primary"))
        if self.saved is not None or not self.saving.done:
            found.append(("Watch replay", self.watch, None))  # usable once saved
        else:
            found.append(("Save replay", self.save, None))
        found.append(("Back to menu", self.to_menu, None))
        return found

    def layout(self, page: Page, width: int, height: int) -> None:
        actions = self.actions()
        button = (min(theme.px(210), (width - theme.px(40)) // len(actions) - theme.px(12)),
                  theme.px(50))
        total = len(actions) * button[0] + (len(actions) - 1) * theme.px(16)
        x = width // 2 - total // 2
        y = height - theme.px(66)
        for text, action, style in actions:
            page.button((x, y, *button), text, action, style=style or "big",
                        enabled=action != self.watch or self.saved is not None)
            x += button[0] + theme.px(16)
        self.header = self.header_height()
        self.place_sheet(width, height)

    def header_height(self) -> int:
        return theme.px(110) + (theme.px(26) if self.state.race.rules.teams_scoring != "none"
                                else 0)

    def place_sheet(self, width: int, height: int) -> None:
        """The race sheet takes what the ranking leaves: right of it on a wide window,
        below it on a narrow one."""
        rows = len(self.state.race.cars)
        ranking_width = min(theme.px(400), width // 2)
        side = width >= theme.px(900)
        top = self.header
        bottom = height - theme.px(80)
        if side:
            self.ranking = pygame.Rect(theme.px(16), top, ranking_width, bottom - top)
            self.view = pygame.Rect(self.ranking.right + theme.px(16), top,
                                    width - self.ranking.right - theme.px(32), bottom - top)
        else:
            row = theme.px(44)
            self.ranking = pygame.Rect(theme.px(16), top, width - theme.px(32), row * rows)
            self.view = pygame.Rect(theme.px(16), self.ranking.bottom + theme.px(8),
                                    width - theme.px(32),
                                    bottom - self.ranking.bottom - theme.px(8))
        self.camera.width, self.camera.height = self.view.w, max(1, self.view.h)
        self.camera.offset_x, self.camera.offset_y = self.view.x, self.view.y
        self.camera.fit(self.state.race.track.bounds, margin=1.0)
        self.camera.scale = min(self.camera.scale, self.sheet.max_scale)

    def save(self) -> None:
        """Save the replay (the automatic save failed), behind the screen, and say where."""
        self.saving = Saving(lambda: archive.save_finished(self.state))
        self.saved_to = "Saving the replay…"
        self._saving_shown = False

    def _take_saving(self) -> None:
        """Once the replay is on disk (or could not be written), say so and offer it."""
        if self._saving_shown or not self.saving.done:
            return
        self._saving_shown = True
        self.saved = self.saving.path
        if self.saved is not None:
            self.saved_to = f"Replay saved as {self.saved.name}"
        else:
            self.saved_to = self.saving.problem or "The replay could not be saved"
        self.relayout()

    @property
    def animating(self) -> bool:
        """While the finished race's picture is being drawn (two frames)."""
        return self.view.w > 0 and self.view.h > 0 and (self._picture is None
                                                         or self._drawing is not None)

    def update(self, dt: float) -> None:
        self._take_saving()
        laid_out = self._laid_out
        super().update(dt)
        if self._laid_out == laid_out:  # not on the frame that laid the screen out
            self._draw_picture()

    def flush(self) -> None:
        """The window is closing: let the replay reach the disk."""
        self.saving.wait(timeout=10)

    def watch(self) -> None:
        try:
            self.app.routes.watch(load_replay(self.saved))
        except (ValueError, OSError) as exc:
            self.saved_to = f"Could not open the replay: {exc}"

    def to_menu(self) -> None:
        self.app.routes.menu()

    def back(self) -> None:
        self.to_menu()

    # -- drawing --------------------------------------------------------------------------

    def headline(self) -> tuple[str, str]:
        """The big line and the line under it."""
        outcome = self.state.outcome
        race = self.state.race
        winner = race.cars[outcome.winner].name if outcome.winner is not None else None
        return (f"{winner} wins!" if winner else "No winner",
                f"{race.track.name} · {race.rules.name} rules · {outcome.rounds} turns · "
                f"{outcome.reason}")

    def draw_paper(self, surface: pygame.Surface) -> None:
        width = surface.get_width()
        big, small = self.headline()
        title = theme.ui_font(56, bold=True).render(big, True, theme.palette().ink)
        surface.blit(title, title.get_rect(midtop=(width // 2, theme.px(14))))
        info = theme.ui_font(22).render(small, True, theme.MUTED)
        surface.blit(info, info.get_rect(midtop=(width // 2, theme.px(62))))
        note = theme.ui_font(18).render(self.note(), True, theme.MUTED)
        surface.blit(note, note.get_rect(midtop=(width // 2, theme.px(86))))
        race = self.state.race
        if race.rules.teams_scoring != "none":
            out = frozenset(i for i, car in enumerate(self.state.cars)
                            if car.status is CarStatus.OUT)
            teams = team_standings(race.cars, self.state.outcome.ranking, out,
                                   race.rules.team_points)
            text = "Teams: " + ",  ".join(f"{team} {points}" for team, points in teams)
            line = theme.ui_font(24, bold=True).render(text, True, theme.TEXT)
            surface.blit(line, line.get_rect(midtop=(width // 2, theme.px(108))))
        self.draw_sheet(surface)
        self.draw_ranking(surface)

    def note(self) -> str:
        return self.saved_to

    def _draw_picture(self) -> None:
        """The finished race on its paper, every trail and car, drawn into a picture of its
        own (the race is over: nothing on it moves) and again only when the layout or what
        is shown over it changes. It is drawn in two steps on two frames after the one
        that laid the screen out (the sheet, then the trails and cars), so no frame at the
        end of a race carries the whole of it."""
        if self.view.w <= 0 or self.view.h <= 0:
            return
        key = (tuple(self.view), self.camera.scale, self.picture_key())
        if self._picture is not None and self._picture[0] == key:
            return
        if self._drawing is None or self._drawing[0] != key:
            picture = pygame.Surface(self.view.size).convert()
            self.camera.offset_x, self.camera.offset_y = 0, 0
            picture.fill(theme.palette().paper)
            self.sheet.draw(picture, self.camera)
            self._drawing = (key, picture)
        else:
            picture = self._drawing[1]
            self.camera.offset_x, self.camera.offset_y = 0, 0
            self.draw_under_trails(picture)
            draw_cars.draw_trails(picture, self.state, self.camera, cache=self.trails)
            draw_cars.draw_cars(picture, self.state, self.camera)
            self._picture, self._drawing = (key, picture), None
        self.camera.offset_x, self.camera.offset_y = self.view.x, self.view.y

    def draw_sheet(self, surface: pygame.Surface) -> None:
        """The finished race's picture (plain paper for the frame or two it is drawn in)."""
        if self.view.w <= 0 or self.view.h <= 0:
            return
        if self._picture is not None and self._picture[1].get_size() == self.view.size:
            surface.blit(self._picture[1], self.view)
        else:
            surface.fill(theme.palette().paper, self.view)
        pygame.draw.rect(surface, theme.PANEL_EDGE, self.view, 2)

    def picture_key(self) -> tuple:
        """What the finished sheet's picture shows besides the race (the trial's ghosts)."""
        return ()

    def draw_under_trails(self, surface: pygame.Surface) -> None:
        """Lines under the trails (the time trial's ghosts)."""

    def draw_ranking(self, surface: pygame.Surface) -> None:
        """Each car's place, pencil, name and level, and how it ended."""
        race, outcome = self.state.race, self.state.outcome
        colours = theme.palette()
        rows = len(outcome.ranking)
        row_height = min(theme.px(64), max(theme.px(40), self.ranking.h // max(1, rows)))
        equipped = race.rules.equipment_shop != "none" or race.rules.collectables != "ignored"
        for place, index in enumerate(outcome.ranking, start=1):
            setup, car = race.cars[index], self.state.cars[index]
            if car.finish:
                how = f"finished turn {car.finish.round}, {car.finish.past + 0.0:.1f} past"
            else:
                how = car.status.value
            row = pygame.Rect(self.ranking.x, self.ranking.y + (place - 1) * row_height,
                              self.ranking.w, row_height - theme.px(6))
            pygame.draw.rect(surface, theme.HIGHLIGHT if place == 1 and outcome.winner
                             is not None else theme.PANEL, row, border_radius=8)
            pygame.draw.rect(surface, theme.PANEL_EDGE, row, 1, border_radius=8)
            number = theme.ui_font(30, bold=True).render(f"{place}.", True, theme.TEXT)
            surface.blit(number, number.get_rect(midleft=(row.x + theme.px(10),
                                                          row.centery)))
            pygame.draw.circle(surface, colours.pencil(setup.colour),
                               (row.x + theme.px(52), row.centery), theme.px(9))
            name = setup.name + ("" if setup.is_human else f" ({setup.driver})")
            x = row.x + theme.px(68)
            label = theme.ui_font(23, bold=True).render(name, True, theme.TEXT)
            surface.blit(label, label.get_rect(bottomleft=(x, row.centery + theme.px(2))))
            kit = f" · left: {car.kit.describe()}" if equipped else ""
            detail = f"{how} · {car.moves} moves · damage {car.damage}{kit}"
            font = theme.ui_font(18)
            text = font.render(shorten(detail, font, row.right - x - theme.px(8)), True,
                               theme.MUTED)
            surface.blit(text, text.get_rect(topleft=(x, row.centery + theme.px(2))))
