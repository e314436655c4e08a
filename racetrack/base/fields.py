"""The one typed field reader: a player's file checked value by value, each problem located.

Every loader (tracks, rule sets, replays, saved games, championships, records, settings,
drafts) reads its parsed YAML through a ``Field``: a value, where it is in the document, and
what to call it in a message. Asking a field for ``text()``, ``whole(low, high)``,
``number(...)``, ``pair(...)``, ``flag()``, ``choice(...)``, ``items()`` or ``keys(...)``
returns the value when it is of that kind and in range, and otherwise reports a problem naming
the file, the line and the value found. So every file kind refuses the same things the same
way, and no loader hand-checks types.

Text is where hostile files hide the most: names and descriptions must be printable (no NUL,
no escape sequences, no lone surrogates, which crash the window's text drawing and the
terminal) and of a bounded length, and only a description may run over several lines.

A ``Reader`` either stops at the first problem (``collect=False``: most files, where later
checks rely on earlier ones) or collects them all and raises them together at ``check()``
(tracks and rule sets, whose authors fix several things at once).
"""

from __future__ import annotations

import enum
import math
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from racetrack.base.errors import FileProblemError, Problem
from racetrack.base.yamlio import YamlDocument
from racetrack.base.yamlnumbers import LARGEST

#: The longest name (of a track, a car, a player, a team...) a file may hold.
MAX_NAME = 100
#: The longest description, source or other free text.
MAX_TEXT = 2_000

E = TypeVar("E", bound=enum.Enum)


class _Missing(enum.Enum):
    MISSING = "missing"


MISSING = _Missing.MISSING


class Reader:
    """Reads one parsed document; every problem is an ``error`` naming the file and line."""

    def __init__(self, doc: YamlDocument, error: type[FileProblemError] = FileProblemError,
                 collect: bool = False):
        self.doc = doc
        self.error = error
        self.collect = collect
        self.problems: list[Problem] = []

    @property
    def root(self) -> Field:
        return Field(self, (), self.doc.data, "the file")

    def fail(self, path: Sequence[Hashable], message: str) -> None:
        """Report a problem at ``path``: raised at once, or kept for ``check``."""
        problem = self.doc.problem(path, message)
        if not self.collect:
            raise self.error(problem)
        self.problems.append(problem)

    def check(self) -> None:
        """Raise every problem collected so far, if there is any."""
        if self.problems:
            raise self.error(self.problems)


