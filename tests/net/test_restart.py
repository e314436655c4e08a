"""Nothing acknowledged is lost: the server is killed (SIGKILL) in the middle of a race, started
again on the same database, and the seats finish the race with every acknowledged move kept."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from racetrack.net.bot import SeatPlayer
from racetrack.replay import load_replay
from tests.net.conftest import launch, new_game, racetrack, start_server

pytestmark = pytest.mark.long


def test_a_killed_server_loses_no_acknowledged_move(home, tmp_path, ring, database):
    server = start_server(home, database)
    game = new_game(home, server.url, "--track", ring, "--seats", "2")
    number, (one, two) = game["game"], game["seats"]
    other = launch(home, "online", "play", server.url, str(number), "--token", two["token"],
                   "--driver", "easy", "--patience", "60", "--json")
    outcome: dict = {}

    def play() -> None:
        async def run():
            player = SeatPlayer(server.url, number, one["token"], "medium", patience=60)
            outcome["player"] = player
            return await player.run()

        try:
            outcome["state"] = asyncio.run(run())
        except Exception as exc:  # reported by the test below
            outcome["error"] = exc

    thread = threading.Thread(target=play, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 60
        while len(getattr(outcome.get("player"), "acked", ())) < 5:
            assert time.monotonic() < deadline and "error" not in outcome, outcome
            time.sleep(0.01)
        server.kill()
        acked_before = dict(outcome["player"].acked)
        assert not server.alive
        time.sleep(0.5)  # the clients find the server gone and keep trying
        server = start_server(home, database, server.port)
        thread.join(120)
        assert "state" in outcome, outcome.get("error")
        out, err = other.communicate(timeout=120)
        assert other.returncode == 0, err[-2000:]
    finally:
        server.stop()
        if other.poll() is None:
            other.kill()
    final = outcome["state"]
    assert final.is_over
    server = start_server(home, database)
    try:
        exported = racetrack(home, "online", "export", server.url, str(number),
                             str(tmp_path / "export.yaml"))
        assert exported.returncode == 0, exported.stderr
    finally:
        server.stop()
    truth = load_replay(tmp_path / "export.yaml")
    assert truth.moves == tuple(final.history)
    for move_number, move in {**acked_before, **outcome["player"].acked}.items():
        assert str(truth.moves[move_number][1]) == move, move_number
    assert racetrack(home, "replay", str(tmp_path / "export.yaml"), "--verify").returncode == 0
