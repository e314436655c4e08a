"""A lower bound on the turns a lone car still needs: what lets the exact solver search best
first (``racetrack.search.solver.BestFirst``) and still prove its answer optimal.

The bound is the largest of three, each never more than the truth:

**Squares still to go, covered as fast as a car can.** A car's speed (the larger component of
its move) grows by at most ``a`` a turn (the rules' largest change of a component: 1, or 2
under ``square-24``), so in k turns a car at speed s covers at most k s + a k (k + 1) / 2
squares, counted as its moves' lengths (the larger component of each). ``distances`` (the
kernel's ``bound_field``) is a lower bound on the squares of any route to the finish: the
shortest path, over the points of the sheet within a square of the track (where a car's move
runs), of steps to a neighbouring point (one square each, passing lines as a car would) and,
near the lines, of every move between points of the track (its length), with the progress
``Course.advance`` gives. It is a lower bound because every move of a car maps to a path no
longer than the move: a move that comes within a square of no line it could pass is followed
by the points it passes within a square of (a whole number along its longer axis, its other
coordinate rounded down), each a step from the last, none passing a line; a move near a line
is one of the moves taken as they are. A crash that puts a car back on the track (``restart``)
moves it from where it left the track to the nearest point of the track: where every point of
the wall has a point of the track within ``slack`` squares (at most 2; found by walking the
wall), a crash covers at most its move and ``slack`` more, and leaves the car at rest: the
turns to cover the squares are then those of a lone car that may also crash so, each crash
costing its turn and the turns it misses (``cover_turns`` in ``_kernel.c``, a table by squares
and speed); counting every turn ``slack`` squares longer, as this did first, gave a bound a turn
or so weaker on a long way to go. Where a crash's damage is its speed (Baker's), a car crashes
and stays in the race only on a move no longer than the damage limit (``longest_crash``): a
crash from faster only counts where it may finish the race.

**Each axis on its own.** The two components of a car's position move independently, each as
a coordinate whose velocity changes by at most ``a`` a turn. Every route passes, in order, the
points at every distance from the finish (the distances fall by at most one a step): so the x
coordinate must pass, in order, the span of x of the points at each distance (within a square),
and so must y. ``axis_turns`` works out the fewest turns a lone coordinate needs to pass a
level of distances every ``band`` in order, for each coordinate and velocity: no route is
faster than either axis alone. A crash that puts the car back moves a coordinate as no
velocity does, so the lone coordinate may also crash: at rest, anywhere its next move and the
put-back's slack reach, in the crash's turns (and, under Baker's damage, only from a speed a
car survives a crash at), passing the levels that stretch meets; a set-back that leaves the car
where it stands stops the coordinate there.

**A detour's levels.** Where a car may leave the track and must come back onto it no nearer
the finish than it left (Nystrom's detour), the squares to go bound nothing: off the track a
car goes anywhere. What it keeps is the distance still to go along the track that the rule
compares (``Transition.exit_units``): on the track the distance from where it is, off it the
distance from where it left, which coming back never lowers. So a route passes each level of
that distance on a move between points of the track (or on a move off it that crosses the
finish on its way: the race is then over), and each level's span on an axis must meet the
stretch of every such move that passes it (``unit_levels`` in ``_kernel.c``); the
axes' tables then bound the turns as above. A car with no legal move crashes and is put back
at rest, maybe across a thin wall a lap nearer the finish: taken as a move, such a crash
widened the levels between to nothing (the spiral's start bounded at 5 turns of 29). So the
lone coordinate crashes only from where a stuck car's crash may come, and goes to the
nearest level such a crash puts a car at (from that level or any farther: a car may have gone
back since it was nearest). Every progress is taken at every point, not only those a car
reaches on the track: going round a line's end off the track gives a car a progress it would
not have there (past a line it has not passed), from which it is nearer the finish going back.
On courses of many lines that widens the levels until the bound is too weak to search by, and
the search goes by turns instead (``WEAKEST_DETOUR_BOUND``). Levi's crawl gets no bound: a
crawling car's velocity jumps to its step, so the lone coordinate would stop anywhere off the
track, and a bound that let it (tried) searched as often slower as faster.

Where no bound is proven (a crawl; a wall with no point of the track near enough; too many
moves near the lines to take; a detour's bound too weak), there is none, and the search goes
by turns alone: breadth first.
"""

from __future__ import annotations

import math

import numpy as np
import shapely

from racetrack.board import kernel