@dataclass(frozen=True)
class Field:
    """One value of a document: where it is, what it is called, and whether it is there."""

    reader: Reader
    path: tuple[Hashable, ...]
    value: Any
    label: str
    present: bool = True

    # -- navigation -----------------------------------------------------------------------

    def __getitem__(self, key: str) -> Field:
        """The value under ``key`` of a mapping (absent if this is no mapping or lacks it)."""
        data = self.value if isinstance(self.value, dict) else {}
        return Field(self.reader, (*self.path, key), data.get(key), f"'{key}'", key in data)

    def named(self, label: str) -> Field:
        """The same value, called ``label`` in messages ("move 3", "the start line")."""
        return Field(self.reader, self.path, self.value, label, self.present)

    def require(self, *keys: str) -> None:
        """Report each of ``keys`` this mapping lacks."""
        for key in keys:
            if not isinstance(self.value, dict) or key not in self.value:
                self.fail(f"missing '{key}'")

    @property
    def given(self) -> bool:
        """There, and not null."""
        return self.present and self.value is not None

    def fail(self, message: str) -> None:
        self.reader.fail(self.path, message)

    def _wrong(self, expected: str) -> None:
        self.fail(f"{self.label} must be {expected}, not {describe(self.value)}")

    def _absent(self, default: Any) -> tuple[bool, Any]:
        """(True, value to return) when the field is missing."""
        if self.present:
            return False, None
        if default is MISSING:
            self.reader.fail(self.path[:-1], f"missing {self.label}")
            return True, None
        return True, default

    # -- containers -----------------------------------------------------------------------

    def keys(self, valid: Iterable[str], what: str | None = None,
             unknown: str | None = None) -> bool:
        """Check a mapping holds only the keys named (a missing one is reported when it is
        read). False when the value is no mapping at all: nothing under it can be read.
        ``unknown`` names what a key is ("kit item") in the message for an unknown one."""
        valid = tuple(valid)
        what = what or self.label
        if not isinstance(self.value, dict):
            kind = "a YAML mapping" if not self.path else "a mapping"
            self.fail(f"{what} must be {kind} with keys such as {', '.join(valid[:4])}, "
                      f"not {describe(self.value)}")
            return False
        for key in self.value:
            if key not in valid:
                message = (f"unknown key {describe_key(key)} in {what}; valid keys: "
                           if unknown is None else
                           f"unknown {unknown} {describe_key(key)}; valid {unknown}s: ")
                self.reader.fail((*self.path, key), message + ", ".join(valid))
        return True

    def items(self, max_items: int, default: Any = MISSING, item: str = "item",
              low: int = 0) -> list[Field]:
        """The items of a list of at least ``low`` and at most ``max_items``, each a field
        called ``item N``; [] when the list is refused, or is optional (any ``default``) and
        missing or null."""
        missing, _ = self._absent(default)
        if missing or (self.value is None and default is not MISSING):
            return []
        if not isinstance(self.value, list) or not low <= len(self.value) <= max_items:
            size = f"at most {max_items}" if low == 0 else f"{low} to {max_items}"
            self._wrong(f"a list of {size} {item}s" if isinstance(self.value, list)
                        else "a list")
            return []
        return [Field(self.reader, (*self.path, index), value, f"{item} {index + 1}")
                for index, value in enumerate(self.value)]

    def entries(self, max_items: int, default: Any = MISSING) -> list[tuple[str, Field]]:
        """The (key, field) pairs of a mapping whose keys are names (``{Ann: 3, Bob: 2}``);
        [] when refused, or optional (any ``default``) and missing or null."""
        missing, _ = self._absent(default)
        if missing or (self.value is None and default is not MISSING):
            return []
        if not isinstance(self.value, dict) or len(self.value) > max_items:
            self._wrong(f"a mapping of at most {max_items} entries")
            return []
        found = []
        for key, value in self.value.items():
            where = (*self.path, key)
            if not isinstance(key, str) or not is_name(key, MAX_NAME):
                self.reader.fail(where, f"{describe_key(key)} in {self.label} is not a name "
                                        f"(printable text of at most {MAX_NAME} characters)")
                continue
            found.append((key, Field(self.reader, where, value, f"{self.label} of {key}")))
        return found

    # -- values ---------------------------------------------------------------------------

    def text(self, max_length: int = MAX_NAME, default: Any = MISSING, empty: bool = False,
             lines: bool = False, nullable: bool = False) -> str | None:
        """Printable text of at most ``max_length`` characters (non-blank unless ``empty``);
        line breaks only where ``lines`` (a description)."""
        missing, value = self._absent(default)
        if missing:
            return value
        if self.value is None and nullable:
            return None
        if not isinstance(self.value, str):
            self._wrong(f"a text of at most {max_length} characters")
            return None
        if not empty and not self.value.strip():
            self.fail(f"{self.label} must not be empty")
            return None
        if len(self.value) > max_length:
            self.fail(f"{self.label} is longer than {max_length} characters")
            return None
        bad = unprintable(self.value, lines)
        if bad is not None:
            self.fail(f"{self.label} holds a character that cannot be shown (U+{ord(bad):04X}); "
                      "only printable text is allowed")
            return None
        return self.value

    def whole(self, low: int, high: int, default: Any = MISSING,
              nullable: bool = False) -> int | None:
        """A whole number from ``low`` to ``high`` (or null, where ``nullable``)."""
        missing, value = self._absent(default)
        if missing:
            return value
        if self.value is None and nullable:
            return None
        if isinstance(self.value, bool) or not isinstance(self.value, int) \
                or not low <= self.value <= high:
            self._wrong(f"a whole number from {low} to {high}" + (" or null" if nullable
                                                                   else ""))
            return None
        return self.value

    def number(self, low: float, high: float, default: Any = MISSING,
               what: str = "a number") -> int | float | None:
        """A finite number (whole or not) from ``low`` to ``high``."""
        missing, value = self._absent(default)
        if missing:
            return value
        if isinstance(self.value, bool) or not isinstance(self.value, int | float):
            self._wrong(what)
            return None
        if not is_finite(self.value):
            self._wrong("a finite number")
            return None
        if not low <= self.value <= high:
            self.fail(f"{self.label} is {self.value:g}, beyond the range {low:g} to {high:g}")
            return None
        return self.value

    def pair(self, low: float, high: float, whole: bool = False,
             what: str = "a pair [x, y]") -> tuple[Any, Any] | None:
        """Two numbers ``[x, y]`` from ``low`` to ``high`` (whole numbers where ``whole``)."""
        if not isinstance(self.value, list) or len(self.value) != 2:
            self._wrong(what)
            return None
        if whole:
            if not all(type(v) is int and low <= v <= high for v in self.value):
                self._wrong(f"{what} of whole numbers from {low:g} to {high:g}")
                return None
            return self.value[0], self.value[1]
        parts = [Field(self.reader, (*self.path, i), v, f"a coordinate of {self.label}")
                 .number(low, high) for i, v in enumerate(self.value)]
        if parts[0] is None or parts[1] is None:
            return None
        return parts[0], parts[1]

    def flag(self, default: Any = MISSING) -> bool | None:
        """``true`` or ``false``."""
        missing, value = self._absent(default)
        if missing:
            return value
        if not isinstance(self.value, bool):
            self._wrong("true or false")
            return None
        return self.value

    def choice(self, choices: Sequence[str] | type[E], default: Any = MISSING,
               unknown: str | None = None, valid: str = "values") -> Any:
        """One of ``choices`` (words, or the values of an enum, which is then returned). The
        message lists the valid ones: "unknown {unknown} 'x'; valid {valid}: ..." where
        ``unknown`` names what the value is, else "{label} must be one of: ..."."""
        missing, value = self._absent(default)
        if missing:
            return value
        words = [c.value for c in choices] if isinstance(choices, type) else list(choices)
        if not isinstance(self.value, str) or self.value not in words:
            if unknown is not None and isinstance(self.value, str):
                self.fail(f"unknown {unknown} {_short(self.value)}; valid {valid}: "
                          f"{', '.join(words)}")
            else:
                self._wrong(f"one of: {', '.join(words)}")
            return None
        return choices(self.value) if isinstance(choices, type) else self.value

    def equals(self, expected: Any, message: str) -> bool:
        """Whether the value is exactly ``expected`` (``true`` is not ``1``); else report
        ``message`` (at the parent when the field is missing)."""
        if self.present and type(self.value) is type(expected) and self.value == expected:
            return True
        self.reader.fail(self.path if self.present else self.path[:-1], message)
        return False


