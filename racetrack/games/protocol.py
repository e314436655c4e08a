"""The one protocol both games speak: a setup that starts, and a state that moves.

A race (``race.Race`` / ``race.RaceState``) and a game of Graph Trees (``trees.TreesGame`` /
``trees.TreesState``) are OpenSpiel's Game and State under other names: a fixed setup that makes
the first state, and a state that says whose turn it is, lists the legal moves, checks a move
(the reason it is illegal, or ``None``), applies one, says when it is over and how it ended,
copies itself and keeps its history of ``(player, move)``.

What is written once for both games reads a game only through these names: recording a game
and verifying it by re-simulation (``recording.py``), the shelf of saved games and the games in
progress (``archive.py``), the window's playback scene (``ui/scenes/playback.py``) and the
playout tests (``tests/games/test_protocol.py``). A third game would join by speaking the protocol.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

M = TypeVar("M")
S = TypeVar("S", bound="GameState")


@runtime_checkable
class Outcome(Protocol):
    """How a game ended: the winner (``None``: nobody, or a tie), the players best first, and
    why it ended, in words."""

    @property
    def winner(self) -> int | None: ...

    @property
    def ranking(self) -> tuple[int, ...]: ...

    @property
    def reason(self) -> str: ...


@runtime_checkable
class GameState(Protocol[M]):
    """A game's changing state. ``apply`` raises ``IllegalMoveError`` (a ``ValueError``) and
    changes nothing when ``check`` has a reason against the move."""

    history: list[tuple[int, M]]

    @property
    def current_player(self) -> int | None:
        """Whose turn it is (a player's index in the setup), ``None`` once the game is over."""

    @property
    def is_over(self) -> bool: ...

    @property
    def outcome(self) -> Outcome | None: ...

    def legal_moves(self) -> Sequence[M]: ...

    def check(self, move: M) -> str | None: ...

    def apply(self, move: M) -> list[Any]: ...

    def clone(self) -> GameState[M]: ...


@runtime_checkable
class GameSetup(Protocol[S]):
    """What never changes in a game: who plays, and the seed anything random is drawn from."""

    seed: int

    @property
    def player_names(self) -> tuple[str, ...]: ...

    def start(self) -> S: ...
