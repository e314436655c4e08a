"""The tutorial in a real window on a virtual X screen, as a first-time player meets it: from
the menu's button, at 800 x 600, 1280 x 800 and 1920 x 1080, the camera keeps the player's car
and every point it may go to on the paper and clear of the coach's card, at every frame of
every step (``tutorial_drive.py`` drives it with xdotool). Needs xvfb-run and xdotool; skipped
where they are missing, except in CI."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from racetrack.ui.scenes.tutorial import STEPS
from tests.ui.xvfb import finish_on_screen, start_on_screen, xvfb_run

TOOLS = shutil.which("xvfb-run") and shutil.which("xdotool")
pytestmark = [pytest.mark.skipif(not TOOLS and os.environ.get("CI") != "true",
                                 reason="needs xvfb-run and xdotool"),
              pytest.mark.long]
ROOT = Path(__file__).resolve().parents[2]
SIZES = ("800x600", "1280x800", "1920x1080")


def test_the_tutorial_keeps_the_car_and_its_points_in_view_at_every_step(tmp_path):
    home = tmp_path / "home"
    # A player who set computer moves to "instant" in Settings: the same path, less waiting.
    (home / "config").mkdir(parents=True)
    (home / "config" / "settings.yaml").write_text("animation_seconds: 0\n")
    env = dict(os.environ, RACETRACK_HOME=str(home),
               SDL_AUDIODRIVER=os.environ.get("SDL_AUDIODRIVER", "dummy"))
    env.pop("SDL_VIDEODRIVER", None)
    # A window, a process and a screen of its own for each size, as a player's would be; the
    # three run at once (the window waits on its frame clock most of the time).
    drives = [start_on_screen([*xvfb_run("1920x1080x24", slot), sys.executable, "-m",
                               "tests.ui.tutorial_drive", size], env, cwd=ROOT)
              for slot, size in enumerate(SIZES)]
    reports = []
    for drive in drives:
        out, err = finish_on_screen(drive, 600)
        assert drive.returncode == 0, err[-3000:]
        reports += [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    assert [report["size"] for report in reports] == list(SIZES)
    for report in reports:
        assert report["off"] == [], report
        assert report["last step"] == len(STEPS) and report["steps"] == len(STEPS), report
        assert report["frames"] > 50 and report["points"] > report["frames"], report