#: How far apart the wall is walked for the put-back's slack, in squares.
WALL_STEP = 0.1
#: The most levels the axes' tables take (the levels are spread over the distances).
MOST_LEVELS = 160
#: The most moves near the lines taken as they are (more: no bound).
MOST_NEAR_MOVES = 30_000_000
#: Where a car may come back onto the track behind where it left, the bound counts, to be
#: sure, moves from every progress at every point: also from a progress a car has only after
#: going round a line's end off the track (past a line it has not passed, where it is nearer
#: the finish going back), which widens the levels, and so do the crashes of cars with no
#: legal move, each a stop. Where that leaves the bound at the start below this share of
#: what moves on the track alone would give, the search goes by turns: searched best first
#: under a bound that weak, more states are searched than by turns (of the states alike but
#: for where they left, fewer are left out), each dearer.
WEAKEST_DETOUR_BOUND = 0.6
#: The most squares to go the crashes' table of turns covers (a farther way: no table, and
#: every turn counted ``slack`` squares longer).
MOST_SQUARES = 60_000


def bound_for(transition, space, damage_limit: int | None, sources=None) -> tuple | None:
    """The bound's tables as ``racetrack.board.kernel.CompiledSearch`` takes them (see
    ``search_new`` in ``_kernel.c``), or ``None`` where no bound is proven for these rules
    (or, searching from ``sources``, where a detour's is too weak there to search by)."""
    rules = transition.rules
    if not kernel.enabled() or not transition.compiled:
        return None
    if transition.leaving == "detour":
        return detour_bound(transition, space, damage_limit, sources)
    if transition.leaving == "crawl":
        return None  # off the track a car may go anywhere
    accel = int(np.abs(transition.changes).max())
    teleports = rules.crash_outcome == "restart"
    slack = 0
    if teleports:
        reach = put_back_reach(transition)
        if reach is None:
            return None
        slack = reach
    grid = transition.grid
    width, height = grid.width, grid.height
    drive = transition.drive.compiled
    near = near_points(drive, width, height)
    land = np.ascontiguousarray(transition.land.index[:-1], dtype=np.int32)
    course = transition.course
    goal = course.goal
    area_mark = np.array([line == course.finish_area_mark for line in course.lines],
                         dtype=np.uint8)
    finish_near = None
    if area_mark.any() and transition.marks.finish is not None:
        finish_near = near_area(transition.marks.finish, grid)
    out = np.empty(goal * width * height, dtype=np.int32)
    moves = (space.vmax_x + slack, space.vmax_y + slack, 1.0 + slack, int(teleports))
    estimate = near_move_count(transition, space, slack)
    if estimate > MOST_NEAR_MOVES:
        return None
    _, boxes = kernel._kernel.bound_field(course.compiled_lines.packed,
                                          (grid.x0, grid.y0, width, height), near,
                                          drive.packed[6], land, drive.packed, area_mark,
                                          finish_near, moves, out)
    axes = ((None, grid.x0, width, space.vmax_x), (None, grid.y0, height, space.vmax_y))
    level_of, levels = None, 0
    if transition.leaving in ("illegal", "crash"):  # a car on the track, or put back on it
        stays = rules.crash_outcome == "set-back" and rules.crash_set_back == 0
        crash = (1 if teleports else 2 if stays else 0, slack, 1 + rules.crash_miss_turns,
                 longest_crash(rules, damage_limit))
        level_of, levels, axes = axis_bounds(np.frombuffer(boxes, dtype=np.int32).reshape(-1, 4),
                                             grid, space, accel, crash)
    cover, speeds = None, 1
    finite = out[out >= 0]
    squares = int(finite.max()) + 1 if len(finite) else 1
    if teleports and squares <= MOST_SQUARES:  # (beyond, no table: one bound for all squares)
        speeds = max(space.vmax_x, space.vmax_y) + 1
        cover = np.empty(squares * speeds, dtype=np.uint16)
        kernel._kernel.cover_turns(accel, slack, 1 + rules.crash_miss_turns,
                                   longest_crash(rules, damage_limit), speeds, cover)
    return (out, grid.x0, grid.y0, width, height, accel, slack, level_of, levels, *axes, cover,
            speeds)


