"""A championship: a series of races on a list of tracks, with points and prize money.

Baker: "You could allow players to save money from one race to another - or award prize money
to the winner and allow them to spend that in the next race." Here both: after each race every
car keeps the money it holds (unspent in the shop, or picked up on the track) and the first
three win prizes of $30, $20 and $10; all of it adds to the rules' budget in the next race's
shop. Places also score 3, 2 and 1 points (as in Baker's team racing); the most points wins the
championship (ties: the most money).

The standings are a small YAML file (``racetrack-championship: 2``) written atomically, so a
series can stop and go on later. Entrants with a team name also score for their team (the sum
of its cars' points and money).

The rules are resolved once, when the series begins (the named rule set with the series'
overrides), and the file holds every option of them (``rule-set``), as a replay does: a rules
file edited, or a bundled variant changed by a new version of the game, never changes a series
under way, and a file whose rules lack an option is refused. A file of version 1 named its rules
only: its options are taken from that rule set as it is now, and the log says so.
"""

from __future__ import annotations

import itertools
import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from racetrack.base.errors import FileProblemError, Problem, RulesError, TrackError
from racetrack.base.fields import MAX_NAME, Field, Reader, describe
from racetrack.base.filelock import locked
from racetrack.base.settings import data_dir
from racetrack.base.yamlio import Limits, YamlDocument, load_yaml, write_yaml
from racetrack.board.track import (
    Track,
    bundled_track_paths,
    find_track,
    is_track_folder_file,
    load_track,
)
from racetrack.engine.model import MAX_MONEY, CarSetup, CarStatus
from racetrack.engine.shop import suggested_kit
from racetrack.games.playout import play_out, race_drivers
from racetrack.games.race import MAX_CARS, Race, RaceState
from racetrack.rules import RuleSet, bundled_variant_names, load_rules
from racetrack.rules.options import OPTIONS_BY_KEY
from racetrack.rules.overrides import apply_overrides
from racetrack.rules.ruleset import rules_from_document
from racetrack.search.drivers import LEVELS

if TYPE_CHECKING:
    from racetrack.games.archive import Unfinished

log = logging.getLogger(__name__)

FORMAT_KEY = "racetrack-championship"
#: Version 2 holds every option of the rules (``rule-set``); version 1 named them only.
FORMAT_VERSION = 2
READ_VERSIONS = (1, 2)


class ChampionshipError(FileProblemError):
    """A championship file or setup that cannot be used."""

    def __init__(self, problems: list[Problem] | Problem | str):
        if isinstance(problems, str):
            problems = Problem("championship", None, problems)
        super().__init__(problems)


@dataclass(frozen=True)
class Entrant:
    name: str
    colour: str
    driver: str = "human"
    team: str = ""


