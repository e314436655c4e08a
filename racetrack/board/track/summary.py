"""A track in one line, as ``racetrack validate`` and ``racetrack import`` report it."""

from __future__ import annotations

from racetrack.board.geometry import Region
from racetrack.board.track.model import Track


def _count(items, what: str) -> str:
    return f"{len(items)} {what}{'s' if len(items) != 1 else ''}"


def track_summary(track: Track) -> str:
    """Its size, the room on it, its start places, laps, lines and areas."""
    minx, miny, maxx, maxy = track.bounds
    on_track = len(Region(track.polygon()).lattice_points())
    extras = []
    if track.checkpoints:
        extras.append(_count(track.checkpoints, "checkpoint"))
    if track.checkpoint_areas:
        extras.append(_count(track.checkpoint_areas, "checkpoint area"))
    if track.finish_area is not None:
        extras.append("a finish area")
    if track.waypoints:
        extras.append(_count(track.waypoints, "waypoint"))
    if track.zones:
        extras.append("zones: " + ", ".join(dict.fromkeys(z.kind for z in track.zones)))
    extra = "; " + "; ".join(extras) if extras else ""
    spots = len(track.start_positions())
    return (f"{track.name!r}, {maxx - minx:g} x {maxy - miny:g} squares, {on_track} lattice "
            f"points on the track, {_count(range(spots), 'start position')}, "
            f"{_count(range(track.laps), 'lap')}{extra}")
