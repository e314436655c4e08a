"""Move generation: the current car's candidate points, each with the rules' verdict.

Everything a variant changes is read from the ``RuleSet``'s options; the geometry of all
candidates is tested in one batched call per question (on the track? in which zones?).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
from shapely.geometry.base import BaseGeometry

from racetrack.course import Course
from racetrack.geometry import Region, Vec, zone_hits
from racetrack.model import Candidate, CarSetup, CarState, MoveKind
from racetrack.rules.ruleset import RuleSet

#: Changes to the last move that each movement option allows.
CHANGES: dict[str, tuple[Vec, ...]] = {
    "plus": (Vec(0, 0), Vec(1, 0), Vec(-1, 0), Vec(0, 1), Vec(0, -1)),
    "square": tuple(Vec(dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1)),
    "square-24": tuple(Vec(dx, dy) for dy in (-2, -1, 0, 1, 2) for dx in (-2, -1, 0, 1, 2)),
}
#: The name of a launch move (Pope's fast acceleration), as candidates carry it.
LAUNCH_NOTE = "fast acceleration after a stop"
#: A crawling car's single steps (Levi's rule 5): one square in any direction.
CRAWL_STEPS = tuple(Vec(dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy)


@dataclass(frozen=True)
class Surfaces:
    """The regions one car's moves are judged against."""

    drive: Region  # where its segments may run (jump zones added when cars fly over them)
    land: Region   # where it may stand (the track, less water if it cannot swim)


def swims(setup: CarSetup, car: CarState | None = None) -> bool:
    """Whether a car may cross water: it was set up so, or it carries a submarine."""
    return setup.can_swim or (car is not None and car.kit.submarine)


def surfaces_for(course: Course, rules: RuleSet, setup: CarSetup,
                 car: CarState | None = None) -> Surfaces:
    without_water = rules.zones_water == "wall" and not swims(setup, car)
    land = course.region(without_water=without_water)
    drive = course.region(without_water=without_water, with_jumps=rules.zones_jump == "fly")
    return Surfaces(drive, land)


def power_brakes(velocity: Vec) -> list[Vec]:
    """Tom Gordon's power braking: shorter moves along the same line as ``velocity``, each
    component dropping by at most two (beyond what the ordinary changes allow or not)."""
    if velocity.is_zero:
        return []
    g = math.gcd(abs(velocity.x), abs(velocity.y))
    ux, uy = velocity.x // g, velocity.y // g
    found = []
    for k in range(g - 1, 0, -1):
        if (g - k) * max(abs(ux), abs(uy)) > 2:
            break
        found.append(Vec(k * ux, k * uy))
    return found


#: The special moves a car's kit pays for: note, kit item, direction, how far a component
#: may change (Baker's good brakes and turbo: two squares; rocket boosters: three).
SPECIALS = (("good brakes", "brakes", "slower", 2), ("turbo", "turbo", "faster", 2),
            ("rocket boosters", "boosters", "faster", 3))


def special_velocities(velocity: Vec, choices: str, direction: str, reach: int) -> list[Vec]:
    """Moves that good brakes, turbo or rocket boosters make possible from ``velocity``.

    Under the plus movement (Baker) one component changes, as usual, but by ``reach`` squares
    (or anything between the ordinary change and that): toward zero for "slower", never past
    it (so 3 east brakes to 1 east), away from zero for "faster" (a component at rest may go
    either way). Under the square movements each component may change as usual, or by up to
    ``reach - 1`` squares more than the usual most in the special's direction. The list may
    include ordinary moves; the caller keeps only the new ones.
    """
    step = max(abs(c.x) for c in CHANGES[choices])
    far = step + reach - 1

    def stretched(c: int) -> list[int]:
        sign = (c > 0) - (c < 0)
        if direction == "slower":
            return [c - k * sign for k in range(step + 1, min(far, abs(c)) + 1)] if c else []
        if c == 0:
            return [k * s for k in range(step + 1, far + 1) for s in (1, -1)]
        return [c + k * sign for k in range(step + 1, far + 1)]

    found: list[Vec] = []
    if choices == "plus":
        for x in stretched(velocity.x):
            found.append(Vec(x, velocity.y))
        for y in stretched(velocity.y):
            found.append(Vec(velocity.x, y))
        return found
    xs = [velocity.x + d for d in range(-step, step + 1)]
    ys = [velocity.y + d for d in range(-step, step + 1)]
    for x in xs + stretched(velocity.x):
        for y in ys + stretched(velocity.y):
            found.append(Vec(x, y))
    return found


