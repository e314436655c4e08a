"""File names made from user text: always one plain name inside the folder meant for it.

A player's name, a track's name or a name typed to rename a replay ends up in a file name. Any
of them may hold ``/``, ``..``, control characters or a thousand letters, so every path built
from user text goes through ``file_in``: the text is reduced to one safe name (letters, digits,
spaces, dashes, dots and underscores; no leading dot or dash; short enough for any file
system) and the result is checked to lie directly in the folder.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

#: The longest name made from user text, in UTF-8 bytes (file systems allow 255; a date and
#: a suffix are added to it).
MAX_NAME_BYTES = 120

_UNSAFE = re.compile(r"[^\w .-]+")
#: Names Windows keeps for devices, whatever the suffix.
_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)),
             *(f"lpt{i}" for i in range(10))}


def safe_name(text: str, max_bytes: int = MAX_NAME_BYTES) -> str:
    """``text`` reduced to a name that is safe as (part of) one file name, or ``""``.

    Separators, control characters and punctuation are dropped; a name cannot start or end
    with a dot, space or dash (no hidden files, no ``..``, nothing that reads as an option);
    a device name of Windows gets an underscore; and the name is cut to ``max_bytes`` of
    UTF-8 at a whole character.
    """
    name = _UNSAFE.sub("", unicodedata.normalize("NFC", str(text)))
    name = name.strip(" .-")
    encoded = name.encode("utf-8")
    if len(encoded) > max_bytes:
        name = encoded[:max_bytes].decode("utf-8", "ignore").rstrip(" .-")
    if name.split(".")[0].lower() in _RESERVED:
        name = f"{name}_"
    return name


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
