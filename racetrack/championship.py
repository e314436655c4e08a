"""A championship: a series of races on a list of tracks, with points and prize money.

Baker: "You could allow players to save money from one race to another - or award prize money
to the winner and allow them to spend that in the next race." Here both: after each race every
car keeps the money it holds (unspent in the shop, or picked up on the track) and the first
three win prizes of $30, $20 and $10; all of it adds to the rules' budget in the next race's
shop. Places also score 3, 2 and 1 points (as in Baker's team racing); the most points wins the
championship (ties: the most money).

The standings are a small YAML file (``racetrack-championship: 1``) written atomically, so a
series can stop and go on later. Entrants with a team name also score for their team (the sum
of its cars' points and money).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from racetrack.errors import FileProblemError, Problem
from racetrack.game import Race, RaceState
from racetrack.model import MAX_MONEY, TEAM_POINTS, CarSetup, CarStatus
from racetrack.rules import RuleSet, load_rules
from racetrack.rules.overrides import apply_overrides
from racetrack.settings import data_dir
from racetrack.shop import suggested_kit
from racetrack.track import find_track, load_track
from racetrack.yamlio import atomic_write_text, dump_yaml, load_yaml

FORMAT_KEY = "racetrack-championship"
FORMAT_VERSION = 1
#: Prize money for first, second and third place.
PRIZES = (30, 20, 10)


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

    def __post_init__(self) -> None:
        if not self.tracks:
            raise ChampionshipError("a championship needs at least one track")
        names = [e.name for e in self.entrants]
        if len(set(names)) != len(names) or not names:
            raise ChampionshipError("a championship needs entrants with different names")
        for name in names:
            self.points.setdefault(name, 0)
            self.money.setdefault(name, 0)

    @property
    def race_number(self) -> int:
        """The number of the next race (1 for the first)."""
        return len(self.results) + 1

    @property
    def is_over(self) -> bool:
        return len(self.results) >= len(self.tracks)

    def ruleset(self) -> RuleSet:
        """The rules raced: the named variant with the championship's overrides."""
        rules = load_rules(self.rules)
        return apply_overrides(rules, self.overrides) if self.overrides else rules

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
        if self.is_over:
            raise ChampionshipError("the championship is over")
        track = load_track(find_track(self.next_track))
        return Race(track, self.ruleset(), cars or self.next_cars(), seed=self.next_seed)

    @property
    def next_seed(self) -> int:
        """The next race's seed (a race resumed after a quit is known by it)."""
        return self.seed * 1000 + self.race_number

    def record(self, state: RaceState) -> dict[str, Any]:
        """Score a finished race: points, prizes and the money each car still holds."""
        outcome = state.outcome
        if outcome is None:
            raise ChampionshipError("the race is not over")
        names = [car.name for car in state.race.cars]
        result: dict[str, Any] = {"track": state.race.track.name,
                                  "ranking": [names[i] for i in outcome.ranking],
                                  "prizes": {}, "kept": {}}
        shop = state.race.rules.equipment_shop == "design"
        for place, index in enumerate(outcome.ranking):
            name = names[index]
            out = state.cars[index].status is CarStatus.OUT  # an out car wins nothing
            prize = PRIZES[place] if place < len(PRIZES) and not out else 0
            kept = min(state.cars[index].kit.money, MAX_MONEY)
            self.points[name] += TEAM_POINTS[place] if place < len(TEAM_POINTS) and not out \
                else 0
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
                **({"overrides": dict(self.overrides)} if self.overrides else {})}

    def save(self, path: str | os.PathLike[str] | None = None) -> Path:
        """Write the standings; only the user data folder is created if missing (a file
        named elsewhere must be in a folder that exists)."""
        target = Path(path) if path is not None else default_path()
        atomic_write_text(target, dump_yaml(self.to_data()),
                          make_parents=target == default_path())
        return target


def default_path() -> Path:
    return data_dir() / "championship.yaml"


#: The largest seed a championship file may hold.
MAX_SEED = 10**12


def load_championship(path: str | os.PathLike[str] | None = None) -> Championship:
    """A saved championship; every field is checked, so a damaged or hostile file is a
    ``ChampionshipError`` (one line), never a traceback later."""
    file = Path(path) if path is not None else default_path()
    data = load_yaml(file, ChampionshipError).data
    if not isinstance(data, dict) or data.get(FORMAT_KEY) != FORMAT_VERSION \
            or isinstance(data.get(FORMAT_KEY), bool):
        raise ChampionshipError(Problem(str(file), None, f"not a championship file "
                                                         f"('{FORMAT_KEY}: {FORMAT_VERSION}' "
                                                         "missing)"))
    try:
        found = _from_data(data)
    except ChampionshipError as exc:
        raise ChampionshipError(Problem(str(file), None, f"a damaged championship file: "
                                                         f"{exc.problems[0].message}")) from None
    except (ValueError, ArithmeticError) as exc:
        message = exc.problems[0].message if isinstance(exc, FileProblemError) else str(exc)
        raise ChampionshipError(Problem(str(file), None, f"a damaged championship file: "
                                                         f"{message}")) from None
    return found


