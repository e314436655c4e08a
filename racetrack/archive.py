"""The replays folder: every finished race saved there, the races in progress kept beside them.

Each race in progress has a file of its own in ``unfinished/``, rewritten (atomically) after
every move, so a crash or a closed window loses nothing and starting another race never replaces
an interrupted one: the menu lists them to resume or discard. A finished race is saved under its
date and track, and its in-progress file goes.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from racetrack.errors import ReplayError
from racetrack.files import file_in, keep_aside, remove_stray_temp_files, safe_name
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
    prefix = f"{when:%Y-%m-%d %H%M%S} "
    path, number = file_in(folder, state.race.track.name, prefix=prefix), 1
    while path.exists():
        number += 1
        path = file_in(folder, state.race.track.name, prefix=prefix, suffix=f" {number}.yaml")
    return path


def record_progress(state: RaceState, path: Path | None = None) -> None:
    """Keep the race so far on disk (called after every move) in its own file."""
    save_replay(state, path or unfinished_path())


def save_finished(state: RaceState, when: datetime | None = None,
                  progress: Path | None = None) -> Path:
    """Save a finished race under its date and track, and forget its in-progress copy
    (``progress``, or the old single file)."""
    when = when or datetime.now()
    path = file_in(replays_dir(), state.race.track.name, prefix=f"{when:%Y-%m-%d %H%M%S} ")
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


@dataclass(frozen=True)
class InterruptedRaces:
    """Every race in progress that can be resumed, the latest first, and one line for each
    damaged file that was kept aside."""

    races: tuple[Unfinished, ...] = ()
    messages: tuple[str, ...] = ()


def _progress_paths() -> list[Path]:
    folder = replays_dir() / UNFINISHED_DIR
    paths = sorted(folder.glob("*.yaml")) if folder.is_dir() else []
    if unfinished_path().exists() or unfinished_path().is_symlink():
        paths.append(unfinished_path())
    return paths


def read_unfinished() -> InterruptedRaces:
    """Every race in progress that still loads and is not over.

    A file that no longer loads or re-simulates is not dropped: it is kept aside as
    ``NAME.bad`` (so no later save writes over it), and a message says so.
    """
    folder = replays_dir() / UNFINISHED_DIR
    if folder.is_dir():
        remove_stray_temp_files(folder)
    found, messages = [], []
    for path in _progress_paths():
        try:
            replay = load_replay(path)
            if replay.final_state().is_over:
                continue
            saved = datetime.fromtimestamp(path.stat().st_mtime)
        except OSError:
            continue  # gone since it was listed
        except ReplayError as exc:
            messages.append(_kept_aside(path, exc.problems[0].message))
            continue
        found.append(Unfinished(path, saved, replay))
    found.sort(key=lambda u: u.saved, reverse=True)
    return InterruptedRaces(tuple(found), tuple(messages))


def _kept_aside(path: Path, problem: str) -> str:
    try:
        aside = keep_aside(path)
    except OSError as error:
        return (f"The interrupted race {path.stem} cannot be read ({problem}) nor kept aside: "
                f"{error.strerror or error}")
    return f"The interrupted race is kept as {aside.name}: it cannot be read ({problem})"


def unfinished_races() -> list[Unfinished]:
    """Every race in progress that still loads and is not over, the latest first."""
    return list(read_unfinished().races)


def load_unfinished() -> Replay | None:
    """The latest interrupted race, if there is one that still loads and is not over."""
    races = read_unfinished().races
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
    remove_stray_temp_files(folder)
    entries = []
    for path in folder.glob("*.yaml"):
        if path.name == UNFINISHED:
            continue
        try:
            saved = datetime.fromtimestamp(path.lstat().st_mtime)
            replay = load_replay(path)
        except OSError:
            continue  # gone since it was listed
        except ReplayError as exc:
            problem = exc.problems[0]
            where = f"line {problem.line}: " if problem.line else ""
            entries.append(Entry(path, saved, path.stem, (), None, None,
                                 where + problem.message))
            continue
        race = replay.race
        entries.append(Entry(path, saved, race.track.name, tuple(c.name for c in race.cars),
                             replay.result.get("winner"), replay))
    return sorted(entries, key=lambda e: e.saved, reverse=True)


def rename(path: Path, new_name: str) -> Path:
    """Rename a saved replay (within the replays folder); returns the new path."""
    if not safe_name(new_name):
        raise ValueError("a replay needs a name")
    target = file_in(path.parent, new_name)
    if target.exists() and target != path:
        raise ValueError(f"there is already a replay called {target.stem!r}")
    path.rename(target)
    return target


def delete(path: Path) -> None:
    path.unlink()

