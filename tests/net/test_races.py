"""Whole races on loopback: a real server process, real client processes.

Two seats played by computer drivers in their own processes (``racetrack online play``, or a
reckless client that crashes on purpose) and a spectator (``racetrack online watch``) follow
one game to its end; every one of them ends with the server's exact history, and the server's
export verifies. Under Gardner's rules on the oval, and under Baker's with crashes and damage
(and a computer seat the server plays), on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import json

import pytest

from racetrack.model import EventKind
from racetrack.replay import load_replay
from tests.net.conftest import launch, new_game, racetrack, start_server

pytestmark = pytest.mark.long


def finish(process, seconds: float = 120) -> str:
    out, err = process.communicate(timeout=seconds)
    assert process.returncode == 0, err[-3000:]
    return out


@pytest.mark.parametrize("rules", ["gardner", "baker"])
def test_two_seats_and_a_spectator_end_with_the_servers_history(home, tmp_path, ring, database,
                                                                  rules):
    server = start_server(home, database)
    try:
        extra = ["--ai", "easy"] if rules == "baker" else []
        game = new_game(home, server.url, "--track", ring, "--rules", rules, "--seats", "2",
                        *extra)
        number, (one, two), watch = game["game"], game["seats"], game["watch"]
        assert [s["seat"] for s in game["seats"]] == [1, 2] and len(one["token"]) >= 26
        files = {name: tmp_path / f"{name}.yaml" for name in ("one", "two", "watch", "export")}
        watcher = launch(home, "online", "watch", server.url, watch, "--json",
                         "--save", str(files["watch"]))
        first = launch(home, "online", "play", server.url, str(number), "--token",
                       one["token"], "--driver", "medium", "--json", "--save", str(files["one"]))
        if rules == "baker":
            second = launch(home, "-m", "tests.net.reckless", server.url, str(number),
                            two["token"], str(files["two"]))
        else:
            second = launch(home, "online", "play", server.url, str(number), "--token",
                            two["token"], "--driver", "easy", "--json", "--save",
                            str(files["two"]))
        results = [json.loads(finish(first)), json.loads(finish(watcher))]
        finish(second)
        # The result as `racetrack race --json` prints it, the same keys.
        race_keys = {"winner", "ranking", "turns", "reason", "track", "rules", "seed", "cars"}
        assert all(set(result) == race_keys for result in results)
        assert results[0] == results[1] and results[0]["rules"] == rules
        exported = racetrack(home, "online", "export", server.url, str(number),
                             str(files["export"]))
        assert exported.returncode == 0, exported.stderr
        verified = racetrack(home, "replay", str(files["export"]), "--verify")
        assert verified.returncode == 0 and "result matches" in verified.stdout
        truth = load_replay(files["export"])
        assert truth.moves and truth.result["finished"]
        for name in ("one", "two", "watch"):
            assert load_replay(files[name]).moves == truth.moves, name
        if rules == "baker":
            state, kinds = truth.race.start(), set()
            for _, move in truth.moves:
                kinds |= {event.kind for event in state.apply(move)}
            assert {EventKind.CRASHED, EventKind.DAMAGED} <= kinds, kinds
            assert any(move for player, move in truth.moves if player == 2), \
                "the server's computer seat never moved"
    finally:
        server.stop()
