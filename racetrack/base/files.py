"""The game's files on disk: safe names from user text, atomic writes, damaged files kept.

A player's name, a track's name or a name typed to rename a replay ends up in a file name. Any
of them may hold ``/``, ``..``, control characters or a thousand letters, so every path built
from user text goes through ``file_in``: the text is reduced to one safe name (letters, digits,
spaces, dashes, dots and underscores; no leading dot or dash; short enough for any file
system) and the result is checked to lie directly in the folder.

Every file the game writes is written by ``atomic_write_text``: to a temporary file beside it,
then renamed into place, so a crash mid-save leaves the old file or the new one, whole. Only
ordinary files are replaced, new files get the user's umask, and the temporary files of saves
that were killed are removed. A damaged file the game must replace is first kept aside as
``NAME.bad`` (``keep_aside``), so nothing a player made is lost without a word.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import re
import stat
import tempfile
import threading
import time
import unicodedata
from pathlib import Path

#: The longest name made from user text, in UTF-8 bytes (file systems allow 255; a date and
#: a suffix are added to it).
MAX_NAME_BYTES = 120

_UNSAFE = re.compile(r"[^\w .-]+")
#: Names Windows keeps for devices, whatever follows a dot, and with spaces before it
#: (``CON .x`` is the console too); the superscript digits count as digits there.
_RESERVED = frozenset({"con", "prn", "aux", "nul", "conin$", "conout$",
                       *(f"{port}{digit}" for port in ("com", "lpt")
                         for digit in "0123456789\u00b9\u00b2\u00b3")})


def safe_name(text: str, max_bytes: int = MAX_NAME_BYTES) -> str:
    """``text`` reduced to a name that is safe as (part of) one file name, or ``""``.

    Separators, control characters and punctuation are dropped; a name cannot start or end
    with a dot, space or dash (no hidden files, no ``..``, nothing that reads as an option);
    a device name of Windows gets an underscore after it (whatever follows, ``NUL.txt`` is
    ``NUL_.txt``); and the name is cut to ``max_bytes`` of UTF-8 at a whole character.
    """
    name = _UNSAFE.sub("", unicodedata.normalize("NFC", str(text)))
    name = name.strip(" .-")
    encoded = name.encode("utf-8")
    if len(encoded) > max_bytes:
        name = encoded[:max_bytes].decode("utf-8", "ignore").rstrip(" .-")
    if is_reserved(name):
        stem, dot, rest = name.partition(".")
        name = f"{stem}_{dot}{rest}"  # "NUL.txt" is the device too: "NUL_.txt" is not
    return name


def is_reserved(name: str) -> bool:
    """Whether Windows takes the file name ``name`` for a device (``con``, ``NUL.txt``,
    ``CON .yaml``, ``COM¹``): such a file cannot be made there, or reads as the device."""
    return name.split(".")[0].rstrip(" ").lower() in _RESERVED


def file_in(folder: Path, text: str, suffix: str = ".yaml", prefix: str = "",
            fallback: str = "untitled") -> Path:
    """The path of a file directly in ``folder``, named ``prefix`` + ``text`` made safe +
    ``suffix`` (``fallback`` when nothing of ``text`` is left).

    ``prefix`` and ``suffix`` are the game's own (a date, ``.yaml``); only ``text`` comes from
    the user. Raises ``ValueError`` if the result would not be a plain name in ``folder``
    (which cannot happen for a prefix and suffix without separators).
    """
    name = f"{prefix}{safe_name(text) or fallback}{suffix}"
    path = Path(folder) / name
    if path.parent != Path(folder) or name in (".", "..") or "/" in name or "\\" in name:
        raise ValueError(f"{name!r} is not a plain file name")
    return path


# --------------------------------------------------------------------------------------------
# Writing and keeping files


def atomic_write_text(path: str | os.PathLike[str], text: str, make_parents: bool = True) -> None:
    """Write ``text`` (as UTF-8) to ``path`` so that the file is either the old one or the new
    one, whole (its folder created if missing, unless ``make_parents`` is false).

    Only an ordinary file is replaced: a symbolic link, a pipe, a device or a folder where the
    file should be is refused (``OSError``), never turned into a file. A new file gets the
    permissions the user's umask gives; a replaced one keeps its own. Every ``OSError`` names
    ``path``, not the temporary file beside it.
    """
    atomic_write_bytes(path, text.encode("utf-8"), make_parents)


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes,
                       make_parents: bool = True, exclusive: bool = False) -> None:
    """``atomic_write_text`` for bytes (a picture); where ``exclusive``, only a new file is
    made (``FileExistsError`` if ``path`` is taken, see ``create_new_text``)."""
    target = Path(path)
    try:
        if make_parents:
            target.parent.mkdir(parents=True, exist_ok=True)
        mode = _mode_for(target)
        fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp",
                                        dir=target.parent)
    except OSError as exc:
        raise _naming(exc, target) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp_name, mode)
        if exclusive:
            _claim(tmp_name, target, data)
        else:
            os.replace(tmp_name, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp_name)
        if isinstance(exc, OSError):
            raise _naming(exc, target) from None
        raise
    remove_stray_temp_files(target.parent, target.name)


def create_new_text(path: str | os.PathLike[str], text: str, make_parents: bool = True) -> None:
    """Write ``text`` to ``path`` only if no file is there yet: ``FileExistsError`` otherwise,
    even when another process makes the same name at the same moment. Two games finished in
    the same second, in two windows, each get a file of their own this way.

    The whole file appears at once (it is written beside and then linked into place), or,
    on a file system without hard links, it is created exclusively and then written.
    """
    atomic_write_bytes(path, text.encode("utf-8"), make_parents, exclusive=True)


def _claim(tmp_name: str, target: Path, data: bytes) -> None:
    """Put the written temporary file at ``target`` unless something is already there."""
    try:
        os.link(tmp_name, target)
    except FileExistsError:
        raise
    except OSError:
        # No hard links here (some shared or FAT folders): make the name exclusively, then
        # write it; a reader may see it half-written for a moment, never another's file.
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
    os.unlink(tmp_name)


def _mode_for(target: Path) -> int:
    """The permissions to give ``target``: its own if it is an ordinary file; the umask's for
    a new one. Raises ``OSError`` for anything else standing at ``target``."""
    try:
        info = os.lstat(target)
    except FileNotFoundError:
        return 0o666 & ~_umask()
    if stat.S_ISREG(info.st_mode):
        return stat.S_IMODE(info.st_mode)
    what = ("a symbolic link" if stat.S_ISLNK(info.st_mode) else
            "a folder" if stat.S_ISDIR(info.st_mode) else "not an ordinary file")
    raise OSError(errno.EEXIST, f"it is {what}; refusing to replace it", str(target))


def _naming(exc: OSError, target: Path) -> OSError:
    """The same error, naming the user's file."""
    return OSError(exc.errno, exc.strerror or str(exc), str(target))


