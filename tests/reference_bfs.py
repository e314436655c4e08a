"""A deliberately plain breadth-first search for the fewest moves to the finish.

Used as an independent check: one car, no zones, every move tested with its own shapely call
(no batching, no numpy state space), so it shares nothing with the game's fast paths but the
track file and the progress rules.
"""

from __future__ import annotations

import math

import shapely

from racetrack.board.course import Course
from racetrack.board.track import Track

SQUARE = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
PLUS = [(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)]
SQUARE_24 = [(dx, dy) for dx in range(-2, 3) for dy in range(-2, 3)]


def first_move_allowed(first_move: str, track: Track, w) -> bool:
    """Whether ``w`` may be a car's first move from a start point (``movement.first-move``):
    anything ("free"), anything but staying put ("moving"), or that and ahead over the start
    line's arrow ("ahead")."""
    if first_move == "free":
        return True
    if w == (0, 0):
        return False
    if first_move == "ahead" and track.start is not None:
        return w[0] * track.start.forward[0] + w[1] * track.start.forward[1] > 0
    return True


def fewest_moves(track: Track, start=None, changes=SQUARE, limit=300, must_change=False,
                 touching_allowed=True, first_move="free") -> int | None:
    """Fewest moves from rest; ``changes`` are the allowed changes of velocity."""
    course = Course(track)
    surface = track.polygon()
    shapely.prepare(surface)
    inside = surface.covers if touching_allowed else surface.contains_properly
    facts: dict[tuple, bool] = {}
    advanced: dict[tuple, int] = {}

    def segment(p, q):
        """On the track: one plain shapely call per segment (many states draw the same one)."""
        if (p, q) not in facts:
            facts[p, q] = inside(shapely.LineString([p, q]) if p != q else shapely.Point(q))
        return facts[p, q]

    starts = [tuple(start)] if start else [tuple(p) for p in course.start_positions]
    frontier = [(p, (0, 0), course.start_progress) for p in starts]
    first = {(tuple(p), (0, 0), course.start_progress) for p in course.start_positions}
    seen = set(frontier)
    for depth in range(1, limit + 1):
        following = []
        for (x, y), (vx, vy), progress in frontier:
            for dx, dy in changes:
                if must_change and (dx, dy) == (0, 0):
                    continue
                v = (vx + dx, vy + dy)
                if ((x, y), (vx, vy), progress) in first and \
                        not first_move_allowed(first_move, track, v):
                    continue
                q = (x + v[0], y + v[1])
                if not segment((x, y), q):
                    continue
                # Every move asks the course: a line counts as passed (or un-passed) also where
                # it is continued round its end, which the drawn line alone does not show.
                key = (progress, (x, y), q)
                if key not in advanced:
                    advanced[key] = course.advance_one(progress, (x, y), q)
                new_progress = advanced[key]
                if new_progress == course.goal:
                    return depth
                state = (q, v, new_progress)
                if state not in seen:
                    seen.add(state)
                    following.append(state)
        frontier = following
        if not frontier:
            return None
    return None


#: What the shapely calls said of each segment, for the last few (track, boundary, lines):
#: the facts are the geometry's alone, so the rule sets searched on one track share them.
_FACTS: dict[tuple, dict[tuple, tuple]] = {}


def _segment_facts(track: Track, boundary_counts: bool, lines: tuple) -> dict[tuple, tuple]:
    key = (track, boundary_counts, lines)
    if key not in _FACTS:
        while len(_FACTS) >= 4:
            del _FACTS[next(iter(_FACTS))]
        _FACTS[key] = {}
    return _FACTS[key]


