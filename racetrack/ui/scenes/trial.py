"""The end of a time trial: the turns taken against the best and the par, on the finished sheet.

"Show ghost" lays the solver's optimal line (pale, dashed) and the best run's line over the run
just driven, so the player can see where the turns were lost. The par is worked out off the
frame; once known it is remembered with the record.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import pygame

from racetrack.game import RaceState
from racetrack.records import (
    RunResult,
    TrialKey,
    note_par,
    race_trial_track,
    read_records,
    run_path,
)
from racetrack.ui import theme
from racetrack.ui.input import Intent, Key
from racetrack.ui.par import ParWorker
from racetrack.ui.render import cars as draw_cars
from racetrack.ui.render.camera import Camera
from racetrack.ui.render.ghost import OPTIMAL, draw_ghost
from racetrack.ui.render.sheet import SheetCache
from racetrack.ui.scenes.results import ResultsScene
from racetrack.ui.widgets import Button, title

HEADER = 172
FOOTER = 96


class TrialResultsScene(ResultsScene):
    """Results of a one-car race driven by a person."""

    def __init__(self, app, state: RaceState, rematch, saved: Path | None = None,
                 result: RunResult | None = None, problem: str = ""):
        race = state.race
        self.result = result  # None: the run did not finish (or could not be recorded)
        track = race_trial_track(race)
        self.key = TrialKey.of(track, race.rules)
        table, unreadable = read_records()
        self.record = table.find(self.key)
        if not problem and unreadable:
            problem = f"The records file is damaged: {unreadable}"
        if not problem and result is not None and result.kept_aside is not None:
            problem = f"The damaged records file was kept as {result.kept_aside.name}"
        self.problem = problem  # one line about the records file, if anything went wrong
        self.ghost_shown = False
        self.best_path = (run_path(track, race.rules, self.record.moves)
                          if self.record is not None else [])
        self.worker = ParWorker()
        self.par_job = self.worker.ask(track, race.rules, self.key)
        self.par_noted = False
        self.sheet = SheetCache(race.course)
        self.camera = Camera(followed=False)
        super().__init__(app, state, rematch, saved)

    # -- layout and actions ---------------------------------------------------------------

    def _layout(self) -> None:
        width, height = self.app.size
        actions = [("Show ghost", self.toggle_ghost), ("Rematch", self.rematch),
                   ("Save replay", self.save), ("Back to menu", self.to_menu)]
        left = width // 2 - (len(actions) * 220 - 20) // 2
        self.form.widgets = [Button(pygame.Rect(left + i * 220, height - FOOTER + 22, 200, 52),
                                    text=text, action=action)
                             for i, (text, action) in enumerate(actions)]
        self.form.widgets[0].text = "Hide ghost" if self.ghost_shown else "Show ghost"
        self.camera.width, self.camera.height = width - 40, height - HEADER - FOOTER
        self.camera.offset_x, self.camera.offset_y = 20, HEADER
        self.camera.fit(self.state.race.track.bounds, margin=1.0)
        self.camera.scale = min(self.camera.scale, self.sheet.max_scale)

    def toggle_ghost(self) -> None:
        self.ghost_shown = not self.ghost_shown
        self.form.widgets[0].text = "Hide ghost" if self.ghost_shown else "Show ghost"

    def handle(self, intent: Intent) -> None:
        if isinstance(intent, Key) and intent.name == "escape":
            self.to_menu()
            return
        if isinstance(intent, Key) and intent.name == "g":
            self.toggle_ghost()
            return
        if self.form.widgets[0].rect.y != self.app.size[1] - FOOTER + 22:
            self._layout()
        self.form.handle(intent)

    def to_menu(self) -> None:
        self.worker.close()
        super().to_menu()

    def update(self, dt: float) -> None:
        if self.par_noted or not self.par_job.done():
            return
        self.par_noted = True
        turns = self.par_job.result().turns
        if self.record is not None and turns is not None and self.record.par != turns:
            with contextlib.suppress(OSError):
                note_par(race_trial_track(self.state.race), self.state.race.rules, turns)

    # -- drawing --------------------------------------------------------------------------

    @property
    def par_text(self) -> str:
        if self.par_job.done() and self.par_job.result().turns is not None:
            return f"par {self.par_job.result().turns}"
        if self.result is not None and self.result.par is not None:
            return f"par {self.result.par}"
        return ParWorker.status(self.par_job)

    def headline(self) -> tuple[str, str]:
        """The big line and the line under it."""
        race = self.state.race
        result = self.result
        if result is None:
            outcome = self.state.outcome
            return "Did not finish", f"{race.cars[0].name} · {outcome.reason}"
        turns = f"{result.turns} turn{'s' if result.turns != 1 else ''}"
        if result.new_best and result.previous is not None:
            return f"New best! {turns}", f"{result.previous - result.turns} better than " \
                                         f"{result.previous}"
        if result.new_best:
            return f"New best! {turns}", "the first finished run here"
        return f"{turns}", f"{result.turns - result.best} more than the best"

    def draw(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        colours = theme.palette()
        surface.fill(theme.PANEL)
        clip = surface.get_clip()
        view = pygame.Rect(self.camera.offset_x, HEADER, self.camera.width, self.camera.height)
        surface.set_clip(view)
        surface.fill(colours.paper, view)
        self.sheet.draw(surface, self.camera)
        if self.ghost_shown:
            solution = self.par_job.result().solution if self.par_job.done() else None
            if solution is not None:
                draw_ghost(surface, self.camera, solution.path, OPTIMAL)
            if len(self.best_path) > 1:
                setup = self.state.race.cars[0]
                draw_ghost(surface, self.camera, self.best_path,
                           theme.pale(colours.pencil(self._best_colour(setup.colour))), dash=5.0)
        draw_cars.draw_trails(surface, self.state, self.camera)
        draw_cars.draw_cars(surface, self.state, self.camera)
        surface.set_clip(clip)
        pygame.draw.rect(surface, theme.PANEL_EDGE, view, 2)

        big, small = self.headline()
        fresh = self.result is not None and self.result.new_best
        if fresh:
            banner = theme.font(60, bold=True).render(big, True, colours.ink)
            box = banner.get_rect(center=(width // 2, 52)).inflate(36, 12)
            pygame.draw.rect(surface, theme.HIGHLIGHT, box, border_radius=10)
        title(surface, big, (width // 2, 52), 60)
        race = self.state.race
        best = self.record
        best_text = f"best {best.best} ({best.player}, {best.date})" if best else "no best yet"
        info = (f"{race.track.name} · {race.rules.name} rules · {small} · {best_text} · "
                f"{self.par_text}")
        line = theme.font(26).render(info, True, theme.TEXT)
        surface.blit(line, line.get_rect(center=(width // 2, 100)))
        notes = []
        if self.ghost_shown:
            notes.append("dashed grey: the solver's optimal line · pale dashes: the best run")
        if self.problem:
            notes.append(self.problem[:140])
        elif self.saved_to:
            notes.append(self.saved_to)
        for i, note in enumerate(notes[:2]):
            text = theme.font(21).render(note, True, theme.MUTED)
            surface.blit(text, text.get_rect(center=(width // 2, 130 + i * 20)))
        self.form.draw(surface)

    @staticmethod
    def _best_colour(colour: str) -> str:
        """The best run's pencil: green, unless this run is drawn in green."""
        return "green" if colour != "green" else "blue"
