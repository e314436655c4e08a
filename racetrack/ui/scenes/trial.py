"""The end of a time trial: the turns taken against the best and the par, on the finished sheet.

"Show ghost" lays the solver's optimal line (pale, dashed) and the best run's line over the run
just driven, so the player can see where the turns were lost. The par is worked out off the
frame; once known it is remembered with the record. The run is recorded off the frame too
(``recording``, a ``Saving`` whose value is the run's result): the headline says "New best!"
once the records file has taken it, and the par is noted after that, never before.
"""

from __future__ import annotations

from pathlib import Path

import pygame

from racetrack.games.race import RaceState
from racetrack.games.records import (
    Record,
    RunResult,
    TrialKey,
    note_par,
    race_trial_track,
    read_records,
    run_path,
)
from racetrack.ui import theme
from racetrack.ui.input import Intent, Key
from racetrack.ui.loading import Loading
from racetrack.ui.par import ParWorker
from racetrack.ui.render.ghost import OPTIMAL, draw_ghost
from racetrack.ui.saving import Saving
from racetrack.ui.scenes.results import ResultsScene


class TrialResultsScene(ResultsScene):
    """Results of a one-car race driven by a person."""

    def __init__(self, app, state: RaceState, rematch, saved: Path | None = None,
                 recording: Saving | None = None):
        race = state.race
        self.result: RunResult | None = None  # the run as recorded (None: not finished, or
        # not recorded yet, or it could not be)
        self.recording = recording  # None: nothing to record (the run did not finish)
        self.noting: Saving | None = None  # the par, noted once known and recorded
        self.problem = ""  # one line about the records file, if anything went wrong
        self.ghost_shown = False
        self.recorded = recording is None  # the record has landed (or there is none)
        self.key = TrialKey.of(race_trial_track(race), race.rules)
        self.record: Record | None = None
        self.best_path: list = []
        self._read_records(race)
        self.worker = ParWorker()
        self.par_job = self.worker.ask(race_trial_track(race), race.rules, self.key)
        self.par_noted = False
        super().__init__(app, state, rematch, saved)
        self.ghost_button = None

    # -- layout and actions ---------------------------------------------------------------

    def actions(self):
        words = "Hide ghost" if self.ghost_shown else "Show ghost"
        return [(words, self.toggle_ghost, None), *super().actions()]

    def layout(self, page, width: int, height: int) -> None:
        super().layout(page, width, height)
        self.ghost_button = page.widgets[0]

    def header_height(self) -> int:
        return theme.px(134)

    def place_sheet(self, width: int, height: int) -> None:
        """One car: the sheet takes the whole width under the header."""
        self.ranking = pygame.Rect(0, 0, 0, 0)
        self.view = pygame.Rect(theme.px(16), self.header, width - theme.px(32),
                                height - theme.px(80) - self.header)
        self.camera.width, self.camera.height = self.view.w, max(1, self.view.h)
        self.camera.offset_x, self.camera.offset_y = self.view.x, self.view.y
        self.camera.fit(self.state.race.track.bounds, margin=1.0)
        self.camera.scale = min(self.camera.scale, self.sheet.max_scale)

    def toggle_ghost(self) -> None:
        self.ghost_shown = not self.ghost_shown
        if self.ghost_button is not None:
            self.ghost_button.text = "Hide ghost" if self.ghost_shown else "Show ghost"

    def on_intent(self, intent: Intent) -> None:
        if isinstance(intent, Key) and intent.name == "g":
            self.toggle_ghost()

    def to_menu(self) -> None:
        self.worker.close()
        super().to_menu()

    def _read_records(self, race) -> None:
        """Start reading the best run here (and its line, for the ghost) as the records file
        has it now, off the frame: the file may hold thousands of runs."""
        key, track, rules = self.key, race_trial_track(race), race.rules

        def best() -> tuple[Record | None, list, str]:
            table, unreadable = read_records()
            record = table.find(key)
            return (record, run_path(track, rules, record.moves) if record else [],
                    unreadable)

        self.reading = Loading(best, (None, [], ""))

    def _take_records(self) -> None:
        if self.reading is None or not self.reading.done:
            return
        self.record, self.best_path, unreadable = self.reading.value
        unreadable = unreadable or self.reading.problem
        if not self.problem and unreadable:
            self.problem = f"The records file is damaged: {unreadable}"
        self.reading = None

    def update(self, dt: float) -> None:
        super().update(dt)
        self._take_records()
        if not self.recorded and self.recording.done:
            self.recorded = True
            self.result = self.recording.value
            self.problem = self.recording.problem
            if self.result is not None and self.result.kept_aside is not None:
                self.problem = f"The damaged records file was kept as " \
                               f"{self.result.kept_aside.name}"
            self._read_records(self.state.race)
        if self.par_noted or not self.par_job.done() or not self.recorded \
                or self.reading is not None:
            return
        self.par_noted = True
        turns = self.par_job.result().turns
        if self.record is not None and turns is not None and self.record.par != turns:
            track, rules = race_trial_track(self.state.race), self.state.race.rules
            self.noting = Saving(lambda: note_par(track, rules, turns),
                                 failure="Could not note the par")

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
        best = self.record
        best_text = f"best {best.best} ({best.player}, {best.date})" if best else "no best yet"
        where = f"{race.track.name} · {race.rules.name} rules"
        if result is None:
            outcome = self.state.outcome
            return "Did not finish", f"{where} · {race.cars[0].name} · {outcome.reason} · " \
                f"{best_text} · {self.par_text}"
        turns = f"{result.turns} turn{'s' if result.turns != 1 else ''}"
        if result.new_best and result.previous is not None:
            big, small = f"New best! {turns}", f"{result.previous - result.turns} better " \
                f"than {result.previous}"
        elif result.new_best:
            big, small = f"New best! {turns}", "the first finished run here"
        else:
            big, small = f"{turns}", f"{result.turns - result.best} more than the best"
        return big, f"{where} · {small} · {best_text} · {self.par_text}"

    def note(self) -> str:
        notes = []
        if self.ghost_shown:
            notes.append("dashed grey: the solver's optimal line · pale dashes: the best run")
        if self.problem:
            notes.append(self.problem[:140])
        elif self.saved_to:
            notes.append(self.saved_to)
        return " · ".join(notes)

    def draw_paper(self, surface: pygame.Surface) -> None:
        fresh = self.result is not None and self.result.new_best
        if fresh:
            big, _ = self.headline()
            banner = theme.ui_font(56, bold=True).render(big, True, theme.palette().ink)
            box = banner.get_rect(midtop=(surface.get_width() // 2, theme.px(14)))
            pygame.draw.rect(surface, theme.HIGHLIGHT, box.inflate(theme.px(36), theme.px(8)),
                             border_radius=10)
        super().draw_paper(surface)

    def draw_ranking(self, surface: pygame.Surface) -> None:
        """One car: the headline says it all."""

    def picture_key(self) -> tuple:
        return (self.ghost_shown, self.ghost_shown and self.par_job.done())

    def draw_under_trails(self, surface: pygame.Surface) -> None:
        if not self.ghost_shown:
            return
        colours = theme.palette()
        solution = self.par_job.result().solution if self.par_job.done() else None
        if solution is not None:
            draw_ghost(surface, self.camera, solution.path, OPTIMAL, steps=solution.steps)
        if len(self.best_path) > 1:
            setup = self.state.race.cars[0]
            draw_ghost(surface, self.camera, self.best_path,
                       theme.pale(colours.pencil(self._best_colour(setup.colour))), dash=5.0)

    @staticmethod
    def _best_colour(colour: str) -> str:
        """The best run's pencil: green, unless this run is drawn in green."""
        return "green" if colour != "green" else "blue"