def fewest_moves_with(track: Track, rules, limit: int = 300) -> int | None:
    """Fewest moves from the best start under the readers' options, tested plainly.

    Covers the movement options (plus/square/square-24, power braking, skidding, Pope's
    launch), slopes, steady oil, pit stops and waypoints; one shapely call per move.
    """
    from racetrack.engine.moves import CHANGES

    course = Course(track, laps=rules.laps, checkpoints=rules.checkpoints == "in-order")
    surface = track.polygon()
    shapely.prepare(surface)
    inside = surface.covers if rules.boundary_counts else surface.contains_properly
    zones = {kind: [z.geometry() for z in track.zones if z.kind == kind]
             for kind in ("oil", "upgrade", "downgrade", "pit")}
    for found in zones.values():
        for zone in found:
            shapely.prepare(zone)
    pits = rules.pit_stop == "required" and bool(zones["pit"])
    minx, miny, maxx, maxy = (int(v) for v in surface.bounds)
    every_point = [(x, y) for x in range(minx, maxx + 1) for y in range(miny, maxy + 1)
                   if inside(shapely.Point(x, y))]

    def speed(v):
        return max(abs(v[0]), abs(v[1]))

    def touches(kind, piece):
        return any(piece.intersects(zone) for zone in zones[kind])

    def choices(p, v, launch):
        found = [(v[0] + dx, v[1] + dy) for dx, dy in CHANGES[rules.movement_choices]]
        if rules.movement_power_braking and v != (0, 0):
            g = math.gcd(abs(v[0]), abs(v[1]))
            u = (v[0] // g, v[1] // g)
            for k in range(1, g):
                if all(abs(a) - abs(b) <= 2 for a, b in zip(v, (u[0] * k, u[1] * k), strict=True)):
                    found.append((u[0] * k, u[1] * k))
        if launch:
            found += [(q[0] - p[0], q[1] - p[1]) for q in every_point]
        return list(dict.fromkeys(found))

    drawn = [line.geometry() for line in course.lines if line.a != line.b]
    waypoints = {tuple(w) for w in track.waypoints}
    facts = _segment_facts(track, rules.boundary_counts,
                           tuple((line.a, line.b) for line in course.lines if line.a != line.b))
    advanced: dict[tuple, int] = {}

    def segment(p, q):
        """What the plain shapely calls say of the segment p-q (asked once per segment: many
        states draw the same one): on the track, and which zones and lines it touches."""
        if (p, q) not in facts:
            piece = shapely.LineString([p, q]) if p != q else shapely.Point(q)
            ok = inside(piece)
            facts[p, q] = (ok, ok and touches("oil", piece), ok and touches("upgrade", piece),
                           ok and touches("downgrade", piece), ok and touches("pit", piece),
                           ok and any(piece.intersects(line) for line in drawn))
        return facts[p, q]

    starts = [tuple(p) for p in course.start_positions]
    frontier = [(p, (0, 0), course.start_progress, False, False) for p in starts]
    seen = set(frontier)
    for depth in range(1, limit + 1):
        following = []
        for p, v, progress, pitted, launch in frontier:
            at_start = p in starts and v == (0, 0) and progress == course.start_progress
            for w in choices(p, v, launch):
                if rules.movement_must_change and w == v:
                    continue
                if at_start and not first_move_allowed(rules.movement_first_move, track, w):
                    continue
                q = (p[0] + w[0], p[1] + w[1])
                ok, oil, upgrade, downgrade, pit, crosses = segment(p, q)
                if not ok:
                    continue
                if v != (0, 0):
                    if rules.zones_oil == "steady" and w != v and oil:
                        continue
                    if rules.zones_slopes == "force":
                        if upgrade and speed(w) >= speed(v):
                            continue
                        if downgrade and speed(w) <= speed(v):
                            continue
                    skid = rules.movement_skid_speed
                    if skid is not None and speed(v) >= skid and speed(w) < speed(v) \
                            and v[0] * w[1] - v[1] * w[0] != 0:
                        continue
                new_progress = progress
                if q in waypoints or crosses:
                    if (progress, p, q) not in advanced:
                        advanced[progress, p, q] = course.advance_one(progress, p, q)
                    new_progress = advanced[progress, p, q]
                new_pitted = pitted or (pits and w == (0, 0) and pit)
                if pits and not new_pitted:
                    new_progress = min(new_progress, course.goal - 1)
                if new_progress >= course.goal:
                    return depth
                new_launch = rules.movement_launch and w == (0, 0) and v != (0, 0)
                state = (q, w, new_progress, new_pitted, new_launch)
                if state not in seen:
                    seen.add(state)
                    following.append(state)
        frontier = following
        if not frontier:
            return None
    return None


def fewest_turns_in_game(track: Track, rules, start=None, kit=None, limit: int = 200,
                         car=None) -> int | None:
    """Fewest turns to the finish for a lone car, searched over the game's own race states:
    from a standing start (on ``start``, with ``kit``), or from ``car``'s state (a
    ``CarState``: moving, off the track on a detour, crawling...).

    Every legal move is applied to a copy of the race (``RaceState.clone`` and ``apply``), so a
    crash, the point the car is put back on and the turns it misses are the game's to decide;
    states are told apart by their position strings. It shares the game's rules but nothing of
    the solver's search (its keys, seen-bits, dropped moves or tables). Slow: small tracks only.
    """
    from dataclasses import replace

    from racetrack.engine.model import CarSetup, Move
    from racetrack.engine.position import car_position
    from racetrack.games.race import Race, RaceState

    race = Race(track, rules.replace(start_grid="spread"), [CarSetup("Solo")])
    root = race.start() if car is None else RaceState(race, [car], placed=True)
    if start is not None:
        root.place(0, start)
    if kit is not None:
        root.set_car(0, replace(root.cars[0], kit=kit))
    best = {car_position(root.cars[0]): root.round}
    buckets: dict[int, list] = {root.round: [root]}
    while buckets:
        turn = min(buckets)
        if turn > limit:
            return None
        for state in buckets.pop(turn):
            if best[car_position(state.cars[0])] < turn:
                continue  # reached sooner another way
            for move in state.legal_moves():
                after = state.clone()
                after.apply(Move(move.target))
                car = after.cars[0]
                if car.finish is not None:
                    return after.last_round
                if after.is_over:
                    continue
                key = car_position(car)
                if after.round < best.get(key, limit + 1):
                    best[key] = after.round
                    buckets.setdefault(after.round, []).append(after)
    return None


def fewest_moves_to_finish_line(track: Track, changes=SQUARE, first_move="free",
                                limit=300) -> int | None:
    """Fewest moves from rest over a course from a start line to a finish line with no
    checkpoints, judged without the game's progress rules: a move finishes when its segment
    touches the finish line's drawn segment and goes from behind it to on or ahead of it (a
    point on a line has reached it). For courses whose start cannot be backed over (it lies
    across a dead end), where nothing else can count."""
    surface = track.polygon()
    shapely.prepare(surface)
    finish = track.finish
    drawn = shapely.LineString([finish.a, finish.b])

    def side(point) -> float:
        return ((point[0] - finish.a[0]) * finish.forward[0]
                + (point[1] - finish.a[1]) * finish.forward[1])

    def finishes(p, q) -> bool:
        return side(p) < 0 <= side(q) and drawn.intersects(shapely.LineString([p, q]))

    frontier = [(tuple(p), (0, 0)) for p in track.start_positions()]
    seen = set(frontier)
    first = True
    for depth in range(1, limit + 1):
        following = []
        for (x, y), (vx, vy) in frontier:
            for dx, dy in changes:
                v = (vx + dx, vy + dy)
                if first and not first_move_allowed(first_move, track, v):
                    continue
                q = (x + v[0], y + v[1])
                segment = shapely.LineString([(x, y), q]) if v != (0, 0) else shapely.Point(q)
                if not surface.covers(segment):
                    continue
                if finishes((x, y), q):
                    return depth
                if (q, v) not in seen:
                    seen.add((q, v))
                    following.append((q, v))
        frontier, first = following, False
        if not frontier:
            return None
    return None
