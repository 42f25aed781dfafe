"""The judge's service: read mail, apply every valid turn, do every referee duty at once, mail what it
signed; again and again (`run`), or once (`once`, for cron).

Crash safety, in the order things happen: a turn is applied to the copy (written with fsync) before
its mail is moved out of new/, so a crash reads it again (and finds it known); the referee's entries
are written (fsync) before they are mailed, and the mark of what was mailed moves only after the SMTP
server took the mail, so a crash mails them again (the same entries, the same Message-ID) and never
signs others for the same place: a restarted judge finds them in its copy and has nothing to sign.
A bad mail is logged, set aside in cur/ and never stops the others; nothing is deleted.

Its memory (the copies, what it has seen of every game, the marks of what was mailed, the addresses
learned) lives in its own home: PBEM_HOME is set to it for the whole process.
"""

from __future__ import annotations

import email.utils
import json
import os
import signal
import sys
import time
from collections.abc import Callable
from email.parser import BytesHeaderParser
from email.policy import default as default_policy
from pathlib import Path
from types import FrameType
from typing import Any

from pbem.judge import deadlines, library, replies
from pbem.judge.config import Config

SEEN_FLAG = ":2,S"
BATCH = 16
"""Mails read in one go: their answers go out before the next batch is read (a quick reply to each turn,
rather than the whole backlog read first)."""
SWEEP_SECONDS = 60
"""How often every game's deadlines are looked at (their times are hours)."""
MAX_MAIL = 64 * 1024 * 1024


def _stamp(now: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now))


