"""How the judge takes one mail (service.py's Judge is one): claimed in its store before its content is read,
parsed once, applied under the locks of the games it names in one transaction with what became of it and
the addresses it teaches, then put where its fate says (cur/, unhosted/, quarantine/, or left waiting), and
its sender answered when it was refused. Nothing a mail holds leaves `handle` as an exception."""

from __future__ import annotations

import email.utils
from collections.abc import Callable
from dataclasses import dataclass, replace
from email.parser import BytesHeaderParser
from email.policy import default as default_policy
from pathlib import Path
from typing import Any, TypeVar

from pbem.judge import library, replies
from pbem.judge.config import Config
from pbem.judge.database import StoreError
from pbem.judge.spool import MAX_TRIES, Spool
from pbem.judge.store import Store

T = TypeVar("T")

MAX_GAMES_PER_MAIL = 8
"""Games one mail may name (a pbem mail names one): each is a lock the judge takes while it applies it."""
MAX_WAITING = 32
"""Turns of one game that may wait for a missing one: more is a flood, set aside."""


class Mailroom:
    """The mail half of the judge: what it reads, given the store, the spool, the log and the clock."""

    config: Config
    store: Store
    spool: Spool
    pending: set[str]
    clock: Callable[[], float]
    _write_log: Callable[[str], None]
    held: list[str] | None = None
    """The log's lines about a mail received and not settled yet: written when it is, so that the log
    tells of each mail of a batch in turn."""

    def log(self, text: str) -> None:
        raise NotImplementedError

    def _once(self, key: str, line: str) -> None:
        raise NotImplementedError

    def referee_in(self, tx: Any, game_id: str, game: library.Replay | None = None) -> bool:
        """Do the referee's duties in a game a mail brought on, in the mail's transaction (service.py);
        `game`: as the mail left it, verified."""
        raise NotImplementedError

    def handle(self, path: Path) -> list[str]:
        """Read one mail and put it where its fate says; returns the set-aside mails it made ready. Nothing
        that happens here, whatever the mail holds, leaves this function as an exception."""
        received = self.receive(path)
        return self.settle(path, received) if self.force() else received.said_only()

    def receive(self, path: Path) -> Received:
        """Claim one mail and apply it, committed but not yet forced to disk (`force`, once for a batch);
        returns what is left to do then (`settle`: move it, answer it). Never raises."""
        self.held = []
        try:
            settle = self._guarded(path, lambda: self._receive(path), _nothing)
        finally:
            said, self.held = self.held, None
        return Received(said, settle, self._write_log)

    def force(self) -> bool:
        """Make the mails received so far durable before anything of theirs leaves the judge; False (said
        once) when the database cannot: they are moved on a later pass (claimed again, found settled)."""
        try:
            self.store.db.force()
            return True
        except StoreError as exc:
            self._once(f"force {exc}", f"error reading mail: {exc}")
            return False

    def settle(self, path: Path, received: Received) -> list[str]:
        """What `receive` left to do, once forced; the set-aside mails it made ready. Never raises."""
        received.said_only()
        return self._guarded(path, received.settle, [])

    def _guarded(self, path: Path, step: Callable[[], T], otherwise: T) -> T:
        try:
            return step()
        except StoreError as exc:  # the database busy or gone: the mail stays, taken again on a later pass
            self._once(f"mail {path.name} {exc}", f"error mail {path.name}: {exc}")
            return otherwise
        except Exception as exc:  # noqa: BLE001  (one mail never stops the judge: the operator reads why)
            self._quarantine(path, f"{type(exc).__name__}: {exc}")
            return otherwise

    def _receive(self, path: Path) -> Callable[[], list[str]]:
        try:
            tries = self.spool.take(path, self.clock())
        except StoreError as exc:
            self._once(f"take {exc}", f"error reading mail: {exc}")
            return _nothing
        if tries is None:
            return _nothing  # another judge has it, or it waits
        if tries == 0:  # settled before a stop, or by another judge whose copy of the mailbox is its own (IMAP)
            self.store.db.force()
            parked = self.store.parked_for(path.name)
            if parked is not None:
                self.spool.park(path, parked)  # read again by whichever judge applies the game's invitation
            else:
                self.spool.set_aside(path)
            return _nothing
        if tries > MAX_TRIES:
            self._quarantine(path, f"the judge stopped {MAX_TRIES} times while reading it")
            return _nothing
        try:
            data = library.read_file(path, "a mail", library.MAX_MAIL)  # the gate pbem inbox reads through
        except library.PbemError as exc:
            if not path.exists():
                self.store.forget_mail(path.name)
                return _nothing  # gone (another reader of the Maildir): nothing to do
            self.log(f"refused mail {path.name}: {exc}")
            self.store.settle(None, path.name, "done", reason=str(exc))
            self.spool.set_aside(path)
            return _nothing
        return self._apply(path, data)

    def _apply(self, path: Path, data: bytes) -> Callable[[], list[str]]:
        """Apply the mail's games and turns under their locks, in one transaction with what became of it
        (not forced to disk: the caller forces a batch's); returns what is left to do once forced."""
        parsed = library.parse_mail(str(path), data)
        now = self.clock()
        if len(parsed.games) > MAX_GAMES_PER_MAIL:  # each game named is a lock held: a pbem mail names one
            reason = f"it names {len(parsed.games)} games: a pbem mail names {MAX_GAMES_PER_MAIL} at most"
            self.log(f"refused mail {path.name}: {reason}")
            self.store.settle(None, path.name, "done", reason=reason)
            self.spool.set_aside(path)
            return _nothing
        with self.store.db.transaction(lock=parsed.games, forced=False) as tx:
            for game_id in parsed.games:
                self.store.sync(tx, game_id)
            try:
                read = library.apply_mail(parsed, self.config.games)
                ready = []
                for game_id, (copy, _, last) in read.updated.items():
                    game = read.games[game_id]  # as verified on the way in
                    self.store.save(tx, copy, now, game)
                    self.store.checkpoint(tx, game)
                    ready += self.store.ready(tx, game_id, last)
                if read.updated:
                    self._learn(tx, data, read.games)
                read = self._keep_mail(tx, path, read)
                for game_id, (copy, first, last) in read.updated.items():
                    what = f"entries {first}-{last}" if last >= first else "the invitation"
                    self.log(f"applied {library.short_id(game_id)} {what} to {copy.name}")
                    # the duties it brings, in the same commit, on the game as verified on the way in
                    if not self.referee_in(tx, game_id, read.games.get(game_id)):
                        self.pending.add(game_id)  # or in a transaction of their own, later
            except BaseException:
                for game_id in parsed.games:
                    self.store.forget(game_id)  # the cache may hold what the database does not
                raise
        return lambda: self._settle(path, data, read) + ready

    def _keep_mail(self, tx: Any, path: Path, read: library.MailRead) -> library.MailRead:
        """Note in the store what became of the mail: waiting for an entry of its game (unless too many do
        already: then it is refused), parked (a game not hosted here), or done."""
        outcome = read.outcome
        state, game_id, after = "done", None, None
        if outcome.fate is library.Fate.WAITING and outcome.waits_for is not None:
            state, (game_id, after) = "waiting", outcome.waits_for
            if self.store.waiting_in(tx, game_id) >= MAX_WAITING:  # the rest is a flood: set aside
                state, game_id, after = "done", None, None
                outcome = replace(outcome, fate=library.Fate.REFUSED, waits_for=None, reason=f"{outcome.reason}; "
                                  f"{MAX_WAITING} turns of this game wait already: send the missing one")
        elif outcome.fate is library.Fate.NOT_HOSTED and len(outcome.games) == 1:
            state, game_id = "parked", outcome.games[0]
        self.store.settle(tx, path.name, state, game_id, after, outcome.reason)
        return replace(read, outcome=outcome)

    def _settle(self, path: Path, data: bytes, read: library.MailRead) -> list[str]:
        """After the mail's transaction: say what became of it, move it, answer its sender."""
        name, outcome, ready = path.name, read.outcome, []
        for game_id, (_, first, _) in read.updated.items():
            early = self.spool.unpark(game_id) if first <= 1 else []
            if early:
                with self.store.db.transaction() as tx:
                    self.store.reopen(tx, early)
                self.log(f"read again the turns of {library.short_id(game_id)} that came before its invitation")
            ready += early
        fate = outcome.fate
        if fate is library.Fate.WAITING and outcome.waits_for is not None:
            self.log(f"waiting mail {name}: {outcome.reason}")
            return ready
        if fate is library.Fate.NOT_HOSTED:
            self.log(f"set aside mail {name}: {outcome.reason or 'a game not hosted here'}")
            if len(outcome.games) == 1:
                self.spool.park(path, outcome.games[0])
                return ready
        elif fate is library.Fate.NOT_MINE:
            self.log(f"set aside mail {name}: {outcome.reason}")
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
            self.store.settle(None, path.name, "quarantined", reason=reason)
            where = self.spool.quarantine(path, reason)
            self.log(f"quarantined mail {path.name}: {reason} (in {where.parent})")
        except Exception as exc:  # noqa: BLE001  (a full disk: said, and the mail stays where it is)
            self._once(f"quarantine {path.name}", f"error quarantining {path.name}: {exc}")

    def _answer(self, data: bytes, name: str, reason: str) -> None:
        """Tell a participant why their mail was refused (replies.py: known addresses only, once an hour)."""
        sender = replies.sender_of(data)
        if sender is None or sender.address == self.config.address.lower():
            return
        known = {a.lower() for a in self.config.contacts.values()}
        if sender.address not in known and not self.store.knows_address(sender.address):
            return
        now = self.clock()
        last = self.store.answered_at(sender.address)
        if last is not None and now - last < replies.ANSWER_EVERY:
            return
        smtp = self.config.smtp
        try:
            library.send(replies.answer(self.config.address, sender, reason), smtp.server, smtp.security, smtp.user)
        except library.PbemError as exc:
            self.log(f"error answering {sender.address}: {exc}")
            return
        self.store.note_answer(sender.address, now)
        self.log(f"answered {sender.address}: why {name} was refused")

    def _learn(self, tx: Any, data: bytes, games: dict[str, library.Replay]) -> None:
        """Each participant's address, from the headers of a mail that brought on their game (`games`: the
        games the mail applied to): pbem mail names everyone by their name in the game.
        Only the game's own participants are learned, and the first address learned for a name stays (a game
        is hosted from its invitation on, so its creator's mail names them first). In the mail's transaction:
        a judge killed after it has learned them too."""
        try:
            headers = BytesHeaderParser(policy=default_policy).parsebytes(data)
            pairs = email.utils.getaddresses([str(headers.get(h, "")) for h in ("From", "To", "Cc")])
        except (ValueError, TypeError, IndexError, LookupError, AttributeError):
            return
        for game, replay in games.items():
            members = library.participants(replay.record)
            for name, addr in pairs:
                if name in members and addr and addr != self.config.address:
                    try:
                        self.store.learn(game, name, library.check_address(addr), tx)
                    except library.PbemError:
                        continue


def _nothing() -> list[str]:
    return []


@dataclass
class Received:
    """A mail claimed and applied: what the log says of it so far, and what is left to do once forced."""

    said: list[str]
    settle: Callable[[], list[str]]
    write: Callable[[str], None]

    def said_only(self) -> list[str]:
        """Write what the log says of it (once); no mail made ready."""
        for line in self.said:
            self.write(line)
        self.said = []
        return []
