"""A computer seat on the server that stores the move before it moves at once, on either
database: the pause the server leaves before stepping in for another process's computer
seat (``FALLBACK_SECONDS``) is only for games whose last move came through another process.
On PostgreSQL a process hears of its own moves too, and once took that news for another
process's move and put its computer seat's reply off by the pause, every turn."""

from __future__ import annotations

import asyncio
import itertools
import time

from racetrack.net.client import Session
from racetrack.net.server import FALLBACK_SECONDS
from tests.net.conftest import launch, new_game, start_server


async def replies(url: str, watch: str, count: int) -> list[tuple[int, float]]:
    """Each move told to a spectator as (seat, when heard), the first ``count`` of them."""
    heard: list[tuple[int, float]] = []
    done = asyncio.get_running_loop().create_future()

    def told(message: dict) -> None:
        if message["type"] == "game":
            heard.extend((m[0], time.monotonic()) for m in message["moves"])
        elif message["type"] == "move":
            heard.append((message["seat"], time.monotonic()))
        if len(heard) >= count and not done.done():
            done.set_result(list(heard))

    async def opened(session: Session) -> None:
        await session.send("watch", watch=watch)

    session = Session(url, told, opened)
    runner = asyncio.create_task(session.run())
    try:
        return await asyncio.wait_for(done, 90)
    finally:
        await session.stop()
        runner.cancel()


def test_the_computer_seat_answers_a_move_at_once(home, ring, database):
    server = start_server(home, database)
    try:
        game = new_game(home, server.url, "--track", ring, "--seats", "1", "--ai", "easy")
        (seat,) = game["seats"]
        player = launch(home, "online", "play", server.url, str(game["game"]), "--token",
                        seat["token"], "--driver", "easy", "--json")
        heard = asyncio.run(replies(server.url, game["watch"], 8))
        player.kill()
        player.communicate()
        gaps = [later - earlier for (_, earlier), (who, later) in itertools.pairwise(heard)
                if who == 2]
        assert gaps and max(gaps) < FALLBACK_SECONDS, gaps
    finally:
        server.stop()
