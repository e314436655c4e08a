"""What is wrong with the drawing, and what the solver says about it, worked out only when
the drawing changes.

The window asks every frame; a drawing is immutable, so each answer is kept against the
drawing it was worked out for and given again until the drawing is another. A shape being
dragged changes every frame, so it gets the quick checks only, a few times a second. The
solver is asked once the drawing has been still for a moment, off the window's thread.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from racetrack.base.errors import TrackError
from racetrack.board.track import Track
from racetrack.board.track.draft import Draft, Mark
from racetrack.editing.analysis import Analysis, Analyst
from racetrack.editing.checks import problems, warnings
from racetrack.rules import RuleSet

#: Seconds the drawing must stay still before the solver is asked about it.
QUIET_BEFORE_ANALYSIS = 0.4
#: Seconds between checks of a shape being dragged (the drawing itself follows every frame).
DRAG_CHECKS_EVERY = 0.1


class Checks:
    """The checks of one editor: under its rules, for its number of cars."""

    def __init__(self, rules: RuleSet, cars: int = 2):
        self.rules = rules
        self.cars = cars
        self.analyst = Analyst()
        self.quiet = 0.0  # seconds since the drawing last changed
        self._drag_checked = 0.0
        self._cache: dict[str, tuple[Draft, Any]] = {}

    def problems(self, draft: Draft, dragged: Draft | None = None) -> list[Mark]:
        """What stops the shown drawing being raced (quickly for a drawing being dragged)."""
        if dragged is not None:
            kept = self._cache.get("dragged")
            if kept is not None and self._drag_checked < DRAG_CHECKS_EVERY:
                return kept[1]  # checked a moment ago: good enough while the shape moves
            self._drag_checked = 0.0
            return self._cached("dragged", dragged, lambda d: problems(d, thorough=False))
        return self._cached("problems", draft, problems)

    def marks(self, draft: Draft, dragged: Draft | None = None) -> list[Mark]:
        """Problems, then warnings: quick ones, and the solver's once it has answered."""
        found = self.problems(draft, dragged)
        if found or dragged is not None:
            return found
        quick = self._cached("warnings", draft, lambda d: warnings(d, self.rules, self.cars))
        analysis = self.analysis(draft)
        return [*found, *quick, *(analysis.marks if analysis else ())]

    def track(self, draft: Draft) -> Track | None:
        """The drawing as a track, when it has no problems of its own."""
        def build(drawn: Draft) -> Track | None:
            if self._cached("problems", drawn, problems):
                return None
            try:
                return drawn.to_track()
            except TrackError:
                return None

        return self._cached("track", draft, build)

    def analysis(self, draft: Draft) -> Analysis | None:
        """The solver's answer about the drawing as it is now (None until it is in)."""
        found = self.analyst.latest()
        track = self.track(draft)
        if found is None or track is None or found.track != track or found.rules != self.rules:
            return None
        return found

    def solving(self) -> bool:
        job = self.analyst.job
        return job is not None and not job.done()

    def changed(self) -> None:
        """The drawing changed: the solver waits until it is still again."""
        self.quiet = 0.0

    def hurry(self) -> None:
        """Ask the solver at the next update, without waiting for the drawing to be still."""
        self.quiet = max(self.quiet, QUIET_BEFORE_ANALYSIS)

    def update(self, dt: float, draft: Draft, dragging: bool) -> None:
        """Ask the solver about the drawing once it has been still for a moment."""
        self.quiet += dt
        self._drag_checked += dt
        if self.quiet < QUIET_BEFORE_ANALYSIS or dragging:
            return
        track = self.track(draft)
        if track is not None:
            self.analyst.ask(track, self.rules)

    def set_rules(self, rules: RuleSet, cars: int | None = None) -> None:
        self.rules = rules
        if cars is not None:
            self.cars = cars
        self._cache.pop("warnings", None)
        self.hurry()

    def close(self) -> None:
        self.analyst.close()

    def _cached(self, name: str, draft: Draft, work: Callable[[Draft], Any]) -> Any:
        kept = self._cache.get(name)
        if kept is None or kept[0] is not draft:
            kept = (draft, work(draft))
            self._cache[name] = kept
        return kept[1]
