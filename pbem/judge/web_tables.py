"""The web client's part of the judge's store (schema version 4): tables waiting for their seats, the seats
offered by invitation links, and browsers' page sessions.

A link carries a capability for one seat: 32 random bytes, kept here only as their SHA-256, used once (the
update that registers the browser's key is conditional on the seat being free, so two browsers racing
for one link cannot both have it). A page session (a cookie, also kept hashed) names the seats its
browser took; it lets that browser read its seats' views and post entries, which only its key can sign.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass
from typing import Any

from pbem.api import PublicKey, browser
from pbem.judge import library
from pbem.judge.database import Tx
from pbem.judge.store import Store

REFEREE = "judge"
"""The judge's name in the games it makes for browsers (it signs their invitation and referees them)."""


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass(frozen=True)
class HostedSeat:
    """A place at a table the judge hosts (engine's Seat is a place in a Sarcophagus game)."""

    name: str
    key: str | None
    """Its public key line: given for a player by mail, registered by the browser for a seat by link."""
    address: str | None
    browser: bool


@dataclass(frozen=True)
class HostedTable:
    """A game the judge hosts, as its seats fill (a browser's by an invitation link, a player's by mail)."""

    table_id: str
    game: str
    seats: tuple[HostedSeat, ...]
    options: tuple[str, ...]
    deadlines: str | None
    game_id: str | None

    @property
    def full(self) -> bool:
        return all(seat.key for seat in self.seats)

    def seat(self, name: str) -> HostedSeat | None:
        return next((s for s in self.seats if s.name == name), None)


def new_table(store: Store, game: str, seats: list[tuple[str, str | None, str | None]], options: list[str],
              deadlines: str | None, now: float) -> tuple[HostedTable, dict[str, str]]:
    """A table for `game` whose seats are (name, key line or None for a browser seat, address or None); the
    capability of each browser seat, by name (shown once, kept hashed)."""
    names = [name for name, _, _ in seats]
    if len(set(names)) != len(names) or REFEREE in names:
        raise library.PbemError(f"each seat needs a name of its own, and not {REFEREE!r} (the judge's)")
    for name, key, address in seats:
        if not library.is_name(name):
            raise library.PbemError(f"{name!r} is not a name pbem takes (letters, digits, - and _)")
        if key is not None:
            PublicKey.parse(key)
        if address is not None:
            library.check_address(address)
    if not any(key is None for _, key, _ in seats):
        raise library.PbemError("no seat is for a browser: give at least one NAME without a key")
    browser.check_table(game, names, options, deadlines)
    table_id = secrets.token_hex(8)
    roster = {"seats": [{"name": n, "key": k, "address": a, "browser": k is None} for n, k, a in seats],
              "options": options, "deadlines": deadlines}
    tokens = {name: secrets.token_urlsafe(32) for name, key, _ in seats if key is None}
    with store.db.transaction() as tx:
        tx.run("INSERT INTO web_tables (table_id, game, roster, created) VALUES (?, ?, ?, ?)",
               (table_id, game, json.dumps(roster).encode(), now))
        for name, token in tokens.items():
            tx.run("INSERT INTO web_seats (token_hash, table_id, name) VALUES (?, ?, ?)", (digest(token), table_id, name))
    found = table(store, table_id)
    assert found is not None
    return found, tokens


def store_mark(store: Store) -> tuple[object, ...]:
    """What moves on whenever a page could show something new, whoever wrote it: the games' entries (a
    count only grows), the tables and their seats taken. One look, whatever the number of pages open."""
    with store.db.transaction() as tx:
        games = tx.one("SELECT count(*), coalesce(sum(seq), 0) FROM games", ())
        tables = tx.one("SELECT count(*), count(game_id) FROM web_tables", ())
        seats = tx.one("SELECT count(key) FROM web_seats", ())
    return (*(games or ()), *(tables or ()), *(seats or ()))


def table(store: Store, table_id: str, tx: Tx | None = None) -> HostedTable | None:
    if tx is None:
        with store.db.transaction() as own:
            return table(store, table_id, own)
    row = tx.one("SELECT game, roster, game_id FROM web_tables WHERE table_id = ?", (table_id,))
    if row is None:
        return None
    roster: dict[str, Any] = json.loads(bytes(row[1]))
    claimed = {str(n): (k, a) for n, k, a in tx.all("SELECT name, key, address FROM web_seats WHERE table_id = ?",
                                                      (table_id,))}
    seats = []
    for seat in roster["seats"]:
        key, address = claimed.get(seat["name"], (seat["key"], seat["address"])) if seat["browser"] else \
            (seat["key"], seat["address"])
        seats.append(HostedSeat(seat["name"], key, address, seat["browser"]))
    return HostedTable(table_id, str(row[0]), tuple(seats), tuple(roster["options"]), roster["deadlines"],
                 None if row[2] is None else str(row[2]))


