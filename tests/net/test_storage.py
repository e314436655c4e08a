"""Where games live: both databases store and read back alike, a move's number is taken once,
and a game whose stored moves no longer re-simulate is set aside, never served."""

from __future__ import annotations

import asyncio
import json
import sqlite3

import pytest
from websockets.asyncio.client import connect

from racetrack.net.hosted import MoveRecord, Seat, TimeRule
from racetrack.net.storage import default_database, open_store
from tests.net.conftest import new_game, start_server


def test_both_databases_keep_games_and_take_each_move_number_once(database):
    async def go():
        store = open_store(database)
        await store.open()
        try:
            seats = (Seat(0, "human", None, "a" * 64), Seat(1, "computer", "easy"))
            game = await store.create(10.0, {"seed": 3}, seats, TimeRule(60.0, "drop", "hard"),
                                      "w" * 64)
            other = await store.create(11.0, {"seed": 4}, seats, TimeRule(), "v" * 64)
            assert other == game + 1
            assert await store.add_move(game, MoveRecord(0, 0, "1,2", "player", 12.0), False)
            assert not await store.add_move(game, MoveRecord(0, 1, "3,4", "player", 13.0),
                                            False)
            assert await store.add_move(game, MoveRecord(1, 1, "3,4+oil", "computer", 14.0),
                                        True)
            stored = await store.game(game)
            assert stored.setup == {"seed": 3} and stored.seats == seats
            assert stored.time == TimeRule(60.0, "drop", "hard")
            assert stored.moves == (MoveRecord(0, 0, "1,2", "player", 12.0),
                                    MoveRecord(1, 1, "3,4+oil", "computer", 14.0))
            assert await store.moves_since(game, 1) == [stored.moves[1]]
            assert await store.unfinished() == [other]
            assert await store.find_watch("v" * 64) == other
            assert await store.find_watch("x" * 64) is None
            assert await store.game(999) is None
            await store.set_aside(other, "broken")
            assert (await store.game(other)).set_aside == "broken"
            assert await store.unfinished() == []
        finally:
            await store.close()

    asyncio.run(go())


def test_the_default_database_is_a_file_in_the_data_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("RACETRACK_HOME", str(tmp_path))
    assert default_database() == tmp_path / "data" / "online" / "games.sqlite3"
    assert open_store(None).path == default_database()
    assert open_store("sqlite:///x/y.db").path.as_posix() == "/x/y.db"


@pytest.mark.long
def test_a_game_that_does_not_resimulate_is_set_aside(home, ring, tmp_path):
    database = str(tmp_path / "games.sqlite3")
    server = start_server(home, database)
    good = new_game(home, server.url, "--track", ring, "--seats", "1", "--ai", "easy")
    broken = new_game(home, server.url, "--track", ring, "--seats", "1", "--ai", "easy")

    async def first_move(number: int, token: str) -> None:
        async with connect(server.url) as ws:
            await ws.recv()
            await ws.send(json.dumps({"v": 1, "type": "join", "game": number, "token": token}))
            while True:
                message = json.loads(await ws.recv())
                turn = message.get("turn")
                if message["type"] in ("game", "move") and turn and turn["seat"] == 1:
                    await ws.send(json.dumps({"v": 1, "type": "move", "game": number,
                                              "token": token, "number": turn["number"],
                                              "move": turn["legal"][0]}))
                if message["type"] == "ack":
                    return

    asyncio.run(first_move(broken["game"], broken["seats"][0]["token"]))
    server.stop()
    with sqlite3.connect(database) as db:  # a move no engine allows, written behind its back
        db.execute("UPDATE moves SET move = '9000,9000' WHERE game = ?", (broken["game"],))
    server = start_server(home, database)
    try:
        async def ask(number: int, token: str) -> dict:
            async with connect(server.url) as ws:
                await ws.recv()
                await ws.send(json.dumps({"v": 1, "type": "join", "game": number,
                                          "token": token}))
                return json.loads(await ws.recv())

        refused = asyncio.run(ask(broken["game"], broken["seats"][0]["token"]))
        assert refused["type"] == "error" and refused["code"] == "set-aside"
        assert "does not re-simulate" in refused["reason"]
        served = asyncio.run(ask(good["game"], good["seats"][0]["token"]))
        assert served["type"] == "game"
    finally:
        server.stop()
    assert f"game {broken['game']} does not re-simulate" in server.log.read_text()
