"""The replays folder: every finished race saved there, the race in progress kept beside them.

The race in progress is rewritten (atomically) after every move, so a crash or a closed window
loses nothing: the menu offers to resume it. A finished race is saved under its date and track.
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

UNFINISHED = "unfinished-race.yaml"


def unfinished_path() -> Path:
    return replays_dir() / UNFINISHED


def record_progress(state: RaceState) -> None:
    """Keep the race so far on disk (called after every move)."""
    save_replay(state, unfinished_path())


def save_finished(state: RaceState, when: datetime | None = None) -> Path:
    """Save a finished race under its date and track, and forget the unfinished copy."""
    when = when or datetime.now()
    path = file_in(replays_dir(), state.race.track.name, prefix=f"{when:%Y-%m-%d %H%M%S} ")
    save_replay(state, path)
    with contextlib.suppress(OSError):
        unfinished_path().unlink()
    return path


@dataclass(frozen=True)
class Unfinished:
    """The interrupted race, if any, and what became of a damaged one."""

    replay: Replay | None
    message: str = ""  # a damaged file was kept aside (or could not be): in one line


def read_unfinished() -> Unfinished:
    """The interrupted race, if there is one that still loads and is not over.

    A file that no longer loads or re-simulates is not dropped: it is kept aside as
    ``unfinished-race.yaml.bad`` before the next race writes over it, and the message says
    so.
    """
    path = unfinished_path()
    if not path.exists() and not path.is_symlink():
        return Unfinished(None)
    try:
        replay = load_replay(path)
        if replay.final_state().is_over:
            return Unfinished(None)
    except ReplayError as exc:
        problem = exc.problems[0].message
        try:
            aside = keep_aside(path)
        except OSError as error:
            return Unfinished(None, f"The interrupted race cannot be read ({problem}) nor "
                                    f"kept aside: {error.strerror or error}")
        return Unfinished(None, f"The interrupted race is kept as {aside.name}: it cannot be "
                                f"read ({problem})")
    return Unfinished(replay)


def load_unfinished() -> Replay | None:
    """The interrupted race, if there is one that still loads and is not over (a damaged
    file is kept aside, see ``read_unfinished``)."""
    return read_unfinished().replay


def discard_unfinished() -> None:
    with contextlib.suppress(OSError):
        unfinished_path().unlink()


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

