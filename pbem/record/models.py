"""The game file: pydantic models that validate on load (strict, no extra fields).

A record is a signed genesis and an append-only list of signed entries. State is never stored:
it is the replay of the log. Signed bytes are the RFC 8785 form of an object minus `signature`.
"""

from __future__ import annotations

import hashlib
from typing import Annotated, Any, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from pbem.errors import RecordError, UnknownFormat
from pbem.record.canonical import canonical, parse_strict, pretty
from pbem.record.deadlines import DeadlinePolicy
from pbem.record.names import NAME_PATTERN

FORMAT = "pbem/3"
Hex64 = Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]
Base64 = Annotated[str, Field(pattern=r"^[A-Za-z0-9+/]+={0,2}$", max_length=200_000)]
Name = Annotated[str, Field(pattern=NAME_PATTERN)]
UnixTime = Annotated[int, Field(ge=0, le=2**40)]
"""Seconds since 1970 by the signer's own clock: a claim the signature binds to its author, not a proof."""
KeyLine = Annotated[str, Field(pattern=r"^ssh-ed25519 [A-Za-z0-9+/]+={0,2}$", max_length=200)]
SlotKey = Annotated[str, Field(pattern=r"^[#a-z0-9][a-z0-9._-]{0,23}$")]
"""What a commitment, sealed blob or opening is about: a hidden item by the game's name for it (a coin or
a card in hand `#N`, a tile place `3b`), an item of the dealer's stock `sK.N`, or the dealer's `seed`."""


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class Participant(_Strict):
    name: Name
    key: KeyLine


class Dealer(_Strict):
    """`table`: dealer secrets sealed to a table key every player holds. `referee`: to the referee."""

    mode: Literal["table", "referee"]
    referee: Participant | None = None
    table_key: Base64 | None = None

    @model_validator(mode="after")
    def _fits_mode(self) -> Dealer:
        if self.mode == "table" and (self.table_key is None or self.referee is not None):
            raise ValueError("a table-mode dealer has a table_key and no referee")
        if self.mode == "referee" and (self.referee is None or self.table_key is not None):
            raise ValueError("a referee-mode dealer names the referee and has no table_key")
        return self


class Genesis(_Strict):
    """The invitation: who plays, how, and the dealer's commitment to the deal.

    `game_id` is derived, not chosen: the first 32 hex digits of the SHA-256 of the genesis without
    `game_id`, `sealed` and `signature` (`core_id`), so no two games share one and everything bound to it
    stays in its game. A `joint` deal is shuffled from the dealer's committed `seed` and every
    participant's `contribution`; a `chosen` deal is the creator's, committed tile by tile here."""

    format: Literal["pbem/3"]
    game_id: Annotated[str, Field(pattern=r"^[0-9a-f]{32}$")]
    nonce: Hex64
    game: Annotated[str, Field(pattern=r"^[a-z][a-z0-9-]{0,31}$")]
    options: dict[Annotated[str, Field(pattern=r"^[a-z_]{1,32}$")], Annotated[str, Field(max_length=32)]]
    players: Annotated[list[Participant], Field(min_length=1, max_length=8)]
    dealer: Dealer
    deal: Literal["joint", "chosen"]
    seed: Hex64 | None = None
    """A joint deal whose dealer is the creator: the commitment to the dealer's secret seed."""
    first: Name | None = None
    """A chosen deal: who moves first (a joint deal's first player comes from the shuffle)."""
    commitments: dict[SlotKey, Hex64] | None = None
    """A chosen deal: every hidden item, committed."""
    contribution: Hex64
    """The creator's share of the deal's randomness."""
    sealed: dict[Literal["dealer", "table_key"], Base64]
    author: Name
    time: UnixTime | None = None
    deadline_hours: Annotated[int, Field(ge=1, le=24 * 365)] | None = None
    """Hours each party has for a duty; who exceeds it is late (`pbem status`, `pbem show`)."""
    deadlines: DeadlinePolicy | None = None
    """The deadline policy every join agrees to: after a duty's time and the grace, the party may be
    recorded absent (docs/deadlines.md). Absent: no absence can be recorded."""
    signature: Base64

    @model_validator(mode="after")
    def _fits_deal(self) -> Genesis:
        chosen = self.first is not None and self.commitments is not None and self.seed is None
        if (self.deal == "chosen") != chosen or (self.deal == "joint" and (self.first or self.commitments)):
            raise ValueError("a chosen deal has first and commitments and no seed; a joint deal neither")
        return self


