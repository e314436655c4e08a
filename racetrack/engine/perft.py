"""Move counts per depth from a position (perft, as chess programs count them).

``perft(s, 0)`` is 1; ``perft(s, d)`` is the sum, over the legal moves of ``s``, of ``perft``
of where the move leads at depth ``d - 1``. A move after which the car races no more (it has
finished, or is out) counts once at its own depth and adds nothing deeper. A car left with no
legal move crashes without a choice, as in a race, so that crash is not a move: the count goes
on from where the car is put back.

The transition counts a whole layer at once; the tests compare its counts with the ones kept in
``tests/data/perft/`` and with the game's own (``RaceState.clone`` and ``apply``).
"""

from __future__ import annotations

import numpy as np

from racetrack.engine.transition import Cars, Transition

#: A car that crashes more often than this without a choice in between is not followed.
MAX_FORCED_CRASHES = 8


def perft(transition: Transition, cars: Cars, depth: int,
          damage_limit: int | None = None) -> list[int]:
    """The counts for depths 1 to ``depth`` from each of ``cars`` together."""
    counts = []
    layer = cars
    for _ in range(depth):
        layer = settle(transition, layer, damage_limit)
        moves = transition.candidates(layer, explain=False)
        assert moves.legal is not None
        legal = np.flatnonzero(moves.legal)
        counts.append(len(legal))
        found = transition.after(layer, moves, legal, damage_limit)
        going = (found.out == 0) & (found.cars.progress < transition.goal)
        layer = found.cars.take(np.flatnonzero(going))
    return counts


def settle(transition: Transition, cars: Cars, damage_limit: int | None = None) -> Cars:
    """Each car with no legal move crashes (perhaps more than once) until it has one; cars
    that are out after it are gone from the batch."""
    for _ in range(MAX_FORCED_CRASHES):
        moves = transition.candidates(cars, explain=False)
        assert moves.legal is not None
        free = np.zeros(len(cars), dtype=bool)
        free[moves.row[moves.legal]] = True
        if free.all():
            return cars
        stuck = np.flatnonzero(~free)
        crashed = transition.stuck(cars.take(stuck), damage_limit)
        back = crashed.cars.take(np.flatnonzero(crashed.out == 0))
        cars = Cars.concat([cars.take(np.flatnonzero(free)), back])
    return cars
