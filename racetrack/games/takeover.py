"""Taking over a recorded game: chosen players become human from a point on, the rest stay
computer players.

The game taken over is a new game: the same track or sheet, rules and seed, with the chosen
seats made human, and the moves up to that point re-played on it (so its file verifies like
any other, and the recording watched is left as it was). Written for both games, through the
shared protocol and each setup's own way of naming a seat's player.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace
from typing import Any

from racetrack.games.protocol import GameSetup, GameState


def humans_in(setup: GameSetup, seats: Collection[int], after: int = 0) -> GameSetup:
    """``setup`` with the players in ``seats`` human (the others as they were) from the
    game's move ``after`` on: a race's car taken over from a computer driver part way records
    who drove it until then."""
    from racetrack.engine.model import Handover
    from racetrack.games.race import Race
    from racetrack.games.trees import TreesGame

    bad = [seat for seat in seats if not 0 <= seat < len(setup.player_names)]
    if bad:
        raise ValueError(f"there is no seat {bad[0]}: the seats are 0 to "
                         f"{len(setup.player_names) - 1}")
    if isinstance(setup, Race):
        cars = [car if i not in seats or car.is_human else
                replace(car, driver="human",
                        handover=Handover(car.driver, after) if after > 0 else None)
                for i, car in enumerate(setup.cars)]
        return Race(setup.track, setup.rules, cars, seed=setup.seed)
    if isinstance(setup, TreesGame):
        players = tuple(replace(p, kind="human") if i in seats else p
                        for i, p in enumerate(setup.players))
        return replace(setup, players=players)
    raise TypeError(f"cannot take over a {type(setup).__name__}")


def take_over(setup: GameSetup, state: GameState, seats: Collection[int],
              ) -> tuple[GameSetup, Any]:
    """The new game and its state at ``state``'s point, the players in ``seats`` human.

    ``ValueError`` when no seat is chosen, a seat does not exist, or the game is over there.
    """
    if not seats:
        raise ValueError("choose at least one player to take over")
    if state.is_over:
        raise ValueError("the game is over at this point")
    new = humans_in(setup, seats, len(state.history))
    resumed = new.start()
    for _, move in state.history:
        resumed.apply(move)
    return new, resumed