def launch_targets(course: Course, rules: RuleSet, setup: CarSetup, point: Vec,
                   car: CarState | None = None) -> list[Vec]:
    """David Pope's fast acceleration: every point a stopped car can reach in one straight
    move on the track, however far (one batched test of every lattice point of the track)."""
    surfaces = surfaces_for(course, rules, setup, car)
    points = surfaces.land.lattice_points(rules.boundary_counts)
    if not len(points):
        return []
    starts = np.repeat(np.array([point], dtype=float), len(points), axis=0)
    visible = surfaces.drive.covers_segments(starts, points.astype(float), rules.boundary_counts)
    return [Vec(int(x), int(y)) for x, y in points[visible]]


def velocity_choices(course: Course, rules: RuleSet, setup: CarSetup, car: CarState,
                     oil: Sequence[BaseGeometry] = ()) -> tuple[list[Vec], list[str]]:
    """The moves a car may consider this turn, and the name of each special one.

    Good brakes, turbo and rocket boosters add moves only while the car has uses left and is
    not skidding on oil (Baker: they don't work on oil); a move an ordinary change (or a
    cheaper special) reaches is never offered again, so choosing it never spends a use.
    ``oil`` is extra oil sprayed during the race.
    """
    v = car.velocity
    if car.off_track and rules.leaving_track == "crawl":
        return list(CRAWL_STEPS), [""] * len(CRAWL_STEPS)
    velocities = [v + c for c in CHANGES[rules.movement_choices]]
    notes = [""] * len(velocities)
    seen = set(velocities)

    def extra(w: Vec, note: str) -> None:
        if w not in seen:
            seen.add(w)
            velocities.append(w)
            notes.append(note)

    if rules.movement_power_braking:
        for w in power_brakes(v):
            extra(w, "power braking")
    if rules.movement_launch and car.launch and not car.off_track:
        for target in launch_targets(course, rules, setup, car.position, car):
            extra(target - car.position, LAUNCH_NOTE)
    kit = car.kit
    if (kit.brakes or kit.turbo or kit.boosters) and not car.off_track \
            and not on_oil(course, rules, car, oil, standing=True):
        for note, item, direction, reach in SPECIALS:
            if getattr(kit, item):
                for w in special_velocities(v, rules.movement_choices, direction, reach):
                    extra(w, note)
    return velocities, notes


def oil_zones(course: Course, rules: RuleSet,
              oil: Sequence[BaseGeometry] = ()) -> list[BaseGeometry]:
    """The oil that counts: the track's and any sprayed, unless the rules ignore oil."""
    return [*course.zones("oil"), *oil] if rules.zones_oil != "none" else []


def on_oil(course: Course, rules: RuleSet, car: CarState,
           oil: Sequence[BaseGeometry] = (), standing: bool = False) -> bool:
    """Whether the car's unchanged move would touch oil (so it skids, or must keep steady).

    A car at rest is never forced by oil; with ``standing`` a car at rest on oil counts as on
    it (its good brakes, turbo and boosters get no grip there)."""
    zones = oil_zones(course, rules, oil)
    if not zones:
        return False
    if car.velocity.is_zero:
        if not standing:
            return False
        import shapely

        point = shapely.points(np.array([car.position], dtype=float))
        return any(bool(shapely.covers(zone, point)[0]) for zone in zones)
    start = np.array([car.position], dtype=float)
    end = np.array([car.position + car.velocity], dtype=float)
    return bool(zone_hits(zones, start, end).touches.any())


