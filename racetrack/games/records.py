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

The table is saved as versioned YAML (``racetrack-records: 2``, each rule set once and each
ghost's moves one line of text) in the player's data folder, written atomically, and read in
time linear in its size. The file is the player's own and so untrusted: a damaged or hostile
one is an error naming it (``load_records``), and the next record does not overwrite it but
moves it aside to ``records.yaml.bad`` first, so nothing is silently lost. Two copies of the
game sharing the data folder add their runs one after the other (``filelock``): each reads
the table as the other left it, so neither run is lost.
"""

from __future__ import annotations

import datetime
import functools
import hashlib
import itertools
import json
import logging
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from racetrack.base.errors import FileProblemError, RulesError
from racetrack.base.fields import MAX_TEXT, Field, Reader
from racetrack.base.filelock import locked
from racetrack.base.files import keep_aside
from racetrack.base.settings import data_dir, tracks_dir
from racetrack.base.yamlio import Limits, YamlDocument, load_yaml, paused_gc, write_yaml
from racetrack.board.geometry import Vec
from racetrack.board.track import Track, bundled_track_paths, load_track
from racetrack.engine.model import CarSetup, Move
from racetrack.games.race import Race, RaceState
from racetrack.games.replay import track_hash
from racetrack.rules.options import OPTIONS_BY_KEY
from racetrack.rules.ruleset import RuleSet, rules_from_document
from racetrack.search.drivers.tables import par
from racetrack.search.solver import Solution

log = logging.getLogger(__name__)

FORMAT_KEY = "racetrack-records"
#: Version 2 keeps each rule set once and a run's moves as one line of text: a record is
#: about twenty values, not three hundred, so ten thousand of them read in under a second.
#: Version 1 (every record with all its options and its moves one value each) still loads.
FORMAT_VERSION = 2
FORMAT_VERSIONS = (1, 2)
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
    #: ``rules_hash(rules)`` where already known (read once for all records of a rule set).
    rules_digest: str | None = field(default=None, compare=False, repr=False)

    @functools.cached_property
    def key(self) -> TrialKey:
        """Worked out once (hashing every option of the rules is the dear part)."""
        return TrialKey(self.track_name, self.track_hash, self.rules.name,
                        self.rules_digest or rules_hash(self.rules))


@dataclass(frozen=True)
class Records:
    """The whole table, in the order records were first made."""

    entries: tuple[Record, ...] = ()

    def __len__(self) -> int:
        return len(self.entries)

    @functools.cached_property
    def _index(self) -> dict[TrialKey, int]:
        return {record.key: index for index, record in enumerate(self.entries)}

    def find(self, key: TrialKey) -> Record | None:
        index = self._index.get(key)
        return None if index is None else self.entries[index]

    def with_record(self, record: Record) -> Records:
        """The table with ``record`` in place of the one of the same key (or added)."""
        index = self._index.get(record.key)
        if index is None:
            return Records((*self.entries, record))
        return Records((*self.entries[:index], record, *self.entries[index + 1:]))


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


def solo_par(track: Track, rules: RuleSet) -> Solution | None:
    """The solver's optimal run for a lone car: its par and its "ghost" line.

    Can take a second or two on a big track and raises ``SolverError`` on an absurd one, so
    the window calls it off the frame. None when the finish cannot be reached.
    """
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
    with locked(path):  # another copy of the game adding its run waits, then reads this one
        return _add_run(state, turns, par, path, today)


def _add_run(state: RaceState, turns: int, par: int | None, path: Path,
             today: datetime.date | None) -> RunResult:
    race = state.race
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
    with locked(path):
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
    """The table as the file holds it (version 2): each rule set once, by a short name."""
    names: dict[tuple[str, str], str] = {}
    rule_sets: dict[str, Any] = {}
    records = []
    for r in table.entries:
        shared = (r.rules.name, r.key.rules_hash)
        if shared not in names:
            names[shared] = f"r{len(names) + 1}"
            rule_sets[names[shared]] = {"name": r.rules.name, "options": r.rules.options()}
        records.append({"track": r.track_name, "track-hash": r.track_hash,
                        "rules": names[shared], "best": r.best, "par": r.par,
                        "player": r.player, "date": r.date, "runs": r.runs,
                        "moves": " ".join(f"{p.x},{p.y}" for p in r.moves)})
    return {FORMAT_KEY: FORMAT_VERSION, "rule-sets": rule_sets, "records": records}


def save_records(table: Records, path: Path | None = None) -> None:
    """Write the table atomically (the file is either the old one or the new one, whole);
    ``RecordsError`` if it has grown past what the game reads back."""
    write_yaml(path or records_path(), records_to_data(table), RECORDS_LIMITS, RecordsError)


def load_records(path: Path | None = None) -> Records:
    """The table on disk; empty if there is no file yet.

    Raises ``RecordsError`` naming the file (and line) if it is not a records table of this
    version, or any value in it is of the wrong kind or out of range.
    """
    path = Path(path) if path is not None else records_path()
    if not path.exists() and not path.is_symlink():
        return Records()
    doc = load_yaml(path, RecordsError, RECORDS_LIMITS)
    with paused_gc():
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
    raised as a ``RecordsError``), in time linear in the file."""
    root = Reader(doc, RecordsError).root
    if not isinstance(doc.data, dict):
        root.fail("a records file must be a YAML mapping")
    version = doc.data.get(FORMAT_KEY)
    if version == 1 and type(version) is int:
        root.keys((FORMAT_KEY, "records"), what="a records file")
        rule_sets: dict[str, tuple[RuleSet, str]] = {}
        read = functools.partial(_record_v1, doc, rule_sets=rule_sets)
    else:
        root[FORMAT_KEY].equals(FORMAT_VERSION, f"not a records table of format version "
                                                f"1 or {FORMAT_VERSION} ('{FORMAT_KEY}: "
                                                f"{FORMAT_VERSION}' missing or different)")
        root.keys((FORMAT_KEY, "rule-sets", "records"), what="a records file")
        read = functools.partial(_record, rule_sets=_rule_sets(doc, root["rule-sets"]))
    entries: list[Record] = []
    keys: set[TrialKey] = set()
    for item in root["records"].items(MAX_RECORDS, default=[], item="record"):
        record = read(item)
        if record.key in keys:
            item.fail("a second record for the same track and rules")
        keys.add(record.key)
        entries.append(record)
    return Records(tuple(entries))


def _rule_sets(doc: YamlDocument, field_: Field) -> dict[str, tuple[RuleSet, str]]:
    """Version 2's rule sets, by their names in the file, each with its hash."""
    found = {}
    for name, part in field_.entries(MAX_RECORDS, default={}):
        if not isinstance(part.value, dict) or not isinstance(part["options"].value, dict):
            part.fail(f"the rule set {name!r} must hold 'name' and 'options'")
        part.keys(("name", "options"), what=f"the rule set {name!r}")
        rules_name = part["name"].text(MAX_TEXT)
        part["options"].keys(OPTIONS_BY_KEY, unknown="rule option")
        found[name] = _rules(doc, part["options"].path, rules_name, {})
    return found


def _rules(doc: YamlDocument, path: tuple, name: str,
           rule_sets: dict[str, tuple[RuleSet, str]]) -> tuple[RuleSet, str]:
    """A rule set and its hash, read from its options once for all the records that share
    them (``rule_sets`` remembers them by their text)."""
    options = doc.sub(path)
    seen = json.dumps([name, options.data], sort_keys=True, default=repr)
    if seen not in rule_sets:
        try:
            rules = rules_from_document(
                YamlDocument({**options.data, "name": name}, doc.file, options.lines),
                from_variant=True)
        except RulesError as exc:
            raise RecordsError(exc.problems) from None
        rule_sets[seen] = (rules, rules_hash(rules))
    return rule_sets[seen]


_KEYS = ("track", "track-hash", "rules", "best", "par", "player", "date", "runs", "moves")
#: A run's moves in version 2: "x,y" points, one space between them.
_MOVES = re.compile(r"(?:-?[0-9]{1,7},-?[0-9]{1,7}(?: (?!$)|$))*")


def _record(item: Field, rule_sets: dict[str, tuple[RuleSet, str]]) -> Record:
    """One record of version 2."""
    if not isinstance(item.value, dict):
        item.fail(f"{item.label} must be a mapping")
    item.keys(_KEYS, what=item.label)
    track_name = item["track"].text(MAX_NAME)
    hash_ = item["track-hash"].text(64)
    shared = item["rules"].choice(list(rule_sets), unknown="rule set", valid="rule sets")
    rules, digest = rule_sets[shared]
    moves = item["moves"].value if item["moves"].present else ""
    # One pattern checks it all (only digits, commas, minus signs and spaces can match).
    if not isinstance(moves, str) or len(moves) > _MAX_MOVES_TEXT \
            or not _MOVES.fullmatch(moves):
        item["moves"].fail("'moves' must be points 'x,y' separated by spaces")
    numbers = list(map(int, moves.replace(",", " ").split()))
    # Vec's own constructor is Python code; tuple's builds the same pairs ten times faster.
    pairs = zip(numbers[0::2], numbers[1::2], strict=True)
    points = tuple(map(tuple.__new__, itertools.repeat(Vec), pairs))
    if len(points) > MAX_TURNS or max(map(abs, numbers), default=0) > MAX_COORDINATE:
        item["moves"].fail(f"'moves' must be at most {MAX_TURNS:,} points with coordinates "
                           f"from {-MAX_COORDINATE:,} to {MAX_COORDINATE:,}")
    return Record(track_name, hash_, rules, *_outcome(item), points, _par(item),
                  rules_digest=digest)


def _outcome(item: Field) -> tuple[int, str, str, int]:
    """A record's best, player, date and number of runs (the same in both versions)."""
    best = item["best"].whole(1, MAX_TURNS)
    runs = item["runs"].whole(1, MAX_RUNS)
    date_field = item["date"]
    if isinstance(date_field.value, datetime.date):  # unquoted, as a hand-edited file may be
        date = date_field.value.isoformat()
    else:
        date = date_field.text(40)
    player = item["player"].text(MAX_NAME)
    return best, player, date, runs


def _par(item: Field) -> int | None:
    return item["par"].whole(1, MAX_TURNS, default=None, nullable=True)


#: The longest text of a run's moves: every point at its widest, and a space.
_MAX_MOVES_TEXT = MAX_TURNS * 18


_RECORD_KEYS = ("track", "rules", "best", "par", "player", "date", "runs", "moves")


def _record_v1(doc: YamlDocument, item: Field,
               rule_sets: dict[str, tuple[RuleSet, str]]) -> Record:
    """One record of version 1."""
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
    rules, digest = _rules(doc, rules_part["options"].path, rules_name, rule_sets)
    outcome = _outcome(item)
    moves = tuple(Vec(*move.pair(-MAX_COORDINATE, MAX_COORDINATE, whole=True, what="[x, y]"))
                  for move in item["moves"].items(MAX_TURNS, default=[], item="move"))
    return Record(track_name, hash_, rules, *outcome, moves, _par(item), rules_digest=digest)
