"""`pbem mail`: a turn as a standard email, written as .eml or sent by SMTP.

To: the parties who owe next; Cc: everyone else in the game. The subject starts with a tag to filter
on, `[pbem GAME SHORTID]`, then the entry number and who is to act. Message-IDs are derived from the
game and the entry a mail ends at, so every party's mails of one game form one thread without anyone
keeping a list: a mail replies to the mail that ended where it starts. The body is a short summary and
the turn block; the whole game file is attached when the receivers may have no copy (the first mail).

Sending: STARTTLS (default, port 587) or implicit TLS (port 465); `none` only to this machine. The
password comes from PBEM_SMTP_PASSWORD or a prompt, and is never written anywhere.
"""

from __future__ import annotations

import functools
import os
import ssl
from dataclasses import dataclass, field
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import formatdate
from pathlib import Path
from typing import TYPE_CHECKING

from engine.contract import DEALER
from pbem.errors import PbemError, UsageError
from pbem.presentation.style import Style
from pbem.presentation.terminal import next_line, result_text
from pbem.protocol.replay import Replay
from pbem.record.models import GameFile, to_json
from pbem.transport import contacts, copies, passwords, turns
from pbem.transport.contacts import address

if TYPE_CHECKING:
    import smtplib

PASSWORD_ENV = "PBEM_SMTP_PASSWORD"
CAFILE_ENV = "PBEM_SMTP_CAFILE"
SECURITY = {"starttls": 587, "tls": 465, "none": 25}
LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1"}
SUMMARY_LINES = 40



MAX_LINE = 998
"""The longest line SMTP carries as it is (RFC 5321: 1,000 octets with its CR LF); a body with a longer one
(the list of a Sarcophagus game's every coin opened at its end) goes quoted-printable."""

def signing_absence(rep: Replay) -> tuple[str, str] | None:
    """While an absence that several sign is being signed (and still stands): who signs it next, and whose
    absence it is. None otherwise."""
    from pbem.protocol.absence import next_recorder, still_pending
    from pbem.protocol.acts import RecordAbsence, parse_act

    if rep.pending is None:
        return None
    act = parse_act(rep.pending[0])
    if not isinstance(act, RecordAbsence) or not still_pending(rep):
        return None
    signer = next_recorder(rep, act.party)
    return (signer, act.party) if signer else None


def owing(rep: Replay) -> list[str]:
    """Who must act next, by name: while an absence is being signed, who signs it next, then the absent party
    (who may still come back). Table-mode dealing is done by whichever player's program acts."""
    signing = signing_absence(rep)
    names = list(signing) if signing else []
    for duty in rep.duties():
        if duty.who != DEALER:
            names.append(duty.who)
        elif rep.dealer_signer:
            names.append(rep.dealer_signer)
    return list(dict.fromkeys(names))


def tag(rep: Replay) -> str:
    return f"[pbem {rep.genesis.game} {copies.short_id(rep.genesis.game_id)}]"


def subject(rep: Replay) -> str:
    if rep.outcome() is not None:
        return f"{tag(rep)} #{rep.seq}: game over, {result_text(rep)}"
    duties = rep.duties()
    if not duties:
        return f"{tag(rep)} #{rep.seq}"
    signing = signing_absence(rep)
    if signing:
        signer, party = signing
        what = next((d.what for d in duties if d.who == party), duties[0].what)
        return f"{tag(rep)} #{rep.seq}: {signer} to sign {party}'s absence, or {party} to {what}"
    return f"{tag(rep)} #{rep.seq}: {', '.join(owing(rep)) or 'the table'} to {duties[0].what}"


def message_id(rep: Replay, seq: int) -> str:
    """The Message-ID of the mail that ends at entry `seq`: the same on every party's machine."""
    return f"<{seq}.{rep.hashes[seq][:16]}.{rep.genesis.game_id}@pbem.invalid>"


def summary(rep: Replay, me: str, after: int) -> list[str]:
    authors = list(dict.fromkeys(e.author for e in rep.entries[after:]))
    span = f"entry {rep.seq}" if rep.seq == after + 1 else f"entries {after + 1}-{rep.seq}"
    game = f"{rep.game.title} {copies.short_id(rep.genesis.game_id)} ({', '.join(rep.players)})"
    head = f"{', '.join(authors)} signed {span} of {game}." if rep.seq > after else f"{me} started {game}."
    events = [f"  {event}" for seq, event in rep.events if seq > after]
    if len(events) > SUMMARY_LINES:
        events = events[:SUMMARY_LINES] + [f"  ... and {len(events) - SUMMARY_LINES} more (pbem log shows all)"]
    return [head, *events, next_line(rep)]


