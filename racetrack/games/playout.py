"""Playing a game out with computer players: the one loop, and the one rule for their seeds.

The command line (``racetrack race``, ``championship``, ``trees-play``), a championship raced
without a window, the tools and the window's computer cars all seat their computer players
here, so a race set up the same way is driven the same way wherever it runs: car ``i`` of a
game with seed ``s`` is driven with seed ``driver_seed(s, i)``. ``play_out`` reads a game only
through the shared protocol (``racetrack.games.protocol``), so it plays races and games of Graph
Trees alike.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

from racetrack.games.protocol import GameState

S = TypeVar("S", bound=GameState)

#: A prime the game's seed is multiplied by, so neighbouring games' drivers share no seeds.
SEED_STRIDE = 7919


class Player(Protocol):
    """A computer player of either game: it chooses the current player's move."""

    def choose(self, state: Any) -> Any: ...


def driver_seed(game_seed: int, index: int) -> int:
    """The seed of the computer player in seat ``index`` of a game seeded ``game_seed``."""
    return game_seed * SEED_STRIDE + index


def race_drivers(race, levels: Sequence[str | None] | None = None) -> dict[int, Player]:
    """Computer drivers for a race's computer cars (``levels`` overrides the cars' own
    drivers, ``None`` in it for a human car), each seeded by ``driver_seed``."""
    from racetrack.search.drivers import make_driver

    chosen = levels if levels is not None else [
        None if car.is_human else car.driver for car in race.cars]
    return {i: make_driver(level, driver_seed(race.seed, i))
            for i, level in enumerate(chosen) if level is not None}


def trees_players(game) -> dict[int, Player]:
    """Computer players for a game of Graph Trees' computer seats, seeded by ``driver_seed``."""
    from racetrack.games.trees.ai import make_player

    return {i: make_player(p.kind, driver_seed(game.seed, i))
            for i, p in enumerate(game.players) if not p.is_human}


def play_out(state: S, players: Mapping[int, Player] | Sequence[Player],
             on_move: Callable[[S, Any], None] | None = None) -> S:
    """Play ``state`` (changed in place, and returned) to the end with the computer players,
    one for every seat still to move; ``on_move(state, move)`` is told of each move before it
    is applied. ``KeyError`` names a seat without a player (a human's)."""
    seats = dict(enumerate(players)) if isinstance(players, Sequence) else players
    while not state.is_over:
        seat = state.current_player
        if seat not in seats:
            raise KeyError(f"no computer player for seat {seat}")
        move = seats[seat].choose(state)
        if on_move is not None:
            on_move(state, move)
        state.apply(move)
    return state


def race_result(state) -> dict[str, Any]:
    """A finished (or stopped) race as the command line's JSON tells it."""
    race = state.race
    outcome = state.outcome
    names = [car.name for car in race.cars]
    return {
        "winner": names[outcome.winner] if outcome.winner is not None else None,
        "ranking": [names[i] for i in outcome.ranking],
        "turns": outcome.rounds,
        "reason": outcome.reason,
        "track": race.track.name,
        "rules": race.rules.name,
        "seed": race.seed,
        "cars": [{"name": names[i], "driver": race.cars[i].driver, "status": car.status.value,
                  "moves": car.moves, "damage": car.damage,
                  "finish_round": car.finish.round if car.finish else None}
                 for i, car in enumerate(state.cars)],
    }
