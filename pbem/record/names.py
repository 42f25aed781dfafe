"""Names of people in games, keys and the address book, checked in one place.

A name is lower-case letters, digits, '-' and '_', starting with a letter, at most 32 characters: no
control character (a newline in a key's file name, a header), no path separator (a key name that
walks out of the key directory), nothing a terminal or a mail header reads as markup."""

from __future__ import annotations

import re

from pbem.errors import UsageError

NAME_PATTERN = r"^[a-z][a-z0-9_-]{0,31}$"
"""For pydantic's models (its regex reads `$` as the end of the text; Python's `re` would let a final
newline through, so the functions below match the whole text instead)."""
_NAME = re.compile(r"[a-z][a-z0-9_-]{0,31}")


def is_name(text: str) -> bool:
    return _NAME.fullmatch(text) is not None


def check_name(text: str, what: str = "name") -> str:
    """The name, or UsageError saying what a name may hold."""
    if not is_name(text):
        raise UsageError(f"{text!r} is not a usable {what}: lower-case letters, digits, '-' and '_', starting with a "
                         "letter, at most 32 characters")
    return text
