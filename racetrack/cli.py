"""The ``racetrack`` command: the only place that prints for the user and picks exit codes.

Every sub-command turns the game's own errors (``ValueError`` subclasses whose message names the
file and line) into one line per problem on stderr and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from racetrack.errors import FileProblemError, RacetrackError
from racetrack.track import find_track, load_track

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return EXIT_OK
    try:
        return args.run(args)
    except FileProblemError as exc:
        for problem in exc.problems:
            print(f"error: {problem}", file=sys.stderr)
        return EXIT_FAILED
    except RacetrackError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_FAILED
    except KeyboardInterrupt:
        return 130


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="racetrack",
        description="The graph-paper car race: each turn a car repeats its last move and may "
                    "change it by one square.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    validate = commands.add_parser("validate", help="check track files and summarise them")
    validate.add_argument("files", nargs="+", metavar="FILE",
                          help="track files (or names of bundled tracks)")
    validate.set_defaults(run=run_validate)
    return parser


def run_validate(args: argparse.Namespace) -> int:
    """Check each file; one summary line per good track, one line per problem of a bad one."""
    from racetrack.course import Course

    status = EXIT_OK
    for name in args.files:
        try:
            track = load_track(find_track(name))
        except FileProblemError as exc:
            for problem in exc.problems:
                print(f"error: {problem}", file=sys.stderr)
            status = EXIT_FAILED
            continue
        course = Course(track)
        minx, miny, maxx, maxy = track.bounds
        on_track = len(course.surface.lattice_points())
        laps = f"{track.laps} lap{'s' if track.laps != 1 else ''}"
        extras = []
        if track.checkpoints:
            extras.append(f"{len(track.checkpoints)} checkpoints")
        if track.zones:
            extras.append("zones: " + ", ".join(course.zone_kinds))
        extra = "; " + "; ".join(extras) if extras else ""
        print(f"{name}: ok: {track.name!r}, {maxx - minx:g} x {maxy - miny:g} squares, "
              f"{on_track} lattice points on the track, {len(course.start_positions)} start "
              f"positions, {laps}{extra}")
    return status
