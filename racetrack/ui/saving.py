"""A file being written off the window's thread, for a screen that says so when it is done.

Every write a player waits on goes this way: a finished race's replay, a finished game of Graph
Trees, a championship's standings after each race, a time trial's record (whose ``value`` is
the run's result), and the settings the window remembers by itself (``SettingsWriter``).

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
from concurrent.futures import Executor, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from racetrack.errors import FileProblemError
from racetrack.settings import update_settings
from racetrack.ui.waking import wake

log = logging.getLogger(__name__)


class Saving:
    """``write()`` run on a thread, after ``after``'s queued work (an executor whose writes
    must land first; it is shut down, its queue finished). ``value`` (``path``) is what
    ``write`` returned, or ``None`` and ``problem`` says why in one line starting with
    ``failure``."""

    def __init__(self, write: Callable[[], Any], after: Executor | None = None,
                 failure: str = "Could not save"):
        self._write = write
        self._after = after
        self._failure = failure
        self.value: Any = None
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
        saving.value, saving.problem, saving._failure = path, problem, "Could not save"
        saving._done = threading.Event()
        saving._done.set()
        saving._thread = None
        return saving

    def _run(self) -> None:
        try:
            if self._after is not None:
                self._after.shutdown(wait=True)
            self.value = self._write()
        except OSError as exc:
            self.problem = f"{self._failure}: {exc.strerror or exc}"
        except FileProblemError as exc:  # refused: too large to be read back
            self.problem = f"{self._failure}: {exc.problems[0].message}"
        except ValueError as exc:
            self.problem = f"{self._failure}: {exc}"
        except Exception:  # a bug must not leave the screen waiting for ever
            log.exception("saving failed")
            self.problem = f"{self._failure}: an error in the game (see the log)"
        finally:
            self._done.set()
            wake()  # the screen waiting on it draws the news

    @property
    def path(self) -> Path | None:
        """The file written (for writers that return one)."""
        return self.value if isinstance(self.value, Path) else None

    @property
    def done(self) -> bool:
        return self._done.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the file (the window is closing, a test); True when it is done."""
        return self._done.wait(timeout)


class SettingsWriter:
    """The settings the window keeps by itself (the zoom, the window's size, fullscreen),
    written in order on one thread of their own. Each change is read, changed and written
    under the settings' lock, so a screen's own save in between is never lost; ``close``
    lets the last one land (the window is closing)."""

    def __init__(self):
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="settings")

    def change(self, **change) -> None:
        self._pool.submit(self._write, change)

    @staticmethod
    def _write(change: dict) -> None:
        try:
            update_settings(**change)
        except (OSError, ValueError) as exc:  # an unwritable folder costs only the memory
            log.warning("settings not saved: %s", exc)

    def wait(self) -> None:
        """Let the changes asked for so far land (a test, a scene about to read them)."""
        self._pool.submit(lambda: None).result()

    def close(self) -> None:
        self._pool.shutdown(wait=True)
