"""What every command of the ``racetrack`` command line shares: finding a track by name or
file, the rules a command is given (``--rules`` and each ``--set``), and the one way to print
a line for the user."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from racetrack.base.fields import printable

if TYPE_CHECKING:
    from pathlib import Path

    from racetrack.board.track import Track

DEFAULT_RULES = "gardner"
RULES_HELP = ("a rule variant's name or a rules file (default: the rule set the track names, "
              "as an imported map does, else gardner)")


def find_track(name: str) -> Path:
    """``racetrack.board.track.find_track``, imported on first use: ``racetrack --help`` and the
    parser need neither shapely nor numpy."""
    from racetrack.board.track import find_track as find

    return find(name)


def load_track(path: Path) -> Track:
    """``racetrack.board.track.load_track``, imported on first use."""
    from racetrack.board.track import load_track as load

    return load(path)


def say(text: str, err: bool = False) -> None:
    """Print one line for the user, every control character in it escaped: names and file
    names come from files and arguments, and an escape sequence must not reach the terminal
    (nor a lone surrogate stop the printing)."""
    print(printable(text), file=sys.stderr if err else sys.stdout)


def parse_override(text: str):
    """``"KEY=VALUE"`` for ``--set``; the key and value are checked against the option table
    once the rules are loaded (an unknown one is then a one-line error, like ``--rules``)."""
    from racetrack.rules.overrides import parse_assignment

    try:
        return parse_assignment(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def chosen_rules(args: argparse.Namespace, track=None):
    """The rules named by ``--rules`` (else the track's own, else Gardner's) with every
    ``--set`` applied; ``args.rules`` is set to the name chosen."""
    from racetrack.rules import load_rules
    from racetrack.rules.overrides import apply_overrides

    if args.rules is None:
        args.rules = (track.rules if track is not None else "") or DEFAULT_RULES
    return apply_overrides(load_rules(args.rules), dict(args.overrides), where="--set")