def public_board(rep: Replay) -> list[str]:
    """The board as everyone may see it, in plain ASCII: readable on a phone with no pbem (the judges'
    habit). Nothing before the deal, and nothing a player keeps secret."""
    if rep.state is None:
        return []
    from pbem.presentation.games import presentation

    shown = rep.game.view(rep.state, None, None)
    drawing = presentation(rep.genesis.game).board_text(shown, Style(colour=False, encoding="ascii"))
    return ["", f"The board after entry {rep.seq} (what everyone sees):", "", *drawing.splitlines()]


def compose(rep: Replay, me: str, after: int | None, attach: bool = False, book: dict[str, str] | None = None
            ) -> EmailMessage:
    """The mail for the entries after `after` (None: the receivers have nothing yet; the file goes along)."""
    book = contacts.load() if book is None else book
    everyone = [n for n in list(rep.players) + ([rep.referee] if rep.referee else []) if n != me]
    missing = [n for n in [me, *everyone] if n not in book]
    if missing:
        raise UsageError(f"no mail address for {', '.join(missing)}: add with 'pbem contact add NAME ADDRESS'")
    to = [n for n in owing(rep) if n != me] or everyone
    cc = [n for n in everyone if n not in to]
    msg = EmailMessage()
    msg["From"] = Address(me, addr_spec=address(me, book))
    msg["To"] = [Address(n, addr_spec=address(n, book)) for n in to]
    if cc:
        msg["Cc"] = [Address(n, addr_spec=address(n, book)) for n in cc]
    msg["Subject"] = subject(rep)
    msg["Date"] = formatdate(localtime=True)
    msg["Message-ID"] = message_id(rep, rep.seq)
    if after is not None:
        msg["In-Reply-To"] = message_id(rep, after)
        msg["References"] = " ".join(dict.fromkeys([message_id(rep, 0), message_id(rep, after)]))
    msg["X-Pbem-Game"] = rep.genesis.game_id
    lines = summary(rep, me, after or 0) + public_board(rep)
    block = ""
    if after is not None and after < rep.seq:
        block = "\n" + turns.to_block(turns.make(rep, after))
        lines += ["", "To apply it, point 'pbem inbox' at your mail folder",
                  "(or at this mail saved as a file)."]
    else:
        lines += ["", "The whole game is attached. 'pbem inbox' reads this mail (in a Maildir,",
                  "an mbox or saved as .eml) and keeps your copy."]
    text = "\n".join(lines) + "\n" + block
    plain = text.isascii() and all(len(line) <= MAX_LINE for line in text.split("\n"))
    msg.set_content(text, cte="7bit" if plain else "quoted-printable")  # 7bit only where SMTP takes it as it is
    if attach or after is None:
        name = f"{rep.genesis.game}-{copies.short_id(rep.genesis.game_id)}.json"
        msg.add_attachment(to_json(rep.record).encode(), maintype="application", subtype="json", filename=name)
    return msg


def _password(user: str) -> str:
    return passwords.asked(PASSWORD_ENV, f"SMTP password for {user}: ", f"the SMTP password for {user}")


def parse_server(spec: str, security: str) -> tuple[str, int]:
    """HOST or HOST:PORT ([v6]:PORT too); the port defaults to the security's usual one."""
    if security not in SECURITY:
        raise UsageError(f"--smtp-security is one of {', '.join(SECURITY)}")
    host, port_text = spec, str(SECURITY[security])
    if spec.startswith("["):
        host, _, rest = spec[1:].partition("]")
        if rest.startswith(":"):
            port_text = rest[1:]
    elif spec.count(":") == 1:
        host, port_text = spec.split(":")
    try:
        port = int(port_text)
    except ValueError:
        raise UsageError(f"--smtp {spec!r}: write HOST or HOST:PORT") from None
    if not host or not 0 < port < 65536:
        raise UsageError(f"--smtp {spec!r}: write HOST or HOST:PORT")
    if security == "none" and host not in LOCAL_HOSTS:
        raise UsageError("--smtp-security none sends in clear: only to a server on this machine (localhost)")
    return host, port


@dataclass(frozen=True)
class Server:
    """Where `--send` hands mail: HOST[:PORT], how it is secured, the login, and its password when a
    long-running front end (pbem app) asked for it once and holds it in memory (else the usual sources)."""

    address: str
    security: str = "starttls"
    user: str | None = None
    password: str | None = field(default=None, repr=False)


