"""The hostile-file corpus and the ways the game reads a file: shared by the corpus tests.

``tests/hostile/`` holds one small file per kind of hostile input an outside test found (each
says its kind on its first line); ``large_files`` makes the big ones, which are not committed.
``LOADERS`` are the core's readers of user files, each given a path; ``COMMANDS`` the command
lines that take a file. A file is copied into a folder of its own before it is read (with the
player's tracks folder filled in where a corpus file names it), and the player's home is a
temporary one.
"""

from __future__ import annotations

import dataclasses
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

CORPUS = Path(__file__).parent / "hostile"

#: The largest files the game reads, in bytes (a replay; a track).
REPLAY_BYTES = 16 * 1024 * 1024
TRACK_BYTES = 4 * 1024 * 1024


def corpus_files() -> list[str]:
    return sorted(p.name for p in CORPUS.iterdir() if p.is_file())


def prepare(folder: Path, home: Path) -> None:
    """Copy the corpus into ``folder`` and give ``home`` the player's tracks folder a corpus
    file names (with a track there that has become a draft since)."""
    from racetrack.base.settings import tracks_dir

    tracks = tracks_dir()
    tracks.mkdir(parents=True, exist_ok=True)
    shutil.copy(CORPUS / "draft.txt", tracks / "draft.yaml")
    folder.mkdir(parents=True, exist_ok=True)
    for name in corpus_files():
        data = (CORPUS / name).read_bytes().replace(b"{tracks}", str(tracks).encode())
        (folder / name).write_bytes(data)