def detour_bound(transition, space, damage_limit: int | None, sources=None) -> tuple | None:
    """The axes' tables by the distance to go along the track (``unit_levels`` in
    ``_kernel.c`` says why they bound the turns), for a car that must come back onto the
    track no nearer the finish than it left: ``None`` where the distances are not worked out,
    where areas count (the distance then depends on them too), or where the bound is too weak
    at the ``sources`` to search by (see ``WEAKEST_DETOUR_BOUND``)."""
    units = transition.exit_table
    if units is None or transition.marks:
        return None
    if any(line.a == line.b for line in transition.course.lines):
        return None  # a car at rest on a waypoint may reach it by staying: not yet bounded
    rules = transition.rules
    restarts = rules.crash_outcome == "restart"
    slack = put_back_reach(transition) if restarts else 0
    if slack is None:
        return None
    stays = rules.crash_outcome == "set-back" and rules.crash_set_back == 0
    most = longest_crash(rules, damage_limit)
    crash = (1 if restarts else 2 if stays else 0, slack, 1 + rules.crash_miss_turns, most)
    cap = transition.exit_cap
    finite = units[units < cap]
    band, n, level_of = levels_of(int(finite.max()) if len(finite) else 0, cap)
    accel = int(np.abs(transition.changes).max())
    grid = transition.grid
    packed = (transition.land.compiled.packed, transition.drive.compiled.packed,
              transition.course.compiled_lines.packed)
    vmax = (space.vmax_x, space.vmax_y)
    units = np.ascontiguousarray(units, dtype=np.int32)

    # A car has no legal move (and crashes) only where none of its changed moves surely is
    # legal, and only a zone whose box its moves meet may refuse one; a skid anywhere.
    changes = None if rules.movement_skid_speed else \
        np.ascontiguousarray(transition.changes.reshape(-1), dtype=np.int32)
    zones = [zone for kind in (transition.oil, transition.jump, transition.upgrade,
                               transition.downgrade) for zone in kind.zones]
    boxes = np.zeros((len(zones), 4), dtype=np.int64)
    if zones:
        bounds = shapely.bounds(zones)
        boxes[:, :2] = np.floor(bounds[:, :2]) - 1
        boxes[:, 2:] = np.ceil(bounds[:, 2:]) + 1
    boxes = np.ascontiguousarray(boxes.reshape(-1))

    def tables(from_only, crashes: bool = True) -> list[tuple] | None:
        spans = [np.empty(n, dtype=np.int32) for _ in range(4)]
        jumps = [np.empty((n + 1) * grid.width * (2 * space.vmax_x + 1), dtype=np.uint16),
                 np.empty((n + 1) * grid.height * (2 * space.vmax_y + 1), dtype=np.uint16)]
        far = kernel._kernel.unit_levels(*packed, units, vmax, band,
                                         (crash[0] if crashes else 0, slack, most, changes,
                                          boxes), from_only, *spans, *jumps)
        if far:
            return None  # a crash puts a car back beyond a lone coordinate's crash
        return [axis_table(spans[2 * axis], spans[2 * axis + 1], first, extent, top, accel,
                           crash, jumps[axis])
                for axis, first, extent, top in ((0, grid.x0, grid.width, space.vmax_x),
                                                 (1, grid.y0, grid.height, space.vmax_y))]

    axes = tables(None)
    if axes is None:
        return None
    point = None if sources is None else transition.land.point_index(sources.x, sources.y)
    racing = None if sources is None else np.flatnonzero(
        (point >= 0) & (sources.off == 0) & (sources.progress < transition.goal))
    if racing is not None and len(racing):  # (judged from the sources on the track)
        cars = sources.take(racing)
        ids = cars.progress.astype(np.int64) * len(transition.land.points) + point[racing]
        reached = np.zeros(len(units), dtype=np.uint8)
        kernel._kernel.track_reach(*packed, vmax, np.ascontiguousarray(ids, dtype=np.int64),
                                   reached)
        at = level_of[np.minimum(units[ids], cap)]
        tight = axes_turns(tables(reached, crashes=False), at, cars).min()
        if WEAKEST_DETOUR_BOUND * tight > axes_turns(axes, at, cars).min():
            return None
    return (None, grid.x0, grid.y0, grid.width, grid.height, accel, slack, level_of, n, *axes,
            None, 1)


def axes_turns(axes: list[tuple], level: np.ndarray, cars) -> np.ndarray:
    """The axes' tables' turns (``bound_of`` in ``_kernel.c``) for cars with ``level`` levels
    still to pass; a large number where a coordinate cannot pass them."""
    result = np.zeros(len(cars), dtype=np.int64)
    for (table, first, extent, vmax), coord, vel in ((axes[0], cars.x, cars.vx),
                                                     (axes[1], cars.y, cars.vy)):
        span = 2 * vmax + 1
        where = (level.astype(np.int64) * extent + (coord.astype(np.int64) - first)) * span \
            + vel + vmax
        turns = table[where].astype(np.int64)
        result = np.maximum(result, np.where(turns == 0xFFFF, 1 << 28, turns))
    return result


