"""Seat tokens, watch codes and invitations: secrets made to be typed, stored only as hashes.

A seat's token is 130 random bits written in Crockford's base 32 (26 characters of digits and
capital letters without I, L, O and U), so a player can read it out or type it: a typed ``o``
is taken for ``0`` and an ``i`` or ``l`` for ``1``, and dashes and spaces are ignored. The server
keeps only each secret's SHA-256: a token is random enough that a plain hash cannot be reversed
by guessing, and a stolen database hands out no seat. A watch code is shorter (50 bits): it
only lets someone look.

An invitation is what the window hands a friend: the game's number and a seat's token in one
line, ``12-ABCDE-FGHJK-MNPQR-STVWX-YZ012-3``.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
#: Characters a person may type for another: the letters that look like digits.
_TYPED = str.maketrans({"O": "0", "I": "1", "L": "1"})
TOKEN_LENGTH = 26  # 130 bits
WATCH_LENGTH = 10  # 50 bits
GROUP = 5


def _random_code(length: int) -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(length))


def new_token() -> str:
    """A seat's secret: 26 characters, 130 random bits."""
    return _random_code(TOKEN_LENGTH)


def new_watch_code() -> str:
    """A game's watch code: 10 characters, 50 random bits."""
    return _random_code(WATCH_LENGTH)


def normal(code: str) -> str:
    """A code as typed made canonical: capitals, no dashes or spaces, look-alikes mended.
    Anything that is not a code comes back as ``""``."""
    if not isinstance(code, str) or len(code) > 200:
        return ""
    text = code.strip().upper().replace("-", "").replace(" ", "").translate(_TYPED)
    return text if text and all(c in ALPHABET for c in text) else ""


def grouped(code: str) -> str:
    """A code in groups of five, for reading out: ``ABCDE-FGHJK``."""
    return "-".join(code[i:i + GROUP] for i in range(0, len(code), GROUP))


def secret_hash(code: str) -> str:
    """What the server stores of a token or a watch code."""
    return hashlib.sha256(normal(code).encode("ascii")).hexdigest()


def same_hash(a: str, b: str) -> bool:
    """Hashes compared in constant time."""
    return hmac.compare_digest(a.encode("ascii"), b.encode("ascii"))


def invitation(game: int, token: str) -> str:
    """The line a host sends a friend: the game's number, then the seat's token."""
    return f"{game}-{grouped(token)}"


def read_invitation(text: str) -> tuple[int, str]:
    """``(game, token)`` from an invitation as typed or pasted; ``ValueError`` with a line
    for the player if it is not one."""
    head, _, rest = text.strip().partition("-")
    token = normal(rest)
    if not head.strip().isdigit() or len(head.strip()) > 15 or len(token) != TOKEN_LENGTH:
        raise ValueError("an invitation is the game's number and 26 letters and digits, "
                         "like 12-ABCDE-FGHJK-MNPQR-STVWX-YZ012-3")
    return int(head), token
