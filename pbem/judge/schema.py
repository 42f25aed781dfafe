"""The judge's database schema, as numbered migrations: a database is brought up to the newest when a
judge opens it, and a newer database than this pbem knows is refused (an older judge must not write what
it does not understand). A migration is never edited once released: a change is a new one.

Version 1:
- `games`: each game the judge holds: its genesis, how far it goes (`seq`, `last_hash`), how far every
  party has had it by mail (`mailed`);
- `entries`: every entry of every game, by place: the judge's copies are rebuilt from here;
- `signed`: every place the judge signed, one row a place: the primary key is what forbids two entries
  for one place, whichever process, on whichever machine, tries;
- `outbox`: the mail that carries what the judge signed, committed with it, delivered and marked after;
- `mails`: what became of every mail read (taken by which judge, how often, waiting for which entry);
- `answered`, `deadlines`, `addresses`: when each address was last answered, the reminders and notices
  sent, the addresses learned.

Version 2:
- `checkpoints`: each game's verified replay as it stood after an entry (pbem.protocol.checkpoints), so a
  turn is applied from there rather than from the genesis.

Version 3:
- `games.next_due`: when the game's deadlines next ask something of the judge (NULL: not worked out yet),
  so the sweep looks only at games with something due;
- `entries.received`: when the judge received (or signed) each entry: the time it trusts, beside the
  signed time its author chose.

Version 4 (pbem judge web, docs/web.md):
- `web_tables`: a game the judge makes once every seat has a key (its roster as JSON: each seat's name,
  and for a player by mail their key and address), and the game's id once it is made;
- `web_seats`: each seat offered by a link: the SHA-256 of the link's capability (never the capability
  itself), the key the browser that used it registered, the address it gave, when it was used;
- `web_logins`, `web_holds`: a browser's page session (its cookie's SHA-256 and its anti-forgery token) and
  the seats it took: a session reads its seats' views and posts entries, which its key alone can sign.

Version 5:
- `web_creators`: the creator links the host gave (`pbem judge creator-link`): the SHA-256 of each link's
  capability, and when it was revoked (NULL: it still makes tables).
"""

from __future__ import annotations

from typing import Any, Protocol

from pbem.errors import PbemError


class _Tx(Protocol):
    def run(self, sql: str, params: Any = ()) -> int: ...

    def one(self, sql: str, params: Any = ()) -> tuple[Any, ...] | None: ...


TYPES = {"sqlite": {"blob": "BLOB", "serial": "INTEGER PRIMARY KEY AUTOINCREMENT"},
         "postgresql": {"blob": "BYTEA", "serial": "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY"}}

MIGRATIONS = [
    """
    CREATE TABLE games (
        game_id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        genesis {blob} NOT NULL,
        seq INTEGER NOT NULL,
        last_hash TEXT NOT NULL,
        mailed INTEGER,
        updated REAL NOT NULL
    );
    CREATE TABLE entries (
        game_id TEXT NOT NULL REFERENCES games (game_id),
        seq INTEGER NOT NULL,
        body {blob} NOT NULL,
        hash TEXT NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    CREATE TABLE signed (
        game_id TEXT NOT NULL,
        place INTEGER NOT NULL,
        hash TEXT NOT NULL,
        judge TEXT NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (game_id, place)
    );
    CREATE TABLE outbox (
        id {serial},
        game_id TEXT NOT NULL,
        upto INTEGER NOT NULL,
        message {blob} NOT NULL,
        about TEXT NOT NULL,
        created REAL NOT NULL,
        sent REAL,
        tries INTEGER NOT NULL DEFAULT 0,
        claimed_by TEXT,
        claimed_at REAL,
        error TEXT
    );
    CREATE INDEX outbox_unsent ON outbox (sent, id);
    CREATE TABLE mails (
        name TEXT PRIMARY KEY,
        state TEXT NOT NULL,
        owner TEXT,
        taken_at REAL,
        tries INTEGER NOT NULL DEFAULT 0,
        game_id TEXT,
        after INTEGER,
        reason TEXT
    );
    CREATE INDEX mails_waiting ON mails (state, game_id);
    CREATE TABLE answered (address TEXT PRIMARY KEY, at REAL NOT NULL);
    CREATE TABLE deadlines (game_id TEXT NOT NULL, item TEXT NOT NULL, PRIMARY KEY (game_id, item));
    CREATE TABLE addresses (
        game_id TEXT NOT NULL, name TEXT NOT NULL, address TEXT NOT NULL, PRIMARY KEY (game_id, name)
    );
    """,
    """
    CREATE TABLE checkpoints (
        game_id TEXT PRIMARY KEY REFERENCES games (game_id),
        seq INTEGER NOT NULL,
        key {blob} NOT NULL,
        size INTEGER NOT NULL,
        stamp TEXT NOT NULL,
        state {blob} NOT NULL
    );
    """,
    """
    ALTER TABLE games ADD COLUMN next_due REAL;
    ALTER TABLE entries ADD COLUMN received REAL;
    """,
    """
    CREATE TABLE web_tables (
        table_id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        roster {blob} NOT NULL,
        game_id TEXT,
        created REAL NOT NULL
    );
    CREATE TABLE web_seats (
        token_hash TEXT PRIMARY KEY,
        table_id TEXT NOT NULL REFERENCES web_tables (table_id),
        name TEXT NOT NULL,
        key TEXT,
        address TEXT,
        used REAL,
        UNIQUE (table_id, name)
    );
    CREATE TABLE web_logins (session_hash TEXT PRIMARY KEY, csrf TEXT NOT NULL, created REAL NOT NULL);
    CREATE TABLE web_holds (
        session_hash TEXT NOT NULL, table_id TEXT NOT NULL, name TEXT NOT NULL,
        PRIMARY KEY (session_hash, table_id, name)
    );
    """,
    """
    CREATE TABLE web_creators (token_hash TEXT PRIMARY KEY, created REAL NOT NULL, revoked REAL);
    """,
]
VERSION = len(MIGRATIONS)


class SchemaError(PbemError):
    """A database this pbem cannot use."""


def migrate(tx: _Tx, kind: str) -> int:
    """Bring the database to VERSION (in the caller's transaction: all of a migration or none of it).
    Returns the version found."""
    tx.run("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    row = tx.one("SELECT version FROM schema_version")
    found = int(row[0]) if row else 0
    if found > VERSION:
        raise SchemaError(f"the judge's database is at schema version {found}, newer than this pbem's {VERSION}: "
                          "upgrade pbem")
    for number in range(found, VERSION):
        for statement in MIGRATIONS[number].format(**TYPES[kind]).split(";"):
            if statement.strip():
                tx.run(statement)
    if row is None:
        tx.run("INSERT INTO schema_version (version) VALUES (?)", (VERSION,))
    elif found < VERSION:
        tx.run("UPDATE schema_version SET version = ?", (VERSION,))
    return found