def large_files(folder: Path) -> dict[str, Path]:
    """The big hostile files, written into ``folder``: the sizes that once took minutes and
    gigabytes to refuse, just within (or just past) the byte limits."""
    folder.mkdir(parents=True, exist_ok=True)
    made = {}
    points = folder / "track-of-tiny-points.yaml"  # 4 MiB of [0, 0]: half a million points
    head = "racetrack-track: 1\nname: Dots\nouter:\n"
    points.write_text(head + "- [0, 0]\n" * ((TRACK_BYTES - len(head)) // 9))
    made["tiny points"] = points
    moves = folder / "replay-of-many-moves.yaml"  # 16 MiB of moves, within the byte limit
    head = (CORPUS / "replay-cut-off.yaml").read_text()
    line = "- [0, 1, 2]\n"
    moves.write_text(head + line * ((REPLAY_BYTES - len(head)) // len(line)))
    made["many moves"] = moves
    over = folder / "replay-over-the-limit.yaml"  # one byte more than any file is read
    over.write_text(head + "#" * (REPLAY_BYTES + 1 - len(head)))
    made["over the limit"] = over
    # Base-60 numbers filling the file: PyYAML's own reading is quadratic in their length.
    sixty = folder / "track-of-a-base-60-number.yaml"
    head = "racetrack-track: 1\nname: Dots\nlaps: 1"
    sixty.write_text(head + ":0" * ((TRACK_BYTES - len(head) - 1) // 2) + "\n")
    made["base-60 track"] = sixty
    seed = folder / "replay-of-a-base-60-seed.yaml"
    body = (CORPUS / "replay-cut-off.yaml").read_text().replace("seed: 1\n", "")
    head = body + "seed: 1"
    seed.write_text(head + ":59" * ((REPLAY_BYTES - len(head) - 1) // 3) + "\n")
    made["base-60 replay"] = seed
    made["10,000 records"] = records_file(folder / "records.yaml", 10_000)
    return made


def records_file(path: Path, count: int, moves: int = 20) -> Path:
    """A records table of ``count`` runs as the game writes it (five rule sets, ``moves``
    points to each ghost): the largest the game keeps is 10,000."""
    import random

    from racetrack.board.geometry import Vec
    from racetrack.games.records import Record, Records, save_records
    from racetrack.rules import load_rules

    rules = [load_rules(name) for name in ("gardner", "baker", "levi", "simulation",
                                           "karopapier")]
    rng = random.Random(1)
    save_records(Records(tuple(
        Record(f"Track {i}", f"{i:064x}", rules[i % len(rules)], 40, "Ann", "2025-03-14", 3,
               tuple(Vec(rng.randrange(100), rng.randrange(100)) for _ in range(moves)), 38)
        for i in range(count))), path)
    return path


# --------------------------------------------------------------------------------------------
# The readers


def _unfinished_race(path: Path) -> Any:
    from racetrack.base.settings import replays_dir
    from racetrack.games import archive

    replays_dir().mkdir(parents=True, exist_ok=True)
    shutil.copy(path, archive.unfinished_path())
    return archive.read_unfinished()


def _autosave(path: Path) -> Any:
    from racetrack.board.track.draft import restore_autosave

    target = path.with_name("editor-autosave.yaml")
    shutil.copy(path, target)
    return restore_autosave(target)


def _settings(path: Path) -> Any:
    from racetrack.base.settings import load_settings

    return load_settings(path)


def _replay(path: Path) -> Any:
    from racetrack.games.replay import load_replay

    replay = load_replay(path)
    replay.verify()
    return replay


def _saved_game(path: Path) -> Any:
    from racetrack.games.trees.record import load_game

    game = load_game(path)
    game.verify()
    return game


def _records(path: Path) -> Any:
    from racetrack.games.records import load_records, read_records

    read_records(path)  # the window's reading, which never raises
    return load_records(path)


def _loaders() -> dict[str, Callable[[Path], Any]]:
    from racetrack.board.track import load_track
    from racetrack.board.track.draft import read_draft
    from racetrack.games.championship import load_championship
    from racetrack.games.trees import load_tree_rules
    from racetrack.rules import load_rules

    return {"track": load_track, "draft": read_draft, "rules": load_rules,
            "Graph Trees rules": load_tree_rules, "replay": _replay, "saved game": _saved_game,
            "championship": load_championship, "records": _records, "settings": _settings,
            "unfinished race": _unfinished_race, "editor autosave": _autosave}


LOADER_NAMES = ("track", "draft", "rules", "Graph Trees rules", "replay", "saved game",
                "championship", "records", "settings", "unfinished race", "editor autosave")

#: Every command that takes a file, with ``{file}`` where it goes (``{out}``: a file written).
COMMANDS = (
    ("validate", "{file}"),
    ("rules", "{file}"),
    ("race", "{file}"),
    ("race", "oval", "--rules", "{file}"),
    ("solve", "{file}"),
    ("replay", "{file}", "--verify"),
    ("replay", "{file}", "--png", "{out}"),
    ("trees-replay", "{file}", "--verify"),
    ("trees-play", "--rules", "{file}"),
    ("championship", "--tracks", "{file}"),
    ("import", "{file}", "-o", "{out}.yaml"),
)


def showable(value: Any, depth: int = 0) -> list[str]:
    """Every text in a loaded value that the window or a terminal could not show."""
    if depth > 6:
        return []
    if isinstance(value, str):
        return [] if all(c.isprintable() or c == "\n" for c in value) else [repr(value)]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [bad for f in dataclasses.fields(value)
                for bad in showable(getattr(value, f.name), depth + 1)]
    if isinstance(value, dict):
        return [bad for k, v in value.items() for bad in
                showable(k, depth + 1) + showable(v, depth + 1)]
    if isinstance(value, list | tuple):
        return [bad for v in value[:50] for bad in showable(v, depth + 1)]
    return []


def run_loaders(path: Path) -> dict[str, str]:
    """Every loader on ``path``: "ok", or the project's error's first line. Anything else
    raised goes up (that is the failure the corpus looks for)."""
    from racetrack.base.errors import FileProblemError

    outcome = {}
    for name, load in _loaders().items():
        try:
            loaded = load(path)
        except FileProblemError as exc:
            assert exc.problems and all("\n" not in str(p) for p in exc.problems), exc
            outcome[name] = str(exc.problems[0])
            continue
        bad = showable(loaded)
        assert not bad, f"{name} of {path.name} let through text it cannot show: {bad}"
        outcome[name] = "ok"
    return outcome