@functools.cache
def _umask() -> int:
    """The process's umask (read, not changed, where the system allows it)."""
    with contextlib.suppress(OSError, ValueError, IndexError), \
            open("/proc/self/status", encoding="ascii", errors="replace") as status:
        for line in status:
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    with _UMASK_LOCK:  # elsewhere the only way to read it is to set it and put it back
        mask = os.umask(0o022)
        os.umask(mask)
    return mask


_UMASK_LOCK = threading.Lock()
#: A temporary file of ``atomic_write_text``: ``.NAME.XXXXXXXX.tmp``.
_TEMP = re.compile(r"\.(?P<name>.+)\.[A-Za-z0-9_]{8}\.tmp")
#: A temporary file older than this was left by a save that was killed.
STRAY_AGE_SECONDS = 60.0


def remove_stray_temp_files(folder: Path, name: str | None = None) -> list[Path]:
    """Delete the temporary files that saves killed midway left in ``folder`` (only those for
    ``name``, if given), and none younger than a minute, which a save may still be writing.
    Returns what was removed."""
    removed = []
    now = time.time()
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        found = _TEMP.fullmatch(entry.name)
        if found is None or (name is not None and found.group("name") != name):
            continue
        with contextlib.suppress(OSError):
            info = entry.stat(follow_symlinks=False)
            if stat.S_ISREG(info.st_mode) and now - info.st_mtime >= STRAY_AGE_SECONDS:
                os.unlink(entry.path)
                removed.append(Path(entry.path))
    return removed


def keep_aside(path: Path) -> Path:
    """Rename a damaged file to ``NAME.bad`` (or ``NAME.bad-2``, ...) so that it is kept, not
    overwritten; returns the new path."""
    aside = path.with_name(path.name + ".bad")
    number = 2
    while aside.exists() or aside.is_symlink():
        aside = path.with_name(f"{path.name}.bad-{number}")
        number += 1
    os.replace(path, aside)
    return aside
