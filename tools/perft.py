"""Write the move counts per depth (perft) that the tests check, one file per rule variant.

    python tools/perft.py             # every bundled variant, into tests/data/perft/
    python tools/perft.py gardner     # just one

Each position is counted by the transition (``racetrack.engine.perft``); the tests count them
again, and count some of them with the game's own moves, so a change to the rules shows as a
changed count here, to be reviewed and committed on purpose.
"""

from __future__ import annotations

import argparse
import sys
from functools import cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from racetrack.board.track import find_track, load_track  # noqa: E402
from racetrack.engine.model import CarSetup  # noqa: E402
from racetrack.engine.moves import car_batch, transition_of  # noqa: E402
from racetrack.engine.perft import perft  # noqa: E402
from racetrack.engine.position import parse_car_position  # noqa: E402
from racetrack.games.race import Race  # noqa: E402
from racetrack.rules import bundled_variant_names, load_rules  # noqa: E402

FOLDER = Path(__file__).resolve().parent.parent / "tests" / "data" / "perft"
DEPTH = 3

#: Positions for every variant: standing starts, a car at speed by a wall, and cars heading
#: into each kind of zone (oil, a jump, the water, a pit box, an upgrade and a downgrade).
COMMON = [
    ("oval", "20,22 0,0 1"),
    ("oval", "31,23 3,1 1"),
    ("oval", "36,7 2,-2 1"),
    ("hazards", "30,36 0,0 1"),
    ("hazards", "52,6 2,1 1"),
    ("hazards", "6,14 0,2 1"),
    ("hazards", "26,5 2,0 1"),
    ("pit-lane", "24,22 0,0 1"),
    ("pit-lane", "42,7 0,2 1"),
    ("pit-lane", "24,6 1,0 1"),
    ("pit-lane", "5,7 -1,2 1"),
]
#: Positions that only some rules can reach, by the option that makes them reachable.
OFF_TRACK = [("oval", "20,26 0,1 1 off@118"), ("oval", "30,27 1,1 1 off@20")]
CRAWLING = [("oval", "20,26 0,1 1 off"), ("oval", "30,27 1,-1 1 off")]
#: Crawling cars that must come back no farther on than where they left (crawl-return):
#: off the outside of the right-hand bend, and just behind the start.
CRAWLING_BACK = [("oval", "40,8 3,-5 1 off@60.4"), ("oval", "20,19 0,-1 1 off@80")]
KITTED = [("oval", "31,23 3,1 1 kit=2/2/1"), ("hazards", "52,6 2,1 1 kit=1/0/1 dmg=3")]
LAUNCHING = [("oval", "24,21 0,0 1 launch")]
PITTED = [("pit-lane", "24,6 0,0 1 pit")]
#: An imported map's cells (``maps/`` and the map's file name): a standing start on a start
#: cell, a car heading over a checkpoint area, and cars passing the finish cells with every
#: checkpoint area passed and without.
AREAS = [("maps/karo-hairpin.txt", "3,7 0,0 1"), ("maps/karo-hairpin.txt", "32,7 0,2 1 areas=1"),
         ("maps/karo-hairpin.txt", "2,9 0,-2 1 areas=7"),
         ("maps/karo-hairpin.txt", "2,9 0,-2 1 areas=3")]
#: Cars heading for finish cells on a map's edge at speed: over the edge or short of it.
FINISHING = [("maps/barto-bend.track", "18,2 3,0 1"), ("maps/barto-bend.track", "19,1 2,-1 1"),
             ("maps/karo-zigzag.txt", "29,4 1,-2 1 areas=1")]


def positions(variant: str) -> list[tuple[str, str]]:
    rules = load_rules(variant)
    found = list(COMMON)
    if rules.leaving_track == "detour":
        found += OFF_TRACK
    if rules.leaving_track == "crawl":
        found += CRAWLING
        if rules.crawl_return == "not-ahead":
            found += CRAWLING_BACK
    if rules.equipment_brakes or rules.equipment_turbo or rules.equipment_shop == "design":
        found += KITTED
    if rules.movement_launch:
        found += LAUNCHING
    if rules.pit_stop == "required":
        found += PITTED
    if rules.areas_checkpoints == "any-order" and rules.start_grid == "choose":
        found += AREAS  # the rules imported maps are raced by
    if rules.finish_landing == "anywhere":
        found += FINISHING
    return found


@cache
def solo_race(variant: str, track_name: str) -> Race:
    """A one-car race under a bundled variant on a bundled track (read once)."""
    rules = load_rules(variant).replace(start_grid="spread")
    return Race(_track(track_name), rules, [CarSetup("Solo")])


@cache
def _track(name: str):
    if name.startswith("maps/"):
        from racetrack.board.track.maps import bundled_map_paths, import_map

        path = next(p for p in bundled_map_paths() if p.name == name.removeprefix("maps/"))
        return import_map(path).track()
    return load_track(find_track(name))


def count(variant: str, track_name: str, text: str, depth: int = DEPTH) -> list[int]:
    """The counts from a position of a lone car (its kit, where the position gives none, the
    one the rules start it with)."""
    race = solo_race(variant, track_name)
    rules = race.rules
    start = race.start()
    car = parse_car_position(text, start.cars[0])
    start.set_car(0, car)
    transition = transition_of(race.course, rules, race.cars[0], car)
    return perft(transition, car_batch(car), depth, start.damage_limit(0))


def write(variant: str) -> Path:
    lines = [f"# Move counts per depth (perft) under {variant}: from each position, the number",
             "# of sequences of 1, 2 and 3 moves a lone car may play. Written by",
             "# tools/perft.py; a changed count is a changed rule: review it before committing.",
             "positions:"]
    for track_name, text in positions(variant):
        counts = count(variant, track_name, text)
        lines += [f"  - track: {track_name}", f"    position: \"{text}\"",
                  f"    counts: [{', '.join(map(str, counts))}]"]
    path = FOLDER / f"{variant}.yaml"
    FOLDER.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n")
    return path


if __name__ == "__main__":
    variants = bundled_variant_names()
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("variants", nargs="*", metavar="VARIANT",
                        help="rule variants to count (default: all): " + ", ".join(variants))
    chosen = parser.parse_args().variants
    for name in chosen:
        if name not in variants:
            parser.error(f"no rule variant {name!r}; the variants: {', '.join(variants)}")
    for name in chosen or variants:
        print(write(name))
