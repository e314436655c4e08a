"""Two server processes on one PostgreSQL database serve the same games: a move made through
one is seen at once through the other (LISTEN/NOTIFY), and a race played with one seat on each
server ends with one history."""

from __future__ import annotations

import asyncio
import json

import pytest

from racetrack.games.replay import load_replay
from tests.net import postgres
from tests.net.conftest import launch, new_game, racetrack, start_server, watched_moves

pytestmark = pytest.mark.long


def test_two_servers_on_one_database_see_each_others_moves(home, tmp_path, ring, pg_server):
    database = postgres.new_database(pg_server)
    one, two = start_server(home, database), start_server(home, database)
    try:
        game = new_game(home, one.url, "--track", ring, "--seats", "2")
        number, seats = game["game"], game["seats"]
        # A spectator on the second server while the first seat plays through the first.
        players = [launch(home, "online", "play", server.url, str(number), "--token",
                          seat["token"], "--driver", "easy", "--json")
                   for server, seat in zip((one, two), seats, strict=True)]
        seen = asyncio.run(watched_moves(two.url, game["watch"], 6))
        assert {seat for seat, _, _ in seen} == {1, 2}
        results = []
        for player in players:
            out, err = player.communicate(timeout=120)
            assert player.returncode == 0, err[-2000:]
            results.append(json.loads(out))
        assert results[0] == results[1]
        files = []
        for server in (one, two):
            path = tmp_path / f"from-{server.port}.yaml"
            done = racetrack(home, "online", "export", server.url, str(number), str(path))
            assert done.returncode == 0, done.stderr
            files.append(load_replay(path))
        assert files[0].moves == files[1].moves and files[0].result["finished"]
        assert [(p + 1, str(m)) for p, m in files[0].moves[:6]] == [(s, m) for s, m, _ in seen[:6]]
    finally:
        one.stop()
        two.stop()
