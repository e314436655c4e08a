"""Saved games: a game of Graph Trees as its setup plus its moves, re-simulated to check it.

The file is YAML (``racetrack-trees: 1`` and the marker ``game: graph-trees``): the rule set
with every option, the seed, the players, every move as text in order, and the recorded
result. Re-simulating the moves re-creates every state; a move that is not legal then is
reported by its number, and a result that does not match is refused.

Finished games are kept in their own folder under the player's data folder, beside the race
replays; the game in progress is rewritten there after every move.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from racetrack.errors import Problem, RacetrackError, ReplayError, RulesError
from racetrack.files import file_in
from racetrack.settings import data_dir
from racetrack.trees.game import PLAYER_KINDS, Player, TreesGame, TreesState
from racetrack.trees.model import Move
from racetrack.trees.rules import tree_rules_from_data
from racetrack.yamlio import atomic_write_text, dump_yaml, load_yaml

FORMAT_KEY = "racetrack-trees"
FORMAT_VERSION = 1
GAME_MARKER = "graph-trees"
MAX_BYTES = 4 * 1024 * 1024
MAX_MOVES = 20_000  # the largest turn limit: no game is longer
UNFINISHED = "unfinished-game.yaml"


def result_data(state: TreesState) -> dict[str, Any]:
    outcome = state.outcome
    names = [p.name for p in state.game.players]
    if outcome is None:
        return {"finished": False, "scores": list(state.scores())}
    return {"finished": True,
            "winner": names[outcome.winner] if outcome.winner is not None else None,
            "scores": list(outcome.scores),
            "ranking": [names[i] for i in outcome.ranking],
            "reason": outcome.termination.value}


def game_data(state: TreesState) -> dict[str, Any]:
    game = state.game
    return {FORMAT_KEY: FORMAT_VERSION, "game": GAME_MARKER,
            "rules": game.rules.to_data(), "seed": game.seed,
            "players": [{"name": p.name, "colour": p.colour, "kind": p.kind}
                        for p in game.players],
            "moves": [[player, str(move)] for player, move in state.history],
            "result": result_data(state)}


def save_game(state: TreesState, path: str | os.PathLike[str]) -> None:
    """Write the game atomically (the file is the old one or the new one, whole)."""
    atomic_write_text(path, dump_yaml(game_data(state)))


@dataclass(frozen=True)
class SavedGame:
    game: TreesGame
    moves: tuple[tuple[int, Move], ...]
    result: dict[str, Any]
    file: str

    def states(self) -> Iterator[TreesState]:
        """Every state from the start, one after each move (re-simulated, so checked)."""
        state = self.game.start()
        yield state.clone()
        for number, (player, move) in enumerate(self.moves, start=1):
            self._apply(state, number, player, move)
            yield state.clone()

    def final_state(self) -> TreesState:
        state = self.game.start()
        for number, (player, move) in enumerate(self.moves, start=1):
            self._apply(state, number, player, move)
        return state

    def _apply(self, state: TreesState, number: int, player: int, move: Move) -> None:
        def fail(message: str) -> ReplayError:
            return ReplayError(Problem(self.file, None, f"move {number} ({move}): {message}"))

        if state.is_over:
            raise fail("the game was already over")
        if state.current != player:
            raise fail(f"it is {state.game.players[state.current].name}'s turn, not "
                       f"player {player}'s")
        reason = state.check(move)
        if reason is not None:
            raise fail(f"illegal: {reason}")
        state.apply_unchecked(move)

    def verify(self) -> TreesState:
        """Re-simulate and compare with the recorded result; ``ReplayError`` if they differ."""
        state = self.final_state()
        if self.result:
            actual = result_data(state)
            for key in ("finished", "winner", "scores", "ranking", "reason"):
                if self.result.get(key) != actual.get(key):
                    raise ReplayError(Problem(
                        self.file, None, f"the recorded result does not match the moves: "
                                         f"{key} is {self.result.get(key)!r} in the file "
                                         f"but {actual.get(key)!r} when re-simulated"))
        return state


def load_game(path: str | os.PathLike[str]) -> SavedGame:
    """Read a saved game; every problem is a ``ReplayError`` naming the file (and line)."""
    doc = load_yaml(path, ReplayError, MAX_BYTES)
    data, file = doc.data, str(path)

    def fail(where: tuple, message: str) -> ReplayError:
        return ReplayError(doc.problem(where, message))

    if not isinstance(data, dict):
        raise fail((), "a saved game must be a YAML mapping")
    if data.get(FORMAT_KEY) != FORMAT_VERSION or data.get("game") != GAME_MARKER:
        raise fail((FORMAT_KEY,), f"not a saved Graph Trees game ('{FORMAT_KEY}: "
                                  f"{FORMAT_VERSION}' and 'game: {GAME_MARKER}' expected)")
    known = {FORMAT_KEY, "game", "rules", "seed", "players", "moves", "result"}
    for key in data:
        if key not in known:
            raise fail((key,), f"unknown key {key!r}; valid keys: {', '.join(sorted(known))}")
    for key in ("rules", "players", "moves"):
        if key not in data:
            raise fail((), f"missing '{key}'")
    try:
        rules = tree_rules_from_data(data["rules"], f"{file} (embedded rules)")
    except RulesError as exc:
        raise ReplayError(exc.problems) from None
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise fail(("seed",), "'seed' must be a whole number")
    players_data = data["players"]
    if not isinstance(players_data, list):
        raise fail(("players",), "'players' must be a list")
    players = []
    for index, item in enumerate(players_data):
        if (not isinstance(item, dict) or not isinstance(item.get("name"), str)
                or item.get("kind", "human") not in PLAYER_KINDS):
            raise fail(("players", index), "each player needs a 'name' and a 'kind' ("
                                           + ", ".join(PLAYER_KINDS) + ")")
        players.append(Player(item["name"][:40], str(item.get("colour", "red")),
                              item.get("kind", "human")))
    try:
        game = TreesGame(rules, tuple(players), seed)
    except ValueError as exc:
        raise fail(("players",), str(exc)) from None
    moves_data = data["moves"]
    if not isinstance(moves_data, list) or len(moves_data) > MAX_MOVES:
        raise fail(("moves",), f"'moves' must be a list of at most {MAX_MOVES} moves")
    if len(moves_data) > rules.turn_limit:
        raise fail(("moves",), f"{len(moves_data)} moves, but the game stops after "
                               f"{rules.turn_limit} turns")
    moves = []
    for number, entry in enumerate(moves_data, start=1):
        if (not isinstance(entry, list) or len(entry) != 2 or type(entry[0]) is not int
                or not isinstance(entry[1], str)):
            raise fail(("moves", number - 1), f"move {number} must be [player, \"move\"]")
        try:
            moves.append((entry[0], Move.parse(entry[1])))
        except RacetrackError as exc:
            raise fail(("moves", number - 1), f"move {number}: {exc}") from None
    result = data.get("result") or {}
    if not isinstance(result, dict):
        raise fail(("result",), "'result' must be a mapping")
    return SavedGame(game, tuple(moves), result, file)


# -- the folder of saved games ---------------------------------------------------------------


def games_dir() -> Path:
    return data_dir() / "graph-trees"


def unfinished_path() -> Path:
    return games_dir() / UNFINISHED


def record_progress(state: TreesState) -> None:
    save_game(state, unfinished_path())


def save_finished(state: TreesState, when: datetime | None = None) -> Path:
    """Keep a finished game under its date, and forget the copy in progress."""
    when = when or datetime.now()
    names = " v ".join(p.name for p in state.game.players)
    path = file_in(games_dir(), names, prefix=f"{when:%Y-%m-%d %H%M%S} ")
    save_game(state, path)
    with contextlib.suppress(OSError):
        unfinished_path().unlink()
    return path


@dataclass(frozen=True)
class Entry:
    path: Path
    saved: datetime
    game: SavedGame | None  # None: the file no longer loads
    problem: str = ""


def saved_games() -> list[Entry]:
    """Every saved game: the one in progress first, then the newest first. Broken files are
    listed with their problem."""
    folder = games_dir()
    if not folder.is_dir():
        return []
    entries = []
    for path in folder.glob("*.yaml"):
        saved = datetime.fromtimestamp(path.stat().st_mtime)
        try:
            entries.append(Entry(path, saved, load_game(path)))
        except ReplayError as exc:
            entries.append(Entry(path, saved, None, str(exc.problems[0])))
    return sorted(entries, key=lambda e: (e.path.name == UNFINISHED, e.saved), reverse=True)
