"""Turn messages: the entries a game's other parties lack, as one armored block for a mail body.

A turn names the game (id and genesis hash), the entry it extends (its seq and payload hash) and
carries the new signed entries. `extend` applies one onto a local copy: the result is verified from
the genesis on, and a turn that does not extend the known history (another game, a gap, a fork, an
author's second version of an entry) is refused. The full file still travels as an attachment when
the receiver has no copy yet.
"""

from __future__ import annotations

from typing import Annotated, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pbem.errors import Divergence, PbemError, RecordError, WrongGame
from pbem.protocol.entries import apply_entry
from pbem.protocol.replay import Replay
from pbem.protocol.verify import audited, compare, verify
from pbem.record.canonical import canonical, parse_strict
from pbem.record.models import Entry, GameFile, Hex64
from pbem.transport import armor

LABEL = "TURN"
FORMAT: Final = "pbem-turn/1"


class MissingEntries(PbemError):
    """A turn that starts beyond the local copy: a mail in between has not arrived."""


class UnverifiedFork(Divergence):
    """A turn that follows another entry than the copy's: a fork if its entries verify, else forged or
    damaged. Nothing in it has been checked yet."""


class TurnBlock(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    format: Literal["pbem-turn/1"]
    game_id: Annotated[str, Field(pattern=r"^[0-9a-f]{32}$")]
    genesis: Hex64
    """The payload hash of the game's genesis: a turn binds to one game, whatever its id says."""
    after: Annotated[int, Field(ge=0, le=100_000)]
    """The seq of the entry the first carried entry follows (0: the genesis)."""
    prev: Hex64
    entries: Annotated[list[Entry], Field(min_length=1, max_length=10_000)]

    @property
    def last(self) -> int:
        return self.after + len(self.entries)


def make(rep: Replay, after: int, upto: int | None = None) -> TurnBlock:
    """The entries after `after` (up to `upto`, default the last) of a verified game, as a turn."""
    upto = rep.seq if upto is None else upto
    if not 0 <= after < upto <= rep.seq:
        raise PbemError(f"no entries after entry {after} to send (the game has {rep.seq})")
    return TurnBlock(format=FORMAT, game_id=rep.genesis.game_id, genesis=rep.hashes[0], after=after,
                prev=rep.hashes[after], entries=list(rep.entries[after:upto]))


def to_block(turn: TurnBlock) -> str:
    return armor.wrap(LABEL, canonical(turn.model_dump(exclude_none=True)))


def parse(data: bytes) -> TurnBlock:
    value = parse_strict(data)
    if not isinstance(value, dict) or value.get("format") != FORMAT:
        raise RecordError(f"not a pbem turn (this pbem reads {FORMAT!r})")
    try:
        return TurnBlock.model_validate(value)
    except ValidationError as exc:
        err = exc.errors()[0]
        raise RecordError(f"malformed turn at {'.'.join(map(str, err['loc']))}: {err['msg']}") from None


def find_blocks(text: str, budget: armor.Budget | None = None) -> list[TurnBlock | PbemError]:
    """Every turn block in a text (a mail body), or the error that spoiled each."""
    found: list[TurnBlock | PbemError] = []
    for data in armor.find(text, LABEL, budget):
        try:
            found.append(data if isinstance(data, PbemError) else parse(data))
        except PbemError as exc:
            found.append(exc)
    return found


def is_known(record: GameFile, turn: TurnBlock) -> bool:
    """Whether a copy already holds every entry of the turn (a second reading of one mail). Entries
    chain by hash, so the last one equal means all are."""
    return (turn.game_id == record.genesis.game_id and turn.last <= len(record.entries)
            and record.entries[turn.last - 1] == turn.entries[-1])


def extend(rep: Replay, turn: TurnBlock) -> Replay | None:
    """The local game with the turn applied and verified, or None when it brings nothing new.

    Raises WrongGame, MissingEntries, or the VerifyError (Divergence, Equivocation, a bad entry) that
    says why the turn does not extend the local history."""
    if turn.game_id != rep.genesis.game_id or turn.genesis != rep.hashes[0]:
        raise WrongGame("this turn belongs to another game", turn.after + 1)
    if turn.after > rep.seq:
        raise MissingEntries(f"this turn starts after entry {turn.after}, but the copy here stops at entry "
                             f"{rep.seq}: a mail in between is missing (or ask for the full file)")
    if is_known(rep.record, turn):
        return None
    if turn.prev != rep.hashes[turn.after]:
        raise UnverifiedFork(f"the turn follows a different entry {turn.after} than the copy here: the game has forked "
                         "(compare both files with 'pbem verify')", turn.after)
    if turn.after == rep.seq:  # the usual case: only the new entries are checked
        return _extended(rep, turn.entries)
    candidate = verify(GameFile.model_construct(genesis=rep.genesis,
                                                entries=list(rep.entries[:turn.after]) + list(turn.entries)))
    compare(rep.record, candidate.record)  # a fork, or one author's two versions of an entry
    return candidate if candidate.seq > rep.seq else None


def _extended(rep: Replay, entries: list[Entry]) -> Replay:
    """A verified game with more entries applied, leaving `rep` as it was (on success or failure)."""
    grown = rep.fork()
    for entry in entries:
        apply_entry(grown, entry)
    return audited(grown)  # the end audit, once the game is over
