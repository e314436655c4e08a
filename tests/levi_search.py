"""A slow, plain search for the fewest moves round a circuit under Levi's rules 5 and 6.

An independent check of the solver: its own movement (Baker's five choices on the track; off
it, rule 5's "single move in any direction until it re-enters the track"), one plain shapely
call per segment, and its own reading of a lap, written for a start line drawn straight up or
down the paper (``x = X``) and the checkpoints a reader of rule 6 draws by hand:

- the start line is passed forwards only over the line as drawn; rule 6's checkpoint only over
  the stretch of track given for it, the way a lap goes there (the other way);
- a point on the line ``x = X`` is on the start line's forward side, for both lines (the
  checkpoint's arrow points the other way: stepping onto the line from the start line's
  forward side crosses the checkpoint);
- crossing ``x = X`` backwards anywhere but over the other line's stretch of track (on the
  track, through the infield or beyond the outer wall) takes back what passing the line gave,
  so going round the end of a line never gets a car behind it.

It shares nothing with the game but the track file and the rules' numbers.
"""

from __future__ import annotations

import math

import shapely

from racetrack.board.track import Track

PLUS = ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1))
STEPS = tuple((dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy)


def _crossing(p, q, x, ahead):
    """Where the move p→q meets the line ``x = X``, as (y, way): ``way`` is +1 / -1 for a
    forward / backward crossing of the start line's side (points on the line have reached
    it, as the game's lines say), 0 when it does not cross. The checkpoint is crossed
    forwards where the start line is crossed backwards."""
    sp, sq = ahead * (p[0] - x), ahead * (q[0] - x)
    way = 1 if sp < 0 <= sq else -1 if sq < 0 <= sp else 0
    if not way:
        return 0.0, 0
    y = p[1] + (x - p[0]) / (q[0] - p[0]) * (q[1] - p[1])
    return y, way


def fewest_moves_levi(track: Track, gate: tuple[float, float], margin: int = 4,
                      limit: int = 200) -> int | None:
    """Fewest moves for one lap from the best start point, from rest.

    ``gate`` is rule 6's checkpoint as (y0, y1) on the start line's own ``x``, from wall to
    wall. The start line's arrow may point either way along ``x``; the checkpoint is crossed
    the other way."""
    line = track.start
    assert line.a[0] == line.b[0] and line.forward[1] == 0, "a start line up or down the paper"
    x = line.a[0]
    ahead = 1 if line.forward[0] > 0 else -1
    low, high = sorted((line.a[1], line.b[1]))
    gate_low, gate_high = sorted(gate)
    surface = track.polygon()
    shapely.prepare(surface)
    # The track under the start line, from wall to wall (the line may overhang them).
    _, track_low, _, track_high = shapely.LineString([(x, low), (x, high)]).intersection(
        surface).bounds
    minx, miny, maxx, maxy = surface.bounds
    x0, y0 = math.floor(minx) - margin, math.floor(miny) - margin
    x1, y1 = math.ceil(maxx) + margin, math.ceil(maxy) + margin
    points_on: dict[tuple, bool] = {}
    segments_on: dict[tuple, bool] = {}

    def on(p) -> bool:
        if p not in points_on:
            points_on[p] = surface.covers(shapely.Point(p))
        return points_on[p]

    def stays_on(p, q) -> bool:
        if (p, q) not in segments_on:
            piece = shapely.LineString([p, q]) if p != q else shapely.Point(p)
            segments_on[p, q] = surface.covers(piece)
        return segments_on[p, q]

    def stage_after(stage: int, p, q) -> int:
        """0: behind the start line; 1: past it; 2: past the checkpoint too; 3: finished."""
        y, way = _crossing(p, q, x, ahead)
        if way > 0 and low <= y <= high and stage in (0, 2):
            return stage + 1
        if way < 0 and gate_low <= y <= gate_high and stage == 1:
            return 2
        if way < 0 and stage == 1:
            return 0
        if way > 0 and stage == 2 and not track_low <= y <= track_high:
            return 1
        return stage

    def moves_from(state):
        """Every state one move leads to; ``None`` for a move that finishes."""
        p, v, stage, off = state
        if off:
            choices = [(p[0] + dx, p[1] + dy, (dx, dy)) for dx, dy in STEPS]
        else:
            choices = [(p[0] + v[0] + dx, p[1] + v[1] + dy, (v[0] + dx, v[1] + dy))
                       for dx, dy in PLUS]
        for qx, qy, w in choices:
            q = (qx, qy)
            if not (x0 <= qx <= x1 and y0 <= qy <= y1):
                continue
            if off:
                now_off = not on(q)
            elif stays_on(p, q):
                now_off = False
            elif on(q):
                continue  # no cutting across off-track ground back onto the track
            else:
                now_off = True
            new_stage = stage_after(stage, p, q)
            yield None if new_stage == 3 else (q, w, new_stage, now_off)

    return layers_to_finish([(tuple(p), (0, 0), 1, False) for p in track.start_positions()],
                            moves_from, limit)


def layers_to_finish(starts, moves_from, limit: int) -> int | None:
    """Breadth first, one layer of new states per move: the first layer with a finish."""
    seen = set(starts)
    layer = list(starts)
    depth = 0
    while layer and depth < limit:
        depth += 1
        reached = [after for state in layer for after in moves_from(state)]
        if None in reached:
            return depth
        layer = [after for after in dict.fromkeys(reached) if after not in seen]
        seen.update(layer)
    return None
