"""Time-trial records: what counts as a turn, best only improves, and hostile files are kept."""

from __future__ import annotations

import dataclasses
import datetime
import logging
import re

import pytest

from racetrack.board.geometry import Vec
from racetrack.board.track import find_track, load_track
from racetrack.engine.model import CarSetup, EventKind
from racetrack.games.race import Race
from racetrack.games.records import (
    Records,
    RecordsError,
    TrialKey,
    is_time_trial,
    load_records,
    note_par,
    read_records,
    record_run,
    records_path,
    run_path,
    run_turns,
    save_records,
    solo_par,
)
from racetrack.rules import load_rules
from racetrack.rules.overrides import apply_overrides
from racetrack.search.drivers import make_driver

DAY = datetime.date(2025, 3, 14)


@pytest.fixture(scope="module")
def riddler():
    return load_track(find_track("riddler-opolis"))


def drive(track, rules, crash_first=False, name="Ann"):
    """A solo run: the expert's line, or first flat out until the car crashes."""
    state = Race(track, rules, [CarSetup(name, "red", "human")]).start()
    expert = make_driver("expert")
    events = []
    while not state.is_over:
        if crash_first and EventKind.CRASHED not in {e.kind for e in events}:
            car = state.cars[0]
            move = max(state.legal_moves(), key=lambda m: ((m.target - car.position).speed,
                                                           m.target.x))
        else:
            move = expert.choose(state)
        events += state.apply(move)
    return state, events


def test_an_expert_run_takes_par_turns(riddler):
    rules = load_rules("gardner")
    state, _ = drive(riddler, rules)
    assert run_turns(state) == solo_par(riddler, rules).moves == len(state.history)


def test_crashed_and_missed_turns_count_as_turns(riddler):
    # Simulation rules: a car with no legal move crashes (that turn), is put back, and misses
    # the next turn. Each is a turn the paper player waits out, so each counts.
    state, events = drive(riddler, load_rules("simulation"), crash_first=True)
    kinds = [e.kind for e in events]
    assert kinds.count(EventKind.STUCK) == 1 and kinds.count(EventKind.MISSED_TURN) == 1
    assert run_turns(state) == len(state.history) + 2
    assert run_turns(state) == state.cars[0].finish.round == state.outcome.rounds


def test_a_full_solo_race_is_recorded_with_its_turns(riddler, tmp_path):
    path = tmp_path / "records.yaml"
    rules = load_rules("simulation")
    state, _ = drive(riddler, rules, crash_first=True)
    result = record_run(state, par=13, path=path, today=DAY)
    assert (result.new_best, result.previous, result.best, result.par, result.runs) == \
        (True, None, run_turns(state), 13, 1)
    record = load_records(path).find(TrialKey.of(riddler, rules))
    assert record.best == run_turns(state) and record.player == "Ann"
    assert record.date == "2025-03-14" and record.par == 13
    # The best run's line is re-created from its moves, crash restart included.
    assert run_path(riddler, rules, record.moves) == state.trails[0]


def test_best_only_improves_and_runs_are_counted(riddler, tmp_path):
    path = tmp_path / "records.yaml"
    rules = load_rules("simulation")
    slow, _ = drive(riddler, rules, crash_first=True, name="Ann")
    fast, _ = drive(riddler, rules, name="Bob")
    assert record_run(slow, path=path).new_best
    better = record_run(fast, path=path)
    assert better.new_best and better.previous == run_turns(slow) and better.runs == 2
    worse = record_run(slow, path=path)
    assert not worse.new_best and worse.best == run_turns(fast) and worse.runs == 3
    record = load_records(path).find(TrialKey.of(riddler, rules))
    assert record.player == "Bob" and record.best == run_turns(fast) and record.runs == 3


