"""The games this player holds a seat in, on every server used: ``online-games.yaml``.

Hosting or joining a game in the window adds it here (the server's address, the game, the seat
and its token, the watch code where the player made the game), so My games can ask each server
whose turn it is. The file is the player's own and untrusted like every other: read with the
one YAML reader and field reader, a damaged one kept aside as ``NAME.bad`` and said, written
atomically.
"""

from __future__ import annotations

import contextlib
import logging
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from racetrack.errors import FileProblemError
from racetrack.fields import Reader
from racetrack.files import keep_aside
from racetrack.yamlio import Limits, load_yaml, write_yaml

log = logging.getLogger(__name__)

FORMAT_KEY = "racetrack-online-games"
MAX_GAMES = 1_000
LIMITS = Limits(bytes=1 << 20, nodes=20_000)
_KEYS = ("server", "game", "seat", "token", "name", "track", "watch", "added")


@dataclass(frozen=True)
class MyGame:
    """A seat held in a game on a server (``seat`` from 1; ``token`` its secret)."""

    server: str
    game: int
    seat: int
    token: str
    name: str = ""
    track: str = ""
    watch: str = ""
    added: float = 0.0

    @property
    def key(self) -> tuple[str, int, int]:
        return (self.server, self.game, self.seat)


def games_path() -> Path:
    from racetrack.settings import data_dir

    return data_dir() / "online-games.yaml"


def load_games(path: Path | None = None) -> tuple[list[MyGame], str]:
    """The games kept, and a line saying why the file could not be read (``""`` if it
    could); a damaged file is kept aside so a new one can be written."""
    path = path or games_path()
    if not path.exists():
        return [], ""
    try:
        doc = load_yaml(path, FileProblemError, LIMITS)
        root = Reader(doc, FileProblemError).root
        root.keys((FORMAT_KEY, "games"), what="the list of online games")
        games = []
        for item in root["games"].items(MAX_GAMES, default=[], item="game"):
            item.keys(_KEYS, what="an online game")
            games.append(MyGame(item["server"].text(300), item["game"].whole(1, 2**53),
                                item["seat"].whole(1, 99), item["token"].text(64),
                                item["name"].text(default="", empty=True),
                                item["track"].text(default="", empty=True),
                                item["watch"].text(64, default="", empty=True),
                                item["added"].number(0, 1e11, default=0.0)))
        return games, ""
    except FileProblemError as exc:
        problem = str(exc.problems[0])
        with contextlib.suppress(OSError):
            problem += f" (kept as {keep_aside(path).name})"
        log.warning("the list of online games cannot be read: %s", problem)
        return [], problem


def save_games(games: list[MyGame], path: Path | None = None) -> None:
    write_yaml(path or games_path(),
               {FORMAT_KEY: 1, "games": [asdict(g) for g in games[-MAX_GAMES:]]},
               LIMITS, FileProblemError)


def remember(game: MyGame, path: Path | None = None) -> None:
    """Add a seat to the list (or refresh it)."""
    games, _ = load_games(path)
    games = [g for g in games if g.key != game.key]
    games.append(game if game.added else MyGame(**{**asdict(game), "added": time.time()}))
    save_games(games, path)


def forget(game: MyGame, path: Path | None = None) -> None:
    games, _ = load_games(path)
    save_games([g for g in games if g.key != game.key], path)
