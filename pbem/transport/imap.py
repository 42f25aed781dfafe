"""Reading mail from an IMAP mailbox: new messages copied into a local Maildir, which `pbem inbox` and
the judge then read like any other mailbox.

Copying first keeps one reader for every kind of mailbox and makes a crash harmless: a message is
written into the Maildir (fsync, then the Maildir's rename from tmp/ to new/) before the last UID
read is recorded, so a crash between the two copies it twice (read twice, applied once) and never
loses one. Messages are fetched with BODY.PEEK: the server's \\Seen flags stay the user's.

Always encrypted: `imaps://` (implicit TLS, port 993) or `imap://` (STARTTLS, port 143). The password
comes from PBEM_IMAP_PASSWORD or a prompt, and is never written anywhere. PBEM_IMAP_CAFILE names a CA
file for a server with a private certificate. `wait` uses IDLE (RFC 2177) when the server offers it,
so a service hears of new mail at once; polling is the fallback.
"""

from __future__ import annotations

import hashlib
import imaplib
import json
import os
import re
import select
import socket
import ssl
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from pbem.errors import PbemError, UsageError
from pbem.record.canonical import parse_json
from pbem.record.files import write_atomic
from pbem.record.reading import read_optional
from pbem.transport import passwords

PASSWORD_ENV = "PBEM_IMAP_PASSWORD"
CAFILE_ENV = "PBEM_IMAP_CAFILE"
PORTS = {"imaps": 993, "imap": 143}
MAX_MESSAGE = 64 * 1024 * 1024
MAX_STATE = 1024 * 1024


@dataclass(frozen=True)
class Mailbox:
    """An IMAP folder: imaps://USER@HOST[:PORT][/FOLDER] (TLS) or imap://... (STARTTLS)."""

    host: str
    user: str
    port: int = 993
    tls: bool = True
    folder: str = "INBOX"
    cafile: str | None = None

    @property
    def name(self) -> str:
        return f"{'imaps' if self.tls else 'imap'}://{self.user}@{self.host}:{self.port}/{self.folder}"


def is_url(text: str) -> bool:
    return text.startswith(("imaps://", "imap://"))


def parse_url(url: str, cafile: str | None = None) -> Mailbox:
    """imaps://alice@example.org@imap.example.org/INBOX: the user is everything before the last @."""
    parts = urlsplit(url)
    if parts.scheme not in PORTS:
        raise UsageError(f"{url!r}: an IMAP mailbox is imaps://USER@HOST[:PORT][/FOLDER] (or imap:// for STARTTLS)")
    user, at, hostport = parts.netloc.rpartition("@")
    host, _, port_text = hostport.partition(":") if not hostport.startswith("[") else (
        hostport[1:].partition("]")[0], "", hostport.partition("]:")[2])
    if not at or not user or not host:
        raise UsageError(f"{url!r}: name the user and the server, e.g. imaps://alice@imap.example.org")
    try:
        port = int(port_text) if port_text else PORTS[parts.scheme]
    except ValueError:
        raise UsageError(f"{url!r}: the port must be a number") from None
    folder = unquote(parts.path.lstrip("/")) or "INBOX"
    return Mailbox(host, unquote(user), port, parts.scheme == "imaps", folder,
                   (cafile if cafile is not None else os.environ.get(CAFILE_ENV)) or None)


def password(box: Mailbox) -> str:
    """From PBEM_IMAP_PASSWORD, else a prompt on a terminal (passwords.py)."""
    return passwords.asked(PASSWORD_ENV, f"IMAP password for {box.user} at {box.host}: ",
                           f"the IMAP password for {box.user}")