def is_finite(value: int | float) -> bool:
    """Whether a number is finite and no larger than the largest float: an integer of a
    hundred digits compares and prints as a number, one of four hundred crashes whatever
    turns it into a float (``math.isfinite`` among them)."""
    if isinstance(value, int):
        return -LARGEST <= value <= LARGEST
    return math.isfinite(value)


# --------------------------------------------------------------------------------------------
# Text


def unprintable(text: str, lines: bool = False) -> str | None:
    """The first character of ``text`` that cannot be shown (a control, a format character
    such as a right-to-left override, a lone surrogate, an unassigned code point), or None;
    line breaks are allowed where ``lines``."""
    if text.isprintable():  # the usual case, decided in one call
        return None
    for char in text:
        if not char.isprintable() and not (lines and char == "\n"):
            return char
    return None


def printable(text: str) -> str:
    """``text`` with every character that cannot be shown escaped as ``\\x1b``, ``\\u202e``
    and so on: safe to print to a terminal, whatever a file or an argument held."""
    return "".join(char if char.isprintable() else _escape(char) for char in text)


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 \
        else f"\\U{code:08x}"


def is_name(text: Any, max_length: int = MAX_NAME) -> bool:
    """Printable one-line text, not blank, of at most ``max_length`` characters."""
    return (isinstance(text, str) and bool(text.strip()) and len(text) <= max_length
            and unprintable(text) is None)


def describe(value: Any) -> str:
    """A value for a message: its kind, and the value itself quoted, escaped and kept short
    (so a message never prints a file's content raw)."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"{str(value).lower()} (a yes/no)"
    if isinstance(value, str):
        return f"the text {_short(value)}"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, int) and abs(value) >= 10**12:
        return "a number far too large"
    return _short(value)


def describe_key(key: Any) -> str:
    return _short(key)


def _short(value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and not is_finite(value):
        return "a number far too large"
    text = repr(value)
    return text if len(text) <= 42 else text[:40] + "…" + text[-1]
