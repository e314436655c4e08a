"""Hostile clients against a real server process: wrong tokens, moves out of turn, stale and
illegal moves, malformed and oversized messages, unknown types, a burst of messages, 200
connections at once and a client that never reads. Each gets an error or a closed connection;
the game is untouched (its history is exactly the honest seats' moves, and it finishes) and the
server goes on serving."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import struct
import time

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from racetrack.games.replay import load_replay
from tests.net.conftest import launch, new_game, racetrack, start_server

pytestmark = pytest.mark.long


def message(kind: str, **fields) -> str:
    return json.dumps({"v": 1, "type": kind, **fields})


async def reply(ws, text: str | bytes) -> dict:
    """Send one message; the first answer that is not a broadcast."""
    await ws.send(text)
    while True:
        answer = json.loads(await asyncio.wait_for(ws.recv(), 20))
        if answer["type"] not in ("move", "presence", "welcome"):
            return answer


async def hostile(url: str, game: int, seats: list[dict], watch: str) -> dict:
    """Every kind of bad message; what the server answered to each."""
    one, two = seats
    found: dict = {}
    async with connect(url, max_size=None) as ws:
        welcome = json.loads(await ws.recv())
        assert welcome["type"] == "welcome" and welcome["protocol"] == 1
        state = await reply(ws, message("join", game=game, token=one["token"]))
        assert state["type"] == "game" and state["you"] == 1
        turn = state["turn"]
        mover, waiter = (one, two) if turn["seat"] == 1 else (two, one)
        legal = turn["legal"][0]
        number = turn["number"]
        found["wrong token"] = await reply(ws, message(
            "move", game=game, token="0" * 26, number=number, move=legal))
        found["other game's token"] = await reply(ws, message(
            "move", game=game + 1000, token=mover["token"], number=number, move=legal))
        found["out of turn"] = await reply(ws, message(
            "move", game=game, token=waiter["token"], number=number, move=legal))
        found["stale"] = await reply(ws, message(
            "move", game=game, token=mover["token"], number=number + 3, move=legal))
        found["illegal"] = await reply(ws, message(
            "move", game=game, token=mover["token"], number=number, move="900,900"))
        found["join, wrong token"] = await reply(ws, message("join", game=game,
                                                             token="Z" * 26))
        found["watch, wrong code"] = await reply(ws, message("watch", watch="ABCDEFGHJK"))
        found["export under way, no token"] = await reply(ws, message("export", game=game))
        found["not JSON"] = await reply(ws, "{not json")
        found["a list"] = await reply(ws, "[1, 2, 3]")
        found["no version"] = await reply(ws, json.dumps({"type": "ping"}))
        found["another version"] = await reply(ws, json.dumps({"v": 9, "type": "ping"}))
        found["unknown type"] = await reply(ws, message("teleport", game=game))
        found["NaN"] = await reply(ws, '{"v": 1, "type": "move", "game": NaN}')
        found["huge number"] = await reply(ws, message("move", game=10**30, token="x",
                                                       number=0, move=legal))
        found["bad move text"] = await reply(ws, message(
            "move", game=game, token=mover["token"], number=number, move="1e9,2"))
        found["deep nesting"] = await reply(ws, '{"v": 1, "type": "ping", "x": ' +
                                            "[" * 50_000 + "]" * 50_000 + "}")
        found["binary frame"] = await reply(ws, b"\x00\x01binary")
        found["bad create"] = await reply(ws, message("create", track="no-such-track",
                                                      rules="gardner",
                                                      seats=[{"kind": "human"}]))
        found["create, broken track"] = await reply(ws, message(
            "create", track={"name": "x", "outer": [[0, 0], [1, 0]]}, rules="gardner",
            seats=[{"kind": "human"}]))
        found["infinity"] = await reply(ws, message("ping").replace("}", ', "x": 1e400}'))
        found["Infinity"] = await reply(ws, message("ping").replace("}", ', "x": Infinity}'))
    # Too many messages at once: errors, then a closed connection.
    async with connect(url) as ws:
        await ws.recv()
        answers = []
        try:
            for _ in range(1000):
                await ws.send(message("ping"))
            while True:
                answers.append(json.loads(await asyncio.wait_for(ws.recv(), 20))["type"])
        except (TimeoutError, ConnectionClosed):
            pass
        found["flood"] = answers
    # A message over the size limit closes the connection (1009: too big).
    async with connect(url, max_size=None) as ws:
        await ws.recv()
        try:
            await ws.send(message("ping", pad="x" * (2 << 20)))
            await asyncio.wait_for(ws.recv(), 20)
            found["oversized"] = "answered"
        except ConnectionClosed as exc:
            found["oversized"] = exc.rcvd.code if exc.rcvd else "closed"
    # 200 connections at once, each saying something wrong.
    async def one_of_many(i: int):
        try:
            async with connect(url, open_timeout=30) as ws:
                await ws.recv()
                return (await reply(ws, "garbage" if i % 2 else message("ping")))["type"]
        except (TimeoutError, ConnectionClosed, OSError) as exc:
            return type(exc).__name__

    found["many"] = await asyncio.gather(*(one_of_many(i) for i in range(200)))
    return found


def slow_reader(host: str, port: int, game: int, token: str) -> socket.socket:
    """A websocket opened by hand on a socket with a tiny receive window, that asks again and
    again how the game stands (a long answer each time) and never reads an answer."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    sock.connect((host, port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(f"GET / HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                 f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                 "Sec-WebSocket-Version: 13\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)
    assert b" 101 " in head.split(b"\r\n")[0]
    ask = message("status", games=[{"game": game, "token": token}] * 200).encode()
    mask = os.urandom(4)
    frame = bytes([0x81, 0x80 | 126]) + struct.pack("!H", len(ask)) + mask + \
        bytes(b ^ mask[i % 4] for i, b in enumerate(ask))
    for _ in range(60):  # within the message budget's burst
        sock.sendall(frame)
    return sock


