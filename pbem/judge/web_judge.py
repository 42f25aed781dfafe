"""The judge that also serves browsers (pbem judge web): the mail judge (service.py), on the same store, plus
what the web pages ask of it. One lock in the process: a mail pass, a posted entry and the duties after
it never run at once (each still takes its game's lock and transaction in the database, as a mail does).

A posted entry is a turn as a mail would carry it (pbem.api.browser.turn_mail_body), read by the same
parse-and-apply path as every mail, in one transaction under the game's lock; then the judge does the
referee's duties and mails what it signed, as after a mail. Browser seats have no mail address in the
game's mail (a placeholder on a reserved domain, taken out before sending); a seat that gave an address
is told by a short mail when something is owed from it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import formatdate, getaddresses
from typing import Any

from pbem.api import TurnResult, browser
from pbem.judge import deadlines, library, web_tables
from pbem.judge.config import Config
from pbem.judge.database import Tx
from pbem.judge.service import Judge
from pbem.judge.web_changes import Changes
from pbem.judge.web_tables import REFEREE, HostedTable

KEPT_GAMES = 256
"""The games whose pages (and the referee's session on them, which holds the whole verified game) a web judge
keeps between asks: the most recently looked at."""
BROWSER_DOMAIN = "browser.invalid"
"""The placeholder address of a browser seat in the game's own mail (RFC 2606: never delivered)."""


class Refused(library.PbemError):
    """A posted entry the judge did not apply, and why (as the sender of a mail would be told)."""


class WebJudge(Judge):
    def __init__(self, config: Config, public_url: str, log: Callable[[str], None] | None = None,
                 clock: Callable[[], float] | None = None):
        super().__init__(config, log, clock)
        self.lock = threading.RLock()
        self.public_url = public_url.rstrip("/")
        self.changes = Changes()
        """Bumped after anything that may have moved a game on: the pages' event streams look then."""
        self._held: tuple[int, int] | None = None
        """The games the store held after the last mail pass: how many, and their entries in all."""
        self._pages: dict[str, tuple[str, Any, dict[str, dict[str, Any]]]] = {}
        """Each game's pages as last worked out: (its head, the referee's session on it, the pages by seat)."""

    # ------------------------------------------------------------ the mail judge, with browser seats

    def once(self) -> None:
        """A pass of the mail judge; a change for the pages only when the games the store holds changed (by
        this pass, or by another judge on the same database): a quiet pass wakes no page's stream."""
        with self.lock:
            super().once()
            with self.store.db.transaction() as tx:
                row = tx.one("SELECT count(*), coalesce(sum(seq), 0) FROM games")
        held = (int(row[0]), int(row[1])) if row else (0, 0)
        if held != self._held:
            self._held = held
            self.changes.bump()

    def book(self, game_id: str, me: str, tx: Any = None) -> dict[str, str]:
        found = super().book(game_id, me, tx)
        table = web_tables.table_of_game(self.store, game_id, tx)
        for seat in table.seats if table else ():
            if seat.browser:
                found[seat.name] = f"{seat.name}@{BROWSER_DOMAIN}"
        return found

    def _queue(self, tx: Any, rep: library.Replay, name: str, now: float) -> None:
        """As the mail judge's, with the browser seats' placeholders taken out of the mail; a mail left with
        nobody to go to marks the entries as shared all the same (the browsers read them from the store)."""
        game_id = rep.genesis.game_id
        try:
            msg = library.outgoing(rep, name, self.book(game_id, name, tx))
        except library.PbemError as exc:
            self._once(f"outgoing {game_id} {rep.seq} {exc}",
                       f"error {library.short_id(game_id)}: cannot mail entry {rep.seq} yet: {exc}")
            return
        if msg is None:
            return
        to, cc = _real(msg["To"]), _real(msg["Cc"])
        if not to and not cc:
            tx.run("UPDATE games SET mailed = ? WHERE game_id = ? AND (mailed IS NULL OR mailed < ?)",
                   (rep.seq, game_id, rep.seq))
            library.mark_mailed(game_id, rep.seq)
            return
        del msg["To"], msg["Cc"]
        msg["To"] = to or cc
        if to and cc:
            msg["Cc"] = cc
        about = f"{rep.genesis.game} {library.short_id(game_id)} up to entry {rep.seq} to {msg['To']}" + \
            (f", cc {msg['Cc']}" if msg["Cc"] else "")
        self.store.queue(tx, game_id, rep.seq, bytes(msg), about, now)

    # ------------------------------------------------------------ tables and games

    def make_game(self, table_id: str) -> str | None:
        """When every seat of the table has a key: the invitation, signed by the judge as its creator and
        referee, kept in the store, the addresses of its players by mail learned; then its duties and mail.
        Returns the game's id (None: seats still free)."""
        with self.lock:
            table = web_tables.table(self.store, table_id)
            if table is None or not table.full or table.game_id is not None:
                return None if table is None else table.game_id
            players = [(seat.name, seat.key or "") for seat in table.seats]
            rep, path = browser.make_table_game(table.game, self.identity, players, list(table.options),
                                                table.deadlines, self.config.games)
            game_id = rep.genesis.game_id
            with self.store.db.transaction(lock=[game_id]) as tx:
                self.store.save(tx, path, self.clock())
                web_tables.set_game(tx, table_id, game_id)
                for seat in table.seats:
                    if not seat.browser and seat.address:
                        self.store.learn(game_id, seat.name, seat.address, tx)
            self.log(f"made {table.game} {library.short_id(game_id)} for table {table_id}: {', '.join(rep.players)}")
            self.after_change(game_id)
            return game_id

    def after_change(self, game_id: str) -> None:
        """What follows a game moving on: the referee's duties, the notices to browser seats, the mail."""
        self.referee(game_id)
        self.notify(game_id)
        self.deliver()
        self.changes.bump()

    def game(self, game_id: str) -> library.Replay:
        """A game as the store holds it, verified (its copy made equal to the store first)."""
        with self.lock, self.store.db.transaction(lock=[game_id]) as tx:
            path = self.store.sync(tx, game_id)
            if path is None:
                raise library.PbemError("no such game here")
            return self._at_head(tx, game_id, path)

    def _at_head(self, tx: Tx, game_id: str, path: Any) -> library.Replay:
        """The game at the store's head: the one the referee's session kept for the pages holds when it is
        there (verified, not read again), else its copy read and verified."""
        kept, held = self._pages.get(game_id), self.store.held(tx, game_id)
        if kept is not None and held is not None and kept[0] == held.last_hash:
            return kept[1].rep  # type: ignore[no-any-return]
        return library.open_game(path)

    def _refereed(self, turn: TurnResult) -> None:
        """The referee's session after its duties, kept for the pages of a game they look at (what its key
        opened is not opened again); a transaction that does not commit leaves it at a head the store does
        not hold, where it is never used."""
        game_id = turn.rep.genesis.game_id
        if game_id in self._pages:
            self._pages[game_id] = (turn.rep.head, turn.session, {})

    def _keep_pages(self, game_id: str, kept: tuple[str, Any, dict[str, dict[str, Any]]]) -> None:
        """Keep a game's pages as the most recently looked at, and those of KEPT_GAMES games at most: a judge
        that runs for months must not hold a referee session for every game a page ever showed."""
        self._pages.pop(game_id, None)
        self._pages[game_id] = kept
        while len(self._pages) > KEPT_GAMES:
            del self._pages[next(iter(self._pages))]

    def record_file(self, game_id: str) -> tuple[str, bytes]:
        """A game's file as anyone verifies it (pbem verify), and its usual name."""
        rep = self.game(game_id)
        return f"{rep.genesis.game}-{library.short_id(game_id)}.json", library.to_json(rep.record).encode()

    def genesis(self, game_id: str) -> dict[str, Any]:
        """A game's signed genesis, which a seat's page checks before it signs: its game id is the hash of
        every player's key, so the page sees its own key, and the referee's, in the game its entries name."""
        return self.game(game_id).genesis.model_dump(exclude_none=True)

    def page(self, table: HostedTable, seat: str) -> dict[str, Any]:
        """What `seat`'s page shows: the game from the seat's view and the entries it may sign."""
        assert table.game_id is not None
        with self.lock:
            kept = self._pages.get(table.game_id)
            with self.store.db.transaction() as tx:
                held = self.store.held(tx, table.game_id)
            if kept is None or held is None or held.last_hash != kept[0]:  # every page asks after each entry:
                rep = self.game(table.game_id)  # worked out once per seat and entry, the game read and its hidden
                kept = (rep.head, browser.referee_session(rep, self.identity), {})  # items opened once (by the
            self._keep_pages(table.game_id, kept)  # duties' session when they were done here: _refereed)
            _, referee, pages = kept
            if seat not in pages:
                pages[seat] = browser.page_data(referee.rep, seat, referee)
            return pages[seat]

    def post(self, table: HostedTable, seat: str, entry: dict[str, Any]) -> int:
        """Apply an entry a seat's page signed, as a mail turn; then the duties after it. Returns the game's
        length after it. Refused (with the reason a mail's sender would read) when it is not applied."""
        game_id = table.game_id
        if game_id is None:
            raise Refused("the game has not started: every seat must be taken first")
        if entry.get("author") != seat:
            raise Refused(f"this page posts {seat}'s entries only")
        where = f"web:{table.table_id}:{seat}"
        with self.lock:
            refereed = False
            with self.store.db.transaction(lock=[game_id]) as tx:
                try:
                    read, game = self._apply_posted(tx, game_id, seat, where, entry)
                    if game is not None:
                        last = read.updated[game_id][2]
                        self.log(f"applied {library.short_id(game_id)} entry {last} posted by {seat} in a browser")
                        refereed = self.referee_in(tx, game_id, game)  # the duties it brings, in the same commit
                except BaseException:
                    self.store.forget(game_id)
                    raise
            if game_id not in read.updated:
                reason = read.outcome.reason or "it did not extend the game"
                self.log(f"refused an entry {seat} posted in a browser for {library.short_id(game_id)}: {reason}")
                raise Refused(reason.replace(where, "your entry"))
            if not refereed:
                self.referee(game_id)  # in a transaction of its own
            self.notify(game_id)
            self.deliver()
            self.changes.bump()
            return last

    def _apply_posted(self, tx: Tx, game_id: str, seat: str, where: str, entry: dict[str, Any]
                      ) -> tuple[library.MailRead, library.Replay | None]:
        """The posted entry read as a mail turn and kept in the store; and the game it brought on, as verified
        on the way in (None: it did not), which the duties go on from."""
        path = self.store.sync(tx, game_id)
        if path is None:
            raise Refused("no such game here")
        rep = self._at_head(tx, game_id, path)
        try:
            body = browser.turn_mail_body(rep, entry)
        except (ValueError, TypeError, library.PbemError) as exc:
            raise Refused(f"not an entry: {exc}") from None
        mail = EmailMessage()
        mail["From"] = Address(seat, addr_spec=f"{seat}@{BROWSER_DOMAIN}")
        mail["To"] = Address(REFEREE, addr_spec=self.config.address)
        mail["Subject"] = f"{rep.genesis.game} {library.short_id(game_id)}: an entry posted in a browser"
        mail["X-Pbem-Game"] = game_id
        mail.set_content(body, cte="7bit")
        shared = library.mailed_up_to(game_id)
        read = library.apply_mail(library.parse_mail(where, bytes(mail)), self.config.games)
        browser.not_shared_beyond(game_id, shared)  # the other parties have not had it: the judge mails it on
        games = {}
        for updated, (copy, _, _) in read.updated.items():
            game = games[updated] = read.games.get(updated) or library.open_game(copy)  # as verified on the way in
            self.store.save(tx, copy, self.clock(), game)
            self.store.checkpoint(tx, game)
        return read, games.get(game_id)

    def _keep(self, tx: Any, path: Any, rep: library.Replay, name: str, item: Any) -> None:
        """A deadline's reminder or notice to a browser seat goes, with its page's link, to the address it
        gave, or nowhere (the page says what is owed); its absence is recorded as anyone's."""
        table = web_tables.table_of_game(self.store, rep.genesis.game_id, tx) if item.kind != "absent" else None
        seat = table.seat(item.party) if table else None
        if table is None or seat is None or not seat.browser:
            super()._keep(tx, path, rep, name, item)
            return
        if not seat.address:
            return
        subject, body = deadlines.text(rep, item)
        msg = deadlines.mail(self.config.address, name, seat.name, seat.address, subject,
                             f"{body}\nPlay it here: {self.public_url}/play/{table.table_id}/{seat.name}\n", rep)
        self.store.queue(tx, rep.genesis.game_id, None, bytes(msg), f"a {item.kind} to {seat.name} (a browser seat): "
                         f"{item.what} owed since entry {item.since}", self.clock())

    # ------------------------------------------------------------ notices to browser seats

    def notify(self, game_id: str) -> None:
        """A short mail to each browser seat that gave an address and owes something now: once a turn (not
        again until the seat has acted since)."""
        table = web_tables.table_of_game(self.store, game_id)
        if table is None:
            return
        with self.store.db.transaction(lock=[game_id]) as tx:
            path = self.store.sync(tx, game_id)
            if path is None:
                return
            rep = self._at_head(tx, game_id, path)
            done = self.store.deadlines_done(tx, game_id)
            owing = {d.who for d in rep.duties()}
            for seat in table.seats:
                item = f"web-notice:{seat.name}:{rep.seq}"
                if not seat.browser or not seat.address or seat.name not in owing or item in done:
                    continue
                told = max((int(i.rsplit(":", 1)[1]) for i in done if i.startswith(f"web-notice:{seat.name}:")), default=-1)
                if told >= 0 and not any(e.author == seat.name for e in rep.entries[told:]):
                    continue  # told already, and has not acted since: one notice a turn
                msg = self._notice(rep, table, seat.name, seat.address)
                self.store.queue(tx, game_id, None, bytes(msg), f"a notice to {seat.name} at entry {rep.seq}",
                                 self.clock())
                self.store.note_deadline(tx, game_id, item)

    def _notice(self, rep: library.Replay, table: HostedTable, seat: str, address: str) -> EmailMessage:
        msg = EmailMessage()
        msg["From"] = Address(REFEREE, addr_spec=self.config.address)
        msg["To"] = Address(seat, addr_spec=address)
        msg["Subject"] = f"Your turn: {rep.genesis.game} {library.short_id(rep.genesis.game_id)}"
        msg["Date"] = formatdate(localtime=True)
        link = f"{self.public_url}/play/{table.table_id}/{seat}"
        msg.set_content(f"{seat}, something is owed from you in {rep.genesis.game} "
                        f"{library.short_id(rep.genesis.game_id)} (entry {rep.seq}).\n\nPlay it here: {link}\n"
                        "\n(Open it in the browser that holds your key, or import your key file there.)\n")
        return msg


def _real(header: Any) -> list[Address]:
    """The addresses of a To or Cc header, without the browser seats' placeholders."""
    if header is None:
        return []
    return [Address(name, addr_spec=addr) for name, addr in getaddresses([str(header)])
            if addr and not addr.lower().endswith("@" + BROWSER_DOMAIN)]
