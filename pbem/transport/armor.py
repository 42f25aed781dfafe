"""Armored blocks: gzip-compressed bytes as base64 between BEGIN and END lines, for mail bodies.

    -----BEGIN PBEM TURN-----
    (base64, 64 columns)
    -----END PBEM TURN-----

Reading is forgiving about what mail clients do to text: quoting with "> " (nested too), rewrapping
(lines joined, or cut anywhere, markers included), CRLF line ends and
stray spaces. Damage that changes a byte is caught by gzip's CRC, and every entry inside is signed.
"""

from __future__ import annotations

import base64
import binascii
import gzip
import io
import re
import zlib

from pbem.errors import RecordError
from pbem.record.canonical import MAX_BYTES

_BREAK = r"[\s>]*"  # what may sit inside a marker once a client quoted, rewrapped or cut it


def begin(label: str) -> str:
    return f"-----BEGIN PBEM {label}-----"


def end(label: str) -> str:
    return f"-----END PBEM {label}-----"


def _marker(word: str, label: str) -> str:
    return _BREAK.join(re.escape(c) for c in f"-----{word}PBEM{label}-----")


def wrap(label: str, data: bytes) -> str:
    packed = base64.b64encode(gzip.compress(data, mtime=0)).decode()
    lines = [packed[i:i + 64] for i in range(0, len(packed), 64)]
    return "\n".join([begin(label), *lines, end(label)]) + "\n"


def find(text: str, label: str) -> list[bytes | RecordError]:
    """Every block with this label in the text, in order: its bytes, or the error that spoiled it."""
    pattern = re.compile(_marker("BEGIN", label) + "(.*?)" + _marker("END", label), re.DOTALL)
    return [_unpack(match.group(1), label) for match in pattern.finditer(text)]


def _unpack(body: str, label: str) -> bytes | RecordError:
    what = f"the armored {label.lower()} block"
    packed = re.sub(r"[\s>]", "", body)  # quote marks and every kind of line break or space
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(base64.b64decode(packed, validate=True))) as handle:
            out = handle.read(MAX_BYTES + 1)
    except (ValueError, binascii.Error, OSError, EOFError, zlib.error):  # ValueError: non-ASCII text
        return RecordError(f"{what} is damaged (was it cut, or edited?)")
    if len(out) > MAX_BYTES:
        return RecordError(f"{what} is over the {MAX_BYTES} byte limit")
    return out
