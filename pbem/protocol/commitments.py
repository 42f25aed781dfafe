"""What the record commits to and seals: salted commitments, strict base64, the hidden items and
what the dealer's seed must give; and the checks of a signature and of a sealed blob's recipients."""

from __future__ import annotations

import base64
import binascii
from typing import Any

from engine.contract import (
    DEALER,
    Value,
)
from engine.frozen import Frozen
from pbem import crypto
from pbem.crypto import PublicKey
from pbem.errors import (
    BadSignature,
    SealError,
)
from pbem.record.canonical import canonical
from pbem.record.models import Entry, Genesis

COMMITMENT_DOMAIN = "pbem/commitment/v2"


SEED = "seed"


def commit(binding: str, owner: str, slot: str, value: Value, salt: str) -> str:
    """SHA-256 over a domain-separated canonical object: what it is bound to (a coin: the genesis hash;
    the dealer's tiles and seed: the genesis nonce), its owner (a coin: the owner's public key), the
    slot, the value and a salt. Nothing committed in one game means anything in another."""
    return crypto.sha256(canonical({"domain": COMMITMENT_DOMAIN, "game": binding, "owner": owner, "slot": slot,
                                    "value": value, "salt": salt})).hex()


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def unb64(text: str) -> bytes:
    """Strict base64: one encoding per byte string, so no two different files mean the same thing."""
    try:
        data = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):  # ValueError: non-ASCII text
        raise SealError("bad base64") from None
    if base64.b64encode(data).decode() != text:
        raise SealError("non-canonical base64")
    return data


def new_salt() -> str:
    return crypto.random_bytes(32).hex()


class Item(Frozen):
    """A hidden item the record committed to: how to check its opening, who may read its sealed value,
    and its value once opened. A card dealt from the stock keeps the key it was committed under.

    Frozen: a replay's copies (Replay.fork), and so every replay this process keeps and every one it hands
    out (pbem.protocol.remembered), share their items. A caller that changed one in place would change
    what every later check of that game builds on: an honest opening refused as 'not a hidden item', or a
    forged one matching a commitment changed to fit (tests/protocol/test_remembered_attacks.py)."""

    commitment: str
    binding: str
    """What the commitment binds: the genesis hash (a player's own secret) or the nonce (the dealer's)."""
    owner: str
    """Who committed it: a player's public key in hex, or DEALER."""
    key: str
    readers: tuple[str, ...] = ()
    """Whom its sealed value is addressed to (the dealer reads every dealer item from its seed)."""
    sealed: str | None = None
    sealed_by: str = ""
    value: Value | None = None

    @property
    def players_own(self) -> bool:
        return self.owner != DEALER


class Seeded(Frozen):
    """Something the dealer posted that its seed must give: the deal, a reshuffle or a pick by chance.
    Checked by every program holding the seed as it is posted, and by everyone when the seed opens."""

    seq: int
    author: str
    what: str
    posted: object
    context: tuple[Any, ...] = ()


def check_signature(signed: Genesis | Entry, signed_bytes: bytes, key: PublicKey, seq: int) -> None:
    try:
        crypto.verify_signature(key, signed_bytes, unb64(signed.signature))
    except (crypto.SignatureInvalid, SealError) as exc:
        raise BadSignature(str(exc), seq, signed.author) from None


def addressed(blob: str, recipients: list[PublicKey], native: int = 0) -> bool:
    """A sealed blob whose header names exactly these ssh-ed25519 recipients (and `native` X25519 ones)."""
    try:
        return crypto.addressed_exactly(unb64(blob), recipients, native)
    except SealError:
        return False

