"""How much of a core the game's window uses while nothing happens (docs/speed.md).

    python tools/idle.py [SECONDS]        (also: python tools/bench.py idle)

Runs ``racetrack`` on a virtual X screen (xvfb-run, 1280 x 800) and reads the process's CPU
ticks from /proc over SECONDS (10) at each of: the main menu left alone, and a race waiting for
the player's move (``racetrack play``, the start's announcement let go by). The window draws
only when something changes, so each should be well under 3 % of a core. Needs Linux, xvfb-run and
xdotool.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = textwrap.dedent(r"""
    set -e
    cpu() {                                  # cpu LABEL: percent of a core over $SECONDS
        local hz a b
        hz=$(getconf CLK_TCK)
        a=$(awk '{print $14 + $15}' /proc/$game/stat)
        sleep "$SECONDS"
        b=$(awk '{print $14 + $15}' /proc/$game/stat)
        echo "$1 $(( (b - a) * 10000 / (hz * SECONDS) ))"
    }
    open_window() {                          # open_window ARGS...: the game, once it has drawn
        "$PYTHON" -m racetrack "$@" 2>> "$OUT/game.log" &
        game=$!
        for _ in $(seq 600); do
            for found in $(xdotool search --onlyvisible --class racetrack 2>/dev/null); do
                if xdotool getwindowname "$found" 2>/dev/null | grep -q '^Racetrack'; then
                    return 0
                fi
            done
            sleep 0.25
        done
        echo "no game window" >&2; return 1
    }
    trap 'kill "$game" 2>/dev/null || true' EXIT
    open_window
    sleep 5                                  # fonts and widgets made, the menu drawn
    cpu menu
    kill "$game"; wait "$game" || true
    open_window play oval --rules baker --players human,ai:easy --seed 3
    sleep 12                                 # the announcement, the first outlooks
    cpu race
""")


def measure(seconds: int = 10) -> dict[str, float]:
    """Percent of a core for each screen left alone ({"menu": 0.8, ...})."""
    if not (shutil.which("xvfb-run") and shutil.which("xdotool")):
        raise SystemExit("needs xvfb-run and xdotool")
    with tempfile.TemporaryDirectory(prefix="racetrack-idle-") as folder:
        env = dict(os.environ, RACETRACK_HOME=folder, OUT=folder, PYTHON=sys.executable,
                   SECONDS=str(seconds), SDL_AUDIODRIVER="dummy")
        env.pop("SDL_VIDEODRIVER", None)
        done = subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", "bash", "-c",
                               SCRIPT], env=env, cwd=ROOT, capture_output=True, text=True,
                              timeout=300)
        if done.returncode:
            log = Path(folder, "game.log")
            said = log.read_text()[-1500:] if log.exists() else ""
            raise SystemExit(f"the game did not run: {done.stderr[-800:]}\n{said}")
    found = {}
    for line in done.stdout.split("\n"):
        label, _, hundredths = line.partition(" ")
        if hundredths.strip().isdigit():
            found[label] = int(hundredths) / 100
    return found


def main(seconds: int = 10) -> None:
    for label, percent in measure(seconds).items():
        print(f"idle {label:9} {percent:5.2f} % of a core over {seconds} s")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("seconds", nargs="?", type=int, default=10, metavar="SECONDS",
                        help="how long each screen is watched (default: 10)")
    main(parser.parse_args().seconds)
