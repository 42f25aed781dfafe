"""The API's mail and local copies: composing, sending and reading mail, IMAP, the file gate, deadlines,
the address book (re-exported by pbem.api)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.api.playing import replay_file as _replay_file
from pbem.api.playing import (
    signer_for,
)
from pbem.protocol.replay import Replay
from pbem.protocol.seen import remember
from pbem.protocol.session import Session
from pbem.protocol.verify import verify
from pbem.record.files import write_atomic
from pbem.record.models import GameFile, from_json, payload_hash
from pbem.record.status import Status
from pbem.transport import contacts, copies
from pbem.transport.status import collect

if TYPE_CHECKING:
    from email.message import EmailMessage

    from pbem.record.deadlines import Clock
    from pbem.transport.imap import Connection as ImapConnection
    from pbem.transport.imap import Mailbox as ImapMailbox
    from pbem.transport.inbox import ParsedMail
    from pbem.transport.inbox import Report as InboxReport
    from pbem.transport.mail import Server


def write_file(path: Path, data: bytes, mode: int | None = None) -> None:
    """Write a whole file or nothing (a temporary file, fsync, rename): never half a file."""
    write_atomic(path, data, mode)


def games_folder(given: Path | None = None) -> Path:
    """The folder of local game copies: `given`, else $PBEM_GAMES, else PBEM_HOME/games-files."""
    return copies.folder(given)


def status(games: Path | None = None, at: int | None = None) -> Status:
    """Every game in the folder of local copies, and every game file in the current folder that this home
    last played or read there (a game kept in a git work tree, say), mine first, judged late or not at time
    `at` (default now). A game in both is listed once, from the folder of copies."""
    found = collect(copies.all_copies(games_folder(games)) + played_here(), at)
    listed: set[str] = set()
    kept = []
    for game in found.games:
        if game.game_id not in listed:
            listed.add(game.game_id)
            kept.append(game)
    return found.model_copy(update={"games": kept, "i_owe": any(g.i_owe for g in kept)})


def played_here() -> list[Path]:
    """The game files in the current folder where this home last read or wrote a game (its seen-store
    says where): found without opening any file."""
    from pbem.protocol.seen import seen_where

    here = Path.cwd().resolve()
    found = []
    for where in seen_where("").values():
        path = Path(where) if where else None
        if path is not None and path.suffix == ".json" and path.parent == here and path.is_file():
            found.append(path)
    return sorted(set(found))


def read_mail(paths: list[Path] | None = None, games: Path | None = None, again: bool = False) -> InboxReport:
    """Apply every pbem turn and game found in mailboxes (Maildir, mbox, .eml; default $PBEM_MAIL, $MAIL,
    ~/Maildir) to the local copies. `again` reads mails applied before too."""
    from pbem.transport.inbox import read  # mail parsing: only the inbox needs it
    from pbem.transport.mailbox import default_mailbox

    return read(paths or [default_mailbox()], games_folder(games), again)


def parse_mail(where: str, data: bytes) -> ParsedMail:
    """A mail's pbem turns and games, parsed once (`.games`: the game ids it names), to apply with read_mails."""
    from pbem.transport.inbox import parse

    return parse(where, data)


def read_mails(mails: list[ParsedMail], games: Path | None = None) -> InboxReport:
    """Apply mails already parsed to the local copies, keeping no index of what was read: for a reader that
    keeps its own (the judge's store). Each mail's outcome is in the report."""
    from pbem.transport.inbox import read_mails as apply

    return apply(mails, games_folder(games))


def clock_now() -> int:
    """The time pbem signs and judges deadlines at (Unix seconds): the clock, or PBEM_NOW when set (a
    testing override: docs/deadlines.md)."""
    from pbem.record.deadlines import now

    return now()


def smtp_server(address: str, security: str = "starttls", user: str | None = None,
                password: str | None = None) -> Server:
    """Where `mail_turn` sends: HOST[:PORT], starttls, tls or none (localhost only), and the login; its
    password when a front end holds it (else PBEM_SMTP_PASSWORD or a prompt when sending)."""
    from pbem.transport.mail import Server  # smtplib and email: only mail needs them

    return Server(address, security, user, password)


def mail_turn(game: Replay, name: str, path: Path | None = None, since: int | None = None, attach: bool = False,
              out: Path | None = None, server: Server | None = None, games: Path | None = None) -> str:
    """Mail what the other parties lack (To who owes next, Cc the rest, one thread per game): to `server` by
    SMTP, else to an .eml file (`out`). Returns the line that says what was done."""
    from pbem.transport.mail import mail_turn as send_turn  # smtplib and email: only mail needs them

    return send_turn(game, name, games_folder(games), path, since, attach, out, server)


def compose_mail(game: Replay, name: str, after: int | None, attach: bool = False,
                 book: dict[str, str] | None = None) -> EmailMessage:
    """The turn mail itself: the entries after `after` as a turn block (None: the whole game). The
    addresses come from `book` (name -> address), else from the address book."""
    from pbem.transport.mail import compose  # smtplib and email: only mail needs them

    return compose(game, name, after, attach, book)


def send_mail(msg: EmailMessage, server: Server) -> None:
    """Hand a mail to an SMTP server (PbemError with the server's reason if it is refused)."""
    from pbem.transport.mail import send  # smtplib: only mail needs it

    send(msg, server.address, server.security, server.user)