@dataclass
class Championship:
    """The series: its rules, tracks and entrants, and the standings after each race."""

    rules: str
    tracks: list[str]
    entrants: list[Entrant]
    seed: int = 0
    points: dict[str, int] = field(default_factory=dict)
    money: dict[str, int] = field(default_factory=dict)  # carried to the next race's shop
    results: list[dict[str, Any]] = field(default_factory=list)
    overrides: dict[str, str] = field(default_factory=dict)  # rule options changed on top
    # Every option raced by: resolved from ``rules`` and ``overrides`` when the series begins.
    rule_set: RuleSet | None = None

    def __post_init__(self) -> None:
        if not self.tracks:
            raise ChampionshipError("a championship needs at least one track")
        names = [e.name for e in self.entrants]
        if len(set(names)) != len(names) or not names:
            raise ChampionshipError("a championship needs entrants with different names")
        for name in names:
            self.points.setdefault(name, 0)
            self.money.setdefault(name, 0)
        if self.rule_set is None:
            rules = load_rules(self.rules)
            self.rule_set = apply_overrides(rules, self.overrides) if self.overrides else rules

    @property
    def race_number(self) -> int:
        """The number of the next race (1 for the first)."""
        return len(self.results) + 1

    @property
    def is_over(self) -> bool:
        return len(self.results) >= len(self.tracks)

    def ruleset(self) -> RuleSet:
        """The rules raced: the named rule set with the championship's overrides, every
        option as it was when the series began."""
        assert self.rule_set is not None
        return self.rule_set

    @property
    def next_track(self) -> str:
        """The name or file of the next race's track."""
        if self.is_over:
            raise ChampionshipError("the championship is over")
        return self.tracks[len(self.results)]

    def budget(self, name: str) -> int:
        """What the entrant may spend in the next race's shop."""
        return self.ruleset().equipment_budget + self.money[name]

    def next_cars(self) -> list[CarSetup]:
        """The cars for the next race, each with its budget; computer cars have bought their
        kit already (human cars buy theirs in the shop)."""
        rules = self.ruleset()
        shop = rules.equipment_shop == "design"
        cars = []
        for e in self.entrants:
            # Without a shop every car starts with the rules' kit; the money only scores.
            car = CarSetup(e.name, e.colour, e.driver, team=e.team,
                           budget=self.budget(e.name) if shop else None)
            if shop and not car.is_human:
                car = replace(car, kit=suggested_kit(rules, car.budget or 0))
            cars.append(car)
        return cars

    def next_race(self, cars: list[CarSetup] | None = None) -> Race:
        """The next race; ``ChampionshipError`` if its track no longer loads (edited into a
        draft or removed since the series began)."""
        if self.is_over:
            raise ChampionshipError("the championship is over")
        return Race(self.load_next_track(), self.ruleset(), cars or self.next_cars(),
                    seed=self.next_seed)

    def load_next_track(self) -> Track:
        """The next race's track, loaded and checked now (it may have changed since)."""
        return _load_track(self.next_track, find_track)

    @property
    def next_seed(self) -> int:
        """The next race's seed (a race resumed after a quit is known by it)."""
        return self.seed * 1000 + self.race_number

    def is_next_race(self, race: Race) -> bool:
        """Whether ``race`` is this championship's next race (one interrupted by a quit), its
        cars set up as the championship would: the same drivers and budgets, and the computer
        cars' kits the ones they buy (a human car's kit is checked against its budget by the
        race)."""
        if self.is_over:
            return False
        try:
            next_track = self.load_next_track()
        except ChampionshipError:
            return False
        if not (race.seed == self.next_seed and race.rules == self.ruleset()
                and [car.name for car in race.cars] == [e.name for e in self.entrants]
                and race.track.name == next_track.name):
            return False
        for car, expected in zip(race.cars, self.next_cars(), strict=True):
            if (car.driver != expected.driver or car.team != expected.team
                    or car.budget != expected.budget
                    or (not expected.is_human and car.kit != expected.kit)):
                return False
        return True

    def interrupted_race(self, unfinished: Sequence[Unfinished]) -> tuple[Unfinished,
                                                                          RaceState] | None:
        """The next race, if it is among the races in progress and not over: its file and
        the state to race on from."""
        for entry in unfinished:
            if not self.is_next_race(entry.replay.race):
                continue
            try:
                state = entry.replay.final_state()
            except ValueError:
                continue
            if not state.is_over:
                return entry, state
        return None

    def record(self, state: RaceState) -> dict[str, Any]:
        """Score a finished race: points, prizes and the money each car still holds."""
        outcome = state.outcome
        if outcome is None:
            raise ChampionshipError("the race is not over")
        names = [car.name for car in state.race.cars]
        result: dict[str, Any] = {"track": state.race.track.name,
                                  "ranking": [names[i] for i in outcome.ranking],
                                  "prizes": {}, "kept": {}}
        rules = state.race.rules
        shop = rules.equipment_shop == "design"
        prizes, points = rules.prize_money, rules.team_points
        for place, index in enumerate(outcome.ranking):
            name = names[index]
            out = state.cars[index].status is CarStatus.OUT  # an out car wins nothing
            prize = prizes[place] if place < len(prizes) and not out else 0
            kept = min(state.cars[index].kit.money, MAX_MONEY)
            self.points[name] += points[place] if place < len(points) and not out else 0
            # In the shop the car's money already holds what it carried in (its budget less
            # what it bought); without a shop it holds only what it picked up, so the money
            # carried adds to it.
            carried = 0 if shop else self.money[name]
            self.money[name] = min(carried + prize + kept, MAX_MONEY)
            result["prizes"][name] = prize
            result["kept"][name] = kept
        self.results.append(result)
        return result

    def standings(self) -> list[tuple[str, int, int]]:
        """(name, points, money) best first."""
        order = {e.name: i for i, e in enumerate(self.entrants)}
        return sorted(((n, self.points[n], self.money[n]) for n in order),
                      key=lambda row: (-row[1], -row[2], order[row[0]]))

    def team_standings(self) -> list[tuple[str, int, int]]:
        """(team, points, money) best first, for the entrants with a team; empty without."""
        teams: dict[str, list[int]] = {}
        for e in self.entrants:
            if e.team:
                total = teams.setdefault(e.team, [0, 0])
                total[0] += self.points[e.name]
                total[1] += self.money[e.name]
        order = list(teams)
        return sorted(((team, pts, money) for team, (pts, money) in teams.items()),
                      key=lambda row: (-row[1], -row[2], order.index(row[0])))

    def places(self, name: str) -> list[int | None]:
        """The entrant's place (1 for a win) in each race so far."""
        return [result["ranking"].index(name) + 1 if name in result["ranking"] else None
                for result in self.results]

    # -- files --------------------------------------------------------------------------------

    def to_data(self) -> dict[str, Any]:
        return {FORMAT_KEY: FORMAT_VERSION, "rules": self.rules, "tracks": list(self.tracks),
                "seed": self.seed,
                "entrants": [{"name": e.name, "colour": e.colour, "driver": e.driver,
                              **({"team": e.team} if e.team else {})} for e in self.entrants],
                "points": dict(self.points), "money": dict(self.money),
                "results": list(self.results),
                **({"overrides": dict(self.overrides)} if self.overrides else {}),
                "rule-set": self.ruleset().to_data()}

    def save(self, path: str | os.PathLike[str] | None = None, replace: bool = False) -> Path:
        """Write the standings and say where; only the user data folder is created if missing
        (a file named elsewhere must be in a folder that exists).

        The file is replaced only by a later stage of the championship it holds (or where
        ``replace``: a new championship the player chose to start over it). If another copy
        of the game sharing the folder has saved other standings there meanwhile (another
        series, or this one moved on differently), neither is lost: these standings go to a
        new file beside it (``championship-2.yaml``, ...), whose path is returned.
        """
        target = Path(path) if path is not None else default_path()
        data = self.to_data()
        parents = target == default_path()
        with locked(target, make_parents=parents):
            if replace or _is_earlier_stage(target, data):
                write_yaml(target, data, CHAMPIONSHIP_LIMITS, ChampionshipError,
                           make_parents=parents)
                return target
            for number in itertools.count(2):
                beside = target.with_name(f"{target.stem}-{number}{target.suffix}")
                try:
                    write_yaml(beside, data, CHAMPIONSHIP_LIMITS, ChampionshipError,
                               make_parents=parents, exclusive=True)
                except FileExistsError:
                    continue
                log.warning("%s holds other standings, saved by another copy of the game; "
                            "these are saved as %s", target, beside.name)
                return beside
        raise AssertionError("unreachable")  # pragma: no cover


