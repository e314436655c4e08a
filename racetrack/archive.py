"""The replays folder: every finished race saved there, the races in progress kept beside them.

Each race in progress has a file of its own in ``unfinished/``, rewritten (atomically) after
every move, so a crash or a closed window loses nothing and starting another race never replaces
an interrupted one: the menu lists them to resume or discard. A finished race is saved under its
date and track, and its in-progress file goes.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from racetrack.errors import ReplayError
from racetrack.game import RaceState
from racetrack.replay import Replay, load_replay, save_replay
from racetrack.settings import replays_dir

#: The single race in progress of earlier versions (still offered until it is resumed).
UNFINISHED = "unfinished-race.yaml"
#: The folder (inside the replays folder) of the races in progress, one file each.
UNFINISHED_DIR = "unfinished"


def unfinished_path() -> Path:
    """Where earlier versions kept their one race in progress."""
    return replays_dir() / UNFINISHED


def new_progress_path(state: RaceState, when: datetime | None = None) -> Path:
    """A fresh file for a race starting now (never one another race uses)."""
    when = when or datetime.now()
    folder = replays_dir() / UNFINISHED_DIR
    stem = f"{when:%Y-%m-%d %H%M%S} {safe_file_name(state.race.track.name)}"
    path, number = folder / f"{stem}.yaml", 1
    while path.exists():
        number += 1
        path = folder / f"{stem} {number}.yaml"
    return path


def record_progress(state: RaceState, path: Path | None = None) -> None:
    """Keep the race so far on disk (called after every move) in its own file."""
    save_replay(state, path or unfinished_path())


def save_finished(state: RaceState, when: datetime | None = None,
                  progress: Path | None = None) -> Path:
    """Save a finished race under its date and track, and forget its in-progress copy
    (``progress``, or the old single file)."""
    when = when or datetime.now()
    name = f"{when:%Y-%m-%d %H%M%S} {safe_file_name(state.race.track.name)}.yaml"
    path = replays_dir() / name
    save_replay(state, path)
    discard_unfinished(progress)
    return path


@dataclass(frozen=True)
class Unfinished:
    """A race in progress on disk: its file, when it was last played, and the race so far."""

    path: Path
    saved: datetime
    replay: Replay

    @property
    def describe(self) -> str:
        race = self.replay.race
        players = ", ".join(car.name for car in race.cars)
        return f"{race.track.name} · {race.rules.name} · {players} · {len(self.replay.moves)} moves"


def unfinished_races() -> list[Unfinished]:
    """Every race in progress that still loads and is not over, the latest first."""
    folder = replays_dir() / UNFINISHED_DIR
    paths = sorted(folder.glob("*.yaml")) if folder.is_dir() else []
    if unfinished_path().exists():
        paths.append(unfinished_path())
    found = []
    for path in paths:
        try:
            replay = load_replay(path)
            if replay.final_state().is_over:
                continue
            saved = datetime.fromtimestamp(path.stat().st_mtime)
        except (ReplayError, OSError):
            continue
        found.append(Unfinished(path, saved, replay))
    return sorted(found, key=lambda u: u.saved, reverse=True)


def load_unfinished() -> Replay | None:
    """The latest interrupted race, if there is one that still loads and is not over."""
    races = unfinished_races()
    return races[0].replay if races else None


def discard_unfinished(path: Path | None = None) -> None:
    """Forget a race in progress (by default the old single file)."""
    with contextlib.suppress(OSError):
        (path or unfinished_path()).unlink()


@dataclass(frozen=True)
class Entry:
    """One saved race, as the replays list shows it."""

    path: Path
    saved: datetime
    track: str
    players: tuple[str, ...]
    winner: str | None
    replay: Replay | None  # None: the file no longer loads
    problem: str = ""


def saved_races() -> list[Entry]:
    """Every saved replay, newest first; broken files are listed with their problem."""
    folder = replays_dir()
    if not folder.is_dir():
        return []
    entries = []
    for path in folder.glob("*.yaml"):
        if path.name == UNFINISHED:
            continue
        saved = datetime.fromtimestamp(path.stat().st_mtime)
        try:
            replay = load_replay(path)
        except ReplayError as exc:
            entries.append(Entry(path, saved, "?", (), None, None, str(exc.problems[0])))
            continue
        race = replay.race
        entries.append(Entry(path, saved, race.track.name, tuple(c.name for c in race.cars),
                             replay.result.get("winner"), replay))
    return sorted(entries, key=lambda e: e.saved, reverse=True)


def rename(path: Path, new_name: str) -> Path:
    """Rename a saved replay (within the replays folder); returns the new path."""
    stem = safe_file_name(new_name)
    if not stem:
        raise ValueError("a replay needs a name")
    target = path.with_name(f"{stem}.yaml")
    if target.exists() and target != path:
        raise ValueError(f"there is already a replay called {stem!r}")
    path.rename(target)
    return target


def delete(path: Path) -> None:
    path.unlink()


def safe_file_name(name: str) -> str:
    """A file-name-safe version of a name: letters, digits, spaces, dashes and dots."""
    return re.sub(r"[^\w .-]+", "", name).strip(" .")[:80]
