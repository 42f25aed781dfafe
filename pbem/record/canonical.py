"""JSON at the file boundary: a strict reader, the RFC 8785 bytes we sign, the layout we write.

The strict profile: integers only (no floats, NaN or Infinity), no duplicate keys, ASCII keys,
bounded size and nesting depth, checked before anything is parsed into models."""

from __future__ import annotations

import json
import re
from json.encoder import encode_basestring_ascii as _quote
from typing import Any, NoReturn

import rfc8785

from pbem.errors import RecordError

MAX_BYTES = 8 * 1024 * 1024
MAX_DEPTH = 12


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise RecordError(f"duplicate key {key!r} in JSON object")
        if not key.isascii():
            raise RecordError(f"non-ASCII key {key!r} in JSON object")
        out[key] = value
    return out


def _no_float(text: str) -> NoReturn:
    raise RecordError(f"number {text} is not an integer (the record uses integers only)")


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > 16:
        raise RecordError(f"integer {text[:20]}... is too large for a record")
    return int(text)


def _no_constant(text: str) -> NoReturn:
    raise RecordError(f"{text} is not allowed in a record")


_STRING = re.compile(r'"[^"\\]*(?:\\[\s\S]?[^"\\]*)*(?:"|\Z)')
"""A string literal, or an unterminated one to the end of the text: every match succeeds where it starts,
so blanking them is one pass (a text of escaped quotes and no string's end took quadratic time). Written
as runs of plain characters between escapes (Friedl's unrolled loop), not one alternation per character:
4 times faster on a game file's long base64 strings (1.4 ms, not 6, for a 150 KB file read)."""
_BRACKET = re.compile(r"[\[\]{}]")


def _blanked(text: str) -> str:
    """The text with each string literal as `""`. In a text without a backslash (nearly every file pbem
    reads: a record escapes nothing but a note's quote) a literal runs from a quote to the next, so splitting
    at the quotes blanks them: 0.4 ms, not the regex's 1.4, for a 150 KB game file."""
    if "\\" in text:
        return _STRING.sub('""', text)
    parts = text.split('"')
    return '""'.join(parts[0::2]) + ('""' if len(parts) % 2 == 0 else "")  # an odd count: the last one runs to the end


def _depth_ok(text: str, limit: int = MAX_DEPTH) -> bool:
    """Nesting depth counted on the raw text, before json parses it: string literals are blanked out
    (at C speed), then only the brackets are walked."""
    depth = 0
    for bracket in _BRACKET.findall(_blanked(text)):
        if bracket in "[{":
            depth += 1
            if depth > limit:
                return False
        else:
            depth -= 1
    return True


