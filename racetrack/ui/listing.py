"""Lists of saved files, read on a background thread so the window keeps drawing.

Each saved race or game is a player's file, re-read and checked when its list is shown; a
folder of big or hostile files takes a while even within the size limits, and the window must
not freeze meanwhile. A scene makes a ``Listing``, calls ``poll()`` every frame (true when a
new list has come in) and ``refresh()`` when the folder may have changed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Generic, TypeVar

from racetrack.ui.waking import waking

log = logging.getLogger(__name__)

T = TypeVar("T")


class Listing(Generic[T]):
    """The items ``load`` returns, read off the window's thread; ``items`` keeps the last
    list read until a newer one is in."""

    def __init__(self, load: Callable[[], list[T]], name: str = "listing"):
        self._load = load
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)
        self._job: Future | None = None
        self.items: list[T] = []
        self.problem = ""  # the folder itself could not be read
        self.refresh()

    @property
    def loading(self) -> bool:
        """Whether a list is still being read."""
        return self._job is not None

    def refresh(self) -> None:
        """Read the list again (the newest reading wins)."""
        self._job = waking(self._pool.submit(self._load))

    def poll(self) -> bool:
        """Take the list in if it has been read; true when ``items`` changed."""
        job = self._job
        if job is None or not job.done():
            return False
        self._job = None
        try:
            self.items, self.problem = job.result(), ""
        except (OSError, ValueError) as exc:
            log.warning("cannot list the saved files: %s", exc)
            self.items, self.problem = [], str(exc)
        return True

    def wait(self, timeout: float | None = None) -> None:
        """Wait until the list being read is ready (the next ``poll`` takes it in)."""
        job = self._job
        if job is not None:
            job.exception(timeout)

    def close(self) -> None:
        """Stop reading (the scene is gone)."""
        self._pool.shutdown(wait=False, cancel_futures=True)
