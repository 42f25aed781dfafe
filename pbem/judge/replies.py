"""The short answer to a participant whose mail the judge could not apply, so a player whose turn was
refused learns why instead of waiting for a game that will not move.

Only a participant's known address is answered (one the judge's configuration or a valid turn of that
game gave it), never whoever a mail claims to be from: a forged or stray mail gets no answer, so the
judge cannot be made to mail strangers. And at most one answer an hour to one address, however many bad
mails come from it: a loop between two programs, or a flood, costs one mail an hour. The times of the
answers are kept in the judge's store, so a restart does not answer again."""

from __future__ import annotations

import email.utils
import re
from dataclasses import dataclass
from email.headerregistry import Address
from email.message import EmailMessage
from email.parser import BytesHeaderParser
from email.policy import default as default_policy

from pbem.judge import library

ANSWER_EVERY = 3600
"""Seconds between two answers to one address."""


@dataclass(frozen=True)
class Sender:
    """Who a mail says it is from, and what an answer threads on: each value checked before it is kept,
    since everything here is a stranger's until proven otherwise."""

    address: str
    subject: str
    message_id: str


MAX_SUBJECT = 200
_MESSAGE_ID = re.compile(r"^<[!-;=?-~]{1,250}@[!-;=?-~]{1,250}>$")
"""<left@right> in printable ASCII without spaces or angle brackets (RFC 5322's msg-id, near enough)."""
_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]+")
"""Control characters (CR and LF among them), line and paragraph separators, bidirectional overrides."""


def one_line(text: str, limit: int = MAX_SUBJECT) -> str:
    """A stranger's text as one harmless line: every control or line-breaking character a space, at most
    `limit` characters."""
    line = " ".join(_UNSAFE.sub(" ", text).split())
    return line if len(line) <= limit else line[:limit - 3] + "..."


def sender_of(data: bytes) -> Sender | None:
    """The mail's From address, its subject and Message-ID, each validated (a subject as one line, a
    Message-ID only when well formed, the address as pbem checks one); None without a valid address, or
    for a mail that a program sent on its own (Auto-Submitted, RFC 3834: robots do not answer robots)."""
    try:
        headers = BytesHeaderParser(policy=default_policy).parsebytes(data)
        pairs = email.utils.getaddresses([str(headers.get("From", ""))])
        subject, message_id = str(headers.get("Subject", "")), str(headers.get("Message-ID", "")).strip()
        robot = str(headers.get("Auto-Submitted", "no")).strip().lower() != "no"
    except (ValueError, TypeError, IndexError, LookupError, AttributeError):
        return None
    if robot or not pairs:
        return None
    try:
        address = library.check_address(pairs[0][1]).lower()
    except library.PbemError:
        return None
    return Sender(address, one_line(subject), message_id if _MESSAGE_ID.match(message_id) else "")


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
        f"The judge could not apply your mail \"{subject}\":\n\n    {one_line(reason, 2000)}\n\n"
        "Nothing in it was applied, and the game goes on without it. To send your turn again, check your\n"
        "copy with `pbem verify GAME`, then `pbem mail GAME --send` (it sends what the others have not had).\n"
        f"(The judge answers one address at most once an hour; it read every mail since.)\n")
    return msg