def longest_crash(rules, damage_limit: int | None) -> int:
    """The longest move a car may crash on and stay in the race: its speed is its damage,
    and past the damage limit it is out (a crash that finishes the race excepted, which the
    tables count apart); without either, any."""
    if damage_limit is None or rules.crash_damage != "speed":
        return 1 << 20
    return max(int(damage_limit), 0)


def near_points(cells: kernel.RegionCells, width: int, height: int) -> np.ndarray:
    """Per point of the sheet: whether a unit cell beside it meets the region (a car's move
    passes within a square of such points only)."""
    state = cells.packed[6].reshape(height - 1, width - 1) != 0
    padded = np.zeros((height + 1, width + 1), dtype=bool)
    padded[1:-1, 1:-1] = state
    near = padded[:-1, :-1] | padded[:-1, 1:] | padded[1:, :-1] | padded[1:, 1:]
    return np.ascontiguousarray(near.reshape(-1), dtype=np.uint8)


def near_area(area, grid) -> np.ndarray:
    """Per point of the sheet: whether the area lies within two squares of it along each
    axis (a move that passes over it passes within two squares of such a point)."""
    points = grid.all_points().astype(float)
    boxes = shapely.box(points[:, 0] - 2, points[:, 1] - 2, points[:, 0] + 2, points[:, 1] + 2)
    return np.ascontiguousarray(shapely.intersects(area, boxes), dtype=np.uint8)


def put_back_reach(transition) -> int | None:
    """The most squares (along either axis, rounded up) between a point of the wall and the
    point of the track nearest to it, where a crash puts a car back; ``None`` if it may be more
    than 2. The wall is walked every ``WALL_STEP``, and each walked point's nearest point is at
    most half a step farther than any point of the wall beside it."""
    boundary = transition.drive.region.geometry.boundary
    walked = shapely.get_coordinates(shapely.segmentize(boundary, WALL_STEP))
    if not len(walked):
        return 0
    land = transition.land
    nearest = np.full(len(walked), np.inf)
    cx, cy = np.floor(walked[:, 0]).astype(np.int64), np.floor(walked[:, 1]).astype(np.int64)
    for dx in range(-2, 4):
        for dy in range(-2, 4):
            x, y = cx + dx, cy + dy
            on = land.point_index(x, y) >= 0
            d = np.hypot(x - walked[:, 0], y - walked[:, 1])
            nearest = np.where(on, np.minimum(nearest, d), nearest)
    farthest = float(nearest.max()) + WALL_STEP / 2
    return math.ceil(farthest) if farthest <= 2 else None


def near_move_count(transition, space, slack: int) -> int:
    """About how many moves near the lines ``bound_field`` takes as they are (an upper bound:
    every move from a point of the track within reach of a line's box)."""
    course = transition.course
    lo, hi = course._behind_boxes
    reach_x, reach_y = space.vmax_x + slack + 2, space.vmax_y + slack + 2
    points = transition.land.points
    near = np.zeros(len(points), dtype=bool)
    for k in range(len(lo)):
        near |= ((points[:, 0] >= lo[k, 0] - reach_x) & (points[:, 0] <= hi[k, 0] + reach_x)
                 & (points[:, 1] >= lo[k, 1] - reach_y) & (points[:, 1] <= hi[k, 1] + reach_y))
    return int(near.sum()) * (2 * reach_x + 1) * (2 * reach_y + 1) * course.goal


def axis_bounds(boxes: np.ndarray, grid, space, accel: int, crash: tuple[int, int, int]):
    """The axes' tables: levels every ``band`` distances (at most ``MOST_LEVELS``), each
    spanning its box on each axis; ``crash`` says how a crash moves a coordinate (see
    ``axis_turns`` in ``_kernel.c``). Returns (level of each distance, levels, x axis, y
    axis)."""
    farthest = len(boxes) - 1
    band, n, level_of = levels_of(farthest, farthest)
    levels = np.arange(band, farthest + 1, band)
    axes = []
    for axis, first, extent, vmax in ((0, grid.x0, grid.width, space.vmax_x),
                                      (1, grid.y0, grid.height, space.vmax_y)):
        lo = boxes[levels, 2 * axis].astype(np.int64)
        hi = boxes[levels, 2 * axis + 1].astype(np.int64)
        empty = lo > hi  # no point at that distance: nothing to pass there
        lo[empty], hi[empty] = np.iinfo(np.int32).min, np.iinfo(np.int32).max
        axes.append(axis_table(lo, hi, first, extent, vmax, accel, crash))
    return level_of, n, axes


