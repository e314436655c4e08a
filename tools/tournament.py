"""A tournament of the computer drivers: hundreds of seeded races among other cars, and every
level alone on every map.

    python tools/tournament.py [RACES] [--workers N] [--first SEED] [--save FILE]
    python tools/tournament.py --alone [--workers N]

The races are run on every bundled track and on Karopapier maps of the kinds players bring
from other programs (``tools/maps``, drawn by ``tools/tournament_maps.py``, and the bundled
``tracks/maps`` ones): one-lane passages, a 1002 x 12 drag strip, a 120 x 114 open ring. Five
races in a row share a track and variant (the bundled tracks under Gardner's, Baker's,
Westinghouse's and the classroom rules, the maps under Gardner's and Karopapier's), 2 to 6
cars of levels drawn at random, the grid order and the variant drawn by the seed. Races run
to the end (``finish.end: all``) so every car's finishing turn counts, and on circuits where
the rules let cars race either way round some cars race in reverse, to meet the others head
on. Prints Markdown tables for docs/drivers.md, all races first, then per kind of map:

- stalls: races stopped because the cars all stood still, or by the round limit with a car
  still racing; and races with no winner (both must be 0);
- per level: the cars that finished, crashes per car, the turns a finisher took against its
  own optimum from its grid point (the table's value, alone on the track), how often a car
  finished ahead of a car of the level just below it in races both finished (with the
  share's 95% interval), its average place in the race (0 first, 1 last), and its slowest
  move, on the process's CPU clock (what other work on the machine does not inflate) and
  on the wall clock.

``--alone`` races each level alone on every map and bundled track under Gardner's rules and
prints, per map, the optimum, each level's turns and the slowest move of any level (the
table built beforehand, as a race prepares it), with the table's states and bytes.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from racetrack.ai import LEVELS  # noqa: E402
from racetrack.ai.tables import value_table  # noqa: E402
from racetrack.game import Race, RaceState  # noqa: E402
from racetrack.imports import bundled_map_paths, import_map  # noqa: E402
from racetrack.lineup import computer_line_up  # noqa: E402
from racetrack.model import EventKind, Termination  # noqa: E402
from racetrack.playout import race_drivers  # noqa: E402
from racetrack.rules import load_rules  # noqa: E402
from racetrack.rules.moves import swims  # noqa: E402
from racetrack.rules.transition import Cars  # noqa: E402
from racetrack.solver import UNSOLVED, SolverError  # noqa: E402
from racetrack.track import Track, bundled_track_paths, load_track  # noqa: E402

VARIANTS = ("gardner", "baker", "westinghouse", "classroom")
MAP_VARIANTS = ("gardner", "karopapier")
#: Races in a row on one track under one variant.
GROUP = 5
MAPS = Path(__file__).resolve().parent / "maps"
#: The kind of each map, for the tables per kind.
KINDS = {"karo-drag.txt": "drag strip 1002 x 12", "karo-ring.txt": "open ring 120 x 114"}
ONE_LANE = "Karopapier maps with one-lane passages"
BUNDLED = "bundled tracks"


@dataclass(frozen=True)
class Venue:
    """A track of the tournament: a bundled track or a map to import, and its kind."""

    path: Path
    kind: str

    @property
    def is_map(self) -> bool:
        return self.kind != BUNDLED

    def track(self) -> Track:
        return import_map(self.path).track() if self.is_map else load_track(self.path)

    @property
    def variants(self) -> tuple[str, ...]:
        return MAP_VARIANTS if self.is_map else VARIANTS


def venues() -> list[Venue]:
    maps = sorted(MAPS.glob("*.txt")) + [p for p in bundled_map_paths()
                                         if p.name.startswith("karo-")]
    return [Venue(p, BUNDLED) for p in bundled_track_paths()] + [
        Venue(p, KINDS.get(p.name, ONE_LANE)) for p in maps]


def race(seed: int) -> dict:
    """One seeded race; what the table needs of it."""
    rng = random.Random(seed)
    places = venues()
    # GROUP races in a row share a track and variant, so a worker builds each table once.
    venue = places[(seed // GROUP) % len(places)]
    track = venue.track()
    variant = venue.variants[(seed // (GROUP * len(places))) % len(venue.variants)]
    rules = load_rules(variant).replace(finish_end="all")
    room = len(track.start_positions())
    count = min(rng.randint(2, 6), room if rules.cars != "shared" else 6)
    levels = [rng.choice(LEVELS) for _ in range(count)]
    reverse: list[int] = []
    if track.is_circuit and rng.random() < 0.25:
        rules = rules.replace(start_direction="either")
        reverse = [n for n in range(1, count + 1) if rng.random() < 0.5]
    game = Race(track, rules, computer_line_up(levels, reverse), seed=seed)
    events: list = []
    state = game.start()
    drivers = race_drivers(game)
    for index, driver in drivers.items():
        driver.prepare(state, index)
    started = time.perf_counter()
    slowest: dict[int, float] = defaultdict(float)
    slowest_wall: dict[int, float] = defaultdict(float)
    while not state.is_over:
        index = state.current_car
        move, cpu, wall = timed(drivers[index], state)
        slowest[index] = max(slowest[index], cpu)
        slowest_wall[index] = max(slowest_wall[index], wall)
        events += state.apply(move)
    seconds = time.perf_counter() - started
    outcome = state.outcome
    stalled = outcome.termination is Termination.STALLED or (
        outcome.termination is Termination.MAX_ROUNDS and any(c.racing for c in state.cars))
    cars = []
    for i, car in enumerate(state.cars):
        crashes = sum(1 for e in events if e.kind is EventKind.CRASHED and e.car == i)
        cars.append({"level": levels[i], "finish": car.finish.round if car.finish else None,
                     "moves": car.moves, "crashes": crashes, "best": best(state, i),
                     "place": outcome.ranking.index(i), "slowest": slowest[i],
                     "slowest_wall": slowest_wall[i]})
    return {"seed": seed, "track": track.name, "kind": venue.kind, "variant": variant,
            "stalled": stalled, "winner": outcome.winner is not None,
            "termination": outcome.termination.value, "cars": cars, "seconds": seconds}


def alone(venue: Venue) -> dict:
    """Each level alone on a venue under Gardner's rules: its turns, and the slowest move."""
    track = venue.track()
    rules = load_rules("gardner")
    found: dict = {"track": track.name, "kind": venue.kind, "turns": {}, "slowest": 0.0,
                   "slowest_wall": 0.0}
    for level in LEVELS:
        game = Race(track, rules, computer_line_up([level]), seed=1)
        state = game.start()
        driver = race_drivers(game)[0]
        driver.prepare(state, 0)
        while not state.is_over:
            move, cpu, wall = timed(driver, state)
            found["slowest"] = max(found["slowest"], cpu)
            found["slowest_wall"] = max(found["slowest_wall"], wall)
            state.apply(move)
        car = state.cars[0]
        found["turns"][level] = car.moves if car.finish else None
        found["best"] = best(state, 0)
    course = Race(track, rules, computer_line_up(["expert"])).course_of(0)
    try:
        table = value_table(course, rules)
        found["states"], found["bytes"] = table.count, table.nbytes
    except SolverError:
        found["states"] = found["bytes"] = None
    return found


