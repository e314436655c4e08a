"""The real window on a virtual X screen: ``racetrack`` opens inside an 800 x 600 screen, goes
from the menu into a race with the keyboard, takes a move and saves a screenshot; Graph Trees
runs too. Needs xvfb-run and xdotool (``.ci/run`` installs them); skipped where they are
missing, except in CI, where it must run.

Every wait polls for what it waits for (the window, its title naming the screen, a file the
game writes), so a loaded machine only makes the test slower, never wrong.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap

import pytest

from tests.ui.xvfb import run_on_screen, xvfb_run

TOOLS = shutil.which("xvfb-run") and shutil.which("xdotool")
pytestmark = [pytest.mark.skipif(not TOOLS and os.environ.get("CI") != "true",
                                 reason="needs xvfb-run and xdotool"),
              pytest.mark.long]

#: Shell helpers: wait for the game's window (by its class: SDL writes the title as UTF-8,
#: which xdotool's name search does not match), wait for its title to name a screen, wait
#: for a file.
HELPERS = textwrap.dedent("""
    set -e
    wait_window() {                         # print the game's window, once it has drawn
        for _ in $(seq 600); do                 # (the game names it with its first frame)
            for found in $(xdotool search --onlyvisible --class racetrack 2>/dev/null); do
                if xdotool getwindowname "$found" 2>/dev/null | grep -q '^Racetrack'; then
                    echo "$found"; return 0
                fi
            done
            sleep 0.25
        done
        echo "no game window" >&2; return 1
    }
    wait_title() {                          # wait_title WINDOW WORDS
        for _ in $(seq 600); do
            if xdotool getwindowname "$1" 2>/dev/null | grep -q "$2"; then return 0; fi
            sleep 0.25
        done
        echo "the window's title never said $2" >&2; return 1
    }
    wait_file() {                           # wait_file GLOB
        for _ in $(seq 600); do
            if compgen -G "$1" >/dev/null; then return 0; fi
            sleep 0.25
        done
        echo "no file $1" >&2; return 1
    }
    press_until() {                         # press_until WINDOW KEY WORDS: KEY until the
        for _ in $(seq 8); do               # title says WORDS (a key sent while the window
            xdotool key --window "$1" "$2"  # is still busy may be lost; one taken twice
            for _ in $(seq 20); do          # only moves the title on further)
                if xdotool getwindowname "$1" 2>/dev/null | grep -q "$3"; then return 0; fi
                sleep 0.25
            done
        done
        echo "the window's title never said $3" >&2; return 1
    }
    screenshot() {                          # screenshot WINDOW: F12 until the file is there
        for _ in $(seq 8); do
            xdotool key --window "$1" F12
            for _ in $(seq 40); do
                if compgen -G "$OUT/racetrack-*.png" >/dev/null; then return 0; fi
                sleep 0.25
            done
        done
        echo "no screenshot" >&2; return 1
    }
    trap 'kill "$game" 2>/dev/null || true' EXIT   # never leave the game running
""")

DRIVE = HELPERS + textwrap.dedent(r"""
    "$PYTHON" -m racetrack 2> "$OUT/game.log" &
    game=$!
    window=$(wait_window)
    wait_title "$window" '^Racetrack$'
    xdotool getwindowgeometry --shell "$window" > "$OUT/geometry"
    xdotool mousemove 2 2                    # off the buttons: the keyboard's focus stays
    xdotool windowfocus --sync "$window" 2>/dev/null || true
    press_until "$window" Return 'New race\|race on'   # New race has the focus
    press_until "$window" Return 'race on'              # then Start race has it
    wait_file "$HOME_DIR/config/settings.yaml"
    sleep 4                                  # the start's announcement ends by itself
    xdotool key --window "$window" KP_6      # a move, if it is our turn
    sleep 0.5
    screenshot "$window"                     # the game saves a screenshot
    sleep 0.5
    kill -0 "$game"                          # still running: no crash
    kill "$game"
""")


def run_in_xvfb(tmp_path, script: str, screen: str) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.pop("SDL_VIDEODRIVER", None)
    env.update(RACETRACK_HOME=str(tmp_path / "home"), RACETRACK_SCREENSHOTS=str(tmp_path),
               PYTHON=sys.executable, OUT=str(tmp_path), HOME_DIR=str(tmp_path / "home"),
               SDL_AUDIODRIVER=env.get("SDL_AUDIODRIVER", "dummy"))
    return run_on_screen([*xvfb_run(f"{screen}x24"), "bash", "-c", script], env, 600)


def game_log(tmp_path) -> str:
    """What the game said on its error stream (for a failure's message)."""
    log = tmp_path / "game.log"
    return "\ngame: " + log.read_text()[-2000:] if log.exists() else ""


def test_the_window_fits_an_800_by_600_screen_and_races_from_the_keyboard(tmp_path):
    result = run_in_xvfb(tmp_path, DRIVE, "800x600")
    assert result.returncode == 0, result.stderr[-2000:] + game_log(tmp_path)
    geometry = dict(line.split("=", 1) for line in
                    (tmp_path / "geometry").read_text().split())
    x, y = int(geometry["X"]), int(geometry["Y"])
    width, height = int(geometry["WIDTH"]), int(geometry["HEIGHT"])
    assert x >= 0 and y >= 0 and x + width <= 800 and y + height <= 600, geometry
    assert width >= 640 and height >= 480, geometry
    shots = list(tmp_path.glob("racetrack-*.png"))
    assert shots, "no screenshot was saved"
    import numpy as np
    import pygame

    picture = pygame.image.load(str(shots[0]))
    assert picture.get_size() == (width, height)
    pixels = pygame.surfarray.array3d(picture).reshape(-1, 3)
    assert len(np.unique(pixels, axis=0)) > 20, "the screenshot is nearly blank"
    # Starting the race remembered the choices in the player's settings.
    assert (tmp_path / "home" / "config" / "settings.yaml").exists()


TREES = HELPERS + textwrap.dedent("""
    "$PYTHON" -m racetrack trees --players greedy,greedy --seed 2 2> "$OUT/game.log" &
    game=$!
    window=$(wait_window)
    sleep 3                                  # the computers play a few turns meanwhile
    screenshot "$window"
    kill -0 "$game"
    kill "$game"
""")


def test_graph_trees_runs_in_the_real_window(tmp_path):
    result = run_in_xvfb(tmp_path, TREES, "1280x800")
    assert result.returncode == 0, result.stderr[-2000:] + game_log(tmp_path)
    shots = list(tmp_path.glob("racetrack-*.png"))
    assert shots, "no screenshot was saved"
    import pygame

    picture = pygame.image.load(str(shots[0]))
    width, height = picture.get_size()
    assert width <= 1280 and height <= 800
