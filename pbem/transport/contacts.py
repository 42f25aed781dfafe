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
from pbem.errors import PbemError, UsageError
from pbem.record.canonical import parse_json
from pbem.record.files import write_atomic
from pbem.record.names import check_name, is_name
from pbem.record.reading import read_optional


def book_path() -> Path:
    return home() / "contacts.json"


MAX_BOOK = 1024 * 1024


def load() -> dict[str, str]:
    """Every name and its address; an empty book when there is none yet. Checked as it is read (a hand-
    edited book is one clear error, never a header with a line break in it)."""
    path = book_path()
    data = read_optional(path, "an address book", MAX_BOOK)
    if data is None:
        return {}
    try:
        entries = parse_json(data)["contacts"]
        book = {name: entry["email"] for name, entry in entries.items()}
    except (PbemError, KeyError, TypeError, AttributeError):
        raise UsageError(f"the address book {path} is damaged: fix or remove it") from None
    for name, address in book.items():
        if not isinstance(name, str) or not is_name(name):
            raise UsageError(f"the address book {path} is damaged: {name!r} is not a usable name: fix or remove it")
        if not isinstance(address, str):
            raise UsageError(f"the address book {path} is damaged: the address of {name} is not text: fix or remove it")
        try:
            check_address(address, strip=False)
        except UsageError as exc:
            raise UsageError(f"the address book {path} is damaged: the address of {name}: {exc}: fix or remove "
                             "it") from None
    return book


def check_address(text: str, strip: bool = True) -> str:
    """A plain address (someone@example.org), refused if it could smuggle a header. `strip`: spaces
    around it are dropped (as typed), else refused (as kept)."""
    text = text.strip() if strip else text
    if not re.fullmatch(r"[^@\s<>,;\"()\[\]\\]+@[A-Za-z0-9.-]+\.?[A-Za-z0-9-]*", text):
        raise UsageError(f"{text!r} is not a mail address (write it as name@example.org)")
    try:
        Address(addr_spec=text)
    except (HeaderParseError, ValueError, IndexError):
        raise UsageError(f"{text!r} is not a mail address (write it as name@example.org)") from None
    return text


def add(name: str, address: str) -> None:
    check_name(name)
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