def deliver_turn(rep: Replay, me: str, folder: Path, game_path: Path | None, since: int | None, attach: bool,
                 out: Path | None, server: Server | None) -> str:
    """Mail what the others lack of a verified game (to a file, or by SMTP); keep the local copy and the
    shared mark. Returns the line that says what was done."""
    from pbem.protocol.verify import compare
    from pbem.record.files import write_atomic
    from pbem.transport.store import Copies

    if me not in rep.roster:
        raise UsageError(f"{me!r} is not in this game (participants: {', '.join(rep.roster)})")
    game_id = rep.genesis.game_id
    store = Copies(folder)
    kept = store.find(game_id)
    copy = rep.record if kept and game_path and kept.resolve() == game_path.resolve() else store.record(game_id)
    if copy is not None and not begins(rep.record, copy):
        local = store.get(game_id)  # a copy that forks or runs ahead, verified: what it proves holds
        assert local is not None
        compare(local.record, rep.record)  # never mail a history that forks from the copy kept here
        if local.seq > rep.seq:
            raise UsageError(f"this file stops at entry {rep.seq}, but the copy in {kept} has entry {local.seq}: "
                             "mail that one")
    after = since if since is not None else copies.shared(game_id)
    if after is not None and not 0 <= after <= rep.seq:
        raise UsageError(f"--since {after}: the game has entries 0 to {rep.seq}")
    if after is not None and after == rep.seq and not attach and since != 0:  # --since 0: the whole game again
        raise UsageError(f"nothing new to mail: entry {rep.seq} was already mailed (--since N mails again from "
                         "entry N; --attach sends the whole file)")
    msg = compose(rep, me, after if after is None or after < rep.seq else None, attach)
    recipients = f"{msg['To']}" + (f", cc {msg['Cc']}" if msg["Cc"] else "")
    if server is not None:
        send(msg, server.address, server.security, server.user, server.password)
        done = f"Sent to {recipients}"
    else:
        target = out or Path(f"{rep.genesis.game}-{copies.short_id(game_id)}-{rep.seq}.eml")
        write_atomic(target, bytes(msg))
        done = f"Wrote {target} to {recipients}"
    if copy is None or rep.seq > len(copy.entries):
        store.put(rep)
    copies.mark_shared(game_id, rep.seq)
    return f"{done}: {msg['Subject']}"


def begins(record: GameFile, start: GameFile) -> bool:
    """Whether `start` is, entry for entry, the beginning of `record`: a copy that a verified game extends
    is verified with it (its every entry was checked), so it need not be read as a game again."""
    kept = len(start.entries)
    return kept <= len(record.entries) and start.genesis == record.genesis and start.entries == record.entries[:kept]


@functools.cache
def _tls_context(cafile: str | None) -> ssl.SSLContext:
    """Made once per CA file: loading the system's certificates costs some 60 ms, more than sending a turn
    to a local server (the judge sends many)."""
    return ssl.create_default_context(cafile=cafile)


def send(msg: EmailMessage, server: str, security: str = "starttls", user: str | None = None,
         password: str | None = None) -> None:
    """Hand the mail to an SMTP server; PbemError with the server's reason if it is refused. The login's
    password: the one given, else PBEM_SMTP_PASSWORD or a prompt."""
    with Outgoing(server, security, user, password) as outgoing:
        outgoing.send(msg)


class Outgoing:
    """One connection to an SMTP server for several mails (a judge's outbox): opened with the first, kept
    while the server takes them, opened again after a failure. A connection a mail was a tenth of the
    judge's time a turn."""

    def __init__(self, server: str, security: str = "starttls", user: str | None = None,
                 password: str | None = None):
        self.host, self.port = parse_server(server, security)
        self.security, self.user = security, user
        self.password = password if password is not None or not user else _password(user)
        self._smtp: smtplib.SMTP | None = None

    def __enter__(self) -> Outgoing:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def send(self, msg: EmailMessage) -> None:
        """PbemError with the server's reason if it is refused (the connection is then dropped)."""
        import smtplib

        try:
            if self._smtp is None:
                self._smtp = self._connect()
            self._smtp.send_message(msg)
        except smtplib.SMTPAuthenticationError:
            self.close()
            raise PbemError(f"the SMTP server {self.host} refused the login of {self.user}") from None
        except smtplib.SMTPException as exc:
            self.close()
            raise PbemError(f"the SMTP server {self.host} refused the mail: {exc}") from None
        except OSError as exc:
            self.close()
            raise PbemError(f"cannot send through {self.host}:{self.port}: {exc.strerror or exc}") from None

    def _connect(self) -> smtplib.SMTP:
        import smtplib

        context = _tls_context(os.environ.get(CAFILE_ENV) or None) if self.security != "none" else None
        smtp: smtplib.SMTP
        if self.security == "tls":
            smtp = smtplib.SMTP_SSL(self.host, self.port, local_hostname="localhost", context=context, timeout=30)
        else:
            smtp = smtplib.SMTP(self.host, self.port, local_hostname="localhost", timeout=30)
        try:
            if self.security == "starttls":
                smtp.starttls(context=context)
            if self.user and self.password is not None:
                smtp.login(self.user, self.password)
        except BaseException:
            smtp.close()
            raise
        return smtp

    def close(self) -> None:
        """Say QUIT when the server is still there; drop the connection whatever it says."""
        import smtplib

        smtp, self._smtp = self._smtp, None
        if smtp is None:
            return
        try:
            smtp.quit()
        except (smtplib.SMTPException, OSError):
            smtp.close()
