"""The store a ``--db`` value names: an SQLite file (the embedded default, one file in the data
folder) or a PostgreSQL URL. Kept apart from both stores so that each imports only the
storage it builds on, and PostgreSQL's driver loads only for a PostgreSQL URL."""

from __future__ import annotations

from pathlib import Path

from racetrack.base.settings import data_dir
from racetrack.net.storage import SqliteStore, Store


def default_database() -> Path:
    """The embedded default: one SQLite file in the game's data folder."""
    return data_dir() / "online" / "games.sqlite3"


def is_postgres(where: str) -> bool:
    return where.startswith(("postgresql://", "postgres://"))


def open_store(where: str | Path | None) -> Store:
    """The store a ``--db`` value names: a PostgreSQL URL, or an SQLite file's path
    (``None``: the default file in the data folder)."""
    if where is not None and is_postgres(str(where)):
        from racetrack.net.postgres import PostgresStore  # psycopg, only when asked for

        return PostgresStore(str(where))
    text = str(where) if where is not None else ""
    if text.startswith("sqlite:"):
        text = text.removeprefix("sqlite:").removeprefix("//")
    return SqliteStore(Path(text) if text else default_database())