def timed(driver, state: RaceState) -> tuple:
    """A driver's move, with the process CPU time it took (what the machine's other work
    does not inflate) and the wall-clock time."""
    cpu, wall = time.process_time(), time.perf_counter()
    move = driver.choose(state)
    return move, time.process_time() - cpu, time.perf_counter() - wall


def best(state: RaceState, index: int) -> int | None:
    """The car's optimum from its start point, alone on the track (``None``: no table)."""
    game = state.race
    spot = state.trails[index][0]
    course = game.course_of(index)
    try:
        table = value_table(course, game.rules, swims(game.cars[index]))
    except SolverError:
        return None
    value = table.values_of(Cars(x=[spot.x], y=[spot.y], vx=[0], vy=[0],
                                 progress=[course.start_progress]))[0]
    return None if value >= UNSOLVED else int(value)


def report(results: list[dict], seconds: float) -> str:
    races = len(results)
    turns = sum(c["moves"] for r in results for c in r["cars"])
    lines = [f"{races} races ({len({r['track'] for r in results})} tracks and maps, "
             f"{len({r['variant'] for r in results})} variants, 2 to 6 cars), "
             f"{seconds:.0f} s; stalls: **{sum(r['stalled'] for r in results)}**; races "
             f"with no winner: **{sum(not r['winner'] for r in results)}**; "
             f"{1000 * sum(r['seconds'] for r in results) / max(1, turns):.0f} ms a move.",
             "", *level_table(results)]
    kinds = sorted({r["kind"] for r in results}, key=lambda k: (k != BUNDLED, k))
    for kind in kinds:
        some = [r for r in results if r["kind"] == kind]
        lines += ["", f"**{kind}**: {len(some)} races "
                  f"({', '.join(sorted({r['track'] for r in some}))}); stalls: "
                  f"{sum(r['stalled'] for r in some)}; no winner: "
                  f"{sum(not r['winner'] for r in some)}.", "", *level_table(some)]
    return "\n".join(lines)


