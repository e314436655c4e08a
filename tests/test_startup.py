"""The command line starts light: its parser and ``--help`` load neither numpy nor shapely
(the bench times ``racetrack --help``; here only what it imports is checked)."""

from __future__ import annotations

import os
import subprocess
import sys

import racetrack


def test_the_command_line_parser_loads_no_numpy_or_shapely():
    code = ("import sys, racetrack.cli as cli; cli.build_parser(); print(sorted(m for m in "
            "('numpy', 'shapely', 'racetrack.games.race') if m in sys.modules))")
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True)
    assert found.stdout.strip() == "[]"


def test_the_scripting_names_load_on_first_use():
    assert racetrack.Race.__name__ == "Race" and racetrack.load_rules("gardner").name == "gardner"
    assert set(racetrack.__all__) <= set(dir(racetrack)) | set(racetrack._LAZY)


def test_solving_a_track_loads_only_the_solver():
    """``racetrack solve`` of a track file pays for the track, the rules and the solver: not
    the game, the drivers' tables, the editor's drawings, the window or the server."""
    code = ("import contextlib, io, sys; from racetrack.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()): main(['solve', 'oval'])\n"
            "print(sorted(m for m in ('racetrack.games.race', 'racetrack.search.drivers.tables',"
            " 'racetrack.board.track.draft', 'racetrack.ui', 'racetrack.net.server', 'pygame')"
            " if m in sys.modules))")
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True)
    assert found.stdout.strip() == "[]"


def test_a_command_starts_numpy_with_one_blas_thread_unless_told_otherwise():
    """Loading numpy with a BLAS thread for every core cost as much again as loading it with
    one: a command asks for one, and a player's own setting stands."""
    code = ("import contextlib, io, os; from racetrack.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()): main(['solve', 'oval'])\n"
            "print(os.environ['OPENBLAS_NUM_THREADS'])")
    for given, expected in ((None, "1"), ("2", "2")):
        env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
        if given is not None:
            env["OPENBLAS_NUM_THREADS"] = given
        found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                               check=True, env=env)
        assert found.stdout.strip() == expected