def test_each_track_and_rule_set_has_its_own_record(riddler, tmp_path):
    path = tmp_path / "records.yaml"
    gardner = load_rules("gardner")
    wide = apply_overrides(gardner, {"movement.choices": "square-24"})
    renamed = gardner.replace(name="my gardner")
    for rules in (gardner, wide, renamed):
        record_run(drive(riddler, rules)[0], path=path)
    edited = dataclasses.replace(riddler, description="changed")
    record_run(drive(edited, gardner)[0], path=path)
    table = load_records(path)
    assert len(table) == 4
    assert table.find(TrialKey.of(riddler, wide)).best < table.find(
        TrialKey.of(riddler, gardner)).best


def test_round_trip_keeps_every_field(riddler, tmp_path):
    path = tmp_path / "records.yaml"
    state, _ = drive(riddler, load_rules("baker"))
    record_run(state, path=path, today=DAY)
    note_par(riddler, load_rules("baker"), 11, path=path)
    first = load_records(path)
    save_records(first, tmp_path / "again.yaml")
    assert load_records(tmp_path / "again.yaml") == first
    assert first.entries[0].par == 11
    assert path.read_text().startswith("racetrack-records: 2\n")


def test_only_finished_solo_human_runs_count(riddler):
    two = Race(riddler, load_rules("gardner"), [CarSetup("A"), CarSetup("B")])
    computer = Race(riddler, load_rules("gardner"), [CarSetup("A", driver="expert")])
    assert not is_time_trial(two) and not is_time_trial(computer)
    with pytest.raises(ValueError, match="time trial"):
        record_run(two.start())
    solo = Race(riddler, load_rules("gardner"), [CarSetup("A")]).start()
    with pytest.raises(ValueError, match="finished"):
        record_run(solo)


def test_the_records_live_in_the_data_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("RACETRACK_HOME", str(tmp_path))
    assert records_path() == tmp_path / "data" / "records.yaml"
    assert load_records() == Records()


GOOD = """racetrack-records: 1
records:
- track: {name: Riddler-opolis, hash: abc}
  rules: {name: gardner, options: {movement.choices: square}}
  best: 12
  par: null
  player: Ann
  date: 2025-03-14
  runs: 2
  moves: [[1, 2], [3, 4]]
"""

GOOD2 = """racetrack-records: 2
rule-sets:
  r1: {name: gardner, options: {movement.choices: square}}
records:
- track: Riddler-opolis
  track-hash: abc
  rules: r1
  best: 12
  par: null
  player: Ann
  date: 2025-03-14
  runs: 2
  moves: 1,2 3,4
"""

HOSTILE = [
    ("- just\n- a list\n", "must be a YAML mapping"),
    ("racetrack-records: 7\nrecords: []\n", "format version 1 or 2"),
    ("records: []\n", "format version 1 or 2"),
    ("racetrack-records: 1\nrecords: {a: 1}\n", "'records' must be a list"),
    ("racetrack-records: 1\nrecords: [42]\n", "record 1 must be a mapping"),
    (GOOD.replace("best: 12", "best: twelve"), "'best' must be a whole number"),
    (GOOD.replace("best: 12", "best: 1" + "0" * 40), "'best' must be a whole number"),
    (GOOD.replace("best: 12", "best: true"), "'best' must be a whole number"),
    (GOOD.replace("runs: 2", "runs: -1"), "'runs' must be a whole number"),
    (GOOD.replace("[3, 4]", "[3, 1e999]"), "move 2 must be [x, y]"),
    (GOOD.replace("[3, 4]", "[3, 40000000000]"), "move 2 must be [x, y]"),
    (GOOD.replace("player: Ann", "player: [Ann]"), "'player' must be a text"),
    (GOOD.replace("square}", "hexagon}"), "must be one of: plus, square, square-24"),
    (GOOD.replace("movement.choices", "base: /etc/passwd, movement.choices"),
     "unknown rule option 'base'"),
    (GOOD.replace("{name: Riddler-opolis, hash: abc}", "Riddler"), "'track' must hold"),
    (GOOD + GOOD.split("records:\n")[1], "a second record for the same track"),
    ("racetrack-records: 1\nrecords: !!python/object/apply:os.system [ls]\n", "YAML error"),
    ("a: &a [*a]\n", "nested too deeply"),
    ("racetrack-records: 1\n\x00", "not a text file"),
    (GOOD2.replace("1,2 3,4", "1,2 3,x"), "'moves' must be points 'x,y'"),
    (GOOD2.replace("1,2 3,4", "1,2  3,4"), "'moves' must be points 'x,y'"),
    (GOOD2.replace("1,2 3,4", "1,2,3 4"), "'moves' must be points 'x,y'"),
    (GOOD2.replace("1,2 3,4", "1,2 3,4000000"), "coordinates from -1,000,000"),
    (GOOD2.replace("1,2 3,4", "[[1, 2]]"), "'moves' must be points 'x,y'"),
    (GOOD2.replace("rules: r1", "rules: r2"), "unknown rule set 'r2'; valid rule sets: r1"),
    (GOOD2.replace("square}", "hexagon}"), "must be one of: plus, square, square-24"),
    (GOOD2.replace("track-hash", "hash"), "unknown key 'hash' in record 1"),
    (GOOD2.replace("options: {", "options: {base: x, "), "unknown rule option 'base'"),
    (GOOD2 + GOOD2.split("records:\n")[1], "a second record for the same track"),
]


