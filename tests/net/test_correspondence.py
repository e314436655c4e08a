"""Time per move, players away, and My games, against a real server process.

The player here is written from the protocol alone, as a bot in another language would be: it
moves to the first point the server's ``turn`` lists, with no engine of its own."""

from __future__ import annotations

import asyncio
import json

import pytest
from websockets.asyncio.client import connect

from racetrack.net.mygames import MyGame, save_games
from racetrack.replay import load_replay
from tests.net.conftest import launch, new_game, racetrack, start_server

pytestmark = pytest.mark.long


async def plain_player(url: str, game: int, token: str, other_token: str,
                       timeouts_wanted: int) -> dict:
    """Play seat 1 by the server's list of legal moves until the other seat, never there,
    has had ``timeouts_wanted`` moves made for it; meanwhile the other seat comes and goes."""
    seen: dict = {"presence": [], "by": []}
    async with connect(url) as ws:
        await ws.recv()  # welcome
        await ws.send(json.dumps({"v": 1, "type": "join", "game": game, "token": token}))
        state = None
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if message["type"] == "game":
                state = message
                seen["seats"] = message["seats"]
            elif message["type"] == "move":
                state = message
                seen["by"].append((message["seat"], message["by"]))
            elif message["type"] == "presence":
                seen["presence"].append((message["seat"], message["present"]))
                continue
            else:
                continue
            if sum(1 for seat, by in seen["by"] if by == "timeout") >= timeouts_wanted:
                break
            turn = state["turn"]
            if turn and turn["seat"] == 1:
                await ws.send(json.dumps({"v": 1, "type": "move", "game": game,
                                          "token": token, "number": turn["number"],
                                          "move": turn["legal"][0]}))
            if len(seen["by"]) == 1:  # the other player looks in, and goes away again
                async with connect(url) as other:
                    await other.recv()
                    await other.send(json.dumps({"v": 1, "type": "join", "game": game,
                                                 "token": other_token}))
                    await other.recv()
    return seen


def test_a_seat_out_of_time_is_moved_for_and_seen_away(home, ring):
    server = start_server(home, str(home / "games.sqlite3"))
    try:
        game = new_game(home, server.url, "--track", ring, "--seats", "2", "--move-time",
                        "1.5", "--timeout-driver", "easy")
        one, two = game["seats"]
        seen = asyncio.run(plain_player(server.url, game["game"], one["token"], two["token"],
                                        timeouts_wanted=2))
        assert [s["present"] for s in seen["seats"]] == [True, False]
        assert (2, True) in seen["presence"] and (2, False) in seen["presence"]
        # Seat 2 is never there: every move of its is made for it when its time is up (seat 1
        # answers at once, though a machine loaded enough may make it late too).
        assert {by for seat, by in seen["by"] if seat == 2} == {"timeout"}
        assert "player" in {by for seat, by in seen["by"] if seat == 1}
        # My games, across servers: whose turn it is in each game held.
        save_games([MyGame(server.url, game["game"], 1, one["token"], "Player 1"),
                    MyGame(server.url, game["game"], 2, two["token"], "Player 2"),
                    MyGame("ws://127.0.0.1:9", 5, 1, "X" * 26)],
                   home / "data" / "online-games.yaml")
        listed = racetrack(home, "online", "games", "--json")
        assert listed.returncode == 0, listed.stderr
        rows = json.loads(listed.stdout)
        assert [row["reachable"] for row in rows] == [True, True, False]
        assert sum(row["your_turn"] for row in rows[:2]) == 1
        assert "turn" in rows[0]["words"] and "cannot reach" in rows[2]["words"]
    finally:
        server.stop()


def test_a_seat_out_of_time_drops_out_where_the_game_says_so(home, tmp_path, ring):
    server = start_server(home, str(home / "games.sqlite3"))
    try:
        # Time enough for the playing seat's process to start on a loaded machine.
        game = new_game(home, server.url, "--track", ring, "--seats", "2", "--move-time",
                        "5", "--on-timeout", "drop")
        player = launch(home, "online", "play", server.url, str(game["game"]), "--token",
                        game["seats"][0]["token"], "--driver", "easy", "--json")
        out, err = player.communicate(timeout=120)
        assert player.returncode == 0, err
        result = json.loads(out)
        assert result["cars"][1]["status"] == "out"  # seat 2, never there, dropped out
        done = racetrack(home, "online", "export", server.url, str(game["game"]),
                         str(tmp_path / "game.yaml"))
        assert done.returncode == 0, done.stderr
        replay = load_replay(tmp_path / "game.yaml")
        assert [(car, move.action.value) for car, move in replay.moves
                if move.action and move.action.value == "retire"][-1:] == [(1, "retire")]
        assert racetrack(home, "replay", str(tmp_path / "game.yaml"), "--verify"
                         ).returncode == 0
    finally:
        server.stop()
