"""Numbers from YAML text: read in time linear in their length, refused past a float's range.

YAML 1.1 writes whole numbers in decimal, ``0x`` hexadecimal, ``0b`` binary, ``0`` octal and
base 60 (``1:30:00``), with ``_`` anywhere as a separator, and real numbers with exponents and
in base 60 too. PyYAML's own constructors turn any of these into a Python number of whatever
size: a base-60 number of 400 KB takes seconds of arithmetic on ever larger integers before it
is even refused, and a 400-digit decimal becomes an integer no float can hold, which crashes
whatever compares or prints it later. No game file has a use for such a number, so the reader
reads every number here instead: the size of the text decides, before any arithmetic, whether
a whole number could fit in a float, and one that cannot is refused (``NumberTooLarge``). A
real number too large for a float is infinite, as Python's own ``float`` reads it; the field
reader then refuses it where a finite number is wanted, with the line it is on.
"""

from __future__ import annotations

import math
import sys

__all__ = ["LARGEST", "NumberTooLarge", "real_number", "whole_number"]

#: The largest magnitude a number in a game file may have: the largest float.
LARGEST = int(sys.float_info.max)
_DIGITS = {10: len(str(LARGEST)), 16: math.ceil(LARGEST.bit_length() / 4),
           8: math.ceil(LARGEST.bit_length() / 3), 2: LARGEST.bit_length()}
_VALID = {10: frozenset("0123456789"), 16: frozenset("0123456789abcdefABCDEF"),
          8: frozenset("01234567"), 2: frozenset("01")}
_REAL_CHARACTERS = frozenset("0123456789.e+-")
_INFINITIES = frozenset({".inf", "+.inf", "-.inf"})


class NumberTooLarge(ValueError):
    """A number no float can hold (more than about 1.8e308 in size)."""


def whole_number(text: str) -> int:
    """The whole number YAML 1.1 reads ``text`` as (``12``, ``-0x1F``, ``0b101``, ``017``,
    ``1_000``, ``1:30``).

    Raises ``NumberTooLarge`` when its size is beyond a float's, and ``ValueError`` when it is
    not a whole number at all; either way after time linear in the length of ``text``.
    """
    body = text.replace("_", "")
    sign = -1 if body[:1] == "-" else 1
    if body[:1] in ("-", "+"):
        body = body[1:]
    if not body:
        raise ValueError(text)
    if ":" in body:
        value = _sexagesimal(body, _digits)
    elif body[:2] in ("0x", "0X"):
        value = _in_base(body[2:], 16)
    elif body[:2] in ("0b", "0B"):
        value = _in_base(body[2:], 2)
    elif body[0] == "0" and len(body) > 1:
        value = _in_base(body[1:], 8)
    else:
        value = _in_base(body, 10)
    if value > LARGEST:
        raise NumberTooLarge(text)
    return sign * value


def real_number(text: str) -> float:
    """The real number YAML 1.1 reads ``text`` as (``2.5``, ``1e3``, ``-.inf``, ``.nan``,
    ``1:30.5``), in time linear in its length; one too large for a float (``1e400``, a long
    base-60 one) is infinite. ``ValueError`` when ``text`` is no real number."""
    body = text.replace("_", "").lower()
    if body == ".nan":
        return math.nan  # one object, as PyYAML's: two reads of a file compare equal
    if body in _INFINITIES:
        return -math.inf if body[0] == "-" else math.inf
    sign = -1.0 if body[:1] == "-" else 1.0
    if body[:1] in ("-", "+"):
        body = body[1:]
    if not body or not _REAL_CHARACTERS.issuperset(body.replace(":", "")):
        raise ValueError(text)
    if ":" not in body:
        return sign * float(body)
    try:
        return sign * _sexagesimal(body, _real)
    except NumberTooLarge:
        return sign * math.inf


def _in_base(digits: str, base: int) -> int:
    """``digits`` (no sign) in ``base``; past the checks, their count alone refuses what no
    float holds, before any arithmetic."""
    if not digits or not _VALID[base].issuperset(digits):
        raise ValueError(digits)
    significant = digits.lstrip("0")
    if len(significant) > _DIGITS[base]:
        raise NumberTooLarge(digits)
    return int(significant, base) if significant else 0


def _digits(part: str) -> int:
    return _in_base(part, 10)


def _real(part: str) -> float:
    value = float(part)
    if not math.isfinite(value):
        raise ValueError(part)
    return value


def _sexagesimal(body: str, read) -> int | float:
    """Base 60, from the left, one place at a time (never split into a list: a 16 MiB
    number would be millions of strings); stopped as soon as the value is past any float's
    reach, so each step works on numbers of bounded size and the time is linear in the
    places. ``read`` reads the last place (a real number's may have a fraction)."""
    value, start, first = 0, 0, True
    while True:
        end = body.find(":", start)
        last = end < 0
        part = body[start:] if last else body[start:end]
        place = read(part) if last else _digits(part)
        if not first and (not last or read is _digits) and place >= 60:
            raise ValueError(part)
        value = value * 60 + place
        if value > LARGEST:
            raise NumberTooLarge("a base-60 number")
        if last:
            return value
        start, first = end + 1, False
