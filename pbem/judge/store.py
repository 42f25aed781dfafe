"""The judge's memory in its database (database.py, schema.py): the games it holds, every place it signed,
the mail it has read and what became of it, the outbox, the answers, deadlines and addresses.

The database is the authority. The judge still works on files, as every pbem program does: its copies
in games-files/ and what its home has seen are a cache of the database, made equal to it (`sync`) under
the game's lock before each use, and written back (`save`) in the same transaction as what it signed and
the mail that carries it (`queue`). A judge that dies between the two loses the cache's change, never the
database's: the next `sync` puts the database's record back, its own unsaved entry forgotten, and since
the outbox is committed with the entries, nothing signed is left unsent.
"""

from __future__ import annotations

import json
import os
import socket
from dataclasses import dataclass
from pathlib import Path

from pbem import api
from pbem.judge.database import Database, StoreError, Tx

NEVER = 1e18
"""A game's next_due when nothing on a clock is owed: never, until it changes."""
CHECKPOINT_EVERY = 8
"""Entries between two checkpoints of a game: a turn replays at most these before its own."""
STALE_CLAIM = 60.0
"""Seconds after which another judge's claim on a mail or an outbox mail counts as that of a judge that
died: the mail is taken over."""
OUTBOX_KEPT = 30 * 86400
"""How long a sent mail stays in the outbox, for an operator who asks what was mailed when (kept for
ever, the outbox would grow with every turn ever played)."""


def default_owner(home: Path) -> str:
    """This judge's name among several: its machine and its home (the same after a restart)."""
    return f"{socket.gethostname()}:{home}"


@dataclass(frozen=True)
class Held:
    """A game as the database holds it."""

    game_id: str
    seq: int
    last_hash: str
    mailed: int | None


