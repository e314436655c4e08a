"""Which computer level beats which: seeded four-car races on bundled tracks.

    python tools/driver_table.py [RACES]

Each race puts easy, medium, hard and expert on the grid (the seed decides the grid order), so
every level meets every other in every race. Prints a Markdown table for the README: wins and
average finishing place per level.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from racetrack.ai import LEVELS, make_driver  # noqa: E402
from racetrack.game import Race  # noqa: E402
from racetrack.model import CarSetup  # noqa: E402
from racetrack.rules import load_rules  # noqa: E402
from racetrack.track import find_track, load_track  # noqa: E402

TRACKS = ("oval", "hairpins", "figure-eight", "rally", "wide-speedway", "hazards", "canyon",
          "spiral", "grand-prix")
VARIANTS = ("gardner", "baker")


def race(track_name: str, variant: str, seed: int) -> list[str]:
    """One race; returns the levels in finishing order."""
    levels = list(LEVELS)
    # Rotate who starts where, so no level always has the best grid spot or moves first.
    shift = seed % len(levels)
    levels = levels[shift:] + levels[:shift]
    track = load_track(find_track(track_name))
    rules = load_rules(variant).replace(finish_end="all", turn_order="seating")
    cars = [CarSetup(level.title(), driver=level) for level in levels]
    game = Race(track, rules, cars, seed=seed)
    drivers = [make_driver(level, seed * 31 + i) for i, level in enumerate(levels)]
    state = game.start()
    while not state.is_over:
        state.apply(drivers[state.current_car].choose(state))
    return [levels[i] for i in state.outcome.ranking]


def main(races: int = 20) -> None:
    places: dict[str, list[int]] = defaultdict(list)
    wins: dict[str, int] = defaultdict(int)
    for seed in range(races):
        track = TRACKS[seed % len(TRACKS)]
        variant = VARIANTS[seed % len(VARIANTS)]
        order = race(track, variant, seed)
        wins[order[0]] += 1
        for place, level in enumerate(order, start=1):
            places[level].append(place)
        print(f"race {seed + 1}: {track} ({variant}): {' > '.join(order)}", file=sys.stderr)
    print(f"| level | wins (of {races}) | average place |")
    print("| --- | --- | --- |")
    for level in reversed(LEVELS):
        average = sum(places[level]) / len(places[level])
        print(f"| {level} | {wins[level]} | {average:.2f} |")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
