"""The database the judge keeps its memory in: SQLite (the standard library's sqlite3, a file, WAL) by
default, PostgreSQL (psycopg 3) when several judges share one. One schema for both (schema.py), applied
by versioned migrations when a judge opens it.

What the database holds for the judge, it holds by its own means, not by care: a transaction is all or
nothing, and `transaction(lock=...)` takes each named game's lock for its whole length (PostgreSQL: a
transaction-level advisory lock per game; SQLite: BEGIN IMMEDIATE, which locks the whole file, one writer
at a time), so no two judge processes, on any machines, apply a turn to one game at once.
"""

from __future__ import annotations

import hashlib
import sqlite3
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pbem.errors import PbemError
from pbem.judge import schema
from pbem.record.files import copies_of_durable_data

BUSY_SECONDS = 60
"""How long a writer waits for another's lock before the operation fails (and is tried again later)."""


class StoreError(PbemError):
    """The database could not be opened, migrated or written."""


Row = tuple[Any, ...]


class Tx:
    """One transaction: statements in the `?` placeholder style, whichever the database."""

    def __init__(self, cursor: Any, postgres: bool):
        self._cursor, self._postgres = cursor, postgres

    def run(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Execute; the number of rows changed."""
        self._cursor.execute(sql.replace("?", "%s") if self._postgres else sql, tuple(params))
        return int(self._cursor.rowcount)

    def one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        self.run(sql, params)
        row = self._cursor.fetchone()
        return tuple(row) if row is not None else None

    def all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        self.run(sql, params)
        return [tuple(row) for row in self._cursor.fetchall()]

    @contextmanager
    def part(self) -> Iterator[None]:
        """A part of the transaction that fails alone (a savepoint): what it changed is undone and the
        exception raised (StoreError for a change the database refused); the rest of the transaction stands."""
        if self._postgres:
            import psycopg

            try:
                with self._cursor.connection.transaction():
                    yield
            except psycopg.Error as exc:
                raise StoreError(f"the judge's database refused a change: {_first_line(exc)}") from None
            return
        self._cursor.execute("SAVEPOINT part")
        try:
            yield
        except BaseException as exc:
            self._cursor.execute("ROLLBACK TO SAVEPOINT part")
            self._cursor.execute("RELEASE SAVEPOINT part")
            if isinstance(exc, sqlite3.Error):
                raise StoreError(f"the judge's database refused a change: {exc}") from None
            raise
        self._cursor.execute("RELEASE SAVEPOINT part")


def lock_key(game_id: str) -> int:
    """A game's advisory lock number (PostgreSQL's are signed 64-bit integers)."""
    return int.from_bytes(hashlib.sha256(game_id.encode()).digest()[:8], "big", signed=True)


class Database:
    """A connection to the judge's database, from `url`: postgresql://... or the path of a SQLite file."""

    def __init__(self, url: str):
        self.url = url
        self.postgres = url.startswith(("postgresql://", "postgres://"))
        self._conn: Any = None
        self._unforced = False
        """Whether a commit since the last forced one was not forced to disk (`force`)."""
        self._connect()
        with self.transaction(lock=["pbem judge schema"]) as tx:  # two judges starting at once: one migrates
            schema.migrate(tx, "postgresql" if self.postgres else "sqlite")

    def _connect(self) -> None:
        if self.postgres:
            try:
                import psycopg
            except ImportError:
                raise StoreError("a PostgreSQL database needs psycopg: pip install 'pbem[postgresql]'") from None
            try:
                self._conn = psycopg.connect(self.url, autocommit=True, connect_timeout=30)
            except psycopg.Error as exc:
                raise StoreError(f"cannot connect to the judge's database: {_first_line(exc)}") from None
            return
        path = Path(self.url.removeprefix("sqlite:"))
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        try:
            self._conn = sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level=None, check_same_thread=False)
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=FULL")  # an accepted turn survives a power cut
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the judge's database {path}: {exc}") from None

    @contextmanager
    def transaction(self, lock: Iterable[str] = (), forced: bool = True) -> Iterator[Tx]:
        """All of it or none of it, holding the locks of the games named (in a fixed order: no deadlock).
        The files written meanwhile (game copies, what the judge's home has seen) are copies of what the
        database commits, not fsynced: the store remakes them from the database (Store.sync).

        `forced=False` (SQLite): committed without waiting for the disk, for a caller that calls `force()`
        before anything it did leaves the judge (a mail moved out of new/, a mail sent): one fsync for a
        batch of mails, not one a mail. PostgreSQL's commits are always forced (and grouped by the server)."""
        with copies_of_durable_data(), self._transaction(sorted(set(lock)), forced) as tx:
            yield tx

    def force(self) -> None:
        """Make durable what was committed unforced: a forced commit syncs SQLite's whole log."""
        if not self._unforced:
            return
        with self.transaction() as tx:
            row = tx.one("PRAGMA user_version")  # the file header's own counter, used for nothing else
            tx.run(f"PRAGMA user_version = {(int(row[0]) + 1) % 2**31 if row else 1}")
        self._unforced = False

    @contextmanager
    def _transaction(self, games: list[str], forced: bool = True) -> Iterator[Tx]:
        if self.postgres:
            import psycopg

            try:
                with self._conn.transaction(), self._conn.cursor() as cursor:
                    tx = Tx(cursor, True)
                    for game in games:
                        tx.run("SELECT pg_advisory_xact_lock(?)", (lock_key(game),))
                    yield tx
            except psycopg.OperationalError as exc:
                self._reconnect()
                raise StoreError(f"the judge's database: {_first_line(exc)}") from None
            except psycopg.Error as exc:
                raise StoreError(f"the judge's database refused a change: {_first_line(exc)}") from None
            return
        cursor = self._conn.cursor()
        if not forced:
            cursor.execute("PRAGMA synchronous=NORMAL")
        try:
            yield from self._sqlite_transaction(cursor)
        finally:
            if not forced:
                cursor.execute("PRAGMA synchronous=FULL")
                self._unforced = True

    @staticmethod
    def _sqlite_transaction(cursor: Any) -> Iterator[Tx]:
        try:
            cursor.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise StoreError(f"the judge's database is busy: {exc}") from None
        try:
            yield Tx(cursor, False)
        except sqlite3.Error as exc:
            cursor.execute("ROLLBACK")
            raise StoreError(f"the judge's database refused a change: {exc}") from None
        except BaseException:
            cursor.execute("ROLLBACK")
            raise
        try:
            cursor.execute("COMMIT")
        except sqlite3.Error as exc:
            cursor.execute("ROLLBACK")
            raise StoreError(f"the judge's database refused a change: {exc}") from None

    def _reconnect(self) -> None:
        try:
            self._conn.close()
        except Exception:  # noqa: BLE001  (already broken: a new connection follows)
            pass
        time.sleep(0.5)
        try:
            self._connect()
        except StoreError:
            pass  # the next transaction says so

    def close(self) -> None:
        self._conn.close()


def _first_line(exc: Exception) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def is_conflict(exc: Exception) -> bool:
    """Whether a refused change was a unique constraint: another judge got there first."""
    text = str(exc).lower()
    return "unique" in text or "duplicate key" in text
