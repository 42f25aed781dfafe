"""The API's mail and local copies: listing games, reading and sending mail, IMAP, deadlines (pbem.api).
Mail parsing, smtplib and imaplib are imported by the functions that use them."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from email.message import EmailMessage

    from pbem.protocol.replay import Replay
    from pbem.record.deadlines import Clock
    from pbem.record.models import GameFile
    from pbem.record.status import Status
    from pbem.transport.imap import Connection as ImapConnection
    from pbem.transport.imap import Mailbox as ImapMailbox
    from pbem.transport.inbox import ParsedMail
    from pbem.transport.inbox import Report as InboxReport
    from pbem.transport.mail import Outgoing, Server


def status(games: Path | None = None, at: int | None = None) -> Status:
    """Every game in the folder of local copies, and every game file in the current folder that this home
    last played or read there (a game kept in a git work tree, say), mine first, judged late or not at time
    `at` (default now). A game in both is listed once, from the folder of copies."""
    from pbem.transport import copies
    from pbem.transport.status import collect

    found = collect(copies.all_copies(copies.folder(games)) + played_here(), at)
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
    from pbem.transport.copies import folder
    from pbem.transport.inbox import read  # mail parsing: only the inbox needs it
    from pbem.transport.mailbox import default_mailbox

    return read(paths or [default_mailbox()], folder(games), again)


def read_mails(mails: list[ParsedMail], games: Path | None = None) -> InboxReport:
    """Apply mails already parsed to the local copies, keeping no index of what was read: for a reader that
    keeps its own (the judge's store). Each mail's outcome is in the report."""
    from pbem.transport.copies import folder
    from pbem.transport.inbox import read_mails as apply

    return apply(mails, folder(games))


def mail_turn(game: Replay, name: str, path: Path | None = None, since: int | None = None, attach: bool = False,
              out: Path | None = None, server: Server | None = None, games: Path | None = None) -> str:
    """Mail what the other parties lack of a verified game (To who owes next, Cc the rest, one thread per
    game): to `server` by SMTP, else to an .eml file (`out`); `path`, the file the game was read from.
    Returns the line that says what was done."""
    from pbem.transport.copies import folder
    from pbem.transport.mail import deliver_turn  # smtplib and email: only mail needs them

    return deliver_turn(game, name, folder(games), path, since, attach, out, server)


def send_mail(msg: EmailMessage, server: Server) -> None:
    """Hand a mail to an SMTP server (PbemError with the server's reason if it is refused)."""
    from pbem.transport.mail import send  # smtplib: only mail needs it

    send(msg, server.address, server.security, server.user)


def smtp_connection(server: Server) -> Outgoing:
    """One connection for several mails (the judge's outbox), opened with the first:
    `with smtp_connection(server) as out: out.send(msg)`; each send as send_mail's."""
    from pbem.transport.mail import Outgoing

    return Outgoing(server.address, server.security, server.user, server.password)


def restore_copy(record: GameFile, hashes: list[str], mailed: int | None, games: Path | None = None) -> Path:
    """Make the local copy of a game exactly `record` (whose hash chain is `hashes`), kept elsewhere as the
    authority (the judge's database), with what this home has seen of it and the mark of what was mailed
    the same. Returns the copy's path."""
    from pbem.protocol.seen import replace_history
    from pbem.record.gamefile import save
    from pbem.transport import copies

    folder = copies.folder(games)
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    path = copies.path_for(folder, record.genesis)
    save(path, record)
    replace_history(record.genesis.game_id, hashes, path)
    copies.set_shared(record.genesis.game_id, mailed)
    return path


def copies_in(games: Path | None = None) -> list[Path]:
    """Every game copy in the folder."""
    from pbem.transport import copies

    return [p for p in copies.all_copies(copies.folder(games)) if copies.game_id_of(p)]


def hash_chain(record: GameFile) -> list[str]:
    """The hash of the genesis and of every entry, as replay computes them; nothing verified."""
    from pbem.record.models import payload_hash

    return [payload_hash(record.genesis)] + [payload_hash(e) for e in record.entries]


def imap_connect(box: ImapMailbox, password: str | None = None) -> ImapConnection:
    """A logged-in session (`fetch_into` a Maildir, `wait` for new mail); the password from
    PBEM_IMAP_PASSWORD or a prompt when not given."""
    from pbem.transport.imap import Connection
    from pbem.transport.imap import password as ask

    return Connection(box, password if password is not None else ask(box))


def is_imap(text: str) -> bool:
    """Whether a mailbox given by name is an IMAP URL (imaps:// or imap://) rather than a path."""
    return text.startswith(("imaps://", "imap://"))


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
