"""The shelves of saved games, written once for both games: finished games kept under their
date, and every game in progress in a file of its own beside them.

A ``Shelf`` is one game's folder: the race replays (``RACES``, in the replays folder) or the
Graph Trees games (``trees.record.GAMES``). Each game in progress has its own file in
``unfinished/``, rewritten (atomically) after every move, so a crash or a closed window loses
nothing and starting another game never replaces an interrupted one: the menus list them to
resume or discard. A finished game is saved under its date and name, and its in-progress file
goes. A shelf reads and writes through its game's recording format (``replay.py``,
``trees/record.py``, both ``recording.Recording``), and names files through ``files.file_in``,
so a player's name never leaves the folder.

The module's functions (``save_finished``, ``saved_races``, ``read_unfinished``, ...) are the
race shelf's, as the window and the command line have always called them.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Generic, TypeVar

from racetrack.base.errors import FileProblemError, ReplayError
from racetrack.base.files import file_in, keep_aside, remove_stray_temp_files, safe_name
from racetrack.base.settings import replays_dir
from racetrack.games.recording import Recording
from racetrack.games.replay import Replay, load_replay, save_replay

R = TypeVar("R", bound=Recording)

#: The folder (inside a shelf's folder) of the games in progress, one file each.
UNFINISHED_DIR = "unfinished"


@dataclass(frozen=True)
class Unfinished(Generic[R]):
    """A game in progress on disk: its file, when it was last played, and the game so far."""

    path: Path
    saved: datetime
    recording: R

    @property
    def replay(self) -> R:
        """The recording, by the name the race screens use."""
        return self.recording

    @property
    def describe(self) -> str:
        return f"{self.recording.describe} · {len(self.recording.moves)} moves"


@dataclass(frozen=True)
class Interrupted(Generic[R]):
    """Every game in progress that can be resumed, the latest first, and one line for each
    damaged file that was kept aside."""

    races: tuple[Unfinished[R], ...] = ()
    messages: tuple[str, ...] = ()


#: The race shelf's name for what it finds in progress.
InterruptedRaces = Interrupted


@dataclass(frozen=True)
class Entry(Generic[R]):
    """One saved game, as a list shows it."""

    path: Path
    saved: datetime
    title: str  # the track a race was on, or the file's name when it no longer loads
    recording: R | None  # None: the file no longer loads
    problem: str = ""

    @property
    def replay(self) -> R | None:
        return self.recording

    @property
    def players(self) -> tuple[str, ...]:
        return self.recording.players if self.recording is not None else ()

    @property
    def winner(self) -> str | None:
        return self.recording.winner if self.recording is not None else None


@dataclass(frozen=True)
class Shelf(Generic[R]):
    """One game's folder of recordings."""

    noun: str                                    # "race", "game": for messages
    item: str                                    # "replay", "saved game": a finished one
    folder: Callable[[], Path]                   # where (read each time: tests move the home)
    load: Callable[[Path], R]                    # the game's recording reader
    save: Callable[..., None]                    # the game's recording writer (atomic):
                                                 # (state, path, exclusive=False)
    name_of: Callable[[Any], str]                # a finished game's file name, from its state
    legacy: str                                  # the single in-progress file of old versions

    # -- games in progress ------------------------------------------------------------------

    def legacy_path(self) -> Path:
        """Where earlier versions kept their one game in progress."""
        return self.folder() / self.legacy

    def new_progress_path(self, state: Any, when: datetime | None = None) -> Path:
        """A fresh file for a game starting now, already holding ``state``: never one another
        game uses, even one started at the same second in another window."""
        when = when or datetime.now()
        folder = self.folder() / UNFINISHED_DIR
        try:
            return self._save_new(state, folder, when)
        except (OSError, FileProblemError):
            # Not writable now: the game goes on, and its saves will say why if it stays so.
            return file_in(folder, self.name_of(state), prefix=f"{when:%Y-%m-%d %H%M%S} ")

    def _save_new(self, state: Any, folder: Path, when: datetime) -> Path:
        """Save ``state`` under its date and name in a file of its own: the name is taken only
        if no file has it (checked and made as one step, so two windows saving at the same
        second cannot both have it), else " 2", " 3" and so on is added."""
        prefix, name = f"{when:%Y-%m-%d %H%M%S} ", self.name_of(state)
        for number in itertools.count(1):
            suffix = ".yaml" if number == 1 else f" {number}.yaml"
            path = file_in(folder, name, prefix=prefix, suffix=suffix)
            try:
                self.save(state, path, exclusive=True)
            except FileExistsError:
                continue
            return path
        raise AssertionError("unreachable")  # pragma: no cover

    def record_progress(self, state: Any, path: Path | None = None) -> None:
        """Keep the game so far on disk (called after every move) in its own file."""
        self.save(state, path or self.legacy_path())

    def save_finished(self, state: Any, when: datetime | None = None,
                      progress: Path | None = None) -> Path:
        """Save a finished game under its date and name, and forget its in-progress copy
        (``progress``, or the old single file)."""
        path = self._save_new(state, self.folder(), when or datetime.now())
        self.discard_unfinished(progress)
        return path

    def _progress_paths(self) -> list[Path]:
        folder = self.folder() / UNFINISHED_DIR
        paths = sorted(folder.glob("*.yaml")) if folder.is_dir() else []
        legacy = self.legacy_path()
        if legacy.exists() or legacy.is_symlink():
            paths.append(legacy)
        return paths

    def read_unfinished(self) -> Interrupted[R]:
        """Every game in progress that still loads and is not over.

        A file that no longer loads or re-simulates is not dropped: it is kept aside as
        ``NAME.bad`` (so no later save writes over it), and a message says so.
        """
        folder = self.folder() / UNFINISHED_DIR
        if folder.is_dir():
            remove_stray_temp_files(folder)
        found, messages = [], []
        for path in self._progress_paths():
            try:
                recording = self.load(path)
                if recording.final_state().is_over:
                    continue
                saved = datetime.fromtimestamp(path.stat().st_mtime)
            except OSError:
                continue  # gone since it was listed
            except ReplayError as exc:
                messages.append(self._kept_aside(path, exc.problems[0].message))
                continue
            found.append(Unfinished(path, saved, recording))
        found.sort(key=lambda u: u.saved, reverse=True)
        return Interrupted(tuple(found), tuple(messages))

    def _kept_aside(self, path: Path, problem: str) -> str:
        try:
            aside = keep_aside(path)
        except OSError as error:
            return (f"The interrupted {self.noun} {path.stem} cannot be read ({problem}) nor "
                    f"kept aside: {error.strerror or error}")
        return f"The interrupted {self.noun} is kept as {aside.name}: it cannot be read " \
               f"({problem})"

    def unfinished(self) -> list[Unfinished[R]]:
        """Every game in progress that still loads and is not over, the latest first."""
        return list(self.read_unfinished().races)

    def load_unfinished(self) -> R | None:
        """The latest interrupted game, if there is one that still loads and is not over."""
        races = self.read_unfinished().races
        return races[0].recording if races else None

    def discard_unfinished(self, path: Path | None = None) -> None:
        """Forget a game in progress (by default the old single file)."""
        with contextlib.suppress(OSError):
            (path or self.legacy_path()).unlink()

    # -- finished games ---------------------------------------------------------------------

    def saved(self) -> list[Entry[R]]:
        """Every saved game, newest first; broken files are listed with their problem."""
        folder = self.folder()
        if not folder.is_dir():
            return []
        remove_stray_temp_files(folder)
        entries = []
        for path in folder.glob("*.yaml"):
            if path.name == self.legacy:
                continue
            try:
                saved = datetime.fromtimestamp(path.lstat().st_mtime)
                recording = self.load(path)
            except OSError:
                continue  # gone since it was listed
            except ReplayError as exc:
                problem = exc.problems[0]
                where = f"line {problem.line}: " if problem.line else ""
                entries.append(Entry(path, saved, path.stem, None, where + problem.message))
                continue
            entries.append(Entry(path, saved, recording.title, recording))
        return sorted(entries, key=lambda e: e.saved, reverse=True)

    def rename(self, path: Path, new_name: str) -> Path:
        """Rename a saved game (within its folder); returns the new path."""
        if not safe_name(new_name):
            raise ValueError(f"a {self.item} needs a name")
        target = file_in(path.parent, new_name)
        if target.exists() and target != path:
            raise ValueError(f"there is already a {self.item} called {target.stem!r}")
        path.rename(target)
        return target

    @staticmethod
    def delete(path: Path) -> None:
        path.unlink()


#: The single race in progress of earlier versions (still offered until it is resumed).
UNFINISHED = "unfinished-race.yaml"

RACES: Shelf[Replay] = Shelf("race", "replay", replays_dir, load_replay, save_replay,
                             lambda state: state.race.track.name, UNFINISHED)

unfinished_path = RACES.legacy_path
new_progress_path = RACES.new_progress_path
record_progress = RACES.record_progress
save_finished = RACES.save_finished
read_unfinished = RACES.read_unfinished
unfinished_races = RACES.unfinished
load_unfinished = RACES.load_unfinished
discard_unfinished = RACES.discard_unfinished
saved_races = RACES.saved
rename = RACES.rename
delete = RACES.delete
