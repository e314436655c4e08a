"""The tracks the editor offers to open or to start from, each told apart from the others,
and opening one: a track file, or a map from elsewhere imported as a drawing to finish.

Two files may hold tracks of the same name (a copy saved under another file name, or a track
named like a bundled one), so every entry carries its file name and where it lives beside the
track's name, and entries of the same name are numbered in the order listed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from racetrack.base.errors import FileProblemError
from racetrack.base.settings import tracks_dir
from racetrack.base.yamlio import load_yaml
from racetrack.board.track import bundled_track_paths
from racetrack.board.track.draft import Draft, load_draft
from racetrack.board.track.maps import MapFormat, import_map, is_map_file, track_name_for


@dataclass(frozen=True)
class TrackEntry:
    """One line of a track list: the file (None: an empty sheet), its name and the rest."""

    path: Path | None
    name: str
    detail: str = ""

    @property
    def label(self) -> str:
        return f"{self.name}  ·  {self.detail}" if self.detail else self.name


def track_name(path: Path) -> str:
    """The name written in a track file, or its file name when it cannot be read."""
    try:
        data = load_yaml(path).data
    except (FileProblemError, OSError):
        return path.stem
    name = data.get("name") if isinstance(data, dict) else None
    return name.strip() if isinstance(name, str) and name.strip() else path.stem


def entry_for(path: Path, name: str) -> TrackEntry:
    """A track file as the lists show it: its name, and its file and where that lives (the
    bundled tracks, your tracks folder, or anywhere else by its whole path)."""
    if path in bundled_track_paths():
        return TrackEntry(path, name, f"{path.name}, bundled")
    if path.parent == tracks_dir():
        return TrackEntry(path, name, path.name)
    return TrackEntry(path, name, str(path))


def your_tracks(folder: Path | None = None) -> list[TrackEntry]:
    """The tracks saved in the player's tracks folder, by name, and the maps from elsewhere
    put there (Karopapier maps, character grids, pictures), which open as drawings."""
    folder = folder or tracks_dir()
    paths = sorted(p for p in folder.iterdir() if p.is_file()) if folder.is_dir() else []
    entries = [TrackEntry(p, track_name(p), p.name) for p in paths if p.suffix == ".yaml"]
    entries += [TrackEntry(p, track_name_for(p), f"{p.name}, a map to import") for p in paths
                if is_map_file(p)]
    return told_apart(sorted(entries, key=lambda e: (e.name.lower(), e.detail)))


@dataclass(frozen=True)
class Opened:
    """A drawing opened for editing: the file it belongs to (None for an imported map, which
    is saved as a track under a name of its own), and what to tell the designer."""

    draft: Draft
    path: Path | None
    note: str = ""

    @property
    def imported(self) -> bool:
        return self.path is None


def open_drawing(path: Path) -> Opened:
    """A track file as it is, or a map imported as a drawing to finish (name, lines);
    ``FileProblemError`` (one line) for a file that cannot be read."""
    if not is_map_file(path):
        return Opened(load_draft(path), path)
    imported = import_map(path)
    kind = {MapFormat.KARO: "a Karopapier map", MapFormat.GRID: "a racetrack grid",
            MapFormat.IMAGE: "a picture"}[imported.format]
    todo = "save it to keep it" if imported.complete else "draw its start line (S)"
    notes = "" if imported.format is MapFormat.IMAGE else "; ".join(imported.notes)
    return Opened(imported.draft, None,
                  f"Imported {path.name} ({kind}): {todo}" + (f" ({notes})" if notes else ""))


def templates() -> list[TrackEntry]:
    """What a new drawing can start from: an empty sheet or a copy of a bundled track."""
    bundled = [TrackEntry(p, track_name(p), f"{p.name}, bundled") for p in bundled_track_paths()]
    return [TrackEntry(None, "Empty sheet", "draw a road or an outline"), *told_apart(bundled)]


def told_apart(entries: list[TrackEntry]) -> list[TrackEntry]:
    """The entries, those that share a name (in any case) numbered in the order listed."""
    counts: dict[str, int] = {}
    for entry in entries:
        counts[entry.name.lower()] = counts.get(entry.name.lower(), 0) + 1
    seen: dict[str, int] = {}
    found = []
    for entry in entries:
        key = entry.name.lower()
        if counts[key] > 1:
            seen[key] = seen.get(key, 0) + 1
            entry = TrackEntry(entry.path, f"{entry.name} ({seen[key]})", entry.detail)
        found.append(entry)
    return found