class Entry(_Strict):
    game_id: Annotated[str, Field(pattern=r"^[0-9a-f]{32}$")]
    seq: Annotated[int, Field(ge=1, le=100_000)]
    prev: Hex64
    author: Name
    action: Annotated[str, Field(min_length=1, max_length=2000)]  # an audit opening lists every coin
    commitments: dict[SlotKey, Hex64] | None = None
    sealed: dict[SlotKey, Base64] | None = None
    openings: dict[SlotKey, Hex64] | None = None
    """Salts of the values the action reveals (the values themselves are in the action); the dealer's
    `seed` itself when it is opened."""
    contribution: Hex64 | None = None
    """A join's share of the deal's randomness."""
    time: UnixTime | None = None
    note: Annotated[str, Field(min_length=1, max_length=500, pattern=r"^[^\x00-\x1f\x7f]+$")] | None = None
    """A signed note to the table (`pbem play --message`): table talk, no rule reads it. Optional, so files
    without one stay valid and byte-identical."""
    signature: Base64


class GameFile(_Strict):
    genesis: Genesis
    entries: Annotated[list[Entry], Field(max_length=10_000)]


def payload(signed: Genesis | Entry) -> dict[str, Any]:
    """The signed part of a genesis or an entry, as plain JSON values."""
    return signed.model_dump(exclude={"signature"}, exclude_none=True)


class SignedBytes(NamedTuple):
    """What a genesis or an entry's signature covers, worked out once for every check that needs it: the
    signature's check, the chain (the next entry's `prev`) and the replays kept (pbem.protocol.remembered)."""

    data: bytes
    """The canonical bytes of its payload."""
    hash: str
    """Their SHA-256 in hex: what the next entry's `prev` holds."""


def signed_bytes(signed: Genesis | Entry) -> SignedBytes:
    data = canonical(payload(signed))
    return SignedBytes(data, hashlib.sha256(data).hexdigest())


def payload_hash(signed: Genesis | Entry) -> str:
    """What the next entry's `prev` holds."""
    return signed_bytes(signed).hash


def core_id(genesis: Genesis | dict[str, Any]) -> str:
    """The game id a genesis must carry: a hash of everything in it but the id, the sealed blobs and
    the signature (blobs sealed in the genesis bind to this id, so they cannot contain it)."""
    body = genesis if isinstance(genesis, dict) else payload(genesis)
    core = {k: v for k, v in body.items() if k not in ("game_id", "sealed", "signature")}
    return hashlib.sha256(canonical(core)).hexdigest()[:32]


def to_json(game: GameFile) -> str:
    return pretty(game.model_dump(exclude_none=True))


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"]) or "the file"
    return f"{where}: {err['msg']}"


def from_json(data: bytes) -> GameFile:
    """Read a game file: size, strict JSON, known format, then the models. RecordError if not."""
    value = parse_strict(data)
    if not isinstance(value, dict) or not isinstance(value.get("genesis"), dict):
        raise RecordError("not a pbem game file (no genesis object)")
    found = value["genesis"].get("format")
    if found != FORMAT:
        raise UnknownFormat(f"unknown record format {found!r} (this pbem reads {FORMAT!r})")
    try:
        return GameFile.model_validate(value)
    except ValidationError as exc:
        raise RecordError(f"malformed game file at {_first_error(exc)}") from None