class Judge:
    def __init__(self, config: Config, log: Callable[[str], None] | None = None,
                 clock: Callable[[], float] = time.time):
        config.check_mail()
        self.config, self.clock = config, clock
        self._write_log = log or (lambda line: print(line, file=sys.stderr, flush=True))
        os.environ["PBEM_HOME"] = str(config.home)  # the seen-store, the marks: the judge's own memory
        for folder in (config.home, config.games, config.spool / "new", config.spool / "cur", config.spool / "tmp"):
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        self.identity = library.load_identity(str(config.key))
        keys = config.home / "keys"  # its public key, so the inbox keeps the games it is in
        keys.mkdir(exist_ok=True, mode=0o700)
        pub = keys / "judge.pub"
        if not pub.exists() or library.read_file(pub, "a public key file", 16 * 1024).decode(errors="replace").strip() \
                != self.identity.public.line():
            library.write_file(pub, (self.identity.public.line() + "\n").encode())
        self.book_path = config.home / "addresses.json"
        self.learned: dict[str, dict[str, str]] = self._load_book()
        self.pending: set[Path] = set(library.copies_in(config.games))  # at start: every game, once
        self.waiting_logged: set[str] = set()
        self.stopping = False
        self._imap: Any = None
        self.injected = clock is not time.time
        self.deadlines_path = config.home / "deadlines.json"
        self.last_sweep = float("-inf")
        self.looked: set[str] = set()
        self.answered = replies.Answered(config.home / "answered.json")

    # ------------------------------------------------------------ logging and addresses

    def log(self, text: str) -> None:
        self._write_log(f"{_stamp(self.clock())} {text}")

    def _load_book(self) -> dict[str, dict[str, str]]:
        try:
            data = library.parse_json(library.read_file(self.book_path, "an address book", 16 * 1024 * 1024))
            return {g: dict(names) for g, names in data.items()} if isinstance(data, dict) else {}
        except (library.PbemError, ValueError, TypeError, AttributeError):
            return {}

    def _learn(self, path: Path, games: list[str]) -> None:
        """Each participant's address, from the headers of a mail that brought a valid turn of their game
        (pbem mail names everyone by their name in the game). The first address learned for a name stays."""
        try:
            headers = BytesHeaderParser(policy=default_policy).parsebytes(library.read_file(path, "a mail", MAX_MAIL))
            pairs = email.utils.getaddresses([str(headers.get(h, "")) for h in ("From", "To", "Cc")])
        except (library.PbemError, ValueError, TypeError, IndexError):
            return
        changed = False
        for game in games:
            known = self.learned.setdefault(game, {})
            for name, addr in pairs:
                if library.is_name(name) and name not in known and addr and addr != self.config.address:
                    try:
                        known[name] = library.check_address(addr)
                        changed = True
                    except library.PbemError:
                        continue
        if changed:
            library.write_file(self.book_path, json.dumps(self.learned, sort_keys=True, indent=1).encode(), mode=0o600)

    def book(self, game_id: str, me: str) -> dict[str, str]:
        return {**self.learned.get(game_id, {}), **self.config.contacts, me: self.config.address}

    # ------------------------------------------------------------ one pass

    def fetch(self) -> None:
        """IMAP: copy what is new on the server into the spool (its new/ is then read as a Maildir's)."""
        if self.config.imap is None:
            return
        if self._imap is None:
            self._imap = library.imap_connect(library.imap_mailbox(self.config.imap))
        try:
            copied = self._imap.fetch_into(self.config.spool, self.config.home / "imap-state.json")
        except library.PbemError:
            self._imap.close()
            self._imap = None
            raise
        if copied:
            self.log(f"fetched {copied} mail{'s' if copied != 1 else ''} from {self.config.imap}")

    def new_mail(self) -> list[Path]:
        folder = self.config.spool / "new"
        return sorted(p for p in folder.iterdir() if not p.name.startswith(".") and not p.is_dir())  # a pipe: refused

    def read(self, tried: set[str] | None = None) -> int:
        """Read a batch of the mails in new/ not tried in this pass (`tried`, which grows)."""
        tried = set() if tried is None else tried
        files = [p for p in self.new_mail() if p.name not in tried][:BATCH]
        tried.update(p.name for p in files)
        if not files:
            return 0
        report = library.read_mail(files, self.config.games)
        for game_id, (copy, first, last) in report.updated.items():
            what = f"entries {first}-{last}" if last >= first else "the invitation"
            self.log(f"applied {library.short_id(game_id)} {what} to {copy.name}")
            self.pending.add(copy)
        for outcome in report.outcomes:
            name = outcome.path.name
            if outcome.kind == "applied":
                self._learn(outcome.path, outcome.games)
            elif outcome.kind == "waiting":
                if name not in self.waiting_logged:
                    self.waiting_logged.add(name)
                    self.log(f"waiting mail {name}: {outcome.reason}")
                continue
            elif outcome.kind == "ignored":
                self.log(f"ignored mail {name}: no pbem turn or game in it")
            else:
                self.log(f"refused mail {name}: {outcome.reason}")
                self._answer(outcome.path, outcome.reason)
            self._set_aside(outcome.path)
        return len(files)

    def _answer(self, path: Path, reason: str) -> None:
        """Tell a participant why their mail was refused (replies.py: known addresses only, once an hour)."""
        sender = replies.sender_of(path)
        known = {a.lower() for names in self.learned.values() for a in names.values()} | \
            {a.lower() for a in self.config.contacts.values()}
        if sender is None or sender.address not in known or sender.address == self.config.address.lower():
            return
        now = self.clock()
        if not self.answered.due(sender.address, now):
            return
        smtp = self.config.smtp
        try:
            said = reason.replace(str(path), "your mail")  # the judge's own paths are not the player's business
            library.send(replies.answer(self.config.address, sender, said), smtp.server, smtp.security, smtp.user)
        except library.PbemError as exc:
            self.log(f"error answering {sender.address}: {exc}")
            return
        self.answered.note(sender.address, now)
        self.log(f"answered {sender.address}: why {path.name} was refused")

    def _set_aside(self, path: Path) -> None:
        """Out of new/ into cur/, as a mail program marks a mail read: kept, not read again."""
        self.waiting_logged.discard(path.name)
        try:
            os.replace(path, self.config.spool / "cur" / (path.name.split(":")[0] + SEEN_FLAG))
        except FileNotFoundError:
            pass

    def referee(self, path: Path) -> bool:
        """Do what the referee owes in one game and mail it; False when it must be tried again later."""
        try:
            name = library.referee_name(path, self.identity.public)
            if name is None:
                self.log(f"skipped {path.name}: the judge is not its referee")
                return True
            turn = library.referee_duties(path, name, self.config.key)
            rep = turn.rep
            short = library.short_id(rep.genesis.game_id)
            if turn.written:
                self.log(f"signed {rep.genesis.game} {short} entries {rep.seq - turn.written + 1}-{rep.seq} as {name}")
            msg = library.outgoing(rep, name, self.book(rep.genesis.game_id, name))
            if msg is None:
                return True
            smtp = self.config.smtp
            library.send(msg, smtp.server, smtp.security, smtp.user)
            library.mark_mailed(rep.genesis.game_id, rep.seq)
            self.log(f"mailed {rep.genesis.game} {short} up to entry {rep.seq} to {msg['To']}"
                     + (f", cc {msg['Cc']}" if msg["Cc"] else ""))
            return True
        except library.PbemError as exc:
            self.log(f"error {path.name}: {exc}")
            return not library.retry_later(exc)

    def once(self) -> None:
        """One pass: fetch, read, referee every game that changed (and every game, on the first pass), and
        at most once a minute, every game's deadlines."""
        if self.injected:  # what the judge signs carries the clock it judges by (PBEM_NOW: pbem's own clock)
            os.environ["PBEM_NOW"] = str(int(self.clock()))
        try:
            self.fetch()
        except library.PbemError as exc:
            self.log(f"error fetching mail: {exc}")
        if self.clock() - self.last_sweep >= SWEEP_SECONDS:
            self.last_sweep = self.clock()
            self.sweep()
        tried: set[str] = set()
        while True:  # a batch of mail read, its games refereed and mailed, then the next batch
            read = self.read(tried)
            todo, self.pending = sorted(self.pending), set()
            retry = {path for path in todo if not self.referee(path)}
            if read < BATCH or self.stopping:
                self.pending |= retry
                self.looked = {p.name for p in self.new_mail()}  # what is left waits for a mail not here yet
                return
            self.pending |= retry

    # ------------------------------------------------------------ deadlines

    def _deadlines_done(self) -> dict[str, list[str]]:
        try:
            data = json.loads(library.read_file(self.deadlines_path, "the judge's deadline notes", 16 * 1024 * 1024))
            return {str(g): [str(k) for k in keys] for g, keys in data.items()} if isinstance(data, dict) else {}
        except (library.PbemError, ValueError, TypeError, AttributeError):
            return {}

    def sweep(self) -> None:
        """Every game's deadlines at the judge's clock: reminders, notices, absences (deadlines.py)."""
        done = self._deadlines_done()
        now = int(self.clock())
        for path in library.copies_in(self.config.games):
            try:
                if not library.has_deadlines(path):
                    continue
                name = library.referee_name(path, self.identity.public)
                if name is None:
                    continue
                rep = library.open_game(path)
                noted = done.setdefault(rep.genesis.game_id, [])
                for item in deadlines.due(rep, now, name, set(noted)):
                    self._keep(path, rep, name, item)
                    noted.append(item.key)
                    library.write_file(self.deadlines_path, json.dumps(done, sort_keys=True).encode(), mode=0o600)
            except library.PbemError as exc:
                self.log(f"error {path.name}: deadlines: {exc}")

    def _keep(self, path: Path, rep: library.Replay, name: str, item: deadlines.Due) -> None:
        short = f"{rep.genesis.game} {library.short_id(rep.genesis.game_id)}"
        if item.kind == "absent":
            library.absent(path, item.party, name, str(self.config.key), int(self.clock()))
            self.log(f"recorded {short}: {item.party} absent from a {item.what} owed since entry {item.since}")
            self.pending.add(path)  # mailed, and what follows done, by this pass's referee step
            return
        subject, body = deadlines.text(rep, item)
        book = self.book(rep.genesis.game_id, name)
        if item.party not in book:
            raise library.PbemError(f"no mail address for {item.party}")
        smtp = self.config.smtp
        library.send(deadlines.mail(self.config.address, name, item.party, book[item.party], subject, body, rep),
                     smtp.server, smtp.security, smtp.user)
        self.log(f"mailed {short} a {item.kind} to {item.party}: {item.what} owed since entry {item.since}")

    # ------------------------------------------------------------ the service

    def wait(self, seconds: float) -> None:
        """Until new mail may be there: IDLE on IMAP, a look at new/ every tenth of a second otherwise."""
        if self._imap is not None:
            try:
                self._imap.wait(seconds)
            except (library.PbemError, OSError) as exc:
                self.log(f"error waiting for mail: {exc}")
                self._imap.close()
                self._imap = None
                time.sleep(min(seconds, 5))
            return
        deadline = time.monotonic() + seconds
        folder = self.config.spool / "new"
        while not self.stopping and time.monotonic() < deadline and not self.pending:
            if any(not n.startswith(".") and n not in self.looked for n in os.listdir(folder)):
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
        while not self.stopping:
            self.once()
            if not self.stopping:
                self.wait(self.config.poll)
        self.log("stopped")