class Connection:
    """One logged-in session on one folder; `fetch_into` and `wait` reuse it."""

    def __init__(self, box: Mailbox, secret: str, timeout: float = 30):
        self.box = box
        context = ssl.create_default_context(cafile=box.cafile)
        try:
            if box.tls:
                self.imap: imaplib.IMAP4 = imaplib.IMAP4_SSL(box.host, box.port, ssl_context=context, timeout=timeout)
            else:
                self.imap = imaplib.IMAP4(box.host, box.port, timeout=timeout)
                self.imap.starttls(context)
            self.imap.login(box.user, secret)
            if self.imap.select(_quoted(box.folder), readonly=True)[0] != "OK":
                raise PbemError(f"the IMAP server {box.host} has no folder {box.folder!r}")
            valid: list[Any] = self.imap.response("UIDVALIDITY")[1]
            self.uidvalidity = int(valid[0]) if valid and isinstance(valid[0], bytes) else 0
        except imaplib.IMAP4.error as exc:
            raise PbemError(f"the IMAP server {box.host} refused {box.user}: {_text(exc)}") from None
        except ssl.SSLError as exc:
            raise PbemError(f"cannot talk TLS with {box.host}:{box.port}: {exc.reason or exc}") from None
        except OSError as exc:
            raise PbemError(f"cannot reach the IMAP server {box.host}:{box.port}: {exc.strerror or exc}") from None

    def close(self) -> None:
        try:
            self.imap.logout()
        except (imaplib.IMAP4.error, OSError):
            pass

    def __enter__(self) -> Connection:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def new_uids(self, after: int) -> list[int]:
        kind, data = self.imap.uid("SEARCH", f"UID {after + 1}:*")
        if kind != "OK":
            raise PbemError(f"the IMAP server {self.box.host} refused a search: {data!r}")
        return sorted(u for u in (int(x) for x in (data[0] or b"").split()) if u > after)  # N:* includes the last

    def message(self, uid: int) -> bytes | None:
        """The message, or None if the server has none by that UID or it is over MAX_MESSAGE: its size
        is asked first, so an oversized one is never downloaded."""
        if self.size(uid) > MAX_MESSAGE:
            return None
        kind, data = self.imap.uid("FETCH", str(uid), "(BODY.PEEK[])")
        for part in data if kind == "OK" else []:
            if isinstance(part, tuple) and isinstance(part[1], bytes) and len(part[1]) <= MAX_MESSAGE:
                body: bytes = part[1]
                return body
        return None

    def size(self, uid: int) -> int:
        """The message's size as the server states it (0 if it states none: the fetch then checks)."""
        kind, data = self.imap.uid("FETCH", str(uid), "(RFC822.SIZE)")
        for part in data if kind == "OK" else []:
            found = re.search(rb"RFC822\.SIZE (\d{1,20})", part if isinstance(part, bytes) else b"")
            if found:
                return int(found.group(1))
        return 0

    def fetch_into(self, maildir: Path, state: Path) -> int:
        """Copy every message after the last UID copied before into `maildir`; how many were copied."""
        mark = _read_state(state, self.box)
        last = mark["last"] if mark.get("uidvalidity") == self.uidvalidity else 0
        copied = 0
        try:
            for uid in self.new_uids(last):
                data = self.message(uid)
                if data is not None:
                    deliver(maildir, data, self.message_name(uid))
                    copied += 1
                _write_state(state, self.box, self.uidvalidity, uid)
        except (imaplib.IMAP4.error, OSError) as exc:
            raise PbemError(f"reading mail from {self.box.host} stopped: {_text(exc)}") from None
        return copied

    def message_name(self, uid: int) -> str:
        """The name a message is kept under in a Maildir: the same for every reader of this folder (its
        server, folder, UIDVALIDITY and UID), so that judges sharing one database and one IMAP folder claim
        each message by it, and one of them reads it."""
        where = hashlib.sha256(self.box.name.encode()).hexdigest()[:12]
        return f"imap.{where}.{self.uidvalidity}.{uid}"

    def wait(self, timeout: float) -> bool:
        """Until the server says a message arrived (IDLE), or `timeout` seconds; True if one did.
        A server without IDLE: sleep the timeout (the caller polls)."""
        if "IDLE" not in self.imap.capabilities:
            time.sleep(timeout)
            return True
        tag = self.imap._new_tag().decode()  # imaplib before 3.14 has no idle(): the command by hand
        self.imap.send(f"{tag} IDLE\r\n".encode())
        if not self.imap.readline().startswith(b"+"):
            raise PbemError(f"the IMAP server {self.box.host} refused IDLE")
        arrived, deadline = False, time.monotonic() + timeout
        sock = self.imap.sock
        while not arrived and (left := deadline - time.monotonic()) > 0:
            pending = isinstance(sock, ssl.SSLSocket) and sock.pending() > 0
            if pending or select.select([sock], [], [], left)[0]:
                if not (line := self.imap.readline()):  # the server went: its socket reads empty at once
                    raise self._closed()
                arrived = b"EXISTS" in line or arrived
        self.imap.send(b"DONE\r\n")
        while not (line := self.imap.readline()).startswith(tag.encode()):
            if not line:
                raise self._closed()
            arrived = arrived or b"EXISTS" in line
        return arrived

    def _closed(self) -> PbemError:
        return PbemError(f"the IMAP server {self.box.host} closed the connection")


