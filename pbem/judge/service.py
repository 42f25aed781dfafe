"""The judge's service: read mail, apply every valid turn, do every referee duty at once, mail what it
signed; again and again (`run`), or once (`once`, for cron).

Crash safety, in the order things happen: a turn is applied to the copy (written with fsync) before
its mail is moved out of new/, so a crash reads it again (and finds it known); the referee's entries
are written (fsync) before they are mailed, and the mark of what was mailed moves only after the SMTP
server took the mail, so a crash mails them again (the same entries, the same Message-ID) and never
signs others for the same place: a restarted judge finds them in its copy and has nothing to sign.

No mail can stop it (spool.py): each is read on its own, marked as taken before its content is read,
and what became of it is one typed value (`Fate`) that decides where it goes and whether its sender is
answered. An error nobody foresaw in one mail, one game or one pass is logged once and set aside (a mail
to the quarantine folder); the loop goes on. A turn of a game not hosted here is set aside unparsed for
good, and a turn waiting for an earlier one is read again only when its game moves on, so a pass costs
the new mail only. Answers are built from validated header values only (replies.py).

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
from pbem.judge.spool import MAX_TRIES, Spool

BATCH = 16
"""Mails read in one go: their answers go out before the next batch is read (a quick reply to each turn,
rather than the whole backlog read first)."""
SWEEP_SECONDS = 60
"""How often every game's deadlines are looked at (their times are hours)."""
PAUSE_AFTER_ERROR = 5.0
"""Seconds the service waits after a pass that failed in a way nobody foresaw, before the next one."""


def _stamp(now: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now))


class Judge:
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
        self.spool = Spool(config.spool, config.home)
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
        self.errors_logged: set[str] = set()
        self.stopping = False
        self._imap: Any = None
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

    def _learn(self, data: bytes, games: tuple[str, ...]) -> None:
        """Each participant's address, from the headers of a mail that brought a valid turn of their game
        (pbem mail names everyone by their name in the game). The first address learned for a name stays."""
        try:
            headers = BytesHeaderParser(policy=default_policy).parsebytes(data)
            pairs = email.utils.getaddresses([str(headers.get(h, "")) for h in ("From", "To", "Cc")])
        except (ValueError, TypeError, IndexError, LookupError, AttributeError):
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
        """Read a batch of the mails in new/ not tried in this pass (`tried`, which grows), one by one."""
        tried = set() if tried is None else tried
        files = [p for p in self.new_mail() if p.name not in tried][:BATCH]
        tried.update(p.name for p in files)
        queue = list(files)
        while queue:
            path = queue.pop(0)
            ready = [self.spool.new / name for name in self.handle(path)]  # waiting mails its game has room for
            queue += [p for p in ready if p.exists()]
        return len(files)

    def handle(self, path: Path) -> list[str]:
        """Read one mail and put it where its fate says; returns the set-aside mails it made ready. Nothing
        that happens here, whatever the mail holds, leaves this function as an exception."""
        tries = self.spool.take(path)
        try:
            if tries > MAX_TRIES:
                self._quarantine(path, f"the judge stopped {MAX_TRIES} times while reading it")
                return []
            try:
                data = library.read_file(path, "a mail", library.MAX_MAIL)  # the gate pbem inbox reads through
            except library.PbemError as exc:
                if not path.exists():
                    return []  # gone (another reader of the Maildir): nothing to do
                self.log(f"refused mail {path.name}: {exc}")
                self.spool.set_aside(path)
                return []
            read = library.read_one(str(path), data, self.config.games)
            return self._settle(path, data, read)
        except Exception as exc:  # noqa: BLE001  (one mail never stops the judge: the operator reads why)
            self._quarantine(path, f"{type(exc).__name__}: {exc}")
            return []
        finally:
            self.spool.done()

    def _settle(self, path: Path, data: bytes, read: library.MailRead) -> list[str]:
        name, outcome, ready = path.name, read.outcome, []
        for game_id, (copy, first, last) in read.updated.items():
            what = f"entries {first}-{last}" if last >= first else "the invitation"
            self.log(f"applied {library.short_id(game_id)} {what} to {copy.name}")
            self.pending.add(copy)
            early = self.spool.unpark(game_id) if first <= 1 else []
            if early:
                self.log(f"read again the turns of {library.short_id(game_id)} that came before its invitation")
            ready += early + self.spool.ready(game_id, last)
        fate = outcome.fate
        if fate is library.Fate.WAITING and outcome.waits_for is not None:
            if self.spool.wait(path, *outcome.waits_for):
                self.log(f"waiting mail {name}: {outcome.reason}")
            return ready
        if fate is library.Fate.APPLIED:
            self._learn(data, outcome.games)
        elif fate is library.Fate.NOT_HOSTED:
            self.log(f"set aside mail {name}: {outcome.reason or 'a game not hosted here'}")
            if len(outcome.games) == 1 and "no copy" in outcome.reason:
                self.spool.park(path, outcome.games[0])
                return ready
        elif fate is library.Fate.IGNORED:
            self.log(f"ignored mail {name}: no pbem turn or game in it")
        elif fate in (library.Fate.REFUSED, library.Fate.FORKED):
            reason = self._unnamed(outcome.reason, path)
            self.log(f"refused mail {name}: {reason}")
            self._answer(data, name, reason)
        self.spool.set_aside(path)
        return ready

    def _unnamed(self, text: str, path: Path) -> str:
        """No path of the judge's machine in what it says to a player (its own log says where)."""
        text = text.replace(str(path), "your mail")
        for folder in sorted({self.config.games, self.config.home, self.config.spool}, key=lambda p: -len(str(p))):
            text = text.replace(str(folder), "...")
        return text

    def _quarantine(self, path: Path, reason: str) -> None:
        try:
            where = self.spool.quarantine(path, reason)
            self.log(f"quarantined mail {path.name}: {reason} (in {where.parent})")
        except Exception as exc:  # noqa: BLE001  (a full disk: said, and the mail stays where it is)
            self._once(f"quarantine {path.name}", f"error quarantining {path.name}: {exc}")

    def _answer(self, data: bytes, name: str, reason: str) -> None:
        """Tell a participant why their mail was refused (replies.py: known addresses only, once an hour)."""
        sender = replies.sender_of(data)
        known = {a.lower() for names in self.learned.values() for a in names.values()} | \
            {a.lower() for a in self.config.contacts.values()}
        if sender is None or sender.address not in known or sender.address == self.config.address.lower():
            return
        now = self.clock()
        if not self.answered.due(sender.address, now):
            return
        smtp = self.config.smtp
        try:
            library.send(replies.answer(self.config.address, sender, reason), smtp.server, smtp.security, smtp.user)
        except library.PbemError as exc:
            self.log(f"error answering {sender.address}: {exc}")
            return
        self.answered.note(sender.address, now)
        self.log(f"answered {sender.address}: why {name} was refused")

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
        except Exception as exc:  # noqa: BLE001  (one game's fault never stops the others)
            self._once(f"referee {path.name} {exc}", f"error {path.name}: unexpected {type(exc).__name__}: {exc}")
            return True  # tried again when the game changes, not on every pass

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
            retry = {path for path in todo if not self.referee(path)}
            if read < BATCH or self.stopping:
                self.pending |= retry
                self.looked = self.spool.looked_at()  # what is left waits for a mail not here yet
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
            except Exception as exc:  # noqa: BLE001  (one game's fault never stops the others)
                self._once(f"deadlines {path.name} {exc}",
                           f"error {path.name}: deadlines: unexpected {type(exc).__name__}: {exc}")

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