@pytest.mark.parametrize("text, message", HOSTILE)
def test_a_hostile_file_is_an_error_and_reads_as_empty(tmp_path, text, message):
    path = tmp_path / "records.yaml"
    path.write_text(text)
    with pytest.raises(RecordsError, match=re.escape(message)) as caught:
        load_records(path)
    assert len(caught.value.problems) == 1 and str(path) in str(caught.value)
    table, problem = read_records(path)
    assert table == Records() and message.split("'")[0] in problem
    assert path.read_text() == text  # reading never changes it


def test_a_good_hand_edited_file_loads(tmp_path):
    path = tmp_path / "records.yaml"
    path.write_text(GOOD)
    (record,) = load_records(path).entries
    assert (record.best, record.date, record.runs, record.par) == (12, "2025-03-14", 2, None)


def test_a_hand_edited_entry_takes_the_options_it_omits_from_its_variant(tmp_path, caplog):
    # Not the option table's defaults (gardner's turn order is by lot, the table's is the
    # seating), and the log says so.
    path = tmp_path / "records.yaml"
    path.write_text(GOOD)
    with caplog.at_level(logging.WARNING):
        (record,) = load_records(path).entries
    assert record.rules.turn_order == "lots" == load_rules("gardner").turn_order
    assert record.rules.movement_first_move == "ahead"
    assert "taken from that variant" in caplog.text


def test_an_entry_written_before_the_newer_options_takes_their_defaults_and_says_so(
        tmp_path, caplog):
    # A levi record set before Levi's crawl had to come back no farther on, and before rule
    # 6's checkpoints: it was set under the engine's behaviour of its time, so it keeps that
    # (its own record, not today's levi's), and the log says which options it lacked.
    import yaml

    options = load_rules("levi").options()
    del options["crawl-return"], options["start.line-checkpoints"]
    entry = {"track": {"name": "Oval", "hash": "abc"},
             "rules": {"name": "levi", "options": options}, "best": 28, "par": None,
             "player": "Ann", "date": "2025-03-14", "runs": 1, "moves": []}
    path = tmp_path / "records.yaml"
    path.write_text(yaml.safe_dump({"racetrack-records": 1, "records": [entry]}))
    with caplog.at_level(logging.WARNING):
        (record,) = load_records(path).entries
    assert record.rules.crawl_return == "anywhere"
    assert record.rules.start_line_checkpoints == "none"
    assert record.rules != load_rules("levi")
    assert "written before the options start.line-checkpoints, crawl-return" in caplog.text


