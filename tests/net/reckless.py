"""A client process that plays a seat recklessly: into the wall every third turn it can,
else flat out. Under Baker's rules its car crashes and takes damage, which the careful
computer drivers never do.

    python -m tests.net.reckless URL GAME TOKEN REPLAY_FILE
"""

from __future__ import annotations

import asyncio
import sys

from racetrack.model import MoveKind
from racetrack.net.bot import SeatPlayer
from racetrack.replay import save_replay


class Reckless:
    def __init__(self) -> None:
        self.turns = 0

    def choose(self, state):
        legal = [c for c in state.candidates() if c.legal]
        self.turns += 1
        crashes = [c for c in legal if c.kind is MoveKind.CRASH]
        if crashes and self.turns % 3 == 0:
            return crashes[0].move
        return max(legal, key=lambda c: (c.velocity.speed, c.target.x, c.target.y)).move


async def main(url: str, game: int, token: str) -> object:
    player = SeatPlayer(url, game, token, "easy")
    player.driver = Reckless()
    return await player.run()


if __name__ == "__main__":
    final = asyncio.run(main(sys.argv[1], int(sys.argv[2]), sys.argv[3]))
    save_replay(final, sys.argv[4])
    print("done")
