"""Mailboxes read safely: a Maildir, an mbox or an .eml, each mail through the file gate, refused before
parsing when it is built to be slow (nesting, thousands of parts, huge header fields), then the pbem
turns and games found in it (armored blocks and attachments)."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from email import policy
from email.message import Message
from email.parser import BytesParser
from pathlib import Path

from pbem.errors import PbemError, RecordError, UsageError, printable
from pbem.record.models import GameFile, from_json
from pbem.record.reading import read_file, read_optional
from pbem.transport import armor, turns
from pbem.transport.outcomes import PartFate

MAX_MAIL = 64 * 1024 * 1024


@dataclass(eq=False)
class MailItem:
    where: str
    item: turns.TurnBlock | GameFile | PbemError
    refused: bool = False
    """A fork or a bad entry: the mail is read again next time, and reported again."""
    fate: PartFate | None = None
    """What became of it (None: not looked at, as a turn left waiting)."""


def default_mailbox() -> Path:
    """$PBEM_MAIL, else $MAIL (the system's mbox or Maildir), else ~/Maildir if it exists."""
    for candidate in (os.environ.get("PBEM_MAIL"), os.environ.get("MAIL"), str(Path.home() / "Maildir")):
        if candidate and Path(candidate).expanduser().exists():
            return Path(candidate).expanduser()
    raise UsageError("say where your mail is: pbem inbox ~/Maildir (a Maildir, an mbox or .eml files), or set "
                     "PBEM_MAIL")


def mailbox_messages(path: Path, bad: dict[str, str]) -> list[tuple[str, bytes | PbemError]]:
    """(where, raw bytes) of every mail at a path: a Maildir, a folder of .eml files, an mbox, one file.
    A mail that cannot be read (a pipe, a device, too large) comes as its error, and the others still
    come; a Maildir entry refused before (in `bad`, by where it is) is not opened again."""
    if path.is_dir() and any((path / sub).is_dir() for sub in ("cur", "new")):
        entries = [(entry.name.split(":")[0], entry) for sub in ("new", "cur") if (path / sub).is_dir()
                   for entry in (path / sub).iterdir() if not entry.name.startswith(".") and not entry.is_dir()]
        return [(where, _mail(entry, where, bad)) for where, entry in
                sorted((f"{path}/{key}", entry) for key, entry in entries)]
    if path.is_dir():
        return [(str(p), _mail(p, str(p), bad)) for p in sorted(path.iterdir())
                if p.suffix == ".eml" and not p.is_dir()]
    data = read_optional(path, "a mailbox", MAX_MAIL)
    if data is None:
        raise UsageError(f"no such mailbox or file: {path}")
    if data.startswith(b"From "):
        return [(f"{path}#{i + 1}", mail) for i, mail in enumerate(_mbox(data))]
    return [(str(path), data)]


def _mail(path: Path, where: str, bad: dict[str, str]) -> bytes | PbemError:
    if where in bad:
        return RefusedBefore(bad[where])
    try:
        return read_file(path, "a mail", MAX_MAIL)
    except PbemError as exc:
        return exc


class RefusedBefore(PbemError):
    """A mail refused on an earlier run (the index says why): not read again."""


def _mbox(data: bytes) -> list[bytes]:
    """The mails of an mbox, as Python's mailbox.mbox cuts them (each "From " line starts one, the blank
    line before it ends the one before), from bytes already read through the gate."""
    starts: list[int] = []
    stops: list[int] = []
    last_was_empty, pos = False, 0
    for line in data.split(b"\n"):  # lines as mailbox reads them (readline: LF only)
        line += b"\n"
        if line == b"\n" and pos >= len(data):
            break  # the empty piece after a final LF
        if line.startswith(b"From "):
            if len(stops) < len(starts):
                stops.append(pos - 1 if last_was_empty else pos)
            starts.append(pos)
            last_was_empty = False
        else:
            last_was_empty = line == b"\n"
        pos += len(line)
    if len(stops) < len(starts):
        stops.append(pos - 1 if last_was_empty else pos)
    mails = []
    for start, stop in zip(starts, stops):
        body = data.find(b"\n", start, stop)
        mails.append(data[body + 1:stop] if body >= 0 else b"")
    return mails


def _in_text(where: str, text: str, budget: armor.Budget) -> list[MailItem]:
    found = [MailItem(where, t) for t in turns.find_blocks(text, budget)]
    for data in armor.find(text, "GAME", budget):
        try:
            found.append(MailItem(where, data if isinstance(data, PbemError) else from_json(data)))
        except PbemError as exc:
            found.append(MailItem(where, exc))
    return found


MAX_CONTAINERS, MAX_PARTS, MAX_PARAMS_FIELD = 64, 1000, 4096
"""What a mail may hold to be parsed, each found by one linear look at its bytes before Python's mail
parser sees them (a pbem mail has one or two containers, a few parts, short headers):
- multipart and message/* parts, which may nest: the parser recurses on nesting (a RecursionError near
  a thousand);
- lines starting with "--" (but armor lines), each perhaps a part: every part costs some 40 microseconds;
- the length of a Content-Type or Content-Disposition field: its parameters are split in quadratic time."""


_NEWLINE = rb"(?:\A|[\r\n])"


_CONTAINER = re.compile(_NEWLINE + rb"content-type:[ \t]*(?:(?:\r\n|\r|\n)[ \t]+)*(?:multipart|message)/", re.IGNORECASE)


_DASHES = re.compile(_NEWLINE + rb"--(?!---(?:BEGIN|END) PBEM )")  # an armor line is no part


_PARAMS_FIELD = re.compile(_NEWLINE + rb"content-(?:type|disposition):[^\r\n]*(?:(?:\r\n|\r|\n)[ \t][^\r\n]*)*",
                           re.IGNORECASE)


def _beyond_parsing(data: bytes) -> str | None:
    """Why a mail is not given to the parser, or None."""
    if len(_CONTAINER.findall(data)) > MAX_CONTAINERS:
        return f"more than {MAX_CONTAINERS} multipart or message parts (a pbem mail has one or two)"
    if len(_DASHES.findall(data)) > MAX_PARTS:
        return f"more than {MAX_PARTS} MIME parts"
    if any(m.end() - m.start() > MAX_PARAMS_FIELD for m in _PARAMS_FIELD.finditer(data)):
        return f"a Content-Type or Content-Disposition header longer than {MAX_PARAMS_FIELD} bytes"
    return None


def items(where: str, data: bytes) -> list[MailItem]:
    """Every pbem block and attached game in one mail, each part decoded (quoted-printable, base64).
    Never raises: a mail that cannot be read is one MailItem holding the error."""
    if data.lstrip().startswith(b"{"):  # a bare game file given among the mails
        try:
            return [MailItem(where, from_json(data))]
        except PbemError as exc:
            return [MailItem(where, exc)]
    refused = _beyond_parsing(data)
    if refused:
        return [MailItem(where, RecordError(f"not read: {refused}"))]
    try:
        message = BytesParser(policy=policy.compat32).parsebytes(data)
        return _parts(where, message)
    except RecursionError:  # the count above keeps this away; should a parser still nest, no traceback
        return [MailItem(where, RecordError("not read: its MIME parts nest too deep"))]


def _parts(where: str, message: Message) -> list[MailItem]:
    found: list[MailItem] = []
    budget = armor.Budget()
    stack = [message]
    while stack:  # message.walk() recurses; an explicit stack does not
        part = stack.pop()
        if part.is_multipart():
            inner = part.get_payload()
            if isinstance(inner, list):
                stack.extend(p for p in reversed(inner) if isinstance(p, Message))
            continue
        payload = part.get_payload(decode=True)  # a leaf part's bytes, None if it has none
        content = payload if isinstance(payload, bytes) else b""
        name = printable(part.get_filename() or "")[:200]  # the sender's words, shown in a terminal
        if part.get_content_type() == "application/json" or name.endswith(".json"):
            try:
                found.append(MailItem(f"{where} ({name or 'attachment'})", from_json(content)))
            except PbemError as exc:
                found.append(MailItem(f"{where} ({name or 'attachment'})", exc))
            continue
        if part.get_content_maintype() == "text" or not name:
            charset = part.get_content_charset() or "utf-8"
            try:
                text = content.decode(charset, errors="replace")
            except (LookupError, ValueError):  # an unknown charset name, or one no codec name holds (a NUL)
                text = content.decode("utf-8", errors="replace")
            found += _in_text(where, text, budget)
    return found

