"""A tournament of the computer drivers: hundreds of seeded races among other cars.

    python tools/tournament.py [RACES] [--workers N]

Every bundled track, several rule variants, 2 to 6 cars of mixed levels (the seed draws the
line-up, the grid order and the variant). Races run to the end (``finish.end: all``) so every
car's finishing turn counts, and on circuits where the rules let cars race either way round
some cars race in reverse, to meet the others head on. Prints a Markdown table for
docs/drivers.md:

- stalls: races stopped because cars held each other up, or by the round limit with a car
  still racing (must be 0);
- per level: the cars that finished, crashes per car, the turns a finisher took against its own
  optimum from its grid point (the table's value, alone on the track), how often a car finished
  ahead of a car of the level just below it in races both finished, and its average place in
  the race (0 first, 1 last).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from racetrack.ai import LEVELS  # noqa: E402
from racetrack.ai.tables import value_table  # noqa: E402
from racetrack.game import Race  # noqa: E402
from racetrack.lineup import computer_line_up  # noqa: E402
from racetrack.model import EventKind, Termination  # noqa: E402
from racetrack.playout import race_drivers  # noqa: E402
from racetrack.rules import load_rules  # noqa: E402
from racetrack.rules.moves import swims  # noqa: E402
from racetrack.rules.transition import Cars  # noqa: E402
from racetrack.solver import UNSOLVED, SolverError  # noqa: E402
from racetrack.track import bundled_track_paths, load_track  # noqa: E402

VARIANTS = ("gardner", "baker", "westinghouse", "classroom")
#: Races in a row on one track under one variant.
GROUP = 5


def race(seed: int) -> dict:
    """One seeded race; what the table needs of it."""
    rng = random.Random(seed)
    paths = bundled_track_paths()
    # GROUP races in a row share a track and variant, so a worker builds each table once.
    track = load_track(paths[(seed // GROUP) % len(paths)])
    variant = VARIANTS[(seed // (GROUP * len(paths))) % len(VARIANTS)]
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
    started = time.perf_counter()
    while not state.is_over:
        events += state.apply(drivers[state.current_car].choose(state))
    seconds = time.perf_counter() - started
    outcome = state.outcome
    stalled = outcome.termination is Termination.STALLED or (
        outcome.termination is Termination.MAX_ROUNDS and any(c.racing for c in state.cars))
    cars = []
    for i, car in enumerate(state.cars):
        crashes = sum(1 for e in events if e.kind is EventKind.CRASHED and e.car == i)
        cars.append({"level": levels[i], "finish": car.finish.round if car.finish else None,
                     "moves": car.moves, "crashes": crashes, "best": best(game, i),
                     "place": outcome.ranking.index(i)})
    return {"seed": seed, "track": track.name, "variant": variant, "stalled": stalled,
            "termination": outcome.termination.value, "cars": cars, "seconds": seconds}


def best(game: Race, index: int) -> int | None:
    """The car's optimum from its grid point, alone on the track (``None``: no table)."""
    spot = game.grid[index]
    course = game.course_of(index)
    try:
        table = value_table(course, game.rules, swims(game.cars[index]))
    except SolverError:
        return None
    value = table.values_of(Cars(x=[spot.x], y=[spot.y], vx=[0], vy=[0],
                                 progress=[course.start_progress]))[0]
    return None if value >= UNSOLVED else int(value)


def report(results: list[dict], seconds: float) -> str:
    stalls = sum(r["stalled"] for r in results)
    crashes: dict[str, list[int]] = defaultdict(list)
    ratios: dict[str, list[float]] = defaultdict(list)
    places: dict[str, list[float]] = defaultdict(list)
    finished: dict[str, list[bool]] = defaultdict(list)
    beats: dict[tuple[str, str], list[int]] = defaultdict(list)
    for result in results:
        cars = result["cars"]
        for car in cars:
            level = car["level"]
            crashes[level].append(car["crashes"])
            finished[level].append(car["finish"] is not None)
            if car["finish"] is not None and car["best"]:
                ratios[level].append(car["moves"] / car["best"])
            # The place in the race, 0 (first) to 1 (last).
            others = len(cars) - 1
            places[level].append(car["place"] / others if others else 0.0)
        for a in cars:
            for b in cars:
                if LEVELS.index(a["level"]) > LEVELS.index(b["level"]) \
                        and a["finish"] and b["finish"]:
                    beats[(a["level"], b["level"])].append(int(a["place"] < b["place"]))
    races = len(results)
    turns = sum(c["moves"] for r in results for c in r["cars"])
    lines = [f"{races} races ({len({r['track'] for r in results})} tracks, "
             f"{len({r['variant'] for r in results})} variants, 2 to 6 cars), "
             f"{seconds:.0f} s; stalls: **{stalls}**; "
             f"{1000 * sum(r['seconds'] for r in results) / max(1, turns):.0f} ms a move.",
             "",
             "| level | cars | finished | crashes per car | turns / optimum (median, worst) "
             "| average place (0 first, 1 last) | beats the level below |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for number, level in reversed(list(enumerate(LEVELS))):
        cars = len(crashes[level])
        if not cars:
            continue
        ratio = ratios[level]
        below = beats.get((level, LEVELS[number - 1]), []) if number else []
        lines.append(
            f"| {level} | {cars} | {100 * sum(finished[level]) / cars:.0f}% | "
            f"{sum(crashes[level]) / cars:.2f} | "
            f"{statistics.median(ratio):.2f}, {max(ratio):.2f} | "
            f"{statistics.mean(places[level]):.2f} | "
            + (f"{100 * sum(below) / len(below):.0f}% of {len(below)}" if below else "-")
            + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("races", type=int, nargs="?", default=300)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--first", type=int, default=0, help="first seed")
    args = parser.parse_args()
    seeds = range(args.first, args.first + args.races)
    started = time.perf_counter()
    results = []
    with ProcessPoolExecutor(args.workers) as pool:
        for result in pool.map(race, seeds, chunksize=GROUP):
            results.append(result)
            if result["stalled"]:
                print(f"STALL: seed {result['seed']}, {result['track']} "
                      f"({result['variant']}): {result['termination']}", file=sys.stderr)
    print(report(results, time.perf_counter() - started))


if __name__ == "__main__":
    main()