def restore_copy(record: GameFile, hashes: list[str], mailed: int | None, games: Path | None = None) -> Path:
    """Make the local copy of a game exactly `record` (whose hash chain is `hashes`), kept elsewhere as the
    authority (the judge's database), with what this home has seen of it and the mark of what was mailed
    the same. Returns the copy's path."""
    from pbem.protocol.seen import replace_history
    from pbem.record.gamefile import save

    folder = games_folder(games)
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    path = copies.path_for(folder, record.genesis)
    save(path, record)
    replace_history(record.genesis.game_id, hashes, path)
    copies.set_shared(record.genesis.game_id, mailed)
    return path


def copies_in(games: Path | None = None) -> list[Path]:
    """Every game copy in the folder."""
    return [p for p in copies.all_copies(games_folder(games)) if copies.game_id_of(p)]


def short_id(game_id: str) -> str:
    return copies.short_id(game_id)


def mailed_up_to(game_id: str) -> int | None:
    """The last entry every party has had by mail (sent or received here), or None."""
    return copies.shared(game_id)


def mark_mailed(game_id: str, seq: int) -> None:
    """Every party has had the entries up to `seq` (the mark never moves back)."""
    copies.mark_shared(game_id, seq)


def read_record(data: bytes) -> GameFile:
    """A game file's record, validated but not verified (RecordError if it is not one)."""
    return from_json(data)


def hash_chain(record: GameFile) -> list[str]:
    """The hash of the genesis and of every entry, as replay computes them; nothing verified."""
    return [payload_hash(record.genesis)] + [payload_hash(e) for e in record.entries]


def verify_record(record: GameFile) -> Replay:
    """The record replayed and checked from its first entry (a VerifyError says what is wrong)."""
    return verify(record)


def read_file(path: Path, what: str, limit: int) -> bytes:
    """A regular file's bytes, at most `limit` (the one gate every file pbem reads goes through): an
    Unreadable error naming the file and `what` it was to be otherwise."""
    from pbem.record.reading import read_file as gate

    return gate(path, what, limit)


def parse_json(data: bytes) -> Any:
    """JSON parsed strictly and in bounded depth (pbem's own notes, an address book)."""
    from pbem.record.canonical import parse_json as parse

    return parse(data)


def is_name(text: str) -> bool:
    """Whether a text is a usable participant, key or contact name."""
    from pbem.record.names import is_name as valid

    return valid(text)


def imap_mailbox(url: str, cafile: str | None = None) -> ImapMailbox:
    """An IMAP folder from imaps://USER@HOST[:PORT][/FOLDER] (imap:// for STARTTLS)."""
    from pbem.transport.imap import parse_url

    return parse_url(url, cafile)


def imap_connect(box: ImapMailbox, password: str | None = None) -> ImapConnection:
    """A logged-in session (`fetch_into` a Maildir, `wait` for new mail); the password from
    PBEM_IMAP_PASSWORD or a prompt when not given."""
    from pbem.transport.imap import Connection
    from pbem.transport.imap import password as ask

    return Connection(box, password if password is not None else ask(box))


def duty_clocks(game: Replay) -> dict[str, tuple[str, int, Clock]]:
    """In a game with a deadline policy: each party on a clock now, with the duty's kind, the entry it
    has been owed since, and its clock (deadline, reminders, when an absence may be recorded)."""
    from pbem.protocol.absence import duty_clock, owing

    found = {}
    for party, duty in owing(game).items():
        times = duty_clock(game, party)
        if times is not None:
            found[party] = (duty.what, game.began.get(party, game.seq), times)
    return found


def absences_offered(game: Replay, name: str, at: int | None = None) -> list[tuple[str, str, int]]:
    """The absences NAME may record at `at` (default now): each absent party, the kind of duty they owe and
    the entry it is owed since; what `play`, `show` and `status` offer once a deadline and its grace have
    passed (docs/deadlines.md)."""
    from pbem.protocol.absence import offered
    from pbem.record.deadlines import now

    return [(party, duty.what, since) for party, duty, since in offered(game, name, now() if at is None else at)]


def absent(path: Path, party: str, name: str, key: str | None = None,
           at: int | None = None) -> tuple[Replay, list[object]]:
    """NAME records PARTY absent from the duty they answer for, once its deadline and grace have passed
    by the signed times; the game's rule then applies. Writes the file. `at`: the time to sign at."""
    from pbem.protocol.seen import check_not_stale

    game, armored_file = _replay_file(path)
    check_not_stale(game, path)
    session = Session(game, name, signer_for(game, name, key))
    events = session.record_absence(party, at)
    events += session.automatic()
    from pbem.record.gamefile import save

    save(path, game.record, armored_file)
    remember(game)
    return game, events


def is_imap(text: str) -> bool:
    """Whether a mailbox given by name is an IMAP URL (imaps:// or imap://) rather than a path."""
    return text.startswith(("imaps://", "imap://"))


def fetch_imap(url: str) -> Path:
    """Copy what is new in an IMAP folder into its local Maildir (PBEM_HOME/imap/...), which read_mail reads."""
    from pbem.transport.imap import fetch_to_spool

    return fetch_to_spool(url)


def address_book() -> dict[str, str]:
    return contacts.load()


def book_path() -> Path:
    return contacts.book_path()


def add_contact(name: str, address: str) -> None:
    contacts.add(name, address)


def check_address(address: str) -> str:
    return contacts.check_address(address)

