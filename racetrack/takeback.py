"""Taking a move back: a player's last move, and every computer move made since.

A race is its setup and the moves that stood (``RaceState.history``), and replaying them
re-creates every state exactly, so a move is taken back by replaying the moves before it on a
fresh start: the state that comes out is the one a replay of those moves gives, by
construction, and the race's file (written from the history) holds only the moves that stood.
Re-simulating costs a fraction of a millisecond a move, a blink even for a long race.

Which races allow it is the window's business (a race setting, off where records count); what
"the last move" is, and the state before it, are decided here, without a window.
"""

from __future__ import annotations

from collections.abc import Collection

from racetrack.game import RaceState


def take_back_point(state: RaceState, players: Collection[int]) -> int | None:
    """How many moves of the history stand once the last move of a car in ``players`` is
    taken back, with every move after it; ``None`` when none of them has moved.

    A car's choice of start point and its steered missile's moves are its moves too: each
    is taken back on its own."""
    for number in range(len(state.history) - 1, -1, -1):
        if state.history[number][0] in players:
            return number
    return None


def replayed(state: RaceState, moves: int) -> RaceState:
    """The race as it stood after its first ``moves`` moves, re-simulated from the start
    (each move checked again, so a history that does not replay raises ``IllegalMoveError``).
    Events of the replayed turns are not reported again."""
    if not 0 <= moves <= len(state.history):
        raise ValueError(f"a race with {len(state.history)} moves has no state after "
                         f"{moves} moves")
    fresh = state.race.start()
    for _, move in state.history[:moves]:
        fresh.apply(move)
    fresh.take_events()
    return fresh


def taken_back(state: RaceState, players: Collection[int]) -> RaceState:
    """The race as it stood before the last move of a car in ``players`` (and every move made
    since); ``ValueError`` when none of them has a move to take back."""
    point = take_back_point(state, players)
    if point is None:
        raise ValueError("there is no move to take back")
    return replayed(state, point)
