"""Shared fixtures: small tracks written inline, so each test shows the geometry it relies on."""

from __future__ import annotations

import os
import textwrap

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from racetrack.track import Track, parse_track  # noqa: E402


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The long tests first (in their own order, then the rest in theirs): a worker that
    starts on a long test while the other runs the short ones finishes at about the same
    time, where a long test met at the end would leave one worker idle."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)


def make_track(body: str, name: str = "Test") -> Track:
    """A track from the YAML body of a file, with the version and name lines added."""
    text = f"racetrack-track: 1\nname: {name}\n" + textwrap.dedent(body)
    return parse_track(text, "test.yaml")


@pytest.fixture
def square_ring() -> Track:
    """A 12 x 12 square with a 4 x 4 infield: the track is 4 squares wide all round.

    The start line crosses the top straight at x = 6, cars drive right (clockwise on screen).
    """
    return make_track("""
        outer: [[0, 0], [12, 0], [12, 12], [0, 12]]
        holes: [[[4, 4], [8, 4], [8, 8], [4, 8]]]
        start: {a: [6, 0], b: [6, 4], forward: [1, 0]}
    """)


def pytest_terminal_summary(terminalreporter) -> None:
    """Say so when the online tests could not run against PostgreSQL (no server here)."""
    from tests.net.postgres import why_not

    reason = why_not()
    if reason:
        terminalreporter.write_line(f"PostgreSQL tests skipped: {reason}")