def level_table(results: list[dict]) -> list[str]:
    """The table per level of a set of races."""
    crashes: dict[str, list[int]] = defaultdict(list)
    ratios: dict[str, list[float]] = defaultdict(list)
    places: dict[str, list[float]] = defaultdict(list)
    finished: dict[str, list[bool]] = defaultdict(list)
    slowest: dict[str, float] = defaultdict(float)
    slowest_wall: dict[str, float] = defaultdict(float)
    beats: dict[tuple[str, str], list[int]] = defaultdict(list)
    for result in results:
        cars = result["cars"]
        for car in cars:
            level = car["level"]
            crashes[level].append(car["crashes"])
            finished[level].append(car["finish"] is not None)
            slowest[level] = max(slowest[level], car["slowest"])
            slowest_wall[level] = max(slowest_wall[level], car.get("slowest_wall", 0.0))
            if car["finish"] is not None and car["best"]:
                ratios[level].append(car["moves"] / car["best"])
            # The place in the race, 0 (first) to 1 (last).
            others = len(cars) - 1
            places[level].append(car["place"] / others if others else 0.0)
        for a in cars:
            for b in cars:
                if LEVELS.index(a["level"]) == LEVELS.index(b["level"]) + 1 \
                        and a["finish"] and b["finish"]:
                    beats[(a["level"], b["level"])].append(int(a["place"] < b["place"]))
    lines = ["| level | cars | finished | crashes per car | turns / optimum (median, worst) "
             "| average place (0 first, 1 last) | beats the level below (95% interval) "
             "| slowest move (CPU, wall) |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for number, level in reversed(list(enumerate(LEVELS))):
        cars = len(crashes[level])
        if not cars:
            continue
        ratio = ratios[level] or [float("nan")]
        below = beats.get((level, LEVELS[number - 1]), []) if number else []
        lines.append(
            f"| {level} | {cars} | {100 * sum(finished[level]) / cars:.0f}% | "
            f"{sum(crashes[level]) / cars:.2f} | "
            f"{statistics.median(ratio):.2f}, {max(ratio):.2f} | "
            f"{statistics.mean(places[level]):.2f} | "
            + (beats_cell(below) if below else "-")
            + f" | {1000 * slowest[level]:.0f} ms, {1000 * slowest_wall[level]:.0f} ms |")
    return lines


def beats_cell(wins: list[int]) -> str:
    """How often a level beat the one below, with Wilson's 95% interval: whether a share
    stands above 70% or merely came out so in a small sample."""
    n, share = len(wins), sum(wins) / len(wins)
    z = 1.96
    middle = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return f"{100 * share:.0f}% of {n} ({100 * (middle - half):.0f}-{100 * (middle + half):.0f}%)"


def alone_report(found: list[dict]) -> str:
    lines = ["| map | kind | optimum | expert | hard | medium | easy | slowest move (CPU, wall) "
             "| table |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for item in found:
        table = "none" if item["states"] is None else \
            f"{item['states'] / 1e6:.2f} M states, {item['bytes'] / 2**20:.1f} MB"
        lines.append(f"| {item['track']} | {item['kind']} | {item.get('best')} | "
                     + " | ".join(turns_cell(item, level) for level in reversed(LEVELS))
                     + f" | {1000 * item['slowest']:.0f} ms, {1000 * item['slowest_wall']:.0f} ms "
                     f"| {table} |")
    return "\n".join(lines)


def turns_cell(item: dict, level: str) -> str:
    turns, best_turns = item["turns"][level], item.get("best")
    if turns is None:
        return "did not finish"
    return f"{turns} ({turns / best_turns:.2f}x)" if best_turns else str(turns)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("races", type=int, nargs="?", default=300)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--first", type=int, default=0, help="first seed")
    parser.add_argument("--save", type=Path, help="also write every race's results here (JSON)")
    parser.add_argument("--alone", action="store_true",
                        help="each level alone on every track and map instead")
    args = parser.parse_args()
    started = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        if args.alone:
            print(alone_report(list(pool.map(alone, venues()))))
            return
        results = []
        seeds = range(args.first, args.first + args.races)
        for result in pool.map(race, seeds, chunksize=GROUP):
            results.append(result)
            if result["stalled"] or not result["winner"]:
                print(f"STALL: seed {result['seed']}, {result['track']} "
                      f"({result['variant']}): {result['termination']}", file=sys.stderr)
    if args.save:
        args.save.write_text(json.dumps(results))
    print(report(results, time.perf_counter() - started))


if __name__ == "__main__":
    main()
