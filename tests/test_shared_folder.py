"""Two copies of the game saving into one data folder at once lose nothing.

Two real processes start together on the same ``RACETRACK_HOME`` and, as fast as they can,
add time-trial runs to the same record, save finished races and Graph Trees games under the
same date and name, and change the settings (each its own setting). Afterwards every run is
counted, every game has a file of its own, and each process's last setting is there.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Saves of each kind per process: enough for the two to overlap many times.
ROUNDS = 12

CHILD = """
import datetime, json, sys
from racetrack.games import archive
from racetrack.search.drivers import make_driver
from racetrack.games.race import Race
from racetrack.engine.model import CarSetup
from racetrack.games.records import record_run
from racetrack.rules import load_rules
from racetrack.base.settings import update_settings
from racetrack.board.track import find_track, load_track
from racetrack.games.trees import TreesGame, load_tree_rules
from racetrack.games.trees.record import GAMES

who, rounds = sys.argv[1], int(sys.argv[2])
track = load_track(find_track("riddler-opolis"))
state = Race(track, load_rules("gardner"), [CarSetup("Ann", "red", "human")]).start()
expert = make_driver("expert")
while not state.is_over:
    state.apply(expert.choose(state))
trees = load_tree_rules("levi")
game = TreesGame(trees, TreesGame.default_players(["human"] * trees.players), 0).start()
when = datetime.datetime(2025, 3, 14, 12, 0, 0)  # every save in the same second
print("ready", flush=True)
sys.stdin.readline()  # both start saving together
saved = []
for i in range(rounds):
    record_run(state)
    saved.append(str(archive.save_finished(state, when=when)))
    saved.append(str(GAMES.save_finished(game, when=when)))
    if who == "a":
        update_settings(track=f"a{i}")
    else:
        update_settings(animation_seconds=0.1 + i / 100)
print(json.dumps(saved))
"""


def test_two_processes_saving_into_one_folder_lose_nothing(tmp_path, monkeypatch):
    env = {**os.environ, "RACETRACK_HOME": str(tmp_path / "home"),
           "PYTHONPATH": str(ROOT)}
    children = [subprocess.Popen([sys.executable, "-c", CHILD, who, str(ROUNDS)],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True, env=env) for who in "ab"]
    for child in children:  # both ready (imports done, the run driven) before either saves
        assert child.stdout.readline().strip() == "ready"
    for child in children:
        child.stdin.write("go\n")
        child.stdin.flush()
    outputs = [child.communicate(timeout=300) for child in children]
    for child, (_, err) in zip(children, outputs, strict=True):
        assert child.returncode == 0, err
    saved = [path for out, _ in outputs for path in json.loads(out)]
    assert len(set(saved)) == len(saved) == 2 * 2 * ROUNDS  # no file was given twice

    from racetrack.base.settings import load_settings
    from racetrack.games.archive import saved_races
    from racetrack.games.records import load_records
    from racetrack.games.trees.record import GAMES

    monkeypatch.setenv("RACETRACK_HOME", str(tmp_path / "home"))
    (record,) = load_records().entries
    assert record.runs == 2 * ROUNDS  # every run counted: none read a stale table
    races = saved_races()
    assert len(races) == 2 * ROUNDS and all(entry.replay is not None for entry in races)
    games = GAMES.saved()
    assert len(games) == 2 * ROUNDS and all(entry.replay is not None for entry in games)
    settings = load_settings()
    assert settings.track == f"a{ROUNDS - 1}"
    assert settings.animation_seconds == 0.1 + (ROUNDS - 1) / 100
