"""``racetrack records``: the time-trial table as text or JSON; a damaged file is one line."""

from __future__ import annotations

import json

import pytest

from racetrack.board.track import find_track, load_track
from racetrack.cli import main
from racetrack.engine.model import CarSetup
from racetrack.games.race import Race
from racetrack.games.records import record_run, records_path
from racetrack.rules import load_rules
from racetrack.search.drivers import make_driver


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("RACETRACK_HOME", str(tmp_path))
    return tmp_path


def solo_run(level="hard"):
    race = Race(load_track(find_track("riddler-opolis")), load_rules("gardner"),
                [CarSetup("Ann")])
    state, driver = race.start(), make_driver(level, 5)
    while not state.is_over:
        state.apply(driver.choose(state))
    record_run(state)
    return state.outcome.rounds


def test_no_records_yet(home, capsys):
    assert main(["records"]) == 0
    assert "no time-trial records yet" in capsys.readouterr().out
    assert main(["records", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["records"] == []


def test_the_table_with_par_worked_out_on_request(home, capsys):
    turns = solo_run()
    assert main(["records"]) == 0
    header, row = capsys.readouterr().out.splitlines()
    assert header.split() == ["track", "rules", "best", "par", "player", "date", "runs"]
    assert row.split()[:5] == ["Riddler-opolis", "gardner", str(turns), "-", "Ann"]
    assert main(["records", "--par", "--json"]) == 0
    (record,) = json.loads(capsys.readouterr().out)["records"]
    assert (record["best"], record["par"], record["runs"]) == (turns, 12, 1)
    assert main(["records"]) == 0  # the par is remembered
    assert capsys.readouterr().out.splitlines()[1].split()[3] == "12"


@pytest.mark.parametrize("text", ["[1, 2", "just a line", "racetrack-records: 3\n"])
def test_a_damaged_file_is_one_line_and_exit_1(home, capsys, text):
    records_path().parent.mkdir(parents=True)
    records_path().write_text(text)
    assert main(["records"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert captured.err.startswith(f"error: {records_path()}")
    assert "Traceback" not in captured.err
    assert records_path().read_text() == text
