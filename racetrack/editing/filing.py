"""The editor's files and the questions that guard them: saving (asking for a name the first
time, and before replacing another file), opening, starting anew from a template, and
leaving; each asks first when the drawing has unsaved work.

And the drawing left unsaved last time (the editor was closed without saving, or the game
was killed): it is in the autosave, and the editor never writes over it before offering it
back, to restore, to keep aside as a file of its own, or to discard.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from racetrack.base.errors import FileProblemError
from racetrack.base.files import file_in, safe_name
from racetrack.base.settings import tracks_dir
from racetrack.board.track.draft import Draft, Severity, load_draft, save_draft
from racetrack.editing.document import Document
from racetrack.editing.files import open_drawing
from racetrack.editing.questions import Asking, Choice, Leave, Prompt, Question

if TYPE_CHECKING:
    from racetrack.editing.state import EditorState

log = logging.getLogger(__name__)

#: How the question about last time's drawing is answered.
OFFER = (Choice.RESTORE, Choice.KEEP_ASIDE, Choice.DISCARD)


class Files:
    def __init__(self, editor: EditorState):
        self.editor = editor
        self.leftover: Document | None = None  # last time's drawing, while it is offered
        self._autosave: Path | None = None  # where the autosave goes once it is answered

    # -- texts ----------------------------------------------------------------------------

    def ask(self, asking: Asking, text: str, then: Leave | None = None) -> None:
        self.editor.prompt = Prompt(asking, text, then)

    def ask_file_name(self, then: Leave | None = None) -> None:
        self.ask(Asking.SAVE_AS, self.editor.draft.name, then)

    def answer_prompt(self, text: str | None) -> None:
        """The text asked for (None: cancelled)."""
        editor = self.editor
        prompt, editor.prompt = editor.prompt, None
        if prompt is None or text is None:
            return
        text = text.strip()
        if prompt.asking is Asking.NAME and text:
            editor.commit(editor.draft.with_changes(name=text))
        elif prompt.asking is Asking.DESCRIPTION:
            editor.commit(editor.draft.with_changes(description=text))
        elif prompt.asking is Asking.SAVE_AS:
            self.save_as(text, prompt.then)

    # -- saving ---------------------------------------------------------------------------

    def save(self) -> bool:
        """Ctrl+S: write the drawing to its file (asking for a name the first time)."""
        if self.editor.path is None:
            self.ask_file_name()
            return False
        return self.write(self.editor.path)

    def save_as(self, name: str, then: Leave | None = None) -> None:
        editor = self.editor
        if not safe_name(name):
            editor.notes.append("A file name needs letters or digits")
            self.ask_file_name(then)
            return
        if editor.draft.name in ("New track", "", "Untitled") or editor.path is None:
            editor.commit(editor.draft.with_changes(name=name.strip()))
        target = file_in(tracks_dir(), name)
        if target.exists() and target != editor.path:
            editor.question = Question(f"There is already a track file {target.name}. "
                                       "Replace it?", (Choice.REPLACE, Choice.CANCEL), then,
                                       target, title="Replace?")
            return
        if self.write(target):
            self.proceed(then)

    def write(self, target: Path) -> bool:
        editor = self.editor
        try:
            editor.document.write(target)
        except OSError as exc:
            editor.notes.append(f"Could not save: {exc.strerror or exc}")
            return False
        except FileProblemError as exc:
            editor.notes.append(f"Could not save: {exc.problems[0].message}")
            return False
        problems = [m for m in editor.problems() if m.severity is Severity.PROBLEM]
        editor.notes.append(f"Saved {target.name}" + (
            "" if not problems else f" as a draft ({len(problems)} problem"
                                    f"{'s' if len(problems) != 1 else ''} to fix before racing)"))
        return True

    # -- leaving the drawing ------------------------------------------------------------------

    def request(self, leave: Leave) -> None:
        """Something would replace the drawing: ask first if that loses work."""
        editor = self.editor
        editor.hand.cancel()
        if editor.dirty:
            what = "the track" if editor.draft.outer or editor.draft.sketch else "the drawing"
            editor.question = Question(f"Save the changes to {what} {editor.draft.name!r} "
                                       "first?", (Choice.SAVE, Choice.DISCARD, Choice.CANCEL),
                                       leave)
        else:
            self.proceed(leave)

    def answer(self, choice: Choice) -> None:
        editor = self.editor
        question, editor.question = editor.question, None
        if question is None:
            return
        if self.leftover is not None:
            self._answer_offer(choice, question.target)
        elif choice is Choice.CANCEL:
            return
        elif choice is Choice.SAVE:
            if editor.path is None:
                self.ask_file_name(question.then)
            elif self.write(editor.path):
                self.proceed(question.then)
        elif choice is Choice.DISCARD:
            if question.then not in (Leave.NEW, Leave.OPEN):
                self.discard()  # for a drawing to come, the old one stays until it comes
            self.proceed(question.then)
        elif choice is Choice.REPLACE and question.target is not None \
                and self.write(question.target):
            self.proceed(question.then)

    def discard(self) -> None:
        """Drop the unsaved changes: the autosave goes back to the saved drawing."""
        self.editor.document.discard()
        self.editor.selection = frozenset()

    def proceed(self, leave: Leave | None) -> None:
        if leave in (Leave.NEW, Leave.OPEN):
            self.editor.choosing = leave
        elif leave is not None:
            self.editor.leaving = leave

    def cancel_choosing(self) -> None:
        """The track or template list closed with nothing chosen: the drawing stays as it
        is, unsaved changes and all."""
        self.editor.choosing = None

    def open(self, path: Path) -> bool:
        """Open a track file for editing, or import a map as a new drawing (after
        ``request(Leave.OPEN)``)."""
        editor = self.editor
        editor.choosing = None
        try:
            opened = open_drawing(path)
        except (FileProblemError, OSError) as exc:
            editor.notes.append(str(exc.problems[0]) if isinstance(exc, FileProblemError)
                                else f"Could not open {path.name}: {exc}")
            return False
        editor.start_over(opened.draft, opened.path, Draft() if opened.imported else None)
        if opened.note:
            editor.notes.append(opened.note)
        return True

    def new_from(self, template: Path | None) -> bool:
        """A new drawing: an empty sheet, or a copy of a template (after
        ``request(Leave.NEW)``)."""
        editor = self.editor
        editor.choosing = None
        draft = Draft()
        if template is not None:
            try:
                draft = load_draft(template)
            except (FileProblemError, OSError) as exc:
                editor.notes.append(f"Could not read the template: {exc}")
                return False
            draft = replace(draft.without_sketch(), name=f"My {draft.name}", source="")
        editor.start_over(draft, None)
        return True

    # -- last time's drawing ----------------------------------------------------------------

    def offer(self, leftover: Document, opening: Path | None) -> None:
        """Show last time's unsaved drawing and ask what becomes of it before anything is
        opened (``opening``: the file asked for, else an empty sheet). Until it is answered,
        the autosave is not written."""
        autosave = leftover.autosave_to
        leftover.autosave_to = None
        self.leftover = leftover
        self._autosave = autosave
        draft = leftover.draft
        belongs = f"of {leftover.path.name}" if leftover.path is not None else "never saved"
        then = f"; then {opening.name} opens" if opening is not None else ""
        self.editor.question = Question(
            f"The drawing {draft.name!r} ({belongs}) has changes that were not saved. "
            f"Restore it, keep it aside as a file of its own, or discard it{then}?",
            OFFER, target=opening, title="Unsaved drawing from last time")

    def _answer_offer(self, choice: Choice, opening: Path | None) -> None:
        """Restore (Esc too: nothing is lost) carries on with last time's drawing; keep aside
        writes it to a file in the tracks folder first; discard drops it. The last two go on
        to open the file asked for."""
        editor, leftover = self.editor, self.leftover
        assert leftover is not None
        self.leftover = None
        leftover.autosave_to = self._autosave
        if choice in (Choice.RESTORE, Choice.CANCEL):
            leftover.autosave()
            if opening is not None:
                editor.notes.append(f"{opening.name} was not opened: Ctrl+O opens it once "
                                    "this drawing is saved")
            return
        if choice is Choice.KEEP_ASIDE:
            try:
                kept = keep_aside(leftover.draft)
            except OSError as exc:
                editor.notes.append(f"Could not keep the drawing aside: {exc.strerror or exc}; "
                                    "it is restored instead")
                return
            editor.notes.append(f"Last time's drawing is kept as {kept.name} in your tracks "
                                "folder (Ctrl+O opens it)")
        document = Document(autosave=leftover.autosave_to)
        if opening is not None:
            try:
                document, note = Document.of_file(opening, leftover.autosave_to)
            except FileProblemError as exc:
                note = str(exc.problems[0])
            if note:
                editor.notes.append(note)
        document.autosave()
        if document.draft == Draft() and document.path is None and \
                document.autosave_to is not None:
            document.autosave_to.unlink(missing_ok=True)  # nothing to keep for next time
        editor.adopt(document)


def keep_aside(draft: Draft, folder: Path | None = None) -> Path:
    """Write a drawing (with the shape being drawn) to a new file in the tracks folder,
    named after it and never over another file; the path written."""
    folder = folder or tracks_dir()
    folder.mkdir(parents=True, exist_ok=True)
    stem = f"{draft.name or 'Untitled'} unsaved"
    target = file_in(folder, stem)
    number = 2
    while target.exists() or target.is_symlink():
        target = file_in(folder, f"{stem} {number}")
        number += 1
    save_draft(replace(draft, source=""), target, keep_editing=True)
    return target
