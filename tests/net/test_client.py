"""The window's session: a connection on a thread of its own, whose messages wake the window
(which sleeps between inputs) as they come."""

from __future__ import annotations

import threading
import time

from racetrack.net.client import ThreadedSession
from tests.net.conftest import new_game, start_server


def test_every_message_heard_wakes_the_window(home, tmp_path, ring):
    server = start_server(home, str(tmp_path / "games.sqlite3"))
    try:
        made = new_game(home, server.url, "--track", ring, "--seats", "0", "--ai", "easy",
                        "--ai", "easy")
        rings = threading.Semaphore(0)
        session = ThreadedSession(server.url, lambda: [("watch", {"watch": made["watch"],
                                                                  "since": 0})],
                                  patience=10.0, heard=rings.release)
        try:
            heard: list[dict] = []
            rung = 0
            deadline = time.monotonic() + 30
            while not any(m.get("type") == "game" for m in heard):
                assert rings.acquire(timeout=max(0.0, deadline - time.monotonic())), heard
                rung += 1
                heard += session.poll()
            # Each message was rung for once it was in the inbox: as many rings as messages,
            # counted once the computer cars' race has gone quiet.
            while rings.acquire(timeout=1.0):
                rung += 1
                heard += session.poll()
            heard += session.poll()
            assert rung == len(heard)
            assert any(m.get("type") == "move" for m in heard)
        finally:
            session.close()
    finally:
        server.stop()
