"""The judge's service: read mail, apply every valid turn, do every referee duty at once, mail what it
signed; again and again (`run`), or once (`once`, for cron).

Its memory is its store (store.py: SQLite by default, PostgreSQL for several judges). Each mail is
applied, and each game's duties done, in one transaction that holds the game's lock: the entries, the
places the judge signed (one row a place: a second entry for a place is refused by the database), what
became of the mail, and the mail that carries what was signed (the outbox) are committed together or not
at all. A sender then delivers the outbox and marks what the SMTP server took, so a crash at any moment
loses no accepted turn and leaves no signed entry unsent, and a restarted judge (or another on the same
database) finds in the store what is done and what is owed.

No mail can stop it (mailroom.py, spool.py): each is read on its own, claimed in the store before its content is read,
and what became of it is one typed value (`Fate`) that decides where it goes and whether its sender is
answered. An error nobody foresaw in one mail, one game or one pass is logged once and set aside (a mail
to the quarantine folder); the loop goes on. A turn of a game not hosted here is set aside unparsed for
good, and a turn waiting for an earlier one is read again only when its game moves on, so a pass costs
the new mail only. Answers are built from validated header values only (replies.py).

PBEM_HOME is set to the judge's home for the whole process: its copies (games-files/) and what it has
seen there are the store's cache, made equal to the store under each game's lock before use.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Callable
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default as default_policy
from pathlib import Path
from types import FrameType
from typing import Any

from pbem.api import TurnResult
from pbem.judge import deadlines, library
from pbem.judge.config import Config
from pbem.judge.database import StoreError
from pbem.judge.mailroom import Mailroom
from pbem.judge.moving_in import import_home, moved_text
from pbem.judge.spool import Spool
from pbem.judge.store import Store, open_store

BATCH = 16
"""Mails read in one go: their answers go out before the next batch is read (a quick reply to each turn,
rather than the whole backlog read first)."""
SWEEP_SECONDS = 60
"""How often every game's deadlines are looked at (their times are hours)."""
PAUSE_AFTER_ERROR = 5.0
"""Seconds the service waits after a pass that failed in a way nobody foresaw, before the next one."""


def _stamp(now: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now))


def open_memory(config: Config, now: float, log: Callable[[str], None] | None = None) -> Store:
    """The judge's store, with a home of files from before the store taken in when its SQLite file is made
    (a PostgreSQL database is moved into by `pbem judge migrate`: several judges share it)."""
    first = not config.database.startswith(("postgresql://", "postgres://")) and not Path(config.database).exists()
    store = open_store(config.database, config.games, config.home)
    if first and library.copies_in(config.games):
        counts = import_home(store, config.home, now)
        if log:
            log(f"moved into the store: {moved_text(counts)}")
    return store


