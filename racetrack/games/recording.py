"""A recorded game, for either game: its setup, its moves and the result it claims, checked by
re-simulation.

A race's replay (``replay.Replay``) and a saved game of Graph Trees (``trees.record.SavedGame``)
are the same thing written in two file formats: what never changes, the ``(player, move)``
list, and the result as the file tells it. Re-playing the moves through the games' shared
protocol (``racetrack.games.protocol``) re-creates every state, so a move that is not legal then is
named by its number, and a result that differs from the re-simulated one is refused. Each
format says only how it words a move and what its result holds (``result_of``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from racetrack.base.errors import IllegalMoveError, Problem, ReplayError
from racetrack.games.protocol import GameSetup, GameState

S = TypeVar("S", bound=GameState)


@dataclass(frozen=True)
class Recording(Generic[S]):
    """A game as a file holds it. Subclasses name the setup and word the moves."""

    setup: GameSetup[S]
    moves: tuple[tuple[int, Any], ...]
    result: dict[str, Any]
    file: str

    #: What the game is called in messages ("race", "game").
    noun: ClassVar[str] = "game"
    #: The result's keys that re-simulation must reproduce, in the order they are compared.
    result_keys: ClassVar[tuple[str, ...]] = ()
    #: Keys a file written by an earlier version may lack (then they are not compared).
    optional_result_keys: ClassVar[tuple[str, ...]] = ()

    # -- what a format says -----------------------------------------------------------------

    @staticmethod
    def result_of(state: S) -> dict[str, Any]:
        """The result as the file writes it, for a state (``{"finished": False, ...}`` until
        it is over)."""
        raise NotImplementedError

    def move_words(self, player: int, move: Any) -> str:
        """A move in a message: who and what."""
        return f"{self.setup.player_names[player]}: {move}"

    # -- re-simulating ----------------------------------------------------------------------

    @property
    def title(self) -> str:
        """What a list of saved games calls this one."""
        return ", ".join(self.players)

    @property
    def describe(self) -> str:
        """One line about the game: where, under which rules, who."""
        return self.title

    @property
    def players(self) -> tuple[str, ...]:
        return self.setup.player_names

    @property
    def winner(self) -> str | None:
        """The winner the file names (``None``: unfinished, or nobody won)."""
        return self.result.get("winner")

    def states(self) -> Iterator[S]:
        """Every state from the start, one after each move (re-simulated, so checked)."""
        state = self.setup.start()
        yield state.clone()  # type: ignore[misc]
        for number, (player, move) in enumerate(self.moves, start=1):
            self._apply(state, number, player, move)
            yield state.clone()  # type: ignore[misc]

    def final_state(self) -> S:
        state = self.setup.start()
        for number, (player, move) in enumerate(self.moves, start=1):
            self._apply(state, number, player, move)
        return state

    def _apply(self, state: S, number: int, player: int, move: Any) -> None:
        def fail(message: str) -> ReplayError:
            return ReplayError(Problem(self.file, None, message))

        names = self.setup.player_names
        words = self.move_words(player, move)
        if state.is_over:
            raise fail(f"move {number} ({words}): the {self.noun} was already over")
        turn = state.current_player
        if turn != player:
            raise fail(f"move {number} is {names[player]}'s, but it is {names[turn]}'s turn")
        try:
            state.apply(move)
        except IllegalMoveError as exc:
            raise fail(f"move {number} ({words}) is illegal: {exc}") from None

    def verify(self) -> S:
        """Re-simulate every move and compare the result; ``ReplayError`` if they differ."""
        state = self.final_state()
        recorded = self.result
        if recorded:
            actual = self.result_of(state)
            for key in self.result_keys:
                if key in self.optional_result_keys and key not in recorded:
                    continue  # written before the key was recorded
                if recorded.get(key) != actual.get(key):
                    raise ReplayError(Problem(
                        self.file, None, f"the recorded result does not match the moves: "
                                         f"{key} is {recorded.get(key)!r} in the file but "
                                         f"{actual.get(key)!r} when re-simulated"))
        return state