class Store:
    def __init__(self, db: Database, games: Path, owner: str):
        self.db, self.games, self.owner = db, games, owner
        self._cached: dict[str, tuple[int, str]] = {}
        """game id -> (seq, last hash) of the local copy, as this process last wrote or checked it."""
        self._paths: dict[str, Path | None] = {}
        """game id -> its local copy, as last found (a glob of the folder costs more than a look at one file)."""
        self._resumed: dict[str, bytes] = {}
        """game id -> the key of the checkpoint this process went on from last."""

    # ------------------------------------------------------------ games

    def game_ids(self) -> list[str]:
        with self.db.transaction() as tx:
            return [str(row[0]) for row in tx.all("SELECT game_id FROM games ORDER BY game_id")]

    def held(self, tx: Tx, game_id: str) -> Held | None:
        row = tx.one("SELECT seq, last_hash, mailed FROM games WHERE game_id = ?", (game_id,))
        return Held(game_id, int(row[0]), str(row[1]), None if row[2] is None else int(row[2])) if row else None

    def sync(self, tx: Tx, game_id: str) -> Path | None:
        """The local copy of a game, made equal to the database's (None: the database holds no such game).
        Cheap when this process wrote it last (the usual case: one judge). A copy this process did not
        write, it writes again from the database, with what its home has seen of the game: those files are
        written without fsync (database.py), so one a power cut damaged is never read."""
        held = self.held(tx, game_id)
        if held is None:
            self._drop_uncommitted(game_id)
            return None
        self.resume(tx, game_id)
        path = self._paths.get(game_id)
        if path is None or not path.is_file():
            path = self._paths[game_id] = api.find_copy(game_id, self.games)
        if path is not None and self._cached.get(game_id) == (held.seq, held.last_hash):
            return path
        rows = tx.all("SELECT body, hash FROM entries WHERE game_id = ? ORDER BY seq", (game_id,))
        genesis = tx.one("SELECT genesis FROM games WHERE game_id = ?", (game_id,))
        assert genesis is not None
        record = record_of(bytes(genesis[0]), [bytes(r[0]) for r in rows])
        hashes = api.hash_chain(record)
        path = self._paths[game_id] = api.restore_copy(record, hashes, held.mailed, self.games)
        self._cached[game_id] = (held.seq, held.last_hash)
        return path

    def _drop_uncommitted(self, game_id: str) -> None:
        """A copy of a game the database does not hold is what a transaction that did not commit left (a
        new game applied, then the judge killed): set aside as NAME.uncommitted, with what this home saw of
        it, so that the game is applied afresh, and into the database, when its mail is read again."""
        path = self._paths.pop(game_id, None) or api.find_copy(game_id, self.games)
        self._cached.pop(game_id, None)
        if path is not None and path.is_file():
            path.replace(path.with_name(path.name + ".uncommitted"))
            api.history_path(game_id).unlink(missing_ok=True)

    def forget(self, game_id: str) -> None:
        """After a transaction that failed: the local copy may hold what the database does not."""
        self._cached.pop(game_id, None)

    def save(self, tx: Tx, path: Path, now: float, game: api.Replay | None = None) -> tuple[int, int]:
        """The local copy's entries the database lacks, written to it with the mark of what was mailed
        (`game`: the copy as just verified, not read again). Returns (entries the database had, entries it
        has). StoreError if the copy does not extend what the database holds (another judge's entry at a
        place this copy fills otherwise)."""
        record = game.record if game is not None else api.load(path)
        game_id = record.genesis.game_id
        hashes = game.hashes if game is not None else api.hash_chain(record)
        held = self.held(tx, game_id)
        start = 0 if held is None else held.seq
        if held is not None and (held.seq >= len(hashes) or hashes[held.seq] != held.last_hash):
            raise StoreError(f"game {api.short_id(game_id)}: the copy here does not extend what the database "
                             f"holds (entry {held.seq}): another judge moved it on")
        genesis, bodies = record_parts(record, start)
        count = len(record.entries)
        mailed = api.mailed_up_to(game_id)
        if held is None:
            tx.run("INSERT INTO games (game_id, game, genesis, seq, last_hash, mailed, updated) VALUES (?, ?, ?, ?, ?, ?, ?)",
                   (game_id, record.genesis.game, genesis, count, hashes[-1], mailed, now))
        else:
            tx.run("UPDATE games SET seq = ?, last_hash = ?, mailed = ?, updated = ? WHERE game_id = ?",
                   (count, hashes[-1], _later(held.mailed, mailed), now, game_id))
        for seq, body in enumerate(bodies, start):
            tx.run("INSERT INTO entries (game_id, seq, body, hash, received) VALUES (?, ?, ?, ?, ?)",
                   (game_id, seq + 1, body, hashes[seq + 1], now))
        if count > start:
            tx.run("UPDATE games SET next_due = NULL WHERE game_id = ?", (game_id,))  # worked out again
        self._cached[game_id] = (count, hashes[-1])
        return start, count

    def checkpoint(self, tx: Tx, game: api.Replay, every: int = CHECKPOINT_EVERY) -> bool:
        """Keep the verified game to go on from (when the last kept is `every` entries behind or more).
        Whether it was kept."""
        game_id = game.genesis.game_id
        row = tx.one("SELECT seq FROM checkpoints WHERE game_id = ?", (game_id,))
        if row is not None and game.seq - int(row[0]) < every:
            return False
        point = api.checkpoint(game)
        if point is None:
            return False
        if row is None:
            tx.run("INSERT INTO checkpoints (game_id, seq, key, size, stamp, state) VALUES (?, ?, ?, ?, ?, ?)",
                   (game_id, point.seq, point.key, point.size, point.stamp, point.state))
        else:
            tx.run("UPDATE checkpoints SET seq = ?, key = ?, size = ?, stamp = ?, state = ? WHERE game_id = ?",
                   (point.seq, point.key, point.size, point.stamp, point.state, game_id))
        return True

    def resume(self, tx: Tx, game_id: str) -> bool:
        """Go on from the game's checkpoint, when this process does not hold it already: whether it could."""
        row = tx.one("SELECT seq, key, size, stamp FROM checkpoints WHERE game_id = ?", (game_id,))
        if row is None:
            return False
        seq, key, size, stamp = int(row[0]), bytes(row[1]), int(row[2]), str(row[3])
        if self._resumed.get(game_id) == key and api.checkpoint_held(key):
            return True
        state = tx.one("SELECT state FROM checkpoints WHERE game_id = ?", (game_id,))
        assert state is not None
        done = api.resume_checkpoint(api.Checkpoint(seq, key, size, stamp, bytes(state[0])))
        if done:
            self._resumed[game_id] = key
        return done

    def set_next_due(self, tx: Tx, game_id: str, when: float | None) -> None:
        """When the game's deadlines next ask something of the judge (None: not until it changes)."""
        tx.run("UPDATE games SET next_due = ? WHERE game_id = ?", (NEVER if when is None else when, game_id))

    def due_games(self, now: float) -> list[str]:
        """The games whose deadlines may ask something of the judge now (or were never looked at)."""
        with self.db.transaction() as tx:
            return [str(r[0]) for r in tx.all("SELECT game_id FROM games WHERE next_due IS NULL OR next_due <= ? "
                                               "ORDER BY game_id", (now,))]

    def unrefereed(self) -> list[str]:
        """The games changed since the referee last did its duties in them (a judge stopped in between):
        a mail's transaction leaves next_due unset, the referee's sets it."""
        with self.db.transaction() as tx:
            return [str(r[0]) for r in tx.all("SELECT game_id FROM games WHERE next_due IS NULL ORDER BY game_id")]

    def received(self, tx: Tx, game_id: str, seq: int) -> float | None:
        """When the judge received (or signed) entry `seq` of a game (None: before it kept the time)."""
        row = tx.one("SELECT received FROM entries WHERE game_id = ? AND seq = ?", (game_id, seq))
        return None if row is None or row[0] is None else float(row[0])

    def sign(self, tx: Tx, game_id: str, places: dict[int, str], now: float) -> None:
        """Record the places the judge signed: a place signed before (by this judge or any other process on
        the same database) is refused by the primary key, and the whole transaction with it."""
        for place, digest in sorted(places.items()):
            tx.run("INSERT INTO signed (game_id, place, hash, judge, at) VALUES (?, ?, ?, ?, ?)",
                   (game_id, place, digest, self.owner, now))

    def places_signed(self) -> dict[tuple[str, int], str]:
        with self.db.transaction() as tx:
            return {(str(g), int(p)): str(h) for g, p, h in tx.all("SELECT game_id, place, hash FROM signed")}

    # ------------------------------------------------------------ the outbox

    def queue(self, tx: Tx, game_id: str, upto: int | None, message: bytes, about: str, now: float) -> None:
        """A mail into the outbox, `about` what it carries (for the log). With `upto`, it carries a game's
        entries up to there: every party counts as having them once it is committed (the outbox delivers)."""
        tx.run("INSERT INTO outbox (game_id, upto, message, about, created) VALUES (?, ?, ?, ?, ?)",
               (game_id, upto or 0, message, about, now))
        if upto is not None:
            tx.run("UPDATE games SET mailed = ? WHERE game_id = ? AND (mailed IS NULL OR mailed < ?)", (upto, game_id, upto))
            api.mark_mailed(game_id, upto)

    def claim_unsent(self, now: float, limit: int = 16) -> list[tuple[int, str, str, bytes]]:
        """Mails of the outbox nobody has sent, claimed for this judge: (id, game id, about, message)."""
        lock = " FOR UPDATE SKIP LOCKED" if self.db.postgres else ""  # SQLite: its one writer at a time does it
        with self.db.transaction() as tx:
            rows = tx.all("SELECT id, game_id, about, message FROM outbox WHERE sent IS NULL AND (claimed_by IS NULL "
                          "OR claimed_by = ? OR claimed_at < ?) ORDER BY id LIMIT ?" + lock,
                          (self.owner, now - STALE_CLAIM, limit))
            for row in rows:
                tx.run("UPDATE outbox SET claimed_by = ?, claimed_at = ? WHERE id = ?", (self.owner, now, row[0]))
        return [(int(r[0]), str(r[1]), str(r[2]), bytes(r[3])) for r in rows]

    def delivered(self, mail_ids: list[int], now: float) -> None:
        """Mark the mails the SMTP server took, all in one transaction."""
        if not mail_ids:
            return
        with self.db.transaction() as tx:
            for mail_id in mail_ids:
                tx.run("UPDATE outbox SET sent = ?, tries = tries + 1, error = NULL WHERE id = ?", (now, mail_id))

    def undelivered(self, mail_id: int, error: str) -> None:
        with self.db.transaction() as tx:
            tx.run("UPDATE outbox SET tries = tries + 1, error = ?, claimed_by = NULL WHERE id = ?", (error[:500], mail_id))

    def prune_outbox(self, now: float, keep: float = OUTBOX_KEPT) -> int:
        """Forget mails sent more than `keep` seconds ago (the game files hold what they carried); how many."""
        with self.db.transaction() as tx:
            return tx.run("DELETE FROM outbox WHERE sent IS NOT NULL AND sent < ?", (now - keep,))

    def unsent_count(self) -> int:
        with self.db.transaction() as tx:
            row = tx.one("SELECT COUNT(*) FROM outbox WHERE sent IS NULL")
        return int(row[0]) if row else 0

    # ------------------------------------------------------------ mails

    def take(self, name: str, now: float) -> int | None:
        """Claim a mail for this judge before its content is read; how many times it has been taken (this
        time included), or None when it is settled, waiting, or another live judge holds it. Not forced to
        disk: a claim a power cut loses only has the mail read again."""
        with self.db.transaction(forced=False) as tx:
            row = tx.one("SELECT state, owner, taken_at, tries FROM mails WHERE name = ?", (name,))
            if row is None:  # another judge may take it at this very moment: one insert wins, the other skips
                added = tx.run("INSERT INTO mails (name, state, owner, taken_at, tries) VALUES (?, 'taken', ?, ?, 1) "
                               "ON CONFLICT (name) DO NOTHING", (name, self.owner, now))
                return 1 if added else None
            state, owner, taken_at, tries = row
            if state in ("done", "parked", "quarantined"):
                return 0
            if state != "taken" or (owner != self.owner and float(taken_at or 0) > now - STALE_CLAIM):
                return None
            tx.run("UPDATE mails SET owner = ?, taken_at = ?, tries = ? WHERE name = ?", (self.owner, now, tries + 1, name))
            return int(tries) + 1

    def settle(self, tx: Tx | None, name: str, state: str, game_id: str | None = None, after: int | None = None,
               reason: str = "") -> None:
        """What became of a mail: `done` (set aside), `waiting` (for `after` of `game_id`), `parked` (a game
        not hosted here), `quarantined`."""
        if tx is None:
            with self.db.transaction() as own:
                self.settle(own, name, state, game_id, after, reason)
            return
        tx.run("UPDATE mails SET state = ?, owner = NULL, game_id = ?, after = ?, reason = ? WHERE name = ?",
               (state, game_id, after, reason[:1000], name))

    def waiting_in(self, tx: Tx, game_id: str) -> int:
        """How many mails wait for an entry of this game."""
        row = tx.one("SELECT COUNT(*) FROM mails WHERE state = 'waiting' AND game_id = ?", (game_id,))
        return int(row[0]) if row else 0

    def waiting(self) -> set[str]:
        with self.db.transaction() as tx:
            return {str(r[0]) for r in tx.all("SELECT name FROM mails WHERE state = 'waiting'")}

    def ready(self, tx: Tx, game_id: str, seq: int) -> list[str]:
        """The waiting mails of a game that now has entry `seq`: to be read again now."""
        names = [str(r[0]) for r in tx.all("SELECT name FROM mails WHERE state = 'waiting' AND game_id = ? AND after <= ? "
                                            "ORDER BY name", (game_id, seq))]
        self.reopen(tx, names)
        return names

    def parked_for(self, name: str) -> str | None:
        """The game a mail settled as parked waits for (None: not parked)."""
        with self.db.transaction() as tx:
            row = tx.one("SELECT game_id FROM mails WHERE name = ? AND state = 'parked'", (name,))
        return str(row[0]) if row and row[0] else None

    def reopen(self, tx: Tx, names: list[str]) -> None:
        """Mails set aside that are to be read again (waiting ones whose game moved on, parked ones whose
        game came): read as new."""
        for name in names:
            tx.run("DELETE FROM mails WHERE name = ?", (name,))

    def forget_mail(self, name: str) -> None:
        """A mail gone from the mailbox (another reader took it): nothing to remember."""
        with self.db.transaction() as tx:
            tx.run("DELETE FROM mails WHERE name = ? AND state IN ('taken', 'waiting')", (name,))

    # ------------------------------------------------------------ answers, deadlines, addresses

    def answered_at(self, address: str) -> float | None:
        with self.db.transaction() as tx:
            row = tx.one("SELECT at FROM answered WHERE address = ?", (address,))
        return float(row[0]) if row else None

    def note_answer(self, address: str, now: float) -> None:
        with self.db.transaction() as tx:
            if tx.run("UPDATE answered SET at = ? WHERE address = ?", (now, address)) == 0:
                tx.run("INSERT INTO answered (address, at) VALUES (?, ?)", (address, now))

    def deadlines_done(self, tx: Tx, game_id: str) -> set[str]:
        return {str(r[0]) for r in tx.all("SELECT item FROM deadlines WHERE game_id = ?", (game_id,))}

    def note_deadline(self, tx: Tx, game_id: str, item: str) -> None:
        tx.run("INSERT INTO deadlines (game_id, item) VALUES (?, ?)", (game_id, item))

    def addresses(self) -> dict[str, dict[str, str]]:
        found: dict[str, dict[str, str]] = {}
        with self.db.transaction() as tx:
            for game_id, name, address in tx.all("SELECT game_id, name, address FROM addresses"):
                found.setdefault(str(game_id), {})[str(name)] = str(address)
        return found

    def game_addresses(self, tx: Tx | None, game_id: str) -> dict[str, str]:
        """The addresses learned for a game's participants, by name (in `tx` when given)."""
        if tx is None:
            with self.db.transaction() as own:
                return self.game_addresses(own, game_id)
        return {str(n): str(a) for n, a in tx.all("SELECT name, address FROM addresses WHERE game_id = ?", (game_id,))}

    def knows_address(self, address: str) -> bool:
        """Whether an address was learned for a participant of any game (case aside): one the judge answers."""
        with self.db.transaction() as tx:
            return tx.one("SELECT 1 FROM addresses WHERE lower(address) = ? LIMIT 1", (address.lower(),)) is not None

    def learn(self, game_id: str, name: str, address: str, tx: Tx | None = None) -> bool:
        """The first address learned for a name in a game stays. Whether this one was new. In `tx` when
        given (with the mail that taught it: a judge killed after that mail was applied has learned it too)."""
        if tx is None:
            with self.db.transaction() as own:
                return self.learn(game_id, name, address, own)
        if tx.one("SELECT 1 FROM addresses WHERE game_id = ? AND name = ?", (game_id, name)):
            return False
        tx.run("INSERT INTO addresses (game_id, name, address) VALUES (?, ?, ?)", (game_id, name, address))
        return True

    # ------------------------------------------------------------ the portable record

    def export(self, directory: Path) -> list[Path]:
        """Every game the store holds, written as its game file in `directory` (GAME-SHORTID.json): the
        portable, verifiable record, the same bytes any pbem writes."""
        directory.mkdir(parents=True, exist_ok=True)
        written = []
        for game_id in self.game_ids():
            with self.db.transaction() as tx:
                genesis = tx.one("SELECT genesis FROM games WHERE game_id = ?", (game_id,))
                rows = tx.all("SELECT body FROM entries WHERE game_id = ? ORDER BY seq", (game_id,))
            assert genesis is not None
            record = record_of(bytes(genesis[0]), [bytes(r[0]) for r in rows])
            path = directory / f"{record.genesis.game}-{api.short_id(game_id)}.json"
            api.write_file(path, api.to_json(record).encode())
            written.append(path)
        return written


def _later(a: int | None, b: int | None) -> int | None:
    return b if a is None else a if b is None else max(a, b)


def record_parts(record: api.GameFile, start: int = 0) -> tuple[bytes, list[bytes]]:
    """A record as the judge's database keeps it: its genesis and each entry from `start` on, as JSON
    (a turn writes only the entries it adds: the cost of a turn stays flat in the game's length)."""
    genesis = json.dumps(record.genesis.model_dump(exclude_none=True), sort_keys=True).encode()
    return genesis, [json.dumps(e.model_dump(exclude_none=True), sort_keys=True).encode() for e in record.entries[start:]]


def record_of(genesis: bytes, entries: list[bytes]) -> api.GameFile:
    """The record from its parts as the database keeps them (validated again on the way in)."""
    return api.read_record(b'{"genesis": ' + genesis + b', "entries": [' + b", ".join(entries) + b"]}")


def open_store(url: str, games: Path, home: Path) -> Store:
    """The judge's store at `url` (a SQLite file's path, or postgresql://...), migrated, for this judge."""
    return Store(Database(url), games, os.environ.get("PBEM_JUDGE_NAME") or default_owner(home))