class Judge(Mailroom):
    def __init__(self, config: Config, log: Callable[[str], None] | None = None,
                 clock: Callable[[], float] | None = None):
        config.check_mail()
        self.config = config
        self.injected = clock is not None
        self.clock: Callable[[], float] = clock or library.clock_now  # one clock: PBEM_NOW's when it is set
        self._write_log = log or (lambda line: print(line, file=sys.stderr, flush=True))
        os.environ["PBEM_HOME"] = str(config.home)  # the seen-store, the marks: the judge's own memory
        for folder in (config.home, config.games):
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        self.store = open_memory(config, self.clock(), self.log)
        self.spool = Spool(config.spool, config.home, self.store)
        self.identity = library.load_identity(str(config.key))
        keys = config.home / "keys"  # its public key, so the inbox keeps the games it is in
        keys.mkdir(exist_ok=True, mode=0o700)
        pub = keys / "judge.pub"
        if not pub.exists() or library.read_file(pub, "a public key file", 16 * 1024).decode(errors="replace").strip() \
                != self.identity.public.line():
            library.write_file(pub, (self.identity.public.line() + "\n").encode())
        self.pending: set[str] = set(self.store.unrefereed())  # at start: what a stop left undone, not every game
        self.errors_logged: set[str] = set()
        self.names: dict[str, str | None] = {}
        """game id -> the judge's name in it, when it referees it."""
        self.stopping = False
        self._imap: Any = None
        self.last_sweep = float("-inf")
        self.looked: set[str] = set()

    # ------------------------------------------------------------ logging and addresses

    def log(self, text: str) -> None:
        line = f"{_stamp(self.clock())} {text}"
        if self.held is not None:
            self.held.append(line)  # about a mail not settled yet: said with its settling
        else:
            self._write_log(line)

    def book(self, game_id: str, me: str, tx: Any = None) -> dict[str, str]:
        """The game's addresses as the store holds them (in `tx` when given): those learned, by this judge or
        another on the same database, then the configuration's, then the judge's own."""
        learned = self.store.game_addresses(tx, game_id)
        return {**learned, **self.config.contacts, me: self.config.address}

    def _once(self, key: str, line: str) -> None:
        """Log an error once: one that comes back on every pass is not news."""
        if key not in self.errors_logged:
            self.errors_logged.add(key)
            self.log(line)

    # ------------------------------------------------------------ one pass

    def fetch(self) -> None:
        """IMAP: copy what is new on the server into the spool (its new/ is then read as a Maildir's)."""
        if self.config.imap is None:
            return
        if self._imap is None:
            self._imap = library.imap_connect(library.imap_mailbox(self.config.imap))
        try:
            copied = self._imap.fetch_into(self.config.spool, self.config.home / "imap-state.json")
        except Exception:
            self._imap.close()
            self._imap = None
            raise
        if copied:
            self.log(f"fetched {copied} mail{'s' if copied != 1 else ''} from {self.config.imap}")

    def new_mail(self) -> list[Path]:
        return self.spool.unread()

    def read(self, tried: set[str] | None = None) -> int:
        """Read a batch of the mails in new/ not tried in this pass (`tried`, which grows): each applied in
        turn, the batch forced to disk once, then each moved and answered."""
        tried = set() if tried is None else tried
        files = [p for p in self.new_mail() if p.name not in tried][:BATCH]
        tried.update(p.name for p in files)
        queue = list(files)
        while queue:  # the batch applied, then forced to disk once, then moved and answered
            received = [(path, self.receive(path)) for path in queue]
            if not self.force():
                for _, mail in received:
                    mail.said_only()
                break
            ready = [name for path, mail in received for name in self.settle(path, mail)]
            queue = [p for p in (self.spool.new / name for name in ready) if p.exists()]  # waiting mails with room now
        return len(files)

    def referee(self, game_id: str) -> bool:
        """Do what the referee owes in one game, and put the mail that carries it in the outbox, in one
        transaction under the game's lock; False when it must be tried again later."""
        return self._judged(game_id, lambda: self._in_transaction(game_id))

    def referee_in(self, tx: Any, game_id: str, game: library.Replay | None = None) -> bool:
        """The same within a mail's transaction, which holds the game's lock: one commit for the turn and the
        duties it brings (`game`: as the turn left it, verified). A part that fails alone: the mail stays
        applied, and False says the duties must be tried again in a transaction of their own."""
        def part() -> None:
            with tx.part():
                self._duties(tx, game_id, game)
        return self._judged(game_id, part)

    def _in_transaction(self, game_id: str) -> None:
        with self.store.db.transaction(lock=[game_id]) as tx:
            self._duties(tx, game_id)

    def _duties(self, tx: Any, game_id: str, game: library.Replay | None = None) -> None:
        try:
            self._referee(tx, game_id, game)
        except BaseException:
            self.store.forget(game_id)  # the copy may hold what the database does not
            raise

    def _judged(self, game_id: str, run: Callable[[], None]) -> bool:
        """Run the referee's step; what went wrong is logged (once when it comes back), never raised."""
        short = library.short_id(game_id)
        try:
            run()
            return True
        except StoreError as exc:
            self._once(f"referee {game_id} {exc}", f"error {short}: {exc}")
            return False
        except library.PbemError as exc:
            self.log(f"error {short}: {exc}")
            return True
        except Exception as exc:  # noqa: BLE001  (one game's fault never stops the others)
            self._once(f"referee {game_id} {exc}", f"error {short}: unexpected {type(exc).__name__}: {exc}")
            return True  # tried again when the game changes, not on every pass

    def _referee_name(self, game_id: str, path: Path) -> str | None:
        """The judge's name in a game, if it referees it: read once (a game's invitation never changes)."""
        if game_id not in self.names:
            self.names[game_id] = library.referee_name(path, self.identity.public)
        return self.names[game_id]

    def _referee(self, tx: Any, game_id: str, game: library.Replay | None = None) -> None:
        path = self.store.sync(tx, game_id)
        if path is None:
            return
        name = self._referee_name(game_id, path)
        if name is None:
            self.log(f"skipped {path.name}: the judge is not its referee")
            return
        turn = library.referee(path, name, str(self.config.key), game=game)
        self._refereed(turn)
        rep = turn.rep
        now = self.clock()
        if turn.written:
            self.store.save(tx, path, now, rep)
            first = rep.seq - turn.written + 1
            self.store.sign(tx, game_id, {seq: rep.hashes[seq] for seq in range(first, rep.seq + 1)}, now)
            self.store.checkpoint(tx, rep)
            self.log(f"signed {rep.genesis.game} {library.short_id(game_id)} entries {first}-{rep.seq} as {name}")
        self._queue(tx, rep, name, now)
        # when its deadlines next ask something: worked out now, not by the sweep opening the game again
        next_due: float | None = None
        if rep.genesis.deadlines is not None:
            def received(seq: int) -> float | None:
                return self.store.received(tx, game_id, seq)

            owed_now = deadlines.due(rep, int(now), name, self.store.deadlines_done(tx, game_id), received)
            next_due = now if owed_now else deadlines.next_time(rep, int(now), name, received)
        self.store.set_next_due(tx, game_id, next_due)

    def _refereed(self, turn: TurnResult) -> None:
        """The duties done, in a transaction not committed yet: the game and the referee's session on it,
        which a judge that shows games keeps (web_judge.py)."""

    def _queue(self, tx: Any, rep: library.Replay, name: str, now: float) -> None:
        """The mail of what the parties have not had, into the outbox (with the mark that they have)."""
        try:
            msg = library.outgoing(rep, name, self.book(rep.genesis.game_id, name, tx))
        except library.PbemError as exc:  # an address not known yet: what was signed stands, mailed once it is
            self._once(f"outgoing {rep.genesis.game_id} {rep.seq} {exc}",
                       f"error {library.short_id(rep.genesis.game_id)}: cannot mail entry {rep.seq} yet: {exc}")
            return
        if msg is not None:
            about = (f"{rep.genesis.game} {library.short_id(rep.genesis.game_id)} up to entry {rep.seq} to {msg['To']}"
                     + (f", cc {msg['Cc']}" if msg["Cc"] else ""))
            self.store.queue(tx, rep.genesis.game_id, rep.seq, bytes(msg), about, now)

    def deliver(self) -> None:
        """Send what the outbox holds, marking what the SMTP server took; what it refused waits."""
        smtp = self.config.smtp
        self.store.db.force()  # what leaves the judge is on its disk first
        unsent = self.store.claim_unsent(self.clock())
        if not unsent:
            return
        sent: list[int] = []
        try:
            with library.smtp_connection(smtp.server, smtp.security, smtp.user) as connection:
                for mail_id, game_id, about, data in unsent:
                    msg = message_from_bytes(data, policy=default_policy)
                    assert isinstance(msg, EmailMessage)
                    try:
                        connection.send(msg)
                    except library.PbemError as exc:
                        self.store.undelivered(mail_id, str(exc))
                        self._once(f"deliver {mail_id} {exc}", f"error mailing {library.short_id(game_id)}: {exc}")
                        continue
                    sent.append(mail_id)
                    self.log(f"mailed {about}")
        finally:  # marked in one transaction (a crash before it: those are sent again, with their Message-IDs)
            self.store.delivered(sent, self.clock())

    def once(self) -> None:
        """One pass: fetch, read, referee every game that changed (and every game, on the first pass), and
        at most once a minute, every game's deadlines."""
        if self.injected:  # what the judge signs carries the clock it judges by (PBEM_NOW: pbem's own clock)
            os.environ["PBEM_NOW"] = str(int(self.clock()))
        try:
            self.fetch()
        except Exception as exc:  # noqa: BLE001  (a server down or a protocol surprise: the spool is still read)
            self.log(f"error fetching mail: {exc}")
        if self.clock() - self.last_sweep >= SWEEP_SECONDS:
            self.last_sweep = self.clock()
            self.sweep()
        tried: set[str] = set()
        while True:  # a batch of mail read, its games refereed and mailed, then the next batch
            read = self.read(tried)
            todo, self.pending = sorted(self.pending), set()
            retry = {game_id for game_id in todo if not self.referee(game_id)}
            try:
                self.deliver()
            except StoreError as exc:
                self._once(f"deliver {exc}", f"error mailing: {exc}")
            if read < BATCH or self.stopping:
                self.pending |= retry
                self.looked = self.spool.looked_at()  # what is left waits for a mail not here yet
                return
            self.pending |= retry

    # ------------------------------------------------------------ deadlines

    def sweep(self) -> None:
        """The deadlines of every game with something due at the judge's clock: reminders, notices, absences
        (deadlines.py). A game is looked at when its next deadline time has come, not at every sweep."""
        now = int(self.clock())
        self.store.prune_outbox(now)
        for game_id in self.store.due_games(now):
            short = library.short_id(game_id)
            try:
                with self.store.db.transaction(lock=[game_id]) as tx:
                    try:
                        self._deadlines(tx, game_id, now)
                    except BaseException:
                        self.store.forget(game_id)
                        raise
            except library.PbemError as exc:
                self._once(f"deadlines {game_id} {exc}", f"error {short}: deadlines: {exc}")
            except Exception as exc:  # noqa: BLE001  (one game's fault never stops the others)
                self._once(f"deadlines {game_id} {exc}", f"error {short}: deadlines: unexpected {type(exc).__name__}: {exc}")

    def _deadlines(self, tx: Any, game_id: str, now: int) -> None:
        path = self.store.sync(tx, game_id)
        name = self._referee_name(game_id, path) if path is not None else None
        if path is None or name is None or not library.has_deadlines(path):
            self.store.set_next_due(tx, game_id, None)
            return
        rep = library.open_game(path)
        done = self.store.deadlines_done(tx, game_id)
        def received(seq: int) -> float | None:
            return self.store.received(tx, game_id, seq)

        for item in deadlines.due(rep, now, name, done, received):
            self._keep(tx, path, rep, name, item)
            self.store.note_deadline(tx, game_id, item.key)
            if item.kind == "absent":
                return  # the game has moved on: its next deadline is worked out again
        self.store.set_next_due(tx, game_id, deadlines.next_time(rep, now, name, received))

    def _keep(self, tx: Any, path: Path, rep: library.Replay, name: str, item: deadlines.Due) -> None:
        short = f"{rep.genesis.game} {library.short_id(rep.genesis.game_id)}"
        now = self.clock()
        if item.kind == "absent":
            before = rep.seq
            after, _ = library.absent(path, item.party, name, str(self.config.key), int(now))
            self.store.save(tx, path, now)
            self.store.sign(tx, rep.genesis.game_id, {seq: after.hashes[seq] for seq in range(before + 1, after.seq + 1)
                                                      if after.entries[seq - 1].author == name}, now)
            self.log(f"recorded {short}: {item.party} absent from a {item.what} owed since entry {item.since}")
            self.pending.add(rep.genesis.game_id)  # what follows done, and mailed, by this pass's referee step
            return
        subject, body = deadlines.text(rep, item)
        book = self.book(rep.genesis.game_id, name, tx)
        if item.party not in book:
            raise library.PbemError(f"no mail address for {item.party}")
        msg = deadlines.mail(self.config.address, name, item.party, book[item.party], subject, body, rep)
        self.store.queue(tx, rep.genesis.game_id, None, bytes(msg),
                         f"{short} a {item.kind} to {item.party}: {item.what} owed since entry {item.since}", now)

    # ------------------------------------------------------------ the service

    def wait(self, seconds: float) -> None:
        """Until new mail may be there: IDLE on IMAP, a look at new/ every tenth of a second otherwise."""
        if self._imap is not None:
            try:
                self._imap.wait(seconds)
            except Exception as exc:  # noqa: BLE001  (a server gone: connect again on the next pass)
                self.log(f"error waiting for mail: {exc}")
                self._imap.close()
                self._imap = None
                time.sleep(min(seconds, 5))
            return
        deadline = time.monotonic() + seconds
        while not self.stopping and time.monotonic() < deadline and not self.pending:
            if any(not n.startswith(".") and n not in self.looked for n in self.spool.looked_at()):
                return  # a mail not looked at yet (those left in new/ wait for another)
            time.sleep(0.1)

    def run(self) -> None:
        """Until SIGTERM or SIGINT: each pass ends, then the judge stops."""
        def stop(signum: int, frame: FrameType | None) -> None:
            self.stopping = True

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        self.log(f"started: {self.identity.public.line()}, games in {self.config.games}, mail from "
                 f"{self.config.imap or self.config.spool}")
        if os.environ.get("PBEM_NOW"):
            self.log(f"warning: PBEM_NOW is set: the judge's clock stands at {_stamp(self.clock())}, a testing "
                     "override (docs/deadlines.md)")
        while not self.stopping:
            try:
                self.once()
            except Exception as exc:  # noqa: BLE001  (the last guard: a pass that failed is logged, the next one runs)
                self._once(f"pass {exc}", f"error in a pass: unexpected {type(exc).__name__}: {exc}")
                time.sleep(PAUSE_AFTER_ERROR)
            if not self.stopping:
                self.wait(self.config.poll)
        self.log("stopped")
