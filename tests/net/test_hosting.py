"""The server a window starts when its player hosts: started once, found again, left running."""

from __future__ import annotations

import asyncio
import json
import os
import signal

import pytest

from racetrack.net import hosting
from racetrack.net.client import ask_once


@pytest.mark.long
def test_hosting_starts_one_server_and_finds_it_again(tmp_path, monkeypatch):
    monkeypatch.setenv("RACETRACK_HOME", str(tmp_path))
    monkeypatch.setattr(hosting, "DEFAULT_PORT", 0)  # any free port: tests run side by side
    url, friends = hosting.local_server(bind="127.0.0.1")
    record = json.loads((tmp_path / "data" / "online" / "server.json").read_text())
    try:
        assert url == friends == f"ws://127.0.0.1:{record['port']}"
        assert asyncio.run(ask_once(url, "ping"))["type"] == "pong"
        assert hosting.local_server(bind="127.0.0.1")[0] == url  # the same one, found again
    finally:
        os.kill(record["pid"], signal.SIGTERM)