def parse_strict(data: bytes) -> object:
    """Bytes to plain JSON values under the strict profile; RecordError says what is wrong."""
    if len(data) > MAX_BYTES:
        raise RecordError(f"file is {len(data)} bytes, over the {MAX_BYTES} byte limit")
    if not data.strip():
        raise RecordError("file is empty")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError("file is not UTF-8 text") from None
    if not _depth_ok(text):
        raise RecordError(f"JSON nested deeper than {MAX_DEPTH} levels")
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates, parse_float=_no_float, parse_int=_bounded_int,
                          parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise RecordError(f"not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    except (ValueError, RecursionError) as exc:
        raise RecordError(f"not valid JSON ({exc})") from None


def parse_json(data: bytes | str, max_depth: int = 64) -> Any:
    """Any JSON value, for what is not a record (pbem's own notes, the address book, a sealed secret): its
    nesting bounded before it is parsed (json recurses, and stops with a RecursionError near a thousand);
    RecordError if it is not JSON."""
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError:
        raise RecordError("not UTF-8 text") from None
    if not _depth_ok(text, max_depth):
        raise RecordError(f"JSON nested deeper than {max_depth} levels")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise RecordError(f"not valid JSON ({exc})") from None


_SAFE_INTEGER = 2**53 - 1
"""RFC 8785 writes numbers as IEEE doubles: integers beyond this are not exact there."""


def _plain(value: object) -> bool:
    """Whether json.dumps writes `value` exactly as RFC 8785 does: only strings, safe integers, booleans,
    null, lists and objects with ASCII keys (sorting those by code point is sorting them by UTF-16 code
    unit, as RFC 8785 does), and no float (whose shortest form differs). A string inside an object or list
    is passed over without a call: records are mostly strings (0.19 ms -> 0.11 for a game's 170 payloads)."""
    kind = type(value)
    if kind is str or value is None or kind is bool:
        return True
    if kind is int:
        return -_SAFE_INTEGER <= value <= _SAFE_INTEGER  # type: ignore[operator]
    if kind is dict:
        for key, item in value.items():  # type: ignore[attr-defined]
            if type(key) is not str or not key.isascii() or (type(item) is not str and not _plain(item)):
                return False
        return True
    if kind is list:
        return all(type(item) is str or _plain(item) for item in value)  # type: ignore[attr-defined]
    return False


def _not_plain(value: object) -> NoReturn:
    raise TypeError(f"{type(value).__name__} is not a record's value")


_C_ENCODER = getattr(json.encoder, "c_make_encoder", None)
_COMPACT = (_C_ENCODER(None, _not_plain, json.encoder.encode_basestring, None, ":", ",", True, False, True)
            if _C_ENCODER is not None else None)
"""json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")) as its C encoder, made once:
json.dumps makes a JSONEncoder and a C encoder for every call, a third of the time of an entry's bytes."""


def canonical(value: object) -> bytes:
    """RFC 8785 canonical bytes: what is hashed and signed.

    A record's values (checked on reading: integers only, ASCII keys) are written by the standard
    library's C encoder, whose escaping of strings (short forms for \\b \\t \\n \\f \\r, \\u00xx for the other
    control characters, nothing else escaped) is RFC 8785's: ten times faster than the rfc8785 package,
    which stays the judge of anything else (a float, a lone surrogate, a large integer).
    tests/record/test_canonical.py holds the two to the same bytes."""
    if _plain(value):
        try:
            if _COMPACT is None:
                return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode("utf-8")
            return "".join(_COMPACT(value, 0)).encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: rfc8785 decides
            pass
    return rfc8785.dumps(value)  # type: ignore[arg-type]


def pretty(value: object) -> str:
    """How a record is written: stable key order, 2-space indent, LF, trailing newline; the bytes of
    `json.dumps(value, indent=2, sort_keys=True) + "\\n"`.

    The standard library writes an indented layout with its pure-Python encoder, a sixth of the time of
    a `pbem play`; records hold only strings, integers, booleans, null, lists and objects with string keys,
    which `_lay_out` writes directly (its strings through the same C escaping). Anything else (a float, a
    key that is not a string) is left to json. tests/record/test_canonical.py holds the two to the same text."""
    parts: list[str] = []
    try:
        _lay_out(value, parts, "\n")
    except _NotPlain:
        return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=True) + "\n"
    parts.append("\n")
    return "".join(parts)


class _NotPlain(Exception):
    """A value `_lay_out` leaves to json."""


def _lay_out(value: object, parts: list[str], newline: str) -> None:
    """Append `value`'s indented JSON to `parts`; `newline` is a line break and the current indent."""
    kind = type(value)
    if kind is str:
        parts.append(_quote(value))  # type: ignore[arg-type]
    elif kind is dict:
        if not value:
            parts.append("{}")
            return
        inner = newline + "  "
        opening = "{" + inner
        for key in sorted(value):  # type: ignore[call-overload]
            if type(key) is not str:
                raise _NotPlain
            parts.append(opening)
            parts.append(_quote(key))
            parts.append(": ")
            _lay_out(value[key], parts, inner)  # type: ignore[index]
            opening = "," + inner
        parts.append(newline + "}")
    elif kind is list:
        if not value:
            parts.append("[]")
            return
        inner = newline + "  "
        opening = "[" + inner
        for item in value:  # type: ignore[attr-defined]
            parts.append(opening)
            _lay_out(item, parts, inner)
            opening = "," + inner
        parts.append(newline + "]")
    elif kind is int:
        parts.append(int.__repr__(value))
    elif value is None:
        parts.append("null")
    elif value is True:
        parts.append("true")
    elif value is False:
        parts.append("false")
    else:
        raise _NotPlain
