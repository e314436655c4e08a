"""Errors of the game's core.

Every error a player can cause by handing us a file or a move is a ``ValueError`` subclass whose
message already says what is wrong and where, so the command line can print it on one line and
exit, and a script can catch ``ValueError`` without knowing our classes.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a file: where it is (file and, when known, line) and what it is."""

    file: str
    line: int | None
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line is not None else self.file
        return f"{where}: {self.message}"


class RacetrackError(ValueError):
    """Base class of the game's own errors."""


class FileProblemError(RacetrackError):
    """A user's file (track, rule set, replay, settings) is not acceptable.

    ``problems`` lists every problem found, each printable on a line of its own.
    """

    def __init__(self, problems: list[Problem] | Problem):
        self.problems = [problems] if isinstance(problems, Problem) else list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class TrackError(FileProblemError):
    """A track file is not a valid track."""


class RulesError(FileProblemError):
    """A rule-set file is not a valid rule set."""


class ReplayError(FileProblemError):
    """A replay file cannot be read or does not re-simulate."""


class IllegalMoveError(RacetrackError):
    """A move was asked for that the rules do not allow now; the race state is unchanged."""


class MapError(FileProblemError):
    """A map to import (a Karopapier map, a character grid, a picture) cannot be read."""
