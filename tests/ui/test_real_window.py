"""The real window on a virtual X screen: start ``racetrack``, click through the menu into a
race, move with the keyboard, and save a screenshot. Needs xvfb-run and xdotool (``.ci/run``
installs them); skipped where they are missing, except in CI, where it must run."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap

import pytest

TOOLS = shutil.which("xvfb-run") and shutil.which("xdotool")
pytestmark = pytest.mark.skipif(not TOOLS and os.environ.get("CI") != "true",
                                reason="needs xvfb-run and xdotool")

DRIVE = textwrap.dedent("""
    set -e
    "$PYTHON" -m racetrack &
    game=$!
    sleep 4                                  # the window opens at the top left of the screen
    xdotool mousemove 640 307 click 1        # New race
    sleep 1.5
    xdotool mousemove 1140 748 click 1       # Start race
    sleep 2.5
    xdotool key KP_6                         # a move, if it is our turn
    sleep 1.5
    xdotool key F12                          # the game saves a screenshot
    sleep 1.5
    kill -0 "$game"                          # still running: no crash
    kill "$game"
""")


def test_the_real_window_starts_clicks_and_saves_a_screenshot(tmp_path):
    env = dict(os.environ)
    env.pop("SDL_VIDEODRIVER", None)
    env.update(RACETRACK_HOME=str(tmp_path / "home"), RACETRACK_SCREENSHOTS=str(tmp_path),
               PYTHON=sys.executable)
    result = subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", "bash", "-c",
                             DRIVE], env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    shots = list(tmp_path.glob("racetrack-*.png"))
    assert shots, "no screenshot was saved"
    import pygame

    picture = pygame.image.load(str(shots[0]))
    assert picture.get_size() == (1280, 800)
    import numpy as np

    pixels = pygame.surfarray.array3d(picture).reshape(-1, 3)
    assert len(np.unique(pixels, axis=0)) > 20, "the screenshot is nearly blank"
    # Starting the race remembered the choices in the player's settings.
    assert (tmp_path / "home" / "config" / "settings.yaml").exists()


TREES = textwrap.dedent("""
    set -e
    "$PYTHON" -m racetrack trees --players greedy,greedy --seed 2 &
    game=$!
    sleep 6                                  # the computers play a few turns meanwhile
    xdotool key F12
    sleep 1.5
    kill -0 "$game"
    kill "$game"
""")


def test_graph_trees_runs_in_the_real_window(tmp_path):
    env = dict(os.environ)
    env.pop("SDL_VIDEODRIVER", None)
    env.update(RACETRACK_HOME=str(tmp_path / "home"), RACETRACK_SCREENSHOTS=str(tmp_path),
               PYTHON=sys.executable)
    result = subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", "bash", "-c",
                             TREES], env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    shots = list(tmp_path.glob("racetrack-*.png"))
    assert shots, "no screenshot was saved"
    import pygame

    picture = pygame.image.load(str(shots[0]))
    assert picture.get_size() == (1280, 800)