def _whole(value: Any, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ChampionshipError(f"{what} must be a whole number from {low} to {high}, "
                                f"not {value!r}")
    return value


def _text(value: Any, what: str, empty: bool = False) -> str:
    if not isinstance(value, str) or (not empty and not value.strip()):
        raise ChampionshipError(f"{what} must be {'' if empty else 'non-empty '}text, "
                                f"not {value!r}")
    return value


def _mapping(value: Any, what: str) -> dict:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ChampionshipError(f"{what} must be a mapping, not {type(value).__name__}")
    return value


def _from_data(data: dict[str, Any]) -> Championship:
    from racetrack.ai import LEVELS
    from racetrack.game import MAX_CARS

    for key in ("rules", "tracks", "entrants"):
        if key not in data:
            raise ChampionshipError(f"{key} missing")
    rules = _text(data["rules"], "rules")
    tracks = data["tracks"]
    if not isinstance(tracks, list) or not tracks:
        raise ChampionshipError("tracks must be a non-empty list of track names")
    tracks = [_text(t, "a track") for t in tracks]
    for name in tracks:
        if not find_track(name).is_file():
            raise ChampionshipError(f"no track {name!r}")
    seed = _whole(data.get("seed", 0), "seed", -MAX_SEED, MAX_SEED)
    raw = data["entrants"]
    if not isinstance(raw, list) or not raw:
        raise ChampionshipError("entrants must be a non-empty list")
    if len(raw) > MAX_CARS:
        raise ChampionshipError(f"at most {MAX_CARS} entrants, not {len(raw)}")
    entrants = []
    for e in raw:
        if not isinstance(e, dict):
            raise ChampionshipError(f"an entrant must be a mapping, not {e!r}")
        if "name" not in e:
            raise ChampionshipError("an entrant's name missing")
        driver = _text(e.get("driver", "human"), "a driver")
        if driver not in ("human", *LEVELS):
            raise ChampionshipError(f"unknown driver {driver!r}; drivers: human, "
                                    f"{', '.join(LEVELS)}")
        entrants.append(Entrant(_text(e["name"], "a name"),
                                _text(e.get("colour", "red"), "a colour"), driver,
                                _text(e.get("team", ""), "a team", empty=True)))
    names = {e.name for e in entrants}
    races = len(tracks)
    most_points = max(TEAM_POINTS, default=0) * races

    def per_car(key: str, high: int) -> dict[str, int]:
        table = {}
        for name, value in _mapping(data.get(key), key).items():
            if name not in names:
                raise ChampionshipError(f"{key} for {name!r}, who is not an entrant")
            table[name] = _whole(value, f"{key} of {name}", 0, high)
        return table

    points = per_car("points", most_points)
    money = per_car("money", MAX_MONEY)
    results = data.get("results") or []
    if not isinstance(results, list) or len(results) > races:
        raise ChampionshipError(f"results must be a list of at most {races} races")
    for number, result in enumerate(results, start=1):
        _check_result(result, number, names)
    overrides = {}
    for key, value in _mapping(data.get("overrides"), "overrides").items():
        if not isinstance(value, (str, int)):  # a bool is an int: "True" is checked later
            raise ChampionshipError(f"override {key} must be a single value, not {value!r}")
        overrides[_text(key, "an override")] = str(value)
    found = Championship(rules, tracks, entrants, seed, points, money, list(results),
                         overrides)
    found.ruleset()
    return found


def _check_result(result: Any, number: int, names: set[str]) -> None:
    what = f"race {number}'s result"
    if not isinstance(result, dict):
        raise ChampionshipError(f"{what} must be a mapping, not {result!r}")
    for key in ("track", "ranking", "prizes", "kept"):
        if key not in result:
            raise ChampionshipError(f"{what}: {key} missing")
    _text(result["track"], f"{what}'s track")
    ranking = result["ranking"]
    if (not isinstance(ranking, list) or any(not isinstance(n, str) for n in ranking)
            or len(set(ranking)) != len(ranking) or not set(ranking) <= names):
        raise ChampionshipError(f"{what}'s ranking must list different entrants")
    for key in ("prizes", "kept"):
        for name, value in _mapping(result[key], f"{what}'s {key}").items():
            if name not in names:
                raise ChampionshipError(f"{what}'s {key} name {name!r}, not an entrant")
            _whole(value, f"{what}'s {key} of {name}", 0, MAX_MONEY)


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


def run_headless(championship: Championship, seed: int = 0) -> list[RaceState]:
    """Race every remaining race with computer drivers (human entrants drive as ``medium``)."""
    from racetrack.ai import make_driver

    finished = []
    while not championship.is_over:
        cars = [replace(car, driver="medium") if car.is_human else car
                for car in championship.next_cars()]
        rules = championship.ruleset()
        if rules.equipment_shop == "design":
            cars = [replace(car, kit=car.kit or suggested_kit(rules, car.budget or 0))
                    for car in cars]
        race = championship.next_race(cars)
        drivers = [make_driver(car.driver, seed * 7919 + race.seed + i)
                   for i, car in enumerate(race.cars)]
        state = race.start()
        while not state.is_over:
            state.apply(drivers[state.current_car].choose(state))
        championship.record(state)
        finished.append(state)
    return finished