def test_hostile_clients_harm_no_game_and_stop_no_server(home, tmp_path, ring, database):
    # The flood and the slow reader are both disconnected and never answer the closing: a
    # second's wait for that answer, not the default five, before each connection is dropped.
    server = start_server(home, database, 0, "--client-buffer", "65536",
                          "--close-timeout", "1")
    try:
        game = new_game(home, server.url, "--track", ring, "--seats", "2")
        number, seats, watch = game["game"], game["seats"], game["watch"]
        found = asyncio.run(hostile(server.url, number, seats, watch))
        codes = {what: answer.get("code") for what, answer in found.items()
                 if isinstance(answer, dict)}
        assert codes == {
            "wrong token": "token", "other game's token": "unknown-game",
            "out of turn": "turn", "stale": "stale", "illegal": "illegal",
            "join, wrong token": "token", "watch, wrong code": "watch",
            "export under way, no token": "token", "not JSON": "malformed",
            "a list": "malformed", "no version": "version", "another version": "version",
            "unknown type": "unknown-type", "NaN": "malformed", "huge number": "malformed",
            "bad move text": "malformed", "deep nesting": "malformed",
            "binary frame": "malformed", "bad create": "bad-setup",
            "create, broken track": "bad-setup", "infinity": None, "Infinity": "malformed"
        }, found
        assert found["infinity"]["type"] == "pong"  # a number out of range where none is used
        assert "cannot reach (900, 900)" in found["illegal"]["reason"]  # the engine's words
        assert "rate" in json.dumps(found["flood"]) or len(found["flood"]) < 1000
        assert found["oversized"] == 1009
        assert len(found["many"]) == 200 and found["many"].count("error") >= 90
        # The slow reader is disconnected; the server goes on.
        host, port = "127.0.0.1", server.port
        sock = slow_reader(host, port, number, seats[0]["token"])
        # Not reading: the server gives up on it once its answers pass the buffer, and says so.
        deadline = time.monotonic() + 30
        while "messages are not being read" not in server.log.read_text() and \
                time.monotonic() < deadline:
            time.sleep(0.1)
        sock.settimeout(20)
        closed = False
        try:
            while sock.recv(1 << 20):
                pass
            closed = True
        except ConnectionResetError:
            closed = True
        except TimeoutError:
            pass
        sock.close()
        assert closed, "the slow reader was never disconnected"
        assert "messages are not being read" in server.log.read_text()
        # The game is untouched, and the honest seats play it to its end.
        players = [launch(home, "online", "play", server.url, str(number), "--token",
                          seat["token"], "--driver", "easy", "--json") for seat in seats]
        for player in players:
            out, err = player.communicate(timeout=120)
            assert player.returncode == 0, err[-2000:]
        exported = racetrack(home, "online", "export", server.url, str(number),
                             str(tmp_path / "game.yaml"))
        assert exported.returncode == 0, exported.stderr
        replay = load_replay(tmp_path / "game.yaml")
        assert replay.result["finished"]
        assert racetrack(home, "replay", str(tmp_path / "game.yaml"), "--verify").returncode == 0
        assert server.alive
        again = new_game(home, server.url, "--track", ring, "--seats", "1")
        assert again["game"] == number + 1
    finally:
        server.stop()
    assert "Traceback" not in server.log.read_text()