#: What must match for a file to hold the same championship (its results may be fewer).
_SERIES_KEYS = ("rules", "tracks", "seed", "entrants", "overrides", "rule-set")


def _is_earlier_stage(path: Path, data: dict[str, Any]) -> bool:
    """Whether the file at ``path`` may be replaced by ``data``: there is none, or it holds
    the same series with results that ``data`` carries on from. A file that cannot be read
    is kept aside (as ``set_aside`` does) and so may be written over."""
    if not path.exists() and not path.is_symlink():
        return True
    try:
        found = load_yaml(path, ChampionshipError, CHAMPIONSHIP_LIMITS).data
    except ChampionshipError:
        set_aside(path)
        return True
    if not isinstance(found, dict) or found.get(FORMAT_KEY) != FORMAT_VERSION:
        return False
    results = found.get("results")
    return (all(found.get(key) == data.get(key) for key in _SERIES_KEYS)
            and isinstance(results, list) and results == data["results"][:len(results)])


def default_path() -> Path:
    return data_dir() / "championship.yaml"


#: The largest seed a championship file may hold.
MAX_SEED = 10**12


def load_championship(path: str | os.PathLike[str] | None = None) -> Championship:
    """A saved championship; every field is checked and every track it races loaded, so a
    damaged or hostile file (or a track edited into a draft since) is a ``ChampionshipError``
    (one line), never a traceback later."""
    file = Path(path) if path is not None else default_path()
    doc = load_yaml(file, ChampionshipError, CHAMPIONSHIP_LIMITS)
    try:
        return championship_from_document(doc)
    except FileProblemError as exc:
        problem = exc.problems[0]
        raise ChampionshipError(Problem(problem.file, problem.line, f"a damaged championship "
                                                                    f"file: {problem.message}")
                                ) from None


