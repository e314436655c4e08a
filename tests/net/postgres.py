"""A throwaway PostgreSQL cluster for the online tests, on loopback in a temporary folder.

Debian's server programs (``/usr/lib/postgresql/N/bin``, or ``PG_BIN``) make and start it;
PostgreSQL will not run as root, so as root the cluster belongs to the ``postgres`` user the
package makes and its programs run through ``runuser``. ``RACETRACK_TEST_PG`` names a server
to use instead (a URL). Where there is neither, the PostgreSQL tests are skipped with a line
that says why.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path


def server_programs() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl``, or ``None``."""
    if os.environ.get("PG_BIN"):
        return Path(os.environ["PG_BIN"])
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(Path(p).parent.parent.name)
                   if Path(p).parent.parent.name.isdigit() else 0)
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def why_not() -> str | None:
    """Why the PostgreSQL tests cannot run here (``None``: they can)."""
    if os.environ.get("RACETRACK_TEST_PG"):
        return None
    if server_programs() is None:
        return "no PostgreSQL server programs (initdb, pg_ctl) on this machine"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root, and there is no postgres user to run PostgreSQL as"
    return None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Cluster:
    """A cluster of its own: ``url`` reaches its ``postgres`` database."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="racetrack-pg-"))
        self.data = self.folder / "data"
        self.port = _free_port()
        self.bin = server_programs()
        assert self.bin is not None
        self.user = "postgres" if os.geteuid() == 0 else None
        if self.user:
            entry = pwd.getpwnam(self.user)
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *words: str) -> None:
        command = [str(self.bin / words[0]), *words[1:]]
        if self.user:
            command = ["runuser", "-u", self.user, "--", *command]
        subprocess.run(command, check=True, capture_output=True, timeout=120,
                       stdin=subprocess.DEVNULL)

    def start(self) -> Cluster:
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres",
                  "-E", "UTF8", "--no-sync")
        options = (f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.folder} "
                   "-c fsync=off -c max_connections=200")
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l",
                  str(self.folder / "log"), "-w", "-t", "60", "start")
        return self

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)


def new_database(url: str) -> str:
    """A fresh, empty database on the server ``url`` reaches; its URL."""
    import psycopg

    name = f"racetrack_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(url, autocommit=True) as db:
        db.execute(f'CREATE DATABASE "{name}"')
    return url.rsplit("/", 1)[0] + "/" + name
