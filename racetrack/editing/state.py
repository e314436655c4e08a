"""The editor as a state machine over the draft: what is drawn, the tool, the selection and
what the editor is waiting for, with the parts that do the work.

The window hands it pointer presses, drags and releases in lattice coordinates (with how far
the pointer reaches, in squares) and key names; it answers by changing the draft (every change
one step of undo, written to the autosave at once), by asking a question (save, discard or
cancel before unsaved work would be lost; replace an existing file; what becomes of the
drawing left unsaved last time), by asking for a text (a name, a description, a file name),
or by saying the editor should leave. Nothing here draws or knows a pixel, so every behaviour
a designer relies on is tested without a window.

Each concern has a class of its own, which this one holds and the window reaches through it:
``Document`` (the drawing, its undo history, its file and autosave), ``Checks`` (problems,
warnings and the solver), ``Hand`` (the pointer's gestures), ``Pen`` (drawing new shapes),
``Palette`` (kinds and the road's width), ``Arranging`` (the selection and its edits),
``Files`` (saving, opening, the questions) and ``press_key`` (the keys).
"""

from __future__ import annotations

from pathlib import Path

from racetrack.board.geometry import Coord
from racetrack.board.track import Track
from racetrack.board.track.draft import RESTORED, Draft, Mark, Severity, Sketch
from racetrack.editing import parts as P
from racetrack.editing.analysis import Analysis
from racetrack.editing.arranging import Arranging
from racetrack.editing.checking import Checks
from racetrack.editing.document import Document, autosave_path
from racetrack.editing.drawing import Pen
from racetrack.editing.filing import Files
from racetrack.editing.gestures import BoxSelect, DragPoint, LineDrag, MoveParts, Stroke
from racetrack.editing.keys import press_key
from racetrack.editing.palette import Palette
from racetrack.editing.pointer import Hand
from racetrack.editing.questions import Asking, Choice, Leave, Prompt, Question
from racetrack.editing.tools import Tool
from racetrack.rules import RuleSet, load_rules

__all__ = ["Asking", "BoxSelect", "Choice", "DragPoint", "EditorState", "Leave", "LineDrag",
           "MoveParts", "Prompt", "Question", "Stroke", "autosave_path"]


