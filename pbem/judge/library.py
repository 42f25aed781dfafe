"""What the judge by mail and on the web asks of the rest of pbem, in one place and only through the public
library API (pbem.api): reading mail into the copies, the referee's duties, composing and sending mail,
the marks of what was mailed, the seen-store, reading and checking game files, IMAP. Importing it loads
the mail side (email, IMAP, SMTP): the store (store.py) and the git hooks, which need none of it, call
pbem.api themselves, which loads only what is asked of it."""

from __future__ import annotations

from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem import api
from pbem.api import Clock as Clock
from pbem.api import Fate as Fate
from pbem.api import GameFile as GameFile
from pbem.api import Identity as Identity
from pbem.api import MailOutcome as MailOutcome
from pbem.api import PbemError as PbemError
from pbem.api import PublicKey
from pbem.api import Replay as Replay
from pbem.api import Sighting as Sighting
from pbem.api import absent as absent
from pbem.api import check_address as check_address
from pbem.api import clock_now as clock_now
from pbem.api import copies_in as copies_in
from pbem.api import duty_clocks as duty_clocks
from pbem.api import hash_chain as hash_chain
from pbem.api import imap_connect as imap_connect
from pbem.api import imap_mailbox as imap_mailbox
from pbem.api import is_name as is_name
from pbem.api import load as load
from pbem.api import load_identity as load_identity
from pbem.api import mailed_up_to as mailed_up_to
from pbem.api import mark_mailed as mark_mailed
from pbem.api import open_game as open_game
from pbem.api import parse_json as parse_json
from pbem.api import parse_mail as parse_mail
from pbem.api import read_file as read_file
from pbem.api import read_record as read_record
from pbem.api import referee as referee
from pbem.api import remember as remember
from pbem.api import short_id as short_id
from pbem.api import sighting as sighting
from pbem.api import to_json as to_json
from pbem.api import verify_record as verify_record
from pbem.api import write_file as write_file

if TYPE_CHECKING:
    from pbem.transport.mail import Outgoing

__all__ = [
    "Clock",
    "Fate",
    "GameFile",
    "Identity",
    "MailOutcome",
    "MailRead",
    "PbemError",
    "Replay",
    "Sighting",
    "absent",
    "apply_mail",
    "check_address",
    "clock_now",
    "copies_in",
    "duty_clocks",
    "has_deadlines",
    "hash_chain",
    "imap_connect",
    "imap_mailbox",
    "is_name",
    "load",
    "load_identity",
    "mailed_up_to",
    "mark_mailed",
    "open_game",
    "outgoing",
    "parse_json",
    "parse_mail",
    "participants",
    "read_file",
    "read_one",
    "read_record",
    "referee",
    "referee_name",
    "remember",
    "retry_later",
    "send",
    "short_id",
    "sighting",
    "smtp_connection",
    "to_json",
    "verify_record",
    "write_file",
]


MAX_MAIL = 8 * 1024 * 1024
"""A judge reads no larger mail: a whole game file of six players, attached, is well under a megabyte."""


@dataclass(frozen=True)
class MailRead:
    """One mail read and applied: what became of it, and each game it brought on (id -> its copy, the
    first new entry, the last entry)."""

    outcome: MailOutcome
    updated: dict[str, tuple[Path, int, int]]
    games: dict[str, Replay] = field(default_factory=dict)
    """Each game it brought on, as verified when its copy was written: read and verified once a mail."""


def apply_mail(parsed: Any, games: Path) -> MailRead:
    """Apply one parsed mail's turns and game files to the copies (as `pbem inbox` does) and say what
    became of it."""
    report = api.read_mails([parsed], games)
    return MailRead(report.outcomes.get(parsed.where, MailOutcome(parsed.where, Fate.IGNORED)), report.updated,
                    report.games)


def read_one(where: str, data: bytes, games: Path) -> MailRead:
    """Parse and apply one mail."""
    return apply_mail(parse_mail(where, data), games)


def referee_name(path: Path, key: PublicKey) -> str | None:
    """The judge's name in a game (each game's creator chose it), if the judge is its referee."""
    record = api.load(path)
    referee = record.genesis.dealer.referee
    return referee.name if referee is not None and PublicKey.parse(referee.key).same_key(key) else None


def participants(record: GameFile) -> set[str]:
    """Every name a game's genesis gives a part: its players and its referee."""
    referee = record.genesis.dealer.referee
    return {p.name for p in record.genesis.players} | ({referee.name} if referee is not None else set())


def has_deadlines(path: Path) -> bool:
    """Whether a game's invitation carries a deadline policy (read, not verified: cheap)."""
    record = api.load(path)
    return record.genesis.deadlines is not None


def outgoing(rep: api.Replay, me: str, book: dict[str, str]) -> EmailMessage | None:
    """The mail of the entries the parties have not had yet (threaded as `pbem mail` does), or None."""
    after = api.mailed_up_to(rep.genesis.game_id)
    if after is not None and after >= rep.seq:
        return None
    return api.compose_mail(rep, me, after, book=book)


def retry_later(exc: PbemError) -> bool:
    """Whether a failure may pass by itself (a mail server down) rather than need a person (a stale copy)."""
    return type(exc) is PbemError and ("SMTP" in str(exc) or "cannot send" in str(exc))


def send(msg: EmailMessage, server: str, security: str, user: str | None) -> None:
    api.send_mail(msg, api.smtp_server(server, security, user))


def smtp_connection(server: str, security: str, user: str | None) -> Outgoing:
    return api.smtp_connection(api.smtp_server(server, security, user))
