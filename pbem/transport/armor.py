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
import bisect
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


class Budget:
    """What the blocks of one mail may unpack to, together: each block is capped at MAX_BYTES, but a
    mail of many small gzip bombs (8 KB each, unpacking to 8 MB) would cost a thousand times its size."""

    def __init__(self, left: int = 2 * MAX_BYTES):
        self.left = left


def wrap(label: str, data: bytes) -> str:
    packed = base64.b64encode(gzip.compress(data, mtime=0)).decode()
    lines = [packed[i:i + 64] for i in range(0, len(packed), 64)]
    return "\n".join([begin(label), *lines, end(label)]) + "\n"


def find(text: str, label: str, budget: Budget | None = None) -> list[bytes | RecordError]:
    """Every block with this label in the text, in order: its bytes, or the error that spoiled it.

    Linear in the text, whatever it holds: the BEGIN and END markers are each found in one pass, then
    paired in order (each BEGIN with the first END after it; a BEGIN with none after it ends the search).
    A lazy BEGIN(.*?)END over a text of BEGIN lines and no END looked for the END from every BEGIN."""
    begins = [m.span() for m in re.finditer(_marker("BEGIN", label), text)]
    ends = [m.span() for m in re.finditer(_marker("END", label), text)]
    found: list[bytes | RecordError] = []
    budget = Budget() if budget is None else budget
    at, e = 0, 0
    for start, stop in begins:
        if start < at:
            continue  # inside the block just read
        e = bisect.bisect_left(ends, (stop, stop), lo=e)
        if e == len(ends):
            break
        found.append(_unpack(text[stop:ends[e][0]], label, budget))
        at = ends[e][1]
    return found


def _unpack(body: str, label: str, budget: Budget) -> bytes | RecordError:
    what = f"the armored {label.lower()} block"
    packed = re.sub(r"[\s>]", "", body)  # quote marks and every kind of line break or space
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(base64.b64decode(packed, validate=True))) as handle:
            out = handle.read(min(MAX_BYTES, budget.left) + 1)
    except (ValueError, binascii.Error, OSError, EOFError, zlib.error):  # ValueError: non-ASCII text
        return RecordError(f"{what} is damaged (was it cut, or edited?)")
    if len(out) > MAX_BYTES:
        return RecordError(f"{what} is over the {MAX_BYTES} byte limit")
    if len(out) > budget.left:
        return RecordError(f"{what} is not read: the blocks before it in this mail unpacked to the most one mail "
                           "may hold")
    budget.left -= len(out)
    return out