def levels_of(farthest: int, top: int) -> tuple[int, int, np.ndarray]:
    """The axes' levels over distances up to ``farthest``: one every ``band`` (at most
    ``MOST_LEVELS``), their number, and the levels still to pass from each distance 0 to
    ``top`` (int32; those past the last level, all of them)."""
    band = max(1, -(-farthest // MOST_LEVELS))
    n = len(range(band, farthest + 1, band))
    distances = np.arange(top + 1)
    level_of = np.where(distances >= 1, np.minimum((distances - 1) // band, n), 0)
    return band, n, np.ascontiguousarray(level_of, dtype=np.int32)


def axis_table(lo, hi, first: int, extent: int, vmax: int, accel: int, crash: tuple,
               jumps: np.ndarray | None = None) -> tuple:
    """One axis's table (``axis_turns``) for the levels spanning ``lo`` to ``hi``, as the
    bound's tuple holds it: (table, first coordinate, extent, vmax); ``jumps``: where a crash
    may come from, level by level, and the level it goes to (``None``: anywhere, passing what
    its stretch meets)."""
    table = np.empty((len(lo) + 1) * extent * (2 * vmax + 1), dtype=np.uint16)
    kernel._kernel.axis_turns(np.ascontiguousarray(lo, dtype=np.int32),
                              np.ascontiguousarray(hi, dtype=np.int32), first, extent, vmax,
                              accel, crash, table, jumps)
    return table, first, extent, vmax


def turns_at_least(bound: tuple, space, cars) -> np.ndarray:
    """The bound (as ``bound_for`` gives it) for a batch of states, as the compiled search
    works it out (``bound_of`` in ``_kernel.c``); a large number where a state cannot finish."""
    (distances, x0, y0, width, height, accel, slack, level_of, levels, axis_x, axis_y, cover,
     speeds) = bound
    transition = space.transition
    goal = transition.goal
    far = np.int64(1 << 28)
    on = cars.progress < goal
    result = np.zeros(len(cars), dtype=np.int64)
    if distances is None:  # by the distance along the track: a car off it, by where it left
        units = np.where(cars.off > 0, cars.exit, 0).astype(np.int64)
        track = on & (cars.off == 0)
        if track.any():
            units[track] = transition.exit_units(cars.x[track], cars.y[track],
                                                 cars.progress[track], cars.areas[track])
        level = np.where(units < len(level_of), level_of[np.minimum(units, len(level_of) - 1)],
                         levels)
        return np.where(on, axes_turns([axis_x, axis_y], level, cars), 0)
    speed = np.maximum(np.abs(cars.vx), np.abs(cars.vy)).astype(np.int64)
    col, row = cars.x.astype(np.int64) - x0, cars.y.astype(np.int64) - y0
    at = (np.minimum(cars.progress, goal - 1).astype(np.int64) * height + row) * width + col
    d = np.where(on, distances[np.where(on, at, 0)], 0).astype(np.int64)
    result[on] = _cover(np.maximum(d[on], 0), speed[on] + slack, accel)
    if cover is not None:
        listed = on & (d >= 0) & (d < len(cover) // speeds) & (speed < speeds)
        result[listed] = cover[d[listed] * speeds + speed[listed]]
    result[on & (d < 0)] = far
    if level_of is not None:
        use = on & (d >= 0) & (d < len(level_of))
        level = level_of[np.where(use, d, 0)].astype(np.int64)
        result = np.where(use, np.maximum(result, axes_turns([axis_x, axis_y], level, cars)),
                          result)
    return result


def _cover(d: np.ndarray, speed: np.ndarray, accel: int) -> np.ndarray:
    """The fewest k with k speed + accel k (k + 1) / 2 >= d (``turns_to_cover``)."""
    b = 2.0 * speed + accel
    k = np.floor((-b + np.sqrt(b * b + 8.0 * accel * d)) / (2.0 * accel)).astype(np.int64)
    k = np.maximum(k, 0)
    for _ in range(3):
        k = np.where((k > 0) & ((k - 1) * speed + accel * (k - 1) * k // 2 >= d), k - 1, k)
    for _ in range(3):
        k = np.where(k * speed + accel * k * (k + 1) // 2 < d, k + 1, k)
    return np.where(d <= 0, 0, k)