def championship_from_document(doc: YamlDocument) -> Championship:
    root = Reader(doc, ChampionshipError).root
    if not isinstance(doc.data, dict) or not root[FORMAT_KEY].present:
        root.fail(f"not a championship file ('{FORMAT_KEY}: {FORMAT_VERSION}' missing)")
    version = root[FORMAT_KEY].value
    if type(version) is not int or version not in READ_VERSIONS:
        root[FORMAT_KEY].equals(FORMAT_VERSION, f"not a championship file of version 1 or "
                                                f"{FORMAT_VERSION}")
    root.keys(_KEYS, what="a championship file")
    root.require("rules", "tracks", "entrants", *(("rule-set",) if version >= 2 else ()))
    rule_set = None
    if version >= 2:
        if not isinstance(root["rule-set"].value, dict):
            root["rule-set"].fail("'rule-set' must be a mapping of every rule option")
        try:
            rule_set = rules_from_document(doc.sub(("rule-set",)))
        except RulesError as exc:
            raise ChampionshipError(exc.problems) from None
    rules = root["rules"].text(MAX_PATH)
    if rules not in bundled_variant_names() and not rules.endswith((".yaml", ".yml")):
        root["rules"].fail("'rules' must be a bundled rule variant's name or a rules file "
                           "ending in .yaml")
    tracks = [item.text(MAX_PATH) for item in
              root["tracks"].items(MAX_RACES, item="track", low=1)]
    for item, name in zip(root["tracks"].items(MAX_RACES, item="track", low=1), tracks,
                          strict=True):
        try:
            load_series_track(name)
        except ChampionshipError as exc:
            item.fail(exc.problems[0].message)
    seed = root["seed"].whole(-MAX_SEED, MAX_SEED, default=0)
    entrants = []
    for item in root["entrants"].items(MAX_CARS, item="entrant", low=1):
        item.keys(("name", "colour", "driver", "team"), what="an entrant")
        entrants.append(Entrant(item["name"].text(MAX_NAME),
                                item["colour"].text(MAX_NAME, default="red"),
                                item["driver"].choice(("human", *LEVELS), default="human",
                                                      unknown="driver", valid="drivers"),
                                item["team"].text(MAX_NAME, default="", empty=True)))
    names = {e.name for e in entrants}
    races = len(tracks)

    def per_car(key: str, high: int) -> dict[str, int]:
        table = {}
        for name, value in root[key].entries(MAX_CARS, default={}):
            if name not in names:
                value.fail(f"{key} for {name!r}, who is not an entrant")
            table[name] = value.whole(0, high)
        return table

    # The most a car can score: the most any rule set gives a place, every race.
    points = per_car("points", OPTIONS_BY_KEY["teams.first"].high * races)
    money = per_car("money", MAX_MONEY)
    results = [_result(item, names) for item in
               root["results"].items(races, default=[], item="race result")]
    overrides = {}
    for key, value in root["overrides"].entries(len(OPTIONS_BY_KEY), default={}):
        if isinstance(value.value, bool) or not isinstance(value.value, str | int):
            value.fail(f"override {key} must be a single value, not {describe(value.value)}")
        overrides[key] = str(value.value)
    try:
        found = Championship(rules, tracks, entrants, seed, points, money, results, overrides,
                             rule_set)
    except (RulesError, ChampionshipError) as exc:
        root.fail(exc.problems[0].message)
    if rule_set is None:
        log.warning("%s: a championship of version 1 names its rules (%r) without their "
                    "options: they are taken from that rule set as it is now", doc.file, rules)
    return found


