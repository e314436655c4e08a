"""A computer seat on the server that stores the move before it moves at once, on either
database: the pause the server leaves before stepping in for another process's computer
seat (``FALLBACK_SECONDS``) is only for games whose last move came through another process.
On PostgreSQL a process hears of its own moves too, and once took that news for another
process's move and put its computer seat's reply off by the pause, every turn."""

from __future__ import annotations

import asyncio
import itertools

from racetrack.net.server import FALLBACK_SECONDS
from tests.net.conftest import launch, new_game, start_server, watched_moves


def test_the_computer_seat_answers_a_move_at_once(home, ring, database):
    server = start_server(home, database)
    try:
        game = new_game(home, server.url, "--track", ring, "--seats", "1", "--ai", "easy")
        (seat,) = game["seats"]
        player = launch(home, "online", "play", server.url, str(game["game"]), "--token",
                        seat["token"], "--driver", "easy", "--json")
        heard = asyncio.run(watched_moves(server.url, game["watch"], 8))
        player.kill()
        player.communicate()
        gaps = [later - earlier for (_, _, earlier), (who, _, later) in itertools.pairwise(heard)
                if who == 2]
        assert gaps and max(gaps) < FALLBACK_SECONDS, gaps
    finally:
        server.stop()
