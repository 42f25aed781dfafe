"""Game files on disk: plain JSON, or the armored block that survives an email body.

    -----BEGIN PBEM GAME-----
    (base64 of the gzip-compressed JSON, 64 columns)
    -----END PBEM GAME-----

Reading accepts either, and finds the armored block inside a saved email (quoting `> ` included)."""

from __future__ import annotations

import base64
import binascii
import codecs
import gzip
import io
import zlib
from pathlib import Path

from pbem.errors import RecordError
from pbem.record.canonical import MAX_BYTES
from pbem.record.files import write_atomic
from pbem.record.models import GameFile, from_json, to_json
from pbem.record.reading import read_file

BEGIN, END = "-----BEGIN PBEM GAME-----", "-----END PBEM GAME-----"


def armor(text: str) -> str:
    packed = base64.b64encode(gzip.compress(text.encode(), mtime=0)).decode()
    lines = [packed[i:i + 64] for i in range(0, len(packed), 64)]
    return "\n".join([BEGIN, *lines, END]) + "\n"


def is_armored(data: bytes) -> bool:
    return BEGIN.encode() in data


def dearmor(data: bytes) -> bytes:
    text = data.decode("utf-8", errors="replace")
    start = text.find(BEGIN)
    end = text.find(END, start + len(BEGIN)) if start >= 0 else -1  # one look each: linear in the text
    if end < 0:
        raise RecordError("the armored game block is incomplete (missing its END line)")
    body = "".join(line.strip().lstrip(">").strip() for line in text[start + len(BEGIN):end].splitlines())
    try:
        packed = base64.b64decode(body, validate=True)
        with gzip.GzipFile(fileobj=io.BytesIO(packed)) as handle:
            out = handle.read(MAX_BYTES + 1)
    except (ValueError, binascii.Error, OSError, EOFError, zlib.error):  # ValueError: non-ASCII text
        raise RecordError("the armored game block is damaged (was it re-wrapped or cut?)") from None
    if len(out) > MAX_BYTES:
        raise RecordError(f"the armored game is over the {MAX_BYTES} byte limit")
    return out


def read_bytes(path: Path) -> bytes:
    """A game file's bytes, through the gate (a regular file; JSON, or a saved mail holding the block)."""
    return read_file(path, "a game file", 4 * MAX_BYTES).removeprefix(codecs.BOM_UTF8)  # Notepad starts with one


def load(path: Path) -> tuple[GameFile, bool]:
    """The record in a file, and whether it was armored."""
    return parse(path, read_bytes(path))


def parse(path: Path, data: bytes) -> tuple[GameFile, bool]:
    """The record in a file's bytes already read (`path` names it in an error), and whether it was armored."""
    armored = is_armored(data)
    try:
        return from_json(dearmor(data) if armored else data), armored
    except RecordError as exc:
        raise RecordError(f"{path}: {exc}") from None


def save(path: Path, record: GameFile, armored: bool = False) -> None:
    """Write the record as JSON or, if `armored`, as an armored block; a name ending in .json is
    always written as JSON (an armored game read from a mail, written with -o game.json)."""
    text = to_json(record)
    armored = armored and Path(path).suffix.lower() != ".json"
    write_atomic(path, (armor(text) if armored else text).encode())