def candidates(course: Course, rules: RuleSet, setups: Sequence[CarSetup],
               cars: Sequence[CarState], index: int,
               oil: Sequence[BaseGeometry] = ()) -> list[Candidate]:
    """Every point car ``index`` might go to this turn, legal or not, and why not.
    ``oil`` is extra oil sprayed during the race (James Bond mode)."""
    car, setup = cars[index], setups[index]
    p, v = car.position, car.velocity
    crawling = car.off_track and rules.leaving_track == "crawl"
    velocities, notes = velocity_choices(course, rules, setup, car, oil)
    targets = [p + w for w in velocities]
    unchanged = np.array([not crawling and w == v for w in velocities])
    starts = np.repeat(np.array([p], dtype=float), len(targets), axis=0)
    ends = np.array(targets, dtype=float)

    surfaces = surfaces_for(course, rules, setup, car)
    boundary = rules.boundary_counts
    on_track = surfaces.drive.covers_segments(starts, ends, boundary)
    lands_on = surfaces.land.covers_points(ends, boundary)
    if surfaces.drive is not surfaces.land:
        on_track &= lands_on
    on_sheet = course.on_sheet(ends)

    reasons = [""] * len(targets)
    kinds = [MoveKind.DRIVE] * len(targets)
    legal = np.ones(len(targets), dtype=bool)

    def forbid(mask: np.ndarray, reason: str) -> None:
        for i in np.flatnonzero(mask & legal):
            reasons[i] = reason
        legal[mask] = False

    # Where the car goes and what leaving the track means.
    if car.off_track:
        for i in range(len(targets)):
            kinds[i] = MoveKind.RETURN if lands_on[i] else MoveKind.OFF
        forbid(~lands_on & ~on_sheet, "off the paper")
        if rules.leaving_track == "detour" and car.exit_distance is not None:
            field = course.distance_field(boundary)
            new_progress = course.advance(car.progress, starts, ends)
            for i in np.flatnonzero(lands_on & legal):
                if field(targets[i], int(new_progress[i])) <= car.exit_distance:
                    legal[i] = False
                    reasons[i] = "must come back onto the track behind the point where it left"
    else:
        leaving = ~on_track
        if rules.leaving_track == "crash":
            for i in np.flatnonzero(leaving):
                kinds[i] = MoveKind.CRASH
        elif rules.leaving_track in ("detour", "crawl"):
            for i in np.flatnonzero(leaving):
                kinds[i] = MoveKind.LEAVE
            forbid(leaving & lands_on, "a move may not leave the track and come back in one go")
            forbid(leaving & ~on_sheet, "off the paper")
        else:
            in_water = leaving & course.surface.covers_segments(starts, ends, boundary)
            forbid(in_water, "into the water: this car cannot swim")
            forbid(leaving, "off the track")

    speeds = np.array([w.speed for w in velocities])
    if not crawling and not v.is_zero:
        # Zones that force the last move to be repeated or the speed to change (a car at
        # rest is never forced).
        _zone_rules(course, rules, starts, ends, unchanged, speeds < v.speed,
                    speeds > v.speed, forbid, oil)
        if rules.movement_skid_speed is not None and v.speed >= rules.movement_skid_speed:
            turning = np.array([v.x * w.y - v.y * w.x != 0 for w in velocities])
            forbid(turning & (speeds < v.speed),
                   f"would skid: at speed {rules.movement_skid_speed} or more a car cannot "
                   "brake and turn in the same move")
    forced_repeat = _forced_by_zone(course, rules, starts[:1], np.array([p + v], dtype=float),
                                    oil) if not crawling and not v.is_zero else False
    if rules.movement_must_change and not crawling and not forced_repeat:
        forbid(unchanged, "the move must change (brake and/or turn)")

    # Other cars.
    others = {tuple(c.position): j for j, c in enumerate(cars) if j != index and c.racing}
    occupied = np.array([tuple(t) in others for t in targets])
    ends_on_target = np.array([k is not MoveKind.CRASH for k in kinds])
    blocking = occupied & ends_on_target
    if rules.cars == "forbidden":
        for i in np.flatnonzero(blocking & legal):
            reasons[i] = f"occupied by {setups[others[tuple(targets[i])]].name}"
        legal[blocking] = False
    elif rules.cars == "collide":
        clean = legal & ~blocking & np.array([k is not MoveKind.CRASH for k in kinds])
        if clean.any():
            for i in np.flatnonzero(blocking & legal):
                reasons[i] = (f"occupied by {setups[others[tuple(targets[i])]].name}: a "
                              "collision is allowed only when it cannot be avoided")
            legal[blocking] = False
        else:
            for i in np.flatnonzero(blocking & legal):
                kinds[i] = MoveKind.COLLISION

    return [Candidate(target=targets[i], velocity=velocities[i], legal=bool(legal[i]),
                      kind=kinds[i], reason=reasons[i], unchanged=bool(unchanged[i]),
                      note=notes[i])
            for i in range(len(targets))]


