"""The drawing and its file: the undo history, the file it belongs to, the version last saved
there, and the autosave that keeps all of it after every step.

The autosave holds the drawing with the shape still being drawn and the name of its file, so
after a crash or a restart the editor carries on exactly, and Ctrl+S still knows where to
write. Whether there is unsaved work is worked out, not remembered: the drawing differs from
what its file holds.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import threading
from dataclasses import replace
from pathlib import Path

from racetrack.base.errors import FileProblemError
from racetrack.base.filelock import hold, locked
from racetrack.base.settings import data_dir
from racetrack.board.track.draft import Draft, History, load_draft, restore_autosave, save_draft
from racetrack.board.track.maps import is_map_file
from racetrack.editing.files import open_drawing

log = logging.getLogger(__name__)


def autosave_path() -> Path:
    """This copy of the game's autosave: ``editor-autosave.yaml`` in the data folder, or, while
    another copy sharing the folder has that one, ``editor-autosave-2.yaml`` and so on (one
    that exists first, to restore what a copy that crashed was drawing). The copy holds the
    file's lock for as long as it runs, so no other copy writes its drawing there; the system
    lets go of it when the copy ends, however it ends."""
    folder = data_dir()
    with _CLAIMS_LOCK:
        if folder not in _CLAIMS:
            _CLAIMS[folder] = _claim_autosave(folder)
        return _CLAIMS[folder]


def _claim_autosave(folder: Path) -> Path:
    names = [folder / "editor-autosave.yaml",
             *(folder / f"editor-autosave-{n}.yaml" for n in range(2, MAX_AUTOSAVES + 1))]
    for path in sorted(names, key=lambda p: not p.exists()):  # stable: existing ones first
        try:
            hold(path, wait=0)  # kept: released when the process ends
        except OSError:
            continue
        return path
    return names[0]  # every one taken (or the folder not writable): share the first


#: The most copies of the game whose editors keep a drawing each at once.
MAX_AUTOSAVES = 8
_CLAIMS: dict[Path, Path] = {}
_CLAIMS_LOCK = threading.Lock()


class Document:
    def __init__(self, draft: Draft | None = None, path: Path | None = None,
                 saved: Draft | None = None, autosave: Path | None = None):
        draft = draft or Draft()
        self.history = History([draft])
        self.path = path
        self.saved = saved if saved is not None else draft
        self.autosave_to = autosave

    @classmethod
    def restore(cls, autosave: Path) -> tuple[Document, str]:
        """The drawing in progress from the autosave, or an empty one, and what to tell the
        designer about it. A damaged autosave is kept aside as ``NAME.bad`` (the next autosave
        would overwrite it) and what could be read of it is used."""
        draft, message = restore_autosave(autosave)
        if draft is None:
            return cls(autosave=autosave), message
        path = Path(draft.source) if draft.source else None
        saved = Draft()
        if path is not None and path.exists():
            with contextlib.suppress(FileProblemError, OSError):
                saved = load_draft(path)
        return cls(draft, path, saved, autosave), message

    @classmethod
    def of_file(cls, path: Path, autosave: Path) -> tuple[Document, str]:
        """A track file to edit (``FileProblemError`` if it cannot be read at all), or a map
        to import as a new drawing, and what to tell the designer; a track file that does not
        exist yet is a new drawing that saving writes there."""
        if not path.exists() and not is_map_file(path):
            return cls(path=path, autosave=autosave), ""
        opened = open_drawing(path)
        saved = Draft() if opened.imported else opened.draft  # an import is not saved yet
        return cls(opened.draft, opened.path, saved, autosave), opened.note

    @property
    def draft(self) -> Draft:
        return self.history.current

    @property
    def dirty(self) -> bool:
        """Whether closing now would lose work: the drawing differs from its file."""
        return self.draft != self.saved

    def push(self, draft: Draft, amend: bool = False) -> None:
        """A step of undo (with ``amend``, in place of the current one), autosaved."""
        if amend:
            self.history.amend(draft)
        else:
            self.history.push(draft)
        self.autosave()

    def undo(self) -> bool:
        moved = self.history.undo()
        if moved:
            self.autosave()
        return moved

    def redo(self) -> bool:
        moved = self.history.redo()
        if moved:
            self.autosave()
        return moved

    def autosave(self) -> None:
        """Write the drawing, its pending shape and its file, so a crash loses nothing."""
        if self.autosave_to is None:
            return
        try:
            save_draft(replace(self.draft, source=str(self.path or "")), self.autosave_to,
                       keep_editing=True)
        except (OSError, FileProblemError) as exc:
            log.warning("autosave failed: %s", exc)

    def write(self, target: Path) -> None:
        """Save the drawing (without the shape still being drawn) to ``target``, which it then
        belongs to; ``OSError`` if the file cannot be written."""
        drawing = self.draft.without_sketch()
        with locked(target):
            if target == self.path and self._changed_elsewhere(target):
                raise FileExistsError(errno.EEXIST, "another copy of the game has changed the "
                                      "file since it was opened here; save under another name "
                                      "to keep both", str(target))
            save_draft(drawing, target)
        self.path = target
        self.saved = drawing
        self.autosave()

    def _changed_elsewhere(self, target: Path) -> bool:
        """Whether the file no longer holds what this drawing was opened from or last saved
        as (so another copy of the game, sharing the folder, saved over it)."""
        if not target.exists():
            return False
        try:
            return load_draft(target) != self.saved
        except (FileProblemError, OSError):
            return False  # unreadable now: replacing it loses nothing a player could open

    def start_over(self, draft: Draft, path: Path | None, saved: Draft | None = None) -> None:
        """Another drawing (a file opened, a template): a fresh history, nothing unsaved
        (unless ``saved``, what its file holds, differs: an imported map has no file yet)."""
        self.history = History([draft])
        self.path = path
        self.saved = draft if saved is None else saved
        self.autosave()

    def discard(self) -> None:
        """Drop the unsaved changes: back to the saved drawing, and the autosave with it (gone,
        for a drawing that was never saved)."""
        self.history = History([self.saved])
        if self.path is None and self.saved == Draft() and self.autosave_to is not None:
            with contextlib.suppress(OSError):
                self.autosave_to.unlink(missing_ok=True)
        else:
            self.autosave()
