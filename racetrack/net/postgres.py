"""Games in PostgreSQL, shared by several ``racetrack serve`` processes.

psycopg 3 is the driver: it speaks asyncio natively, takes the server's URL as PostgreSQL's
own tools do, and delivers LISTEN/NOTIFY as an async iterator on a connection of its own
(asyncpg would serve as well; psycopg is the project PostgreSQL's documentation points to,
and its wheels bring libpq, so nothing more is installed).

Each stored move is announced to every process in the same transaction (``pg_notify`` is sent
at the commit, never for a move rolled back): the channel ``racetrack_moves`` carries
``"GAME NUMBER"``, and each process that serves the game reads the moves it has not seen from
the table, so a notification lost while a process reconnects costs nothing but a catch-up.
``racetrack_presence`` carries ``"GAME SEAT 1|0 PROCESS"`` as players come and go.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import uuid
from collections.abc import AsyncIterator
from typing import Any

import psycopg

from racetrack.net.hosted import MoveRecord
from racetrack.net.storage import (
    GAME_COLUMNS,
    SCHEMA_VERSION,
    MovesHeard,
    PresenceHeard,
    Store,
    StoredGame,
    schema,
    stored_game,
)

log = logging.getLogger(__name__)

MOVES_CHANNEL = "racetrack_moves"
PRESENCE_CHANNEL = "racetrack_presence"
#: Connections each process keeps for its queries (the listening one is apart).
POOL_SIZE = 4


class PostgresStore(Store):
    """Games in a PostgreSQL database; every process on it hears the others' moves."""

    kind = "postgresql"

    def __init__(self, url: str):
        self.url = url
        self.process = uuid.uuid4().hex[:12]
        self._pool: asyncio.Queue[psycopg.AsyncConnection] = asyncio.Queue()
        self._connections: list[psycopg.AsyncConnection] = []
        self._listener: asyncio.Task | None = None

    @contextlib.asynccontextmanager
    async def _connection(self) -> AsyncIterator[psycopg.AsyncConnection]:
        connection = await self._pool.get()
        try:
            if connection.closed:
                connection = await self._reconnect(connection)
            yield connection
        finally:
            self._pool.put_nowait(connection)

    async def _reconnect(self, old: psycopg.AsyncConnection) -> psycopg.AsyncConnection:
        new = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
        self._connections[self._connections.index(old)] = new
        return new

    async def open(self) -> None:
        try:
            first = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
        except psycopg.Error as exc:
            raise OSError(f"cannot reach the database: {str(exc).strip()}") from None
        async with first.transaction():
            # One process at a time makes the tables (several may start together).
            await first.execute("SELECT pg_advisory_xact_lock(8765)")
            await first.execute(schema(postgres=True))
            await first.execute("INSERT INTO racetrack_meta VALUES ('schema', %s) "
                                "ON CONFLICT DO NOTHING", (str(SCHEMA_VERSION),))
        self._connections = [first]
        for _ in range(POOL_SIZE - 1):
            self._connections.append(await psycopg.AsyncConnection.connect(
                self.url, autocommit=True))
        for connection in self._connections:
            self._pool.put_nowait(connection)

    async def close(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(BaseException):
                await self._listener
        for connection in self._connections:
            with contextlib.suppress(Exception):
                await connection.close()

    async def create(self, created, setup, seats, time, watch_hash) -> int:
        async with self._connection() as db, db.transaction():
            cursor = await db.execute(
                "INSERT INTO games (created, setup, watch_hash, move_time, on_timeout, "
                "timeout_level) VALUES (%s, %s, %s, %s, %s, %s) RETURNING id",
                (created, json.dumps(setup), watch_hash, time.move_time, time.on_timeout,
                 time.level))
            row = await cursor.fetchone()
            game = int(row[0])
            async with db.cursor() as rows:
                await rows.executemany("INSERT INTO seats VALUES (%s, %s, %s, %s, %s)",
                                       [(game, s.index, s.kind, s.level, s.token_hash)
                                        for s in seats])
            return game

    async def add_move(self, game, move, over) -> bool:
        async with self._connection() as db, db.transaction():
            cursor = await db.execute(
                "INSERT INTO moves VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING "
                "RETURNING number",
                (game, move.number, move.seat, move.move, move.by, move.at))
            if await cursor.fetchone() is None:
                return False
            if over:
                await db.execute("UPDATE games SET over = TRUE WHERE id = %s", (game,))
            await db.execute("SELECT pg_notify(%s, %s)",
                             (MOVES_CHANNEL, f"{game} {move.number + 1}"))
            return True

    async def game(self, game) -> StoredGame | None:
        async with self._connection() as db, db.transaction():
            cursor = await db.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE id = %s",
                                      (game,))
            row = await cursor.fetchone()
            if row is None:
                return None
            cursor = await db.execute("SELECT seat, kind, level, token_hash FROM seats "
                                      "WHERE game = %s ORDER BY seat", (game,))
            seats = await cursor.fetchall()
            cursor = await db.execute("SELECT number, seat, move, by, at FROM moves "
                                      "WHERE game = %s ORDER BY number", (game,))
            moves = await cursor.fetchall()
        return stored_game(row, seats, moves)

    async def moves_since(self, game, number) -> list[MoveRecord]:
        async with self._connection() as db:
            cursor = await db.execute("SELECT number, seat, move, by, at FROM moves WHERE "
                                      "game = %s AND number >= %s ORDER BY number",
                                      (game, number))
            rows = await cursor.fetchall()
        return [MoveRecord(int(n), int(s), m, by, float(at)) for n, s, m, by, at in rows]

    async def _scalar_rows(self, query: str, values: tuple[Any, ...] = ()) -> list[Any]:
        async with self._connection() as db:
            cursor = await db.execute(query, values)
            rows = await cursor.fetchall()
        return [row[0] for row in rows]

    async def unfinished(self) -> list[int]:
        return [int(g) for g in await self._scalar_rows(
            "SELECT id FROM games WHERE NOT over AND set_aside IS NULL ORDER BY id")]

    async def find_watch(self, watch_hash) -> int | None:
        found = await self._scalar_rows("SELECT id FROM games WHERE watch_hash = %s",
                                        (watch_hash,))
        return int(found[0]) if found else None

    async def set_aside(self, game, message) -> None:
        async with self._connection() as db, db.transaction():
            await db.execute("UPDATE games SET set_aside = %s WHERE id = %s", (message, game))

    async def tell_presence(self, game, seat, present) -> None:
        async with self._connection() as db, db.transaction():
            await db.execute("SELECT pg_notify(%s, %s)",
                             (PRESENCE_CHANNEL, f"{game} {seat} {int(present)} "
                                                f"{self.process}"))

    async def listen(self, moves: MovesHeard, presence: PresenceHeard) -> None:
        self._listener = asyncio.create_task(self._listen(moves, presence))

    async def _listen(self, moves: MovesHeard, presence: PresenceHeard) -> None:
        """Hear the channels for as long as the server runs, connecting again (and catching
        every game up) when the connection is lost."""
        delay = 0.5
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.url,
                                                                 autocommit=True) as db:
                    await db.execute(f"LISTEN {MOVES_CHANNEL}")
                    await db.execute(f"LISTEN {PRESENCE_CHANNEL}")
                    delay = 0.5
                    await moves(0, 0)  # anything missed while not listening: catch up
                    async for note in db.notifies():
                        await self._heard(note.channel, note.payload, moves, presence)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database went away: try again, a little later
                log.warning("lost the database's notifications (%s); listening again", exc)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 10.0)

    async def _heard(self, channel: str, payload: str, moves: MovesHeard,
                     presence: PresenceHeard) -> None:
        words = payload.split()
        try:
            if channel == MOVES_CHANNEL and len(words) == 2:
                await moves(int(words[0]), int(words[1]))
            elif channel == PRESENCE_CHANNEL and len(words) == 4 and words[3] != self.process:
                await presence(int(words[0]), int(words[1]), words[2] == "1", words[3])
        except ValueError:
            log.warning("a notification not of this server's making: %r", payload[:80])
