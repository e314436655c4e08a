"""The editor in the real window on a virtual X screen: draw a road circuit with xdotool, save
it under a name typed into the window, race it, and find the finished race on disk.

Waits poll for what the game writes (the track file, the finished replay) rather than sleeping
for fixed times, so a loaded machine only makes it slower, not flaky. Needs xvfb-run and
xdotool; skipped where they are missing, except in CI, where it must run."""

from __future__ import annotations

import os
import shutil
import sys
import textwrap

import pytest

from racetrack.base.yamlio import dump_yaml
from racetrack.board.track import load_track
from tests.ui.xvfb import run_on_screen, xvfb_run

TOOLS = shutil.which("xvfb-run") and shutil.which("xdotool")
pytestmark = [pytest.mark.skipif(not TOOLS and os.environ.get("CI") != "true",
                                 reason="needs xvfb-run and xdotool"),
              pytest.mark.long]

# The editor opens on an empty sheet at 1280 x 800, its paper 940 pixels wide: about 22
# pixels a square. The road's points are clicked, then the first one again to close it.
DRIVE = textwrap.dedent("""
    set -e
    wait_for() {  # wait_for SECONDS TEST...: poll until the test passes
        local limit=$1; shift
        for _ in $(seq $((limit * 5))); do "$@" && return 0; sleep 0.2; done
        echo "gave up waiting for: $*" >&2; return 1
    }
    window() { xdotool search --class racetrack >/dev/null 2>&1; }
    finished() { ls "$HOME_DIR"/data/replays/*"Xdo Ring.yaml" >/dev/null 2>&1; }
    "$PYTHON" -m racetrack edit &
    game=$!
    wait_for 60 window
    wid=$(xdotool search --class racetrack | head -1)
    xdotool windowmove --sync "$wid" 0 0
    sleep 1
    xdotool mousemove 470 400 key p          # the road tool
    for point in "150 150" "750 160" "820 600" "400 700" "120 500" "150 150"; do
        xdotool mousemove $point click 1
    done
    xdotool key ctrl+s                       # asks for a name: typing replaces the offered one
    sleep 0.5
    xdotool type --delay 40 "Xdo Ring"
    xdotool key Return
    wait_for 30 test -f "$HOME_DIR/data/tracks/Xdo Ring.yaml"
    xdotool key F12                          # the editor with the saved track
    xdotool key r                            # race it: two computer drivers
    wait_for 90 finished
    kill -0 "$game"                          # still running: no crash
    kill "$game"
""")


def test_draw_a_road_save_it_and_race_it_in_the_real_window(tmp_path):
    home = tmp_path / "home"
    (home / "config").mkdir(parents=True)
    (home / "config" / "settings.yaml").write_text(dump_yaml({
        "rules": "gardner", "animation_seconds": 0.02,
        "players": [{"name": "Ann", "colour": "red", "driver": "expert"},
                    {"name": "Bob", "colour": "blue", "driver": "hard"}]}))
    env = dict(os.environ)
    env.pop("SDL_VIDEODRIVER", None)
    env.update(RACETRACK_HOME=str(home), HOME_DIR=str(home), RACETRACK_SCREENSHOTS=str(tmp_path),
               PYTHON=sys.executable, SDL_VIDEO_X11_WMCLASS="racetrack")  # found by class
    result = run_on_screen([*xvfb_run("1280x800x24"), "bash", "-c", DRIVE], env, 240)
    assert result.returncode == 0, result.stderr[-2000:]
    track = load_track(home / "data" / "tracks" / "Xdo Ring.yaml")
    assert track.name == "Xdo Ring" and track.is_circuit and len(track.holes) == 1
    assert len(track.start_positions()) >= 2
    replays = list((home / "data" / "replays").glob("*Xdo Ring.yaml"))
    assert len(replays) == 1
    from racetrack.games.replay import load_replay

    replay = load_replay(replays[0])
    assert replay.race.track == track and replay.final_state().is_over
    shots = list(tmp_path.glob("racetrack-*.png"))
    assert shots, "no screenshot was saved"


# Draw a road and never save it; kill the game outright. Open the editor on a track file: the
# drawing is offered back first, and killing the game again before answering loses nothing.
# Then keep it aside: it is a file of its own, and the track file opens.
KILLED = textwrap.dedent("""
    set -e
    wait_for() {
        local limit=$1; shift
        for _ in $(seq $((limit * 5))); do "$@" && return 0; sleep 0.2; done
        echo "gave up waiting for: $*" >&2; return 1
    }
    window() { xdotool search --class racetrack >/dev/null 2>&1; }
    autosaved() { grep -q "sketch" "$HOME_DIR/data/editor-autosave.yaml" 2>/dev/null; }
    drawn() { test -f "$HOME_DIR/data/editor-autosave.yaml" && \
              ! grep -q "sketch" "$HOME_DIR/data/editor-autosave.yaml"; }
    start() { "$PYTHON" -m racetrack edit "$@" & game=$!; wait_for 60 window; sleep 2; }
    shots() { test "$(ls "$RACETRACK_SCREENSHOTS"/racetrack-*.png 2>/dev/null | wc -l)" -ge "$1"; }
    start
    xdotool mousemove 470 400 key p
    for point in "150 150" "750 160" "820 600" "400 700" "120 500"; do
        xdotool mousemove $point click 1
    done
    wait_for 30 autosaved
    xdotool mousemove 150 150 click 1       # closed: the circuit is built, never saved
    wait_for 30 drawn
    kill -9 "$game"; wait "$game" || true
    cp "$HOME_DIR/data/editor-autosave.yaml" "$HOME_DIR/before-kill.yaml"
    start "$TRACK"                           # the question shows; killed before an answer
    xdotool key F12
    wait_for 30 shots 1
    sleep 1
    kill -9 "$game"; wait "$game" || true
    cmp "$HOME_DIR/data/editor-autosave.yaml" "$HOME_DIR/before-kill.yaml"
    start "$TRACK"
    xdotool key k                            # keep it aside
    wait_for 30 test -f "$HOME_DIR/data/tracks/New track unsaved.yaml"
    sleep 1
    xdotool key F12
    wait_for 30 shots 2
    sleep 1
    kill -9 "$game"; wait "$game" || true
""")


def test_a_drawing_survives_kill_9_and_is_offered_before_a_file_opens(tmp_path):
    from racetrack.board.track import find_track
    from racetrack.board.track.draft import load_draft

    home = tmp_path / "home"
    (home / "config").mkdir(parents=True)
    env = dict(os.environ)
    env.pop("SDL_VIDEODRIVER", None)
    env.update(RACETRACK_HOME=str(home), HOME_DIR=str(home), RACETRACK_SCREENSHOTS=str(tmp_path),
               PYTHON=sys.executable, SDL_VIDEO_X11_WMCLASS="racetrack",
               TRACK=str(find_track("oval")))
    result = run_on_screen([*xvfb_run("1280x800x24"), "bash", "-c", KILLED], env, 240)
    assert result.returncode == 0, result.stderr[-2000:]
    drawn = load_draft(home / "before-kill.yaml")
    kept = load_draft(home / "data" / "tracks" / "New track unsaved.yaml")
    assert kept.outer == drawn.outer and kept.holes == drawn.holes and len(kept.holes) == 1
    assert kept.start == drawn.start  # nothing of the drawing lost
    now = load_draft(home / "data" / "editor-autosave.yaml")  # the oval's, once answered
    assert now.outer == load_draft(find_track("oval")).outer
    assert len(list(tmp_path.glob("racetrack-*.png"))) == 2
