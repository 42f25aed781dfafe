"""The short answer to a participant whose mail the judge could not apply, so a player whose turn was
refused learns why instead of waiting for a game that will not move.

Only a participant's known address is answered (one the judge's configuration or a valid turn of that
game gave it), never whoever a mail claims to be from: a forged or stray mail gets no answer, so the
judge cannot be made to mail strangers. And at most one answer an hour to one address, however many bad
mails come from it: a loop between two programs, or a flood, costs one mail an hour. The times of the
answers are kept in the judge's home, so a restart does not answer again."""

from __future__ import annotations

import email.utils
import json
from dataclasses import dataclass
from email.headerregistry import Address
from email.message import EmailMessage
from email.parser import BytesHeaderParser
from email.policy import default as default_policy
from pathlib import Path

from pbem.judge import library

ANSWER_EVERY = 3600
"""Seconds between two answers to one address."""
MAX_MAIL = 64 * 1024 * 1024
MAX_NOTES = 1024 * 1024


@dataclass(frozen=True)
class Sender:
    """Who a mail says it is from, and what an answer threads on."""

    address: str
    subject: str
    message_id: str


def sender_of(path: Path) -> Sender | None:
    """The mail's From address, its subject and Message-ID; None without an address, or for a mail that
    a program sent on its own (Auto-Submitted, RFC 3834: robots do not answer robots)."""
    try:
        headers = BytesHeaderParser(policy=default_policy).parsebytes(library.read_file(path, "a mail", MAX_MAIL))
        pairs = email.utils.getaddresses([str(headers.get("From", ""))])
        subject, message_id = str(headers.get("Subject", "")), str(headers.get("Message-ID", ""))
        robot = str(headers.get("Auto-Submitted", "no")).strip().lower() != "no"
    except (library.PbemError, ValueError, TypeError, IndexError):
        return None
    if robot:
        return None
    address = pairs[0][1].lower() if pairs and "@" in pairs[0][1] else ""
    return Sender(address, subject, message_id) if address else None


class Answered:
    """When each address was last answered (the judge's home/answered.json)."""

    def __init__(self, path: Path):
        self.path = path
        try:
            data = json.loads(library.read_file(path, "the judge's notes of answers", MAX_NOTES))
            self.times = {str(k): float(v) for k, v in data.items()} if isinstance(data, dict) else {}
        except (library.PbemError, ValueError, TypeError, AttributeError):
            self.times = {}

    def due(self, address: str, now: float) -> bool:
        return now - self.times.get(address, float("-inf")) >= ANSWER_EVERY

    def note(self, address: str, now: float) -> None:
        self.times = {a: t for a, t in self.times.items() if now - t < ANSWER_EVERY}  # the rest can go
        self.times[address] = now
        library.write_file(self.path, json.dumps(self.times, sort_keys=True).encode(), mode=0o600)


def answer(judge_address: str, to: Sender, reason: str) -> EmailMessage:
    """The answer: what was refused, why, and what the player can do."""
    msg = EmailMessage()
    msg["From"] = Address("pbem judge", addr_spec=judge_address)
    msg["To"] = to.address
    subject = to.subject or "your mail"
    msg["Subject"] = subject if subject.lower().startswith("re:") else f"Re: {subject}"
    msg["Date"] = email.utils.formatdate(localtime=True)
    if to.message_id:
        msg["In-Reply-To"] = to.message_id
        msg["References"] = to.message_id
    msg["Auto-Submitted"] = "auto-replied"  # RFC 3834: another robot does not answer it
    msg.set_content(
        f"The judge could not apply your mail \"{subject}\":\n\n    {reason}\n\n"
        "Nothing in it was applied, and the game goes on without it. To send your turn again, check your\n"
        "copy with `pbem verify GAME`, then `pbem mail GAME --send` (it sends what the others have not had).\n"
        f"(The judge answers one address at most once an hour; it read every mail since.)\n")
    return msg
