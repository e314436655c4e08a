"""Time-trial records: the fewest turns a player has taken round each track, under each rule set.

The simulation sheet's solo game ("count how many turns it took me ... then try to do the race
in as few turns as possible") made permanent. A *time trial* is a race with exactly one car,
driven by a person; its score is the race's length in turns (``Outcome.rounds``). Turns the car
spends crashing or missing after a crash count too, because under the simulation rules a missed
turn is a turn the paper player waits out; only finished runs are recorded.

A record is kept per track *and* rule set. The track is identified by its name and the hash of
its canonical text (``replay.track_hash``), so an edited track starts afresh; the rule set by its
name and a hash of every option, so "gardner" and "gardner + square-24" (or a player's tweaked
file of the same name) are told apart. Each record holds the best number of turns, who drove
it and when, how many finished runs there have been, the solver's par once known, and the best
run's moves, so its line can be drawn again as a ghost.

The table is saved as versioned YAML (``racetrack-records: 1``) in the player's data folder,
written atomically. The file is the player's own and so untrusted: a damaged or hostile one is
an error naming it (``load_records``), and the next record does not overwrite it but moves it
aside to ``records.yaml.bad`` first, so nothing is silently lost.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import logging
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from racetrack.errors import FileProblemError, RulesError
from racetrack.fields import MAX_TEXT, Field, Reader
from racetrack.files import keep_aside
from racetrack.game import Race, RaceState
from racetrack.geometry import Vec
from racetrack.model import CarSetup, Move
from racetrack.replay import track_hash
from racetrack.rules.options import OPTIONS_BY_KEY
from racetrack.rules.ruleset import RuleSet, rules_from_document
from racetrack.settings import data_dir
from racetrack.solver import Solution
from racetrack.track import Track
from racetrack.yamlio import Limits, YamlDocument, load_yaml, write_yaml

log = logging.getLogger(__name__)

FORMAT_KEY = "racetrack-records"
FORMAT_VERSION = 1
MAX_RECORDS_BYTES = 8 * 1024 * 1024
MAX_RECORDS = 10_000
#: No run can be longer: ``max-rounds`` stops every race by 10 000 rounds.
MAX_TURNS = 10_000
MAX_RUNS = 1_000_000_000
MAX_COORDINATE = 1_000_000
#: The longest track name kept: a track's name, and " (reverse)" for a run the other way.
MAX_NAME = 200
#: How much of a records file is read (and written): a record is about a hundred values and
#: its best run's moves.
RECORDS_LIMITS = Limits(bytes=MAX_RECORDS_BYTES, nodes=1_000_000)


class RecordsError(FileProblemError):
    """The records file cannot be read as a records table."""


def records_path() -> Path:
    return data_dir() / "records.yaml"


def rules_hash(rules: RuleSet) -> str:
    """A fingerprint of every option of a rule set (not its name or description)."""
    text = json.dumps(rules.options(), sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class TrialKey:
    """What a record is kept for: one track (as drawn now) under one rule set."""

    track_name: str
    track_hash: str
    rules_name: str
    rules_hash: str

    @classmethod
    def of(cls, track: Track, rules: RuleSet) -> TrialKey:
        return cls(track.name, track_hash(track), rules.name, rules_hash(rules))


@dataclass(frozen=True)
class Record:
    """The best finished run on one track under one rule set."""

    track_name: str
    track_hash: str
    rules: RuleSet
    best: int
    player: str
    date: str  # ISO date of the best run
    runs: int  # finished runs, the best included
    moves: tuple[Vec, ...]  # the best run's moves (each the point chosen), for its ghost
    par: int | None = None  # the solver's fewest turns from the same start, once worked out

    @property
    def key(self) -> TrialKey:
        return TrialKey(self.track_name, self.track_hash, self.rules.name,
                        rules_hash(self.rules))


@dataclass(frozen=True)
class Records:
    """The whole table, in the order records were first made."""

    entries: tuple[Record, ...] = ()

    def __len__(self) -> int:
        return len(self.entries)

    def find(self, key: TrialKey) -> Record | None:
        return next((r for r in self.entries if r.key == key), None)

    def with_record(self, record: Record) -> Records:
        """The table with ``record`` in place of the one of the same key (or added)."""
        key = record.key
        if any(r.key == key for r in self.entries):
            return Records(tuple(record if r.key == key else r for r in self.entries))
        return Records((*self.entries, record))


@dataclass(frozen=True)
class RunResult:
    """What a finished run did to the table."""

    new_best: bool
    previous: int | None  # the best before this run (None: the first run)
    best: int
    par: int | None
    turns: int
    runs: int
    kept_aside: Path | None = None  # where a damaged records file was moved, if it was


# --------------------------------------------------------------------------------------------
# Time trials


def trial_track(track: Track, reverse: bool = False) -> Track:
    """The track a solo run is measured on: the track itself, or, for a car racing a circuit
    the other way round, its reversed course raced forwards (its own par, ghost and record)."""
    return track.reversed().with_name(f"{track.name} (reverse)") if reverse else track


def race_trial_track(race: Race) -> Track:
    return trial_track(race.track, race.cars[0].reverse)


def is_time_trial(race: Race) -> bool:
    """A race with exactly one car, and a person driving it from the start (a run taken over
    from a computer driver part way is no person's time)."""
    return len(race.cars) == 1 and race.cars[0].human_all_along


def run_turns(state: RaceState) -> int | None:
    """The turns a finished solo run took (missed turns included), or None if it did not
    finish (the car went out, or the race was stopped)."""
    outcome = state.outcome
    if outcome is None or not state.cars[0].finish:
        return None
    return outcome.rounds


def solo_start(track: Track, rules: RuleSet) -> Vec:
    """Where a lone car starts (its par is measured from there, not from the best spot)."""
    return Race(track, rules, [CarSetup("solo")]).grid[0]


def solo_par(track: Track, rules: RuleSet) -> Solution | None:
    """The solver's optimal run for a lone car: its par and its "ghost" line.

    Can take a second or two on a big track and raises ``SolverError`` on an absurd one, so
    the window calls it off the frame. None when the finish cannot be reached.
    """
    from racetrack.ai.tables import par

    race = Race(track, rules, [CarSetup("solo")])
    # Where the car chooses its start point, par is from the best one.
    start = None if race.choose_grid else race.grid[0]
    return par(race.course, rules, start=start)


def run_path(track: Track, rules: RuleSet, moves: tuple[Vec, ...]) -> list[Vec]:
    """The line a recorded run drew (crash restarts included), re-simulated from its moves.

    A run that no longer re-simulates (it cannot, for the same key, unless the file was edited)
    gives the line as far as it goes.
    """
    state = Race(track, rules, [CarSetup("ghost")]).start()
    for point in moves:
        if state.is_over:
            break
        try:
            state.apply(Move(point))
        except ValueError:
            break
    return list(state.trails[0])


def track_for(record: Record) -> Track | None:
    """The track a record was set on, if a bundled track or one of the player's own tracks
    is still exactly it (same hash); None if it has been edited or is gone."""
    from racetrack.settings import tracks_dir
    from racetrack.track import bundled_track_paths, load_track

    own = sorted(tracks_dir().glob("*.yaml")) if tracks_dir().is_dir() else []
    for path in [*bundled_track_paths(), *own]:
        try:
            track = load_track(path)
        except ValueError:
            continue
        if track.name == record.track_name and track_hash(track) == record.track_hash:
            return track
    return None


def record_run(state: RaceState, par: int | None = None, path: Path | None = None,
               today: datetime.date | None = None) -> RunResult:
    """Add a finished time-trial run to the table on disk and say whether it is a new best.

    ``par`` (the solver's, if already known) is stored with the record. A damaged records file
    is moved aside (see ``set_aside``) and the table starts afresh. Raises ``ValueError`` if
    the race is not a finished time trial and ``OSError`` if the file cannot be written.
    """
    race = state.race
    if not is_time_trial(race):
        raise ValueError("only a race of one car, driven by a person, is a time trial")
    turns = run_turns(state)
    if turns is None:
        raise ValueError("only a finished run is recorded")
    path = path or records_path()
    aside = None
    try:
        table = load_records(path)
    except RecordsError as exc:
        aside = set_aside(path)
        log.warning("%s; kept as %s, starting a new table", exc.problems[0], aside.name)
        table = Records()
    track = race_trial_track(race)
    key = TrialKey.of(track, race.rules)
    old = table.find(key)
    # The car's points only: the ghost's line is the car's (a missile's moves are not).
    moves = tuple(move.target for _, move in state.history if not move.missile)
    date = (today or datetime.date.today()).isoformat()
    runs = min(MAX_RUNS, (old.runs if old else 0) + 1)
    known_par = par if par is not None else (old.par if old else None)
    new_best = old is None or turns < old.best
    if new_best:
        record = Record(track.name, key.track_hash, race.rules, turns,
                        race.cars[0].name, date, runs, moves, known_par)
    else:
        assert old is not None
        record = replace(old, runs=runs, par=known_par)
    save_records(table.with_record(record), path)
    return RunResult(new_best, old.best if old else None, record.best, record.par, turns, runs,
                     aside)


def note_par(track: Track, rules: RuleSet, par: int | None, path: Path | None = None) -> None:
    """Remember the solver's par on an existing record (worked out after the run was saved)."""
    path = path or records_path()
    try:
        table = load_records(path)
    except RecordsError:
        return  # left alone: the next run moves it aside and says so
    old = table.find(TrialKey.of(track, rules))
    if old is not None and old.par != par:
        save_records(table.with_record(replace(old, par=par)), path)


def set_aside(path: Path) -> Path:
    """Rename a damaged file to ``NAME.bad`` (or ``NAME.bad-2``, ...) so that it is kept."""
    return keep_aside(path)


# --------------------------------------------------------------------------------------------
# The file


def records_to_data(table: Records) -> dict[str, Any]:
    return {FORMAT_KEY: FORMAT_VERSION, "records": [
        {"track": {"name": r.track_name, "hash": r.track_hash},
         "rules": {"name": r.rules.name, "options": r.rules.options()},
         "best": r.best, "par": r.par, "player": r.player, "date": r.date, "runs": r.runs,
         "moves": [[p.x, p.y] for p in r.moves]}
        for r in table.entries]}


def save_records(table: Records, path: Path | None = None) -> None:
    """Write the table atomically (the file is either the old one or the new one, whole);
    ``RecordsError`` if it has grown past what the game reads back."""
    write_yaml(path or records_path(), records_to_data(table), RECORDS_LIMITS, RecordsError)


def load_records(path: Path | None = None) -> Records:
    """The table on disk; empty if there is no file yet.

    Raises ``RecordsError`` naming the file (and line) if it is not a records table of this
    version, or any value in it is of the wrong kind or out of range.
    """
    path = path or records_path()
    if not path.exists() and not path.is_symlink():
        return Records()
    doc = load_yaml(path, RecordsError, RECORDS_LIMITS)
    return records_from_document(doc)


def read_records(path: Path | None = None) -> tuple[Records, str | None]:
    """The table for showing, never raising: a damaged file reads as empty, with the problem
    in one line to show the player."""
    try:
        return load_records(path), None
    except RecordsError as exc:
        return Records(), str(exc.problems[0])


def records_from_document(doc: YamlDocument) -> Records:
    """The table a parsed records file holds, every field checked (the first problem is
    raised as a ``RecordsError``)."""
    root = Reader(doc, RecordsError).root
    if not isinstance(doc.data, dict):
        root.fail("a records file must be a YAML mapping")
    root[FORMAT_KEY].equals(FORMAT_VERSION, f"not a records table of format version "
                                            f"{FORMAT_VERSION} ('{FORMAT_KEY}: "
                                            f"{FORMAT_VERSION}' missing or different)")
    root.keys((FORMAT_KEY, "records"), what="a records file")
    table = Records()
    for item in root["records"].items(MAX_RECORDS, default=[], item="record"):
        record = _record(doc, item)
        if table.find(record.key) is not None:
            item.fail("a second record for the same track and rules")
        table = table.with_record(record)
    return table


_RECORD_KEYS = ("track", "rules", "best", "par", "player", "date", "runs", "moves")


def _record(doc: YamlDocument, item: Field) -> Record:
    if not isinstance(item.value, dict):
        item.fail(f"{item.label} must be a mapping")
    item.keys(_RECORD_KEYS, what=item.label)
    track = item["track"]
    if not isinstance(track.value, dict):
        track.fail("'track' must hold 'name' and 'hash'")
    track.keys(("name", "hash"), what="'track'")
    track_name = track["name"].text(MAX_NAME)
    hash_ = track["hash"].text(64)
    rules_part = item["rules"]
    if not isinstance(rules_part.value, dict) or not isinstance(rules_part["options"].value,
                                                                dict):
        rules_part.fail("'rules' must hold 'name' and 'options'")
    rules_part.keys(("name", "options"), what="'rules'")
    rules_name = rules_part["name"].text(MAX_TEXT)
    rules_part["options"].keys(OPTIONS_BY_KEY, unknown="rule option")
    options = doc.sub(rules_part["options"].path)
    try:
        rules = rules_from_document(YamlDocument({**options.data, "name": rules_name},
                                                 doc.file, options.lines), from_variant=True)
    except RulesError as exc:
        raise RecordsError(exc.problems) from None
    best = item["best"].whole(1, MAX_TURNS)
    par = item["par"].whole(1, MAX_TURNS, default=None, nullable=True)
    runs = item["runs"].whole(1, MAX_RUNS)
    date_field = item["date"]
    if isinstance(date_field.value, datetime.date):  # unquoted, as a hand-edited file may be
        date_field = date_field.named("'date'")
        date = date_field.value.isoformat()
    else:
        date = date_field.text(40)
    player = item["player"].text(MAX_NAME)
    moves = tuple(Vec(*move.pair(-MAX_COORDINATE, MAX_COORDINATE, whole=True, what="[x, y]"))
                  for move in item["moves"].items(MAX_TURNS, default=[], item="move"))
    return Record(track_name, hash_, rules, best, player, date, runs, moves, par)
