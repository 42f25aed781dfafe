"""Everything the judge asks of the rest of pbem, in one place: reading mail into the copies, the
referee's duties, composing and sending mail, the marks of what was mailed. When the public library
API lands (pbem.api), this module is the one to switch to it."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path

from pbem.crypto import Identity as Identity
from pbem.crypto import PublicKey
from pbem.crypto.keyring import load_identity as load_identity
from pbem.errors import PbemError as PbemError
from pbem.playing import TurnResult, take_turn
from pbem.playing import replay_file as replay_file
from pbem.protocol.replay import Replay
from pbem.protocol.seen import remember as remember
from pbem.protocol.seen import sighting as sighting
from pbem.protocol.verify import verify
from pbem.record.canonical import parse_json as parse_json
from pbem.record.gamefile import load
from pbem.record.models import GameFile as GameFile
from pbem.record.models import from_json, payload_hash
from pbem.record.names import is_name as is_name
from pbem.record.reading import read_file as read_file
from pbem.transport import contacts, copies, inbox, mail, turns

check_address = contacts.check_address
short_id = copies.short_id
game_id_of = copies.game_id_of
shared = copies.shared
mark_shared = copies.mark_shared


@dataclass
class MailOutcome:
    """What became of one mail: `applied` (its content is in the copies), `ignored` (no pbem content),
    `waiting` (a turn after a missing one), or `refused` with the first reason."""

    path: Path
    kind: str
    games: list[str] = field(default_factory=list)
    reason: str = ""


@dataclass
class MailReport:
    outcomes: list[MailOutcome]
    updated: dict[str, tuple[Path, int, int]]
    """game id -> (copy, first new entry, last entry)"""


def read_mail(files: list[Path], games: Path) -> MailReport:
    """Apply every turn and game file in the mails (as `pbem inbox` does) and say what became of each."""
    report = inbox.read(files, games)
    done = inbox._read_index(games)
    outcomes = []
    for path in files:
        where = str(path)
        try:
            data = read_file(path, "a mail", inbox.MAX_MAIL)  # the gate pbem inbox reads through
        except PbemError as exc:
            outcomes.append(MailOutcome(path, "refused", reason=str(exc)))
            continue
        found = inbox.items(where, data)
        ids = list(dict.fromkeys(f.item.game_id if isinstance(f.item, turns.TurnBlock) else f.item.genesis.game_id
                                 for f in found if isinstance(f.item, (turns.TurnBlock, GameFile))))
        said = [p[len(where) + 2:] if p.startswith(where + ": ") else p
                for p in report.problems + report.forks if p.startswith(where)]
        if not found:
            outcomes.append(MailOutcome(path, "ignored"))
        elif hashlib.sha256(data).hexdigest() in done:
            outcomes.append(MailOutcome(path, "applied", ids))
        elif said and all(" waits: " in p for p in said):
            outcomes.append(MailOutcome(path, "waiting", ids, said[0]))
        else:
            outcomes.append(MailOutcome(path, "refused", ids, said[0] if said else "not applied"))
    return MailReport(outcomes, report.updated)


def copies_in(games: Path) -> list[Path]:
    return [p for p in copies.all_copies(games) if copies.game_id_of(p)]


def referee_name(path: Path, key: PublicKey) -> str | None:
    """The judge's name in a game (each game's creator chose it), if the judge is its referee."""
    record, _ = load(path)
    referee = record.genesis.dealer.referee
    return referee.name if referee is not None and PublicKey.parse(referee.key).same_key(key) else None


def referee_duties(path: Path, name: str, key: Path) -> TurnResult:
    """Everything the referee owes now, signed and written (fsync) before this returns: `pbem referee`.
    Refuses a copy behind or forked from what this home has seen."""
    return take_turn(path, name, [], str(key), referee_only=True)


def outgoing(rep: Replay, me: str, book: dict[str, str]) -> EmailMessage | None:
    """The mail of the entries the parties have not had yet (threaded as `pbem mail` does), or None."""
    after = copies.shared(rep.genesis.game_id)
    if after is not None and after >= rep.seq:
        return None
    return mail.compose(rep, me, after, book=book)


def retry_later(exc: PbemError) -> bool:
    """Whether a failure may pass by itself (a mail server down) rather than need a person (a stale copy)."""
    return type(exc) is PbemError and ("SMTP" in str(exc) or "cannot send" in str(exc))


def send(msg: EmailMessage, server: str, security: str, user: str | None) -> None:
    mail.send(msg, server, security, user)


def read_game(data: bytes) -> GameFile:
    """A game file's record, parsed and validated but not verified (RecordError if it is not one)."""
    return from_json(data)


def chain(record: GameFile) -> list[str]:
    """The hash of the genesis and of every entry, as a replay computes them: cheap, nothing verified."""
    return [payload_hash(record.genesis)] + [payload_hash(e) for e in record.entries]


def verified(record: GameFile) -> Replay:
    """The record replayed and checked from its first entry (a VerifyError names what is wrong)."""
    return verify(record)
