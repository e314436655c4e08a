"""The server the window starts when the player hosts a game: one per machine, left running.

``local_server()`` gives the address of the server this machine runs for its player, starting
``racetrack serve`` in the background when none answers: on every network of the machine
(friends on other machines must reach it), port 8765 or the next free one, its games in the
data folder's SQLite file. It is a process of its own, so closing the window leaves it serving
the games under way (correspondence games wait on it); its address and process are kept in
``online/server.json`` so the next window finds it again.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

from racetrack.files import atomic_write_text

DEFAULT_PORT = 8765
#: Seconds to wait for a new server to say it listens.
START_SECONDS = 30.0


def _folder() -> Path:
    from racetrack.settings import data_dir

    return data_dir() / "online"


def _answers(port: int) -> bool:
    """Whether something accepts connections on this machine's port."""
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
        return True
    return False


def _free(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("0.0.0.0", port))
        except OSError:
            return False
    return True


def machine_address() -> str:
    """The address friends reach this machine by (its name's address on the network, or the
    loopback address where it has none)."""
    with contextlib.suppress(OSError):
        for family, _, _, _, address in socket.getaddrinfo(socket.gethostname(), None,
                                                           socket.AF_INET):
            if family == socket.AF_INET and not address[0].startswith("127."):
                return address[0]
    return "127.0.0.1"


def running_server() -> int | None:
    """The port of the server a window started earlier, if it still answers."""
    record = _folder() / "server.json"
    with contextlib.suppress(OSError, ValueError, KeyError, TypeError):
        data = json.loads(record.read_text(encoding="utf-8"))
        port, pid = int(data["port"]), int(data["pid"])
        os.kill(pid, 0)  # still there
        if _answers(port):
            return port
    return None


def local_server(bind: str = "0.0.0.0") -> tuple[str, str]:
    """``(address to connect to, address to give friends)`` of this machine's server, started
    if need be (``OSError`` if it cannot be)."""
    port = running_server()
    if port is None:
        port = _start(bind)
    friends = machine_address() if bind == "0.0.0.0" else bind
    return f"ws://127.0.0.1:{port}", f"ws://{friends}:{port}"


def _start(bind: str) -> int:
    folder = _folder()
    folder.mkdir(parents=True, exist_ok=True)
    port = next((p for p in range(DEFAULT_PORT, DEFAULT_PORT + 20) if _free(p)), 0)
    log = open(folder / "server.log", "a", encoding="utf-8")  # noqa: SIM115 (the child's)
    process = subprocess.Popen(
        [sys.executable, "-m", "racetrack", "serve", "--host", bind, "--port", str(port),
         "--computer-pause", "0.4"],
        stdout=subprocess.PIPE, stderr=log, stdin=subprocess.DEVNULL, text=True,
        start_new_session=True)
    log.close()
    started = time.monotonic()
    line = process.stdout.readline() if process.stdout else ""
    if not line.startswith("serving on "):
        process.kill()
        raise OSError(f"the game server did not start (see {folder / 'server.log'})")
    port = int(line.split()[2].rsplit(":", 1)[1])
    atomic_write_text(folder / "server.json", json.dumps({"pid": process.pid, "port": port,
                                                          "started": started}))
    return port
