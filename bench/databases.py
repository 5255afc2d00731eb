"""Throwaway databases for the benchmarks: a temporary SQLite file, or a PostgreSQL database of
the benchmark's own on 127.0.0.1:5432 (created fresh, dropped afterwards)."""

from __future__ import annotations

import shutil
import socket
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager

HOST = "127.0.0.1"
PG_ADMIN = "postgres://postgres@127.0.0.1:5432/postgres"


def postgres_answers() -> bool:
    try:
        with socket.create_connection((HOST, 5432), timeout=1):
            return True
    except OSError:
        return False


def _drop(name: str) -> None:
    import psycopg

    with psycopg.connect(PG_ADMIN, autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@contextmanager
def scratch_database(database: str, name: str) -> Iterator[tuple[str, str]]:
    """(DATABASE_URL, a scratch folder) for `database` ("sqlite" or "postgresql"); the folder
    and the PostgreSQL database `name` are gone afterwards."""
    folder = tempfile.mkdtemp(prefix=f"{name}-")
    url = f"sqlite:///{folder}/bench.sqlite3"
    if database == "postgresql":
        import psycopg

        _drop(name)
        with psycopg.connect(PG_ADMIN, autocommit=True) as connection:
            connection.execute(f"CREATE DATABASE {name}")
        url = f"postgres://postgres@{HOST}:5432/{name}"
    try:
        yield url, folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        if database == "postgresql":
            _drop(name)