def _quoted(folder: str) -> str:
    return '"' + folder.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _text(exc: BaseException) -> str:
    arg = exc.args[0] if exc.args else exc
    return arg.decode(errors="replace") if isinstance(arg, bytes) else str(arg)


def _read_state(state: Path, box: Mailbox) -> dict[str, int]:
    try:
        mark = parse_json(read_optional(state, "an IMAP state file", MAX_STATE) or b"{}").get(box.name, {})
    except (PbemError, ValueError, AttributeError):
        return {}
    return mark if isinstance(mark, dict) else {}


def _write_state(state: Path, box: Mailbox, uidvalidity: int, last: int) -> None:
    try:
        marks = parse_json(read_optional(state, "an IMAP state file", MAX_STATE) or b"{}")
    except (PbemError, ValueError):
        marks = {}
    marks = marks if isinstance(marks, dict) else {}
    marks[box.name] = {"uidvalidity": uidvalidity, "last": last}
    state.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(state, json.dumps(marks, sort_keys=True).encode() + b"\n", mode=0o600)


_count = 0


def deliver(maildir: Path, data: bytes, name: str | None = None) -> Path:
    """Write one message into a Maildir as its delivery agents do: whole in tmp/ (fsync), then renamed
    into new/, so a reader never sees half a message. Named as they name it, unless `name` is given."""
    global _count
    for sub in ("tmp", "new", "cur"):
        (maildir / sub).mkdir(parents=True, exist_ok=True, mode=0o700)
    _count += 1
    name = name or f"{time.time_ns()}.P{os.getpid()}Q{_count}.{socket.gethostname().replace('/', '_')}"
    tmp = maildir / "tmp" / name
    tmp.unlink(missing_ok=True)  # a delivery of this very message cut short before
    with open(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.rename(tmp, maildir / "new" / name)
    return maildir / "new" / name


def fetch(box: Mailbox, maildir: Path, state: Path, secret: str | None = None) -> int:
    """Connect, copy what is new into `maildir`, log out: for `pbem inbox imaps://...`."""
    with Connection(box, secret if secret is not None else password(box)) as conn:
        return conn.fetch_into(maildir, state)


def spool_for(box: Mailbox) -> Path:
    """The local Maildir that holds the copy of an IMAP folder: in PBEM_HOME, never shared."""
    from pbem.crypto.keyring import home

    safe = "".join(c if c.isalnum() or c in "@.-_" else "_" for c in f"{box.user}@{box.host}-{box.port}-{box.folder}")
    return home() / "imap" / safe


def fetch_to_spool(url: str) -> Path:
    """What is new in the IMAP folder copied into its local Maildir; that Maildir."""
    box = parse_url(url)
    spool = spool_for(box)
    fetch(box, spool, spool.parent / "state.json")
    return spool
