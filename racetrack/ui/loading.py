"""A file being read off the window's thread, for a screen that shows it once it is in.

The records table can hold ten thousand runs and takes most of a second to read: read on
the frame, it would freeze the New race screen as it opens. A ``Loading`` reads on a thread
of its own, and the screen polls ``done`` each frame, showing "reading..." until then. The
reader must not raise (``records.read_records`` returns its problem as a line instead); if it
does anyway, ``problem`` holds the one line and ``value`` stays the ``empty`` given.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")


class Loading(Generic[T]):
    """``read()`` run on a thread; ``value`` is what it returned once ``done``."""

    def __init__(self, read: Callable[[], T], empty: T):
        self._read = read
        self.value: T = empty
        self.problem = ""
        self._done = threading.Event()
        # A daemon: a window closed while a file is read need not wait for it.
        threading.Thread(target=self._run, name="loading", daemon=True).start()

    def _run(self) -> None:
        try:
            self.value = self._read()
        except Exception as exc:  # noqa: BLE001 - shown as a line, never a crash of the window
            log.warning("could not read: %s", exc)
            self.problem = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        finally:
            self._done.set()

    @property
    def done(self) -> bool:
        return self._done.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until read (tests, and a screen that must have it); whether it is."""
        return self._done.wait(timeout)
