"""Locks between copies of the game that share one data folder.

Two windows, or a window and a command, may run at once on the same data folder. A file the
game rewrites from what it holds (the records, the settings, a championship's standings) is
read, changed and written back: without a lock, two copies doing so at once each write their
own change over the old file and one change is lost. ``locked(path)`` holds a lock on ``path``
for such a read-change-write, across processes and across threads of one process, so the
second copy reads the file the first one wrote.

The lock is the operating system's own on a small file beside the one it guards
(``.NAME.lock``): ``fcntl.flock`` on Linux and macOS, ``msvcrt.locking`` on Windows. The
system releases it when the process ends, however it ends, so a copy that crashed never
leaves the folder locked. A lock file holds nothing and is left in place (removing it could
let two copies lock two different files of the same name).

A lock is waited for at most ``WAIT_SECONDS``; past that a ``LockTimeout`` (an ``OSError``)
says that another copy of the game is busy with the file, which every writer already reports
as a save that failed.
"""

from __future__ import annotations

import contextlib
import errno
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]
    import msvcrt

__all__ = ["Held", "LockTimeout", "WAIT_SECONDS", "hold", "lock_path", "locked"]

#: The longest a save waits for another copy of the game to finish with the same file.
WAIT_SECONDS = 10.0
_POLL_SECONDS = 0.01


class LockTimeout(OSError):
    """Another copy of the game held the file's lock for longer than a save waits."""


def lock_path(path: str | os.PathLike[str]) -> Path:
    """The lock file of ``path``: hidden, beside it."""
    target = Path(path)
    return target.with_name(f".{target.name}.lock")


@contextlib.contextmanager
def locked(path: str | os.PathLike[str], wait: float = WAIT_SECONDS,
           make_parents: bool = True) -> Iterator[None]:
    """Hold the lock of ``path`` for the ``with`` block (its folder is created if missing,
    unless ``make_parents`` is false: then a missing folder is the ``OSError`` that writing
    there would be).

    Re-entrant within a thread: a function holding it may call another that takes it too.
    """
    held = hold(path, wait, make_parents)
    try:
        yield
    finally:
        held.release()


class _Entry:
    """A path's lock within this process: a re-entrant lock for its threads, and the open
    lock file while a thread holds it."""

    def __init__(self) -> None:
        self.threads = threading.RLock()
        self.fd: int | None = None
        self.depth = 0


_ENTRIES: dict[str, _Entry] = {}
_ENTRIES_LOCK = threading.Lock()


class Held:
    """A lock taken by ``hold``, released by ``release`` (once; later calls do nothing)."""

    def __init__(self, entry: _Entry):
        self._entry: _Entry | None = entry

    def release(self) -> None:
        entry, self._entry = self._entry, None
        if entry is None:
            return
        try:
            entry.depth -= 1
            if entry.depth == 0 and entry.fd is not None:
                fd, entry.fd = entry.fd, None
                _unlock(fd)
        finally:
            entry.threads.release()


def hold(path: str | os.PathLike[str], wait: float = WAIT_SECONDS,
         make_parents: bool = True) -> Held:
    """Take the lock of ``path`` and keep it until ``release()`` (an editor keeps its autosave
    so for as long as it is open); ``wait=0`` tries once. Raises ``LockTimeout``, or the
    ``OSError`` of a lock file that cannot be made."""
    key = os.path.abspath(path)
    with _ENTRIES_LOCK:
        entry = _ENTRIES.setdefault(key, _Entry())
    deadline = time.monotonic() + wait
    acquired = entry.threads.acquire(timeout=wait) if wait > 0 else \
        entry.threads.acquire(blocking=False)
    if not acquired:
        raise _timeout(path)
    try:
        if entry.depth == 0:
            entry.fd = _lock(lock_path(path), deadline, path, make_parents)
        entry.depth += 1
    except BaseException:
        entry.threads.release()
        raise
    return Held(entry)


def _timeout(path: str | os.PathLike[str]) -> LockTimeout:
    return LockTimeout(errno.EAGAIN, "another copy of the game is busy with this file; try "
                                     "again", str(path))


def _lock(file: Path, deadline: float, path: str | os.PathLike[str], make_parents: bool) -> int:
    if make_parents:
        file.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(file, os.O_RDWR | os.O_CREAT, 0o666)
    try:
        while not _try_lock(fd):
            if time.monotonic() >= deadline:
                raise _timeout(path)
            time.sleep(_POLL_SECONDS)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _try_lock(fd: int) -> bool:
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        else:  # pragma: no cover - Windows: the file's first byte, from the start
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    except (BlockingIOError, PermissionError):
        return False
    except OSError as exc:
        if exc.errno in (errno.EACCES, errno.EAGAIN, errno.EDEADLK):
            return False
        raise
    return True


def _unlock(fd: int) -> None:
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_UN)
        else:  # pragma: no cover - Windows
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
    finally:
        os.close(fd)
