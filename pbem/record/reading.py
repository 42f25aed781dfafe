"""The one gate every file pbem reads passes through: game files, mails and mailbox entries, key files,
the address book, configuration, its own notes.

Only a regular file is read (a symlink is followed only to one): a named pipe would block forever,
/dev/zero or /dev/urandom never end, a folder or a socket is no file to read. The file is opened
without blocking and checked on the open descriptor, so what is checked is what is read. Its size is
capped before reading, and the read stops one byte past the cap, in case the file grows meanwhile."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from pbem.errors import Unreadable

KiB, MiB = 1024, 1024 * 1024

_KINDS = [(stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe"), (stat.S_ISCHR, "a device"),
          (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket")]


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def _size(limit: int) -> str:
    return f"{limit // MiB} MB" if limit >= MiB else f"{limit // KiB} KB"


def read_file(path: Path | str, what: str, limit: int) -> bytes:
    """The bytes of `path`, a regular file of at most `limit` bytes; Unreadable (naming the file and
    `what` it was to be: "a game file", "a mail", "an address book"...) for anything else."""
    data = read_optional(path, what, limit)
    if data is None:
        raise Unreadable(f"no such file: {path}")
    return data


def read_optional(path: Path | str, what: str, limit: int) -> bytes | None:
    """As read_file, but None when there is no file at `path` (a note not written yet)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise Unreadable(_why(path, what, exc)) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = _kind(info.st_mode)
            raise Unreadable(f"{path} is a folder, not {what}" if kind == "a folder" else
                             f"{path} is {kind}, not {what} (pbem reads regular files only)")
        if info.st_size > limit:
            raise Unreadable(f"{path} is too large to be {what} (over {_size(limit)})")
        chunks, left = [], limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, MiB))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
        if len(data) > limit:
            raise Unreadable(f"{path} is too large to be {what} (over {_size(limit)})")
        return data
    except OSError as exc:
        raise Unreadable(_why(path, what, exc)) from None
    finally:
        os.close(fd)


def read_text(path: Path | str, what: str, limit: int) -> str:
    """A UTF-8 text file through the gate; Unreadable if it is not UTF-8."""
    try:
        return read_file(path, what, limit).decode("utf-8")
    except UnicodeDecodeError:
        raise Unreadable(f"{path} is not UTF-8 text, not {what}") from None


def _why(path: Path | str, what: str, exc: OSError) -> str:
    if exc.errno in (errno.EACCES, errno.EPERM):
        return f"cannot read {path}: permission denied"
    if exc.errno == errno.ELOOP:
        return f"cannot read {path}: a loop of symbolic links"
    if exc.errno == errno.EISDIR:
        return f"{path} is a folder, not {what}"
    return f"cannot read {path}: {(exc.strerror or str(exc)).lower()}"
