"""The address book: each participant's mail address, in PBEM_HOME/contacts.json.

Names are the names of the game's rosters (and of `pbem key`), so `pbem mail` finds who to write to.
Your own name's address is the From of the mails you send."""

from __future__ import annotations

import json
import re
from email.errors import HeaderParseError
from email.headerregistry import Address
from pathlib import Path

from pbem.crypto.keyring import home
from pbem.errors import UsageError
from pbem.record.files import write_atomic
from pbem.record.models import NAME_PATTERN


def book_path() -> Path:
    return home() / "contacts.json"


def load() -> dict[str, str]:
    """Every name and its address; an empty book when there is none yet."""
    try:
        data = json.loads(book_path().read_text())
        return {str(name): str(entry["email"]) for name, entry in data["contacts"].items()}
    except FileNotFoundError:
        return {}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        raise UsageError(f"the address book {book_path()} is damaged: fix or remove it") from None


def check_address(text: str) -> str:
    """A plain address (someone@example.org), refused if it could smuggle a header."""
    text = text.strip()
    if not re.fullmatch(r"[^@\s<>,;\"()\[\]\\]+@[A-Za-z0-9.-]+\.?[A-Za-z0-9-]*", text):
        raise UsageError(f"{text!r} is not a mail address (write it as name@example.org)")
    try:
        Address(addr_spec=text)
    except (HeaderParseError, ValueError, IndexError):
        raise UsageError(f"{text!r} is not a mail address (write it as name@example.org)") from None
    return text


def add(name: str, address: str) -> None:
    if not re.match(NAME_PATTERN, name):
        raise UsageError(f"{name!r} is not a usable name: lower-case letters, digits, '-' and '_', starting with a "
                         "letter, at most 32 characters")
    book = load()
    book[name] = check_address(address)
    path = book_path()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    entries = {n: {"email": a} for n, a in sorted(book.items())}
    write_atomic(path, (json.dumps({"contacts": entries}, indent=2) + "\n").encode(), mode=0o600)


def address(name: str, book: dict[str, str] | None = None) -> str:
    book = load() if book is None else book
    if name not in book:
        raise UsageError(f"no mail address for {name}: add one with 'pbem contact add {name} ADDRESS'")
    return book[name]
