"""The ``racetrack`` command line: the only place that prints for the user and picks exit
codes. ``commands`` builds the parser and runs the local commands, ``online`` the server's and
the online games' commands, ``common`` what they share."""

from racetrack.cli.commands import build_parser, main

__all__ = ["build_parser", "main"]
