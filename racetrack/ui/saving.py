"""A file being written off the window's thread, for a screen that says so when it is done.

Writing a finished race's replay (a few hundred moves through the YAML writer) takes tens of
milliseconds, more on a busy machine: done on the frame it would pause the window just as the
race ends. A ``Saving`` writes on a thread of its own, after the writes already queued for the
same file (the race's autosaves, which must land before the finished file replaces them), and
the results' screen polls ``done`` each frame to show "Replay saved as ...". The writers
themselves stay atomic (``yamlio.write_yaml``), so a window closed mid-write leaves the old
file or the new one, never half of one.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import Executor
from pathlib import Path

from racetrack.errors import FileProblemError

log = logging.getLogger(__name__)


class Saving:
    """``write()`` run on a thread, after ``after``'s queued work (an executor whose writes
    must land first; it is shut down, its queue finished). ``path`` is what ``write``
    returned, or ``None`` and ``problem`` says why."""

    def __init__(self, write: Callable[[], Path], after: Executor | None = None):
        self._write = write
        self._after = after
        self.path: Path | None = None
        self.problem = ""
        self._done = threading.Event()
        # Not a daemon: a window closed mid-write still finishes the file.
        self._thread = threading.Thread(target=self._run, name="saving", daemon=False)
        self._thread.start()

    @classmethod
    def finished(cls, path: Path | None, problem: str = "") -> Saving:
        """A saving already over (a file written before, or none to write)."""
        saving = cls.__new__(cls)
        saving._write, saving._after = None, None
        saving.path, saving.problem = path, problem
        saving._done = threading.Event()
        saving._done.set()
        saving._thread = None
        return saving

    def _run(self) -> None:
        try:
            if self._after is not None:
                self._after.shutdown(wait=True)
            self.path = self._write()
        except OSError as exc:
            self.problem = f"Could not save: {exc.strerror or exc}"
        except FileProblemError as exc:  # refused: too large to be read back
            self.problem = f"Could not save: {exc.problems[0].message}"
        except ValueError as exc:
            self.problem = f"Could not save: {exc}"
        except Exception:  # a bug must not leave the screen waiting for ever
            log.exception("saving failed")
            self.problem = "Could not save: an error in the game (see the log)"
        finally:
            self._done.set()

    @property
    def done(self) -> bool:
        return self._done.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the file (the window is closing, a test); True when it is done."""
        return self._done.wait(timeout)
