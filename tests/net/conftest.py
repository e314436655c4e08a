"""Real servers and real clients on loopback: ``racetrack serve`` and ``racetrack online``
processes, a throwaway PostgreSQL where the machine has one."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from racetrack.net.client import Session
from tests.net import postgres

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class ServerProcess:
    """A ``racetrack serve`` process and the address it listens on."""

    process: subprocess.Popen
    url: str
    port: int
    log: Path

    def kill(self) -> None:
        """SIGKILL: no goodbye, no flush."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()

    @property
    def alive(self) -> bool:
        return self.process.poll() is None


def environment(home: Path) -> dict[str, str]:
    return {**os.environ, "RACETRACK_HOME": str(home), "PYTHONUNBUFFERED": "1"}


def start_server(home: Path, db: str, port: int = 0, *extra: str) -> ServerProcess:
    """Start ``racetrack serve`` and wait for the line that says where it listens."""
    log = home / f"server-{port}-{os.urandom(3).hex()}.log"
    home.mkdir(parents=True, exist_ok=True)
    process = subprocess.Popen(
        [sys.executable, "-m", "racetrack", "serve", "--port", str(port), "--db", db, *extra],
        stdout=subprocess.PIPE, stderr=open(log, "w"), stdin=subprocess.DEVNULL,  # noqa: SIM115
        text=True, env=environment(home), cwd=ROOT)
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.append(process.stdout.readline()),
                              daemon=True)
    reader.start()
    reader.join(60)
    if not lines or not lines[0].startswith("serving on "):
        process.kill()
        raise AssertionError(f"the server did not start: {lines} {log.read_text()[-2000:]}")
    url = lines[0].split()[2]
    return ServerProcess(process, url, int(url.rsplit(":", 1)[1]), log)


def racetrack(home: Path, *words: str) -> subprocess.CompletedProcess:
    """Run a short ``racetrack`` command to its end, in this process (the clients that play
    are processes of their own; making a game, exporting it and checking a replay are quick,
    and a process of their own would only cost its start-up)."""
    from racetrack.cli import main

    out, err = io.StringIO(), io.StringIO()
    before = os.environ.get("RACETRACK_HOME")
    os.environ["RACETRACK_HOME"] = str(home)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(words))
    finally:
        if before is None:
            del os.environ["RACETRACK_HOME"]
        else:
            os.environ["RACETRACK_HOME"] = before
    return subprocess.CompletedProcess(["racetrack", *words], code, out.getvalue(),
                                       err.getvalue())


def launch(home: Path, *words: str) -> subprocess.Popen:
    """Start a ``racetrack`` command (or ``-m module``) without waiting for it."""
    command = [sys.executable, *words] if words[0] == "-m" else \
        [sys.executable, "-m", "racetrack", *words]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=environment(home), cwd=ROOT,
                            stdin=subprocess.DEVNULL)


def new_game(home: Path, url: str, *words: str) -> dict:
    done = racetrack(home, "online", "new", url, *words, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "home"


#: A small ring, 16 x 12 with an 8 x 4 infield: a race of 15 to 20 turns, quick to play.
RING = """racetrack-track: 1
name: Little ring
outer: [[0, 0], [16, 0], [16, 12], [0, 12]]
holes: [[[4, 4], [12, 4], [12, 8], [4, 8]]]
start: {a: [8, 0], b: [8, 4], forward: [1, 0]}
"""


@pytest.fixture
def ring(tmp_path: Path) -> str:
    """The path of the little ring's track file."""
    path = tmp_path / "ring.yaml"
    path.write_text(RING)
    return str(path)


@pytest.fixture(scope="session")
def pg_server():
    """A PostgreSQL server for the session (``RACETRACK_TEST_PG``, or a throwaway cluster);
    the tests that need one are skipped, with the reason, where there is none."""
    reason = postgres.why_not()
    if reason:
        pytest.skip(f"PostgreSQL tests skipped: {reason}")
    if os.environ.get("RACETRACK_TEST_PG"):
        yield os.environ["RACETRACK_TEST_PG"]
        return
    cluster = postgres.Cluster().start()
    try:
        yield cluster.url
    finally:
        cluster.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path: Path) -> str:
    """Each database kind in turn: an SQLite file, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "games.sqlite3")
    return postgres.new_database(request.getfixturevalue("pg_server"))


async def watched_moves(url: str, watch: str, count: int) -> list[tuple[int, str, float]]:
    """Watch a game by its code until ``count`` moves have been told: each as (seat, move,
    when it was heard)."""
    heard: list[tuple[int, str, float]] = []
    done = asyncio.get_running_loop().create_future()

    def told(message: dict) -> None:
        if message["type"] == "game":
            heard.extend((m[0], m[1], time.monotonic()) for m in message["moves"])
        elif message["type"] == "move":
            heard.append((message["seat"], message["move"], time.monotonic()))
        if len(heard) >= count and not done.done():
            done.set_result(list(heard))

    async def opened(session: Session) -> None:
        await session.send("watch", watch=watch)

    session = Session(url, told, opened)
    runner = asyncio.create_task(session.run())
    try:
        return await asyncio.wait_for(done, 90)
    finally:
        await session.stop()
        runner.cancel()
