"""The end of a race: the ranking, then rematch, save the replay, or back to the menu."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame

from racetrack import archive
from racetrack.game import RaceState
from racetrack.model import CarStatus, team_standings
from racetrack.ui import theme
from racetrack.ui.input import Intent, Key
from racetrack.ui.widgets import Button, Form, paper_background, title


class ResultsScene:
    def __init__(self, app, state: RaceState, rematch, saved: Path | None = None,
                 proceed: tuple[str, Callable[[], None]] | None = None):
        self.app = app
        self.state = state
        self.rematch = rematch  # callable: start the same race again
        self.proceed = proceed  # instead of the rematch: a label and what it does (a series)
        self.saved = saved
        self.saved_to: str = f"Replay saved as {saved.name}" if saved else ""
        self.form = Form()
        self._layout()

    def _layout(self) -> None:
        width, height = self.app.size
        actions = [self.proceed or ("Rematch", self.rematch), ("Save replay", self.save),
                   ("Back to menu", self.to_menu)]
        self.form.widgets = [Button(pygame.Rect(width // 2 - 330 + i * 230, height - 120, 200,
                                                52), text=text, action=action)
                             for i, (text, action) in enumerate(actions)]

    def save(self) -> None:
        """Save the replay (again, if the automatic save failed) and say where it is."""
        try:
            if self.saved is None or not self.saved.exists():
                self.saved = archive.save_finished(self.state)
            self.saved_to = f"Replay saved to {self.saved}"
        except OSError as exc:
            self.saved_to = f"Could not save: {exc.strerror or exc}"

    def to_menu(self) -> None:
        from racetrack.ui.scenes.menu import MenuScene

        self.app.reset(MenuScene(self.app))

    def handle(self, intent: Intent) -> None:
        if isinstance(intent, Key) and intent.name == "escape":
            self.to_menu()
            return
        if self.form.widgets[0].rect.y != self.app.size[1] - 120:
            self._layout()
        self.form.handle(intent)

    def update(self, dt: float) -> None:
        pass

    def draw(self, surface: pygame.Surface) -> None:
        paper_background(surface)
        width = surface.get_width()
        outcome = self.state.outcome
        race = self.state.race
        winner = race.cars[outcome.winner].name if outcome.winner is not None else "Nobody"
        title(surface, f"{winner} wins!" if outcome.winner is not None else "No winner",
              (width // 2, 80))
        info = theme.font(26).render(f"{race.track.name} · {race.rules.name} rules · "
                                     f"{outcome.rounds} turns · {outcome.reason}", True,
                                     theme.MUTED)
        surface.blit(info, info.get_rect(center=(width // 2, 130)))
        colours = theme.palette()
        y = 180
        if race.rules.teams_scoring != "none":
            out = frozenset(i for i, car in enumerate(self.state.cars)
                            if car.status is CarStatus.OUT)
            teams = team_standings(race.cars, outcome.ranking, out)
            text = "Teams: " + ",  ".join(f"{team} {points}" for team, points in teams)
            line = theme.font(28, bold=True).render(text, True, theme.TEXT)
            surface.blit(line, line.get_rect(center=(width // 2, 164)))
            y = 196
        for place, index in enumerate(outcome.ranking, start=1):
            setup, car = race.cars[index], self.state.cars[index]
            if car.finish:
                how = f"finished in turn {car.finish.round}, {car.finish.past:.1f} past the line"
            else:
                how = car.status.value
            row = pygame.Rect(width // 2 - 330, y, 660, 48)
            pygame.draw.rect(surface, theme.PANEL, row, border_radius=8)
            pygame.draw.rect(surface, theme.PANEL_EDGE, row, 1, border_radius=8)
            pygame.draw.circle(surface, colours.pencil(setup.colour), (row.x + 60, row.centery),
                               12)
            surface.blit(theme.font(34, bold=True).render(f"{place}.", True, theme.TEXT),
                         (row.x + 14, row.y + 12))
            name = setup.name + ("" if setup.is_human else f" ({setup.driver})")
            surface.blit(theme.font(30).render(name, True, theme.TEXT), (row.x + 84, row.y + 6))
            equipped = race.rules.equipment_shop != "none" or race.rules.collectables != \
                "ignored"
            kit = f" · left: {car.kit.describe()}" if equipped else ""
            surface.blit(theme.font(22).render(f"{how} · {car.moves} moves · damage "
                                               f"{car.damage}{kit}", True, theme.MUTED),
                         (row.x + 84, row.y + 28))
            y += 56
        if self.saved_to:
            note = theme.font(22).render(self.saved_to, True, theme.TEXT)
            surface.blit(note, note.get_rect(center=(width // 2, surface.get_height() - 150)))
        self.form.draw(surface)
