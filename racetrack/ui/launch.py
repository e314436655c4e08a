"""Starting races from the window's choices: cars, drivers, the race scene and what follows."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Mapping
from dataclasses import replace as dataclass_replace
from pathlib import Path
from typing import Any

from racetrack import archive
from racetrack.ai import make_driver
from racetrack.championship import Championship, ChampionshipError
from racetrack.errors import FileProblemError
from racetrack.game import Race, RaceState
from racetrack.model import CarSetup
from racetrack.records import is_time_trial, record_run, run_turns
from racetrack.rules import load_rules
from racetrack.rules.overrides import apply_overrides
from racetrack.settings import PlayerChoice
from racetrack.shop import shop_items
from racetrack.track import load_track


def start_race(app, track_path: Path, rules_name: str, players: tuple[PlayerChoice, ...],
               seed: int | None = None, animation_seconds: float = 0.35, replace: bool = True,
               overrides: Mapping[str, Any] | None = None):
    """Set up a new race and put its scene on the app; ``overrides`` change rule options of
    the named rules (e.g. the setup screen's choice of movement)."""
    track = load_track(track_path)
    rules = apply_overrides(load_rules(rules_name), overrides or {})
    seed = seed if seed is not None else random.randrange(1_000_000)
    cars = team_cars(rules, [CarSetup(p.name, p.colour, p.driver, reverse=p.reverse,
                                      team=p.team_name) for p in players])
    if shop_items(rules) and any(car.is_human for car in cars):
        from racetrack.ui.scenes.shop import ShopScene

        def shopped(kitted: list[CarSetup]) -> None:
            race = Race(track, rules, kitted, seed=seed)
            continue_race(app, race, race.start(), animation_seconds, replace=True)

        shop = ShopScene(app, rules, cars, shopped)
        if replace and app.scenes:
            app.replace(shop)
        else:
            app.push(shop)
        return shop
    race = Race(track, rules, cars, seed=seed)
    return continue_race(app, race, race.start(), animation_seconds, replace)


def team_cars(rules, cars: list[CarSetup]) -> list[CarSetup]:
    """Team racing from the setup screen: a car keeps the team chosen for it; cars given the
    same name are one player's (or one team's) cars, numbered to tell them apart, and without a
    chosen team that name is their team. Rules that do not score teams have none (rear guns
    would otherwise spare team-mates)."""
    if rules.teams_scoring == "none":
        return [dataclass_replace(car, team="") for car in cars]
    counts: dict[str, int] = {}
    for car in cars:
        counts[car.name] = counts.get(car.name, 0) + 1
    seen: dict[str, int] = {}
    named = []
    for car in cars:
        seen[car.name] = seen.get(car.name, 0) + 1
        name = f"{car.name} {seen[car.name]}" if counts[car.name] > 1 else car.name
        named.append(dataclass_replace(car, name=name, team=car.team or car.name))
    return named


def continue_race(app, race: Race, state: RaceState, animation_seconds: float = 0.35,
                  replace: bool = True, results=None, progress: Path | None = None,
                  scene_type=None):
    """Race on from ``state`` (a new race, a resumed one, or one taken over from a replay).

    The race is recorded after every move in a file of its own (``progress``: the resumed
    race's file, or a new one), so other interrupted races are kept; when it ends it is saved
    to the replays folder and the results follow: ``results(final, saved)`` makes their scene
    when given (a championship's), else the usual ranking with a rematch. ``scene_type`` is
    the race scene's class (the tutorial's has a coach).
    """
    from racetrack.ui.scenes.race import RaceScene
    from racetrack.ui.scenes.results import ResultsScene

    drivers = {i: make_driver(car.driver, race.seed * 31 + i)
               for i, car in enumerate(race.cars) if not car.is_human}

    def rematch() -> None:
        again = Race(race.track, race.rules, race.cars, seed=random.randrange(1_000_000))
        continue_race(app, again, again.start(), animation_seconds)

    progress = progress or archive.new_progress_path(state)

    def over(final: RaceState) -> None:
        saved = None
        with contextlib.suppress(OSError, FileProblemError):
            saved = archive.save_finished(final, progress=progress)
        if results is not None:
            app.replace(results(final, saved))
        elif is_time_trial(race):
            app.replace(trial_results(app, final, rematch, saved))
        else:
            app.replace(ResultsScene(app, final, rematch, saved))

    def record(state: RaceState) -> None:
        """Keep the race in progress on disk; a failure to write must not stop the race."""
        with contextlib.suppress(OSError, FileProblemError):
            archive.record_progress(state, progress)

    scene = (scene_type or RaceScene)(app, race, drivers, animation_seconds, on_over=over,
                                      state=state, record=record)
    scene.progress = progress
    if replace and app.scenes:
        app.replace(scene)
    else:
        app.push(scene)
    return scene


def championship_race(app, series: Championship, path: Path | None = None,
                      animation_seconds: float = 0.35, replace: bool = True) -> None:
    """The next race of a championship: the shop (where the rules have one and a human car
    shops, with the money carried), the race, its results, then the standings.

    Raises ``ChampionshipError`` (nothing started) if the next track no longer loads."""
    from racetrack.ui.scenes.shop import ShopScene

    rules = series.ruleset()
    cars = series.next_cars()
    results = _championship_results(app, series, path, animation_seconds)

    def race_with(kitted: list[CarSetup], replace: bool = True) -> None:
        race = series.next_race(kitted)
        continue_race(app, race, race.start(), animation_seconds, replace=replace,
                      results=results)

    if not (shop_items(rules) and any(car.is_human for car in cars)):
        race_with(cars, replace)
        return
    track = series.load_next_track().name
    heading = f"Race {series.race_number} of {len(series.tracks)}, {track}"
    shop = ShopScene(app, rules, cars, race_with, heading=heading)
    if replace and app.scenes:
        app.replace(shop)
    else:
        app.push(shop)


def resume_championship(app, series: Championship, path: Path | None = None,
                        animation_seconds: float = 0.35) -> None:
    """Go on with a saved championship: its race interrupted by a quit, if that is the
    unfinished race on disk; else the standings, with the next race a click away."""
    from racetrack.ui.scenes.championship import StandingsScene

    for unfinished in archive.unfinished_races() if not series.is_over else []:
        if not is_next_race(series, unfinished.replay.race):
            continue
        with contextlib.suppress(ValueError):
            state = unfinished.replay.final_state()
            if not state.is_over:
                continue_race(app, unfinished.replay.race, state, animation_seconds,
                              replace=False, progress=unfinished.path,
                              results=_championship_results(app, series, path,
                                                            animation_seconds))
                return
    app.push(StandingsScene(app, series, path, animation_seconds))


def is_next_race(series: Championship, race: Race) -> bool:
    """Whether ``race`` is the championship's next race (one interrupted by a quit), its cars
    set up as the championship would: the same drivers and budgets, and the computer cars'
    kits the ones they buy (a human car's kit is checked against its budget by the race)."""
    try:
        next_track = series.load_next_track()
    except ChampionshipError:
        return False
    if not (race.seed == series.next_seed and race.rules == series.ruleset()
            and [car.name for car in race.cars] == [e.name for e in series.entrants]
            and race.track.name == next_track.name):
        return False
    for car, expected in zip(race.cars, series.next_cars(), strict=True):
        if (car.driver != expected.driver or car.team != expected.team
                or car.budget != expected.budget
                or (not expected.is_human and car.kit != expected.kit)):
            return False
    return True


def _championship_results(app, series: Championship, path: Path | None,
                          animation_seconds: float):
    """What follows a championship's race: the race scored and the series saved, its
    ranking, and a button on to the standings."""
    from racetrack.ui.scenes.championship import StandingsScene
    from racetrack.ui.scenes.results import ResultsScene

    def results(final: RaceState, saved: Path | None):
        series.record(final)
        problem = ""
        try:
            series.save(path)
        except OSError as exc:
            problem = f"Could not save the championship: {exc.strerror or exc}"

        def standings() -> None:
            app.replace(StandingsScene(app, series, path, animation_seconds, problem))

        return ResultsScene(app, final, None, saved, proceed=("Standings", standings))

    return results


def trial_results(app, final: RaceState, rematch, saved: Path | None):
    """Record a finished time trial (a failure to write costs only the record) and show it."""
    from racetrack.ui.scenes.trial import TrialResultsScene

    result, problem = None, ""
    if run_turns(final) is not None:
        try:
            result = record_run(final)
        except OSError as exc:
            problem = f"Could not save the record: {exc.strerror or exc}"
        except FileProblemError as exc:  # the table has grown past what the game reads
            problem = f"Could not save the record: {exc.problems[0].message}"
    return TrialResultsScene(app, final, rematch, saved, result, problem)