def invitation(store: Store, token: str) -> tuple[HostedTable, str, bool] | None:
    """The table and seat a link's capability is for, and whether it was used; None: no such link."""
    with store.db.transaction() as tx:
        row = tx.one("SELECT table_id, name, used FROM web_seats WHERE token_hash = ?", (digest(token),))
        if row is None:
            return None
        found = table(store, str(row[0]), tx)
    assert found is not None
    return found, str(row[1]), row[2] is not None


def claim(store: Store, token: str, key: str, address: str | None, session: str, now: float) -> HostedTable:
    """Take the seat of a link's capability for the browser whose key this is: once only."""
    parsed = PublicKey.parse(key)
    if address is not None:
        address = library.check_address(address)
    with store.db.transaction() as tx:
        row = tx.one("SELECT table_id, name FROM web_seats WHERE token_hash = ?", (digest(token),))
        if row is None:
            raise library.PbemError("this invitation link is not one this judge gave")
        table_id, name = str(row[0]), str(row[1])
        current = table(store, table_id, tx)
        assert current is not None
        if any(s.key and PublicKey.parse(s.key).same_key(parsed) for s in current.seats):
            raise library.PbemError("this key has a seat at this table already: each seat needs a key of its own")
        taken = tx.run("UPDATE web_seats SET key = ?, address = ?, used = ? WHERE token_hash = ? AND used IS NULL",
                       (parsed.line(), address, now, digest(token)))
        if taken != 1:
            raise library.PbemError("this invitation link was used already: a link takes one seat, once")
        tx.run("INSERT INTO web_holds (session_hash, table_id, name) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
               (digest(session), table_id, name))
        done = table(store, table_id, tx)
    assert done is not None
    return done


def tables(store: Store) -> list[HostedTable]:
    """Every table, oldest first."""
    with store.db.transaction() as tx:
        ids = [str(r[0]) for r in tx.all("SELECT table_id FROM web_tables ORDER BY created, table_id")]
        found = [table(store, table_id, tx) for table_id in ids]
    return [t for t in found if t is not None]


def relink(store: Store, table_id: str, name: str) -> str:
    """A new capability for a browser seat nobody has taken (a link lost, or sent to the wrong person): the
    old one takes nothing any more."""
    token = secrets.token_urlsafe(32)
    with store.db.transaction() as tx:
        row = tx.one("SELECT used FROM web_seats WHERE table_id = ? AND name = ?", (table_id, name))
        if row is None:
            raise library.PbemError(f"no browser seat {name!r} at table {table_id}")
        if row[0] is not None:
            raise library.PbemError(f"{name}'s seat at table {table_id} is taken: a link cannot take it again")
        tx.run("UPDATE web_seats SET token_hash = ? WHERE table_id = ? AND name = ? AND used IS NULL",
               (digest(token), table_id, name))
    return token


def set_game(tx: Tx, table_id: str, game_id: str) -> None:
    tx.run("UPDATE web_tables SET game_id = ? WHERE table_id = ?", (game_id, table_id))


def table_of_game(store: Store, game_id: str, tx: Tx | None = None) -> HostedTable | None:
    if tx is None:
        with store.db.transaction() as own:
            return table_of_game(store, game_id, own)
    row = tx.one("SELECT table_id FROM web_tables WHERE game_id = ?", (game_id,))
    return None if row is None else table(store, str(row[0]), tx)


# ------------------------------------------------------------ page sessions


def login(store: Store, now: float) -> tuple[str, str]:
    """A new page session: its cookie value and its anti-forgery token."""
    session, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    with store.db.transaction() as tx:
        tx.run("INSERT INTO web_logins (session_hash, csrf, created) VALUES (?, ?, ?)", (digest(session), csrf, now))
    return session, csrf


def csrf_of(store: Store, session: str | None) -> str | None:
    """The anti-forgery token of a page session (None: no such session)."""
    if not session:
        return None
    with store.db.transaction() as tx:
        row = tx.one("SELECT csrf FROM web_logins WHERE session_hash = ?", (digest(session),))
    return None if row is None else str(row[0])


def holds(store: Store, session: str | None, table_id: str, name: str) -> bool:
    if not session:
        return False
    with store.db.transaction() as tx:
        return tx.one("SELECT 1 FROM web_holds WHERE session_hash = ? AND table_id = ? AND name = ?",
                      (digest(session), table_id, name)) is not None


def hold(store: Store, session: str, table_id: str, name: str) -> None:
    """Let a page session act for a seat (its browser showed it holds the seat's key)."""
    with store.db.transaction() as tx:
        tx.run("INSERT INTO web_holds (session_hash, table_id, name) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
               (digest(session), table_id, name))