def test_a_damaged_file_is_kept_aside_when_a_run_is_recorded(riddler, tmp_path, caplog):
    path = tmp_path / "records.yaml"
    path.write_text("racetrack-records: 1\nrecords: [oops]\n")
    (tmp_path / "records.yaml.bad").write_text("an older damaged file")
    with caplog.at_level(logging.WARNING):
        result = record_run(drive(riddler, load_rules("gardner"))[0], path=path)
    assert result.new_best and result.previous is None
    assert len(load_records(path)) == 1
    assert (tmp_path / "records.yaml.bad").read_text() == "an older damaged file"
    assert (tmp_path / "records.yaml.bad-2").read_text() == \
        "racetrack-records: 1\nrecords: [oops]\n"
    assert "records.yaml.bad-2" in caplog.text


def test_a_reverse_run_has_its_own_par_and_record(tmp_path, riddler):
    from racetrack.games.records import trial_track

    # Levi's rules as written: a crawling car comes back anywhere, so the expert's table holds
    # the crawl and alone it drives the par. Under levi itself a car off the track carries
    # where it left, too many states for a table: the table keeps to the track, and the expert
    # never leaves it to shed speed as the optimum does (on the hairpins, 49 turns against 46).
    # A small circuit: the expert's table for the hairpins run backwards took six seconds.
    rules = load_rules("levi").replace(crawl_return="anywhere")
    state = Race(riddler, rules, [CarSetup("Ann", "red", "human", reverse=True)]).start()
    expert = make_driver("expert")
    while not state.is_over:
        state.apply(expert.choose(state))
    backwards = trial_track(riddler, reverse=True)
    assert run_turns(state) == solo_par(backwards, rules).moves
    path = tmp_path / "records.yaml"
    record_run(state, path=path)
    table = load_records(path)
    assert table.find(TrialKey.of(backwards, rules)).best == run_turns(state)
    assert table.find(TrialKey.of(riddler, rules)) is None
    assert run_path(backwards, rules, table.find(TrialKey.of(backwards, rules)).moves) \
        == state.trails[0]


def test_where_the_car_chooses_its_start_par_is_from_the_best_point():
    track = load_track(find_track("pit-lane"))
    rules = apply_overrides(load_rules("gardner-addenda"), {"start.grid": "choose"})
    state = Race(track, rules, [CarSetup("Ann", "red", "human")]).start()
    expert = make_driver("expert")
    while not state.is_over:
        state.apply(expert.choose(state))
    assert run_turns(state) == solo_par(track, rules).moves


def test_both_versions_read_the_same_record(tmp_path):
    one, two = tmp_path / "one.yaml", tmp_path / "two.yaml"
    one.write_text(GOOD)
    two.write_text(GOOD2)
    assert load_records(one) == load_records(two)
    assert load_records(two).entries[0].moves == (Vec(1, 2), Vec(3, 4))


def test_each_rule_set_is_read_and_hashed_once_however_many_records(tmp_path, monkeypatch):
    """The table reads in linear time: nothing is done per record for every other record,
    and the rules shared by many records are read once (version 1 as well)."""
    import racetrack.games.records as records

    calls = {"read": 0, "hash": 0}
    read, hashed = records.rules_from_document, records.rules_hash

    def counting_read(*args, **kwargs):
        calls["read"] += 1
        return read(*args, **kwargs)

    def counting_hash(rules):
        calls["hash"] += 1
        return hashed(rules)

    monkeypatch.setattr(records, "rules_from_document", counting_read)
    monkeypatch.setattr(records, "rules_hash", counting_hash)
    head, item = GOOD.split("records:\n")
    many = head + "records:\n" + "".join(item.replace("Riddler-opolis", f"Track {i}")
                                         .replace("gardner", ("gardner", "baker")[i % 2])
                                         for i in range(300))
    path = tmp_path / "records.yaml"
    path.write_text(many)
    table = load_records(path)
    assert len(table) == 300 and calls == {"read": 2, "hash": 2}
    save_records(table, path)
    calls.update(read=0, hash=0)
    again = load_records(path)
    assert [r.key for r in again.entries] == [r.key for r in table.entries]
    assert calls == {"read": 2, "hash": 2}
    assert table.find(again.entries[-1].key) is table.entries[-1]