def _zone_rules(course: Course, rules: RuleSet, starts: np.ndarray, ends: np.ndarray,
                unchanged: np.ndarray, slower: np.ndarray, faster: np.ndarray, forbid,
                sprayed: Sequence[BaseGeometry] = ()) -> None:
    if rules.zones_slopes == "force":
        for kind, keeps, reason in (("upgrade", slower, "on an upgrade the car must slow down"),
                                    ("downgrade", faster,
                                     "on a downgrade the car must speed up")):
            zones = course.zones(kind)
            if zones:
                touches = zone_hits(zones, starts, ends).touches.any(axis=0)
                forbid(touches & ~keeps, reason)
    oil = oil_zones(course, rules, sprayed)
    jumps = course.zones("jump") if rules.zones_jump == "fly" else []
    if not oil and not jumps:
        return
    hits = zone_hits([*oil, *jumps], starts, ends)
    touches_oil = hits.touches[:len(oil)].any(axis=0) if oil else np.zeros(len(starts), bool)
    touches_jump = hits.touches[len(oil):].any(axis=0) if jumps else np.zeros(len(starts), bool)
    if rules.zones_oil == "skid" and (touches_oil & unchanged).any():
        forbid(~unchanged, "skidding on oil: the car must repeat its last move")
    elif rules.zones_oil == "steady":
        forbid(touches_oil & ~unchanged, "through oil the move must repeat the last one")
    forbid(touches_jump & ~unchanged, "over a jump the move must repeat the last one")


def _forced_by_zone(course: Course, rules: RuleSet, start: np.ndarray, end: np.ndarray,
                    oil: Sequence[BaseGeometry] = ()) -> bool:
    """Whether the unchanged move touches a zone that demands it (so it may be repeated)."""
    zones = [*oil_zones(course, rules, oil),
             *(course.zones("jump") if rules.zones_jump == "fly" else [])]
    return bool(zones) and bool(zone_hits(zones, start, end).touches.any())


def pit_stop_required(course: Course, rules: RuleSet) -> bool:
    """Whether cars must stop in a pit: the rules ask for it and the track has a pit."""
    return rules.pit_stop == "required" and bool(course.zones("pit"))


def after_moves(course: Course, rules: RuleSet, car: CarState,
                targets: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For ordinary moves to each of ``targets`` (batched): the car's progress after it,
    whether it has made its pit stop, and whether it may launch next (Pope's rule)."""
    ends = np.asarray(targets, dtype=np.int64).reshape(-1, 2)
    starts = np.repeat(np.array([car.position], dtype=np.int64), len(ends), axis=0)
    progress = course.advance(car.progress, starts.astype(float), ends.astype(float))
    stopped = (ends == starts).all(axis=1)
    pitted = np.full(len(ends), car.pitted)
    if pit_stop_required(course, rules):
        if not car.pitted:
            pitted = stopped & course.in_zones("pit", ends.astype(float))
        progress = np.where(~pitted & (progress >= course.goal), course.goal - 1, progress)
    launch = stopped & (rules.movement_launch and not car.velocity.is_zero)
    return progress, pitted, launch


def after_move(course: Course, rules: RuleSet, car: CarState, target: Vec) -> CarState:
    """The car after an ordinary move to ``target``: position, velocity, progress, and the
    pit-stop and fast-acceleration flags. (Leaving the track, crashes and collisions add to
    this in the race itself.)"""
    progress, pitted, launch = after_moves(course, rules, car, np.array([target]))
    return replace(car, position=target, velocity=target - car.position,
                   progress=int(progress[0]), moves=car.moves + 1, pitted=bool(pitted[0]),
                   launch=bool(launch[0]))
