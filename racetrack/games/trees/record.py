"""Saved games: a game of Graph Trees as its setup plus its moves, re-simulated to check it.

The file is YAML (``racetrack-trees: 1`` and the marker ``game: graph-trees``): the rule set
with every option, the seed, the players, every move as text in order, and the recorded
result. Re-simulating the moves re-creates every state; a move that is not legal then is
reported by its number, and a result that does not match is refused.

Re-simulating and checking is written once for both games (``racetrack.games.recording``), and
so is the shelf of games (``racetrack.games.archive``): finished games are kept in their own
folder under the player's data folder, beside the race replays, and each game in progress in a
file of its own in its ``unfinished/`` folder, rewritten after every move
(``unfinished-game.yaml``, the one file of earlier versions, is still offered to resume).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from racetrack.base.errors import Problem, RacetrackError, ReplayError, RulesError
from racetrack.base.fields import MAX_NAME, Field, Reader
from racetrack.base.settings import data_dir
from racetrack.base.yamlio import Limits, YamlDocument, load_yaml, write_yaml
from racetrack.games.archive import Shelf
from racetrack.games.recording import Recording
from racetrack.games.trees.game import PLAYER_KINDS, Player, TreesGame, TreesState
from racetrack.games.trees.model import Move, Termination
from racetrack.games.trees.rules import OPTIONS_BY_KEY, tree_rules_from_document

FORMAT_KEY = "racetrack-trees"
FORMAT_VERSION = 1
GAME_MARKER = "graph-trees"
MAX_BYTES = 4 * 1024 * 1024
#: The largest turn limit: no game is longer.
MAX_MOVES = OPTIONS_BY_KEY["turn-limit"].high
#: A move is a list of two values; the rest (rules, players, result) is small. ``save_game``
#: writes with the same limits.
GAME_LIMITS = Limits(bytes=MAX_BYTES, nodes=3 * MAX_MOVES + 2_000)
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


def save_game(state: TreesState, path: str | os.PathLike[str], exclusive: bool = False) -> None:
    """Write the game atomically (the file is the old one or the new one, whole); where
    ``exclusive``, only as a new file (``FileExistsError`` if ``path`` is taken)."""
    write_yaml(path, game_data(state), GAME_LIMITS, ReplayError, exclusive=exclusive)


@dataclass(frozen=True)
class SavedGame(Recording[TreesState]):
    """A loaded game: its setup, its moves and the result it claims (re-simulated and checked
    as any recording is, ``racetrack.games.recording``)."""

    noun: ClassVar[str] = "game"
    result_keys: ClassVar[tuple[str, ...]] = ("finished", "winner", "scores", "ranking",
                                              "reason")

    @property
    def game(self) -> TreesGame:
        return self.setup  # type: ignore[return-value]

    @property
    def title(self) -> str:
        return " v ".join(self.players)

    @property
    def describe(self) -> str:
        return f"{self.game.rules.name} rules · {', '.join(self.players)}"

    @staticmethod
    def result_of(state: TreesState) -> dict[str, Any]:
        return result_data(state)


def load_game(path: str | os.PathLike[str]) -> SavedGame:
    """Read a saved game; every problem is a ``ReplayError`` naming the file (and line)."""
    return game_from_document(load_yaml(path, ReplayError, GAME_LIMITS))


def game_from_document(doc: YamlDocument) -> SavedGame:
    """A saved game from a parsed file, every field checked (the first problem is raised)."""
    root = Reader(doc, ReplayError).root
    if not isinstance(doc.data, dict):
        root.fail("a saved game must be a YAML mapping")
    marker = f"not a saved Graph Trees game ('{FORMAT_KEY}: {FORMAT_VERSION}' and " \
             f"'game: {GAME_MARKER}' expected)"
    root[FORMAT_KEY].equals(FORMAT_VERSION, marker)
    root["game"].equals(GAME_MARKER, marker)
    root.keys(_TOP_KEYS, what="a saved game")
    root.require("rules", "players", "moves")
    try:
        rules = tree_rules_from_document(doc.sub(("rules",)))
    except RulesError as exc:
        raise ReplayError([Problem(p.file, p.line, f"embedded rules: {p.message}")
                           for p in exc.problems]) from None
    seed = root["seed"].whole(-MAX_SEED, MAX_SEED, default=0)
    players = []
    for item in root["players"].items(4, item="player"):
        item.keys(("name", "colour", "kind"), what="a player")
        players.append(Player(item["name"].text(MAX_NAME),
                              item["colour"].text(MAX_NAME, default="red"),
                              item["kind"].choice(PLAYER_KINDS, default="human",
                                                  unknown="player kind", valid="kinds")))
    try:
        game = TreesGame(rules, tuple(players), seed)
    except ValueError as exc:
        raise ReplayError(doc.problem(("players",), str(exc))) from None
    moves_field = root["moves"]
    entries = moves_field.items(min(MAX_MOVES, rules.turn_limit), item="move")
    moves = []
    for entry in entries:
        value = entry.value
        if (not isinstance(value, list) or len(value) != 2 or type(value[0]) is not int
                or not 0 <= value[0] < len(players) or not isinstance(value[1], str)
                or len(value[1]) > 100):
            entry.fail(f"{entry.label} must be [player, \"move\"], the player from 0 to "
                       f"{len(players) - 1}")
        try:
            moves.append((value[0], Move.parse(value[1])))
        except RacetrackError as exc:
            entry.fail(f"{entry.label}: {exc}")
    root.require("result")
    return SavedGame(game, tuple(moves), _result(root["result"], len(players)), doc.file)


_TOP_KEYS = (FORMAT_KEY, "game", "rules", "seed", "players", "moves", "result")
MAX_SEED = 10**18


def _result(field: Field, players: int) -> dict[str, Any]:
    """The recorded result, as ``result_data`` writes it; what is shown of it is checked."""
    field.keys(("finished", "winner", "scores", "ranking", "reason"), what="'result'")
    result: dict[str, Any] = {
        "finished": field["finished"].flag(),
        "scores": [item.whole(0, 10**9) for item in
                   field["scores"].items(players, item="score", low=players)]}
    if result["finished"]:
        result["winner"] = field["winner"].text(MAX_NAME, nullable=True)
        result["ranking"] = [item.text(MAX_NAME) for item in
                             field["ranking"].items(players, item="ranked player")]
        result["reason"] = field["reason"].choice(Termination)
        result["reason"] = result["reason"].value
    return result


# -- the folder of saved games ---------------------------------------------------------------


def games_dir() -> Path:
    return data_dir() / "graph-trees"


#: The shelf of Graph Trees games, finished and in progress (``racetrack.games.archive``).
GAMES: Shelf[SavedGame] = Shelf("game", "saved game", games_dir, load_game, save_game,
                                lambda state: " v ".join(state.game.player_names), UNFINISHED)