class EditorState:
    """The editor without its window. ``draft`` is what is drawn; ``shown`` is what to draw
    (the draft with a drag in progress applied)."""

    def __init__(self, draft: Draft | None = None, path: Path | None = None,
                 saved: Draft | None = None, rules: RuleSet | None = None, cars: int = 2,
                 autosave: Path | None = None):
        draft = draft or Draft()
        self.document = Document(draft, path, saved, autosave)
        self.tool = _tool_for(draft)
        self.selection: frozenset[P.Part] = frozenset()
        self.question: Question | None = None
        self.prompt: Prompt | None = None
        self.choosing: Leave | None = None
        self.leaving: Leave | None = None
        self.notes: list[str] = []
        self.show_route = False
        self.checks = Checks(rules or load_rules("gardner"), cars)
        self.hand = Hand(self)
        self.pen = Pen(self)
        self.palette = Palette(self, draft)
        self.arranging = Arranging(self)
        self.files = Files(self)

    # -- opening -----------------------------------------------------------------------------

    @classmethod
    def starting(cls, path: Path | None = None, rules: RuleSet | None = None, cars: int = 2,
                 autosave: Path | None = None) -> EditorState:
        """The editor as it opens: on ``path`` (a track file or a map), else on the drawing in
        progress. A drawing left unsaved last time is shown first and offered back (restore,
        keep aside, discard) before the file opens or anything is autosaved over it; with
        none, a file that cannot be read at all is ``FileProblemError``."""
        autosave = autosave or autosave_path()
        leftover, note = Document.restore(autosave)
        if leftover.dirty:  # asked about, not yet restored (a damaged one is still told)
            state = cls._of(leftover, rules, cars, "" if note == RESTORED else note)
            state.files.offer(leftover, path)
            return state
        if path is None:
            return cls._of(leftover, rules, cars, note)
        return cls.of_file(path, rules, cars, autosave)

    @classmethod
    def restore(cls, rules: RuleSet | None = None, cars: int = 2,
                autosave: Path | None = None) -> EditorState:
        """The drawing in progress from the autosave (with its pending shape and its file), or
        an empty sheet; a damaged autosave is reported and left for a look, not used."""
        document, note = Document.restore(autosave or autosave_path())
        return cls._of(document, rules, cars, note)

    @classmethod
    def of_file(cls, path: Path, rules: RuleSet | None = None, cars: int = 2,
                autosave: Path | None = None) -> EditorState:
        """The editor on a track file (``FileProblemError`` if it cannot be read at all); a
        path that does not exist yet starts an empty drawing that Ctrl+S saves there."""
        document, note = Document.of_file(path, autosave or autosave_path())
        return cls._of(document, rules, cars, note)

    @classmethod
    def _of(cls, document: Document, rules: RuleSet | None, cars: int,
            note: str = "") -> EditorState:
        state = cls(document.draft, rules=rules, cars=cars)
        state.document = document
        if note:
            state.notes.append(note)
        return state

    def adopt(self, document: Document) -> None:
        """Another drawing in place of this one (its own history), the tool to suit it."""
        self.hand.cancel()
        self.document = document
        self.selection = frozenset()
        self.tool = _tool_for(document.draft)
        if document.draft.sketch is not None:
            self.palette.take_up(document.draft.sketch)
        self._changed()

    def start_over(self, draft: Draft, path: Path | None, saved: Draft | None = None) -> None:
        """A file opened, a template: a fresh history, the autosave with it."""
        self.hand.cancel()
        self.document.start_over(draft, path, saved)
        self.selection = frozenset()
        self.tool = Tool.SELECT if draft.outer else Tool.ROAD
        self._changed()

    # -- what there is -----------------------------------------------------------------------

    @property
    def draft(self) -> Draft:
        return self.document.draft

    @property
    def history(self):
        return self.document.history

    @property
    def path(self) -> Path | None:
        return self.document.path

    @path.setter
    def path(self, value: Path | None) -> None:
        self.document.path = value

    @property
    def shown(self) -> Draft:
        preview = self.hand.preview
        return preview if preview is not None else self.draft

    @property
    def dirty(self) -> bool:
        """Whether closing now would lose work: the drawing differs from its file."""
        return self.document.dirty

    @property
    def waiting(self) -> bool:
        """Whether a question, a text or a choice of track is open (the drawing waits)."""
        return bool(self.question or self.prompt or self.choosing)

    @property
    def rules(self) -> RuleSet:
        return self.checks.rules

    def problems(self) -> list[Mark]:
        """What stops the shown drawing being raced."""
        return self.checks.problems(self.draft, self.hand.preview)

    def marks(self) -> list[Mark]:
        """Problems, then warnings, the solver's among them once it has answered."""
        return self.checks.marks(self.draft, self.hand.preview)

    def track(self) -> Track | None:
        """The drawing as a track, when it has no problems of its own."""
        return self.checks.track(self.draft)

    def analysis(self) -> Analysis | None:
        return self.checks.analysis(self.draft)

    def raceable(self) -> bool:
        """A track with no problem, the solver's (start places that cannot finish) too."""
        return self.track() is not None and not any(
            m.severity is Severity.PROBLEM for m in self.marks())

    # -- time --------------------------------------------------------------------------------

    def update(self, dt: float) -> None:
        self.checks.update(dt, self.draft, dragging=self.hand.gesture is not None)

    def set_rules(self, rules: RuleSet, cars: int | None = None) -> None:
        self.checks.set_rules(rules, cars)

    def close(self) -> None:
        self.checks.close()

    # -- changing the drawing ------------------------------------------------------------------

    def commit(self, draft: Draft, amend: bool = False) -> None:
        """One step of undo (with ``amend``, the last step replaced): the new drawing,
        checked and autosaved."""
        self.document.push(draft, amend)
        self._changed()

    def _changed(self) -> None:
        self.selection = frozenset(p for p in self.selection if P.exists(self.draft, p))
        self.checks.changed()

    def undo(self) -> None:
        self.hand.cancel()
        if self.document.undo():
            self._after_time_travel()

    def redo(self) -> None:
        self.hand.cancel()
        if self.document.redo():
            self._after_time_travel()

    def _after_time_travel(self) -> None:
        sketch = self.draft.sketch
        if sketch is not None:  # carry on drawing the shape that came back
            self.tool = Tool(sketch.tool)
            self.palette.take_up(sketch)
        self._changed()

    def set_tool(self, tool: Tool) -> None:
        self.hand.cancel()
        sketch = self.draft.sketch
        if sketch is not None and sketch.tool != tool.value:
            self.commit(self.draft.with_changes(sketch=None))
            if len(sketch.points) > 1:
                self.notes.append("The unfinished shape was put away (Ctrl+Z brings it back)")
        self.tool = tool

    def escape(self) -> None:
        """Esc backs out one level: a drag, the shape being drawn, the selection, the editor."""
        if self.hand.gesture is not None:
            self.hand.cancel()
        elif self.pen.cancel_sketch():
            pass
        elif self.selection:
            self.selection = frozenset()
        else:
            self.request(Leave.MENU)

    # -- what the window hands on ----------------------------------------------------------------

    def press(self, at: Coord, button: int = 1, half: bool = False, adding: bool = False) -> None:
        self.hand.press(at, button, half, adding)

    def drag(self, at: Coord, half: bool = False) -> None:
        self.hand.drag(at, half)

    def release(self, at: Coord, half: bool = False) -> None:
        self.hand.release(at, half)

    def key(self, name: str, ctrl: bool = False, shift: bool = False) -> bool:
        """A key press; False when the editor's core has no use for it (the window may)."""
        return press_key(self, name, ctrl, shift)

    def request(self, leave: Leave) -> None:
        """Something would replace the drawing: ask first if that loses work."""
        self.files.request(leave)

    def answer(self, choice: Choice) -> None:
        self.files.answer(choice)

    def answer_prompt(self, text: str | None) -> None:
        self.files.answer_prompt(text)

    def open(self, path: Path) -> bool:
        return self.files.open(path)

    def new_from(self, template: Path | None) -> bool:
        return self.files.new_from(template)


def _tool_for(draft: Draft) -> Tool:
    """The tool to carry on with: the shape being drawn's, else select on a track, else the
    road on an empty sheet."""
    sketch: Sketch | None = draft.sketch
    if sketch is not None and sketch.tool in {t.value for t in Tool}:
        return Tool(sketch.tool)
    return Tool.SELECT if draft.outer else Tool.ROAD