_KEYS = (FORMAT_KEY, "rules", "tracks", "seed", "entrants", "points", "money", "results",
         "overrides", "rule-set")
#: The most races a series may have.
MAX_RACES = 100
#: The longest name of a track or rules file a championship names.
MAX_PATH = 1_000
#: A series' standings: a few hundred values for each of at most a hundred races.
CHAMPIONSHIP_LIMITS = Limits(bytes=1024 * 1024, nodes=100_000)


def _result(field: Field, names: set[str]) -> dict[str, Any]:
    field.keys(("track", "ranking", "prizes", "kept"), what=field.label)
    field.require("track", "ranking", "prizes", "kept")
    ranking = [item.text(MAX_NAME) for item in field["ranking"].items(len(names), item="car")]
    if len(set(ranking)) != len(ranking) or not set(ranking) <= names:
        field["ranking"].fail(f"{field.label}'s ranking must list different entrants")
    result: dict[str, Any] = {"track": field["track"].text(MAX_NAME), "ranking": ranking}
    for key in ("prizes", "kept"):
        amounts = {}
        for name, value in field[key].entries(len(names)):
            if name not in names:
                value.fail(f"{field.label}'s {key} name {name!r}, not an entrant")
            amounts[name] = value.whole(0, MAX_MONEY)
        result[key] = amounts
    return result


def load_series_track(name: str) -> Track:
    """A track a championship file names: a bundled track by its name, or one of the
    player's own tracks by its file (a file never makes the game open any other file);
    ``ChampionshipError`` if it is neither, or does not load."""
    def locate(name: str) -> Path:
        bundled = {p.stem: p for p in bundled_track_paths()}
        if name in bundled:
            return bundled[name]
        if is_track_folder_file(name):
            return Path(name)
        raise ChampionshipError(f"the track {describe(name)} is neither a bundled track nor "
                                "one of your tracks")

    return _load_track(name, locate)


def _load_track(name: str, locate) -> Track:
    try:
        return load_track(locate(name))
    except TrackError as exc:
        problem = exc.problems[0]
        where = f" (line {problem.line})" if problem.line else ""
        raise ChampionshipError(f"the track {Path(name).stem!r} cannot be raced: "
                                f"{problem.message}{where}") from None


def set_aside(path: str | os.PathLike[str] | None = None) -> Path | None:
    """Move a championship file that cannot be read out of the way (``championship-damaged-N
    .yaml`` beside it) so a new one does not write over it; the new name, or ``None`` when
    there is nothing to move."""
    file = Path(path) if path is not None else default_path()
    if not file.exists():
        return None
    number = 1
    while (aside := file.with_name(f"{file.stem}-damaged-{number}{file.suffix}")).exists():
        number += 1
    file.rename(aside)
    return aside


def run_headless(championship: Championship) -> list[RaceState]:
    """Race every remaining race with computer drivers (human entrants drive as ``medium``),
    seeded from each race's own seed as every computer driver is."""
    finished = []
    while not championship.is_over:
        cars = [replace(car, driver="medium") if car.is_human else car
                for car in championship.next_cars()]
        rules = championship.ruleset()
        if rules.equipment_shop == "design":
            cars = [replace(car, kit=car.kit or suggested_kit(rules, car.budget or 0))
                    for car in cars]
        race = championship.next_race(cars)
        state = play_out(race.start(), race_drivers(race))
        championship.record(state)
        finished.append(state)
    return finished
