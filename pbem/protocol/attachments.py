"""What an entry carries beside its action: exactly the commitments, sealed values and openings its
secrets need (engine.contract.Secrets), each addressed as the mode requires and matching what was
committed; and what it then records (new items, drawn cards, openings, a reshuffle)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from engine.contract import DEALER, Secrets, Value
from engine.frozen import Frozen
from pbem.errors import BadOpening, IllegalMove
from pbem.protocol.commitments import Item, Seeded, addressed, commit
from pbem.protocol.dealing import stock_key
from pbem.protocol.replay import Replay
from pbem.record.models import Entry


def expect_keys(found: dict[str, Any] | None, wanted: set[str], what: str, seq: int, author: str) -> dict[str, Any]:
    if set(found or {}) != wanted:
        names = ", ".join(sorted(wanted)) or "none"
        raise IllegalMove(f"this action carries {what} for exactly: {names}", seq, author)
    return found or {}


def _sealed_to(rep: Replay, blob: str, readers: Sequence[str], what: str, seq: int, author: str) -> None:
    if not addressed(blob, [rep.roster[name] for name in readers]):
        whom = " and ".join(f"the referee {n}" if n == rep.referee else n for n in readers)
        raise IllegalMove(f"{what} must be sealed to {whom}, and to nobody else", seq, author)


def check_attachments(rep: Replay, entry: Entry, secrets: Secrets, actor: str, seq: int) -> None:
    """Commitments, sealed values and openings: exactly what the action's secrets need, each matching;
    then what they commit, seal and open is recorded."""
    _record(rep, entry, secrets, actor, seq, _checked(rep, entry, secrets, actor, seq))


class _Attached(Frozen):
    """An entry's attachments as checked, with what `_record` needs of the checking."""

    commitments: dict[str, Any]
    sealed: dict[str, Any]
    drawn: list[str]
    """The stock's keys drawn (dealt privately, then shown), top first."""
    shown: list[tuple[str, Value]]
    restock: int
    """The number of the reshuffle this entry commits (if it does)."""
    restock_keys: list[str]
    readers: tuple[str, ...]
    """Who reads what the actor commits: the actor, and a referee."""


def _checked(rep: Replay, entry: Entry, secrets: Secrets, actor: str, seq: int) -> _Attached:
    author = entry.author
    if (secrets.draws or secrets.shows) and len(rep.stock) < len(secrets.draws) + len(secrets.shows):
        raise IllegalMove(f"{entry.action}: the dealer's stock holds only {len(rep.stock)} items", seq, author)
    if secrets.restock and rep.seed_commitment is None:
        raise IllegalMove(f"{entry.action}: a chosen deal has no seed to shuffle from", seq, author)
    drawn = rep.stock[:len(secrets.draws) + len(secrets.shows)]
    number = rep.restocks + 1
    restock_keys = [stock_key(number, i) for i in range(len(secrets.restock))]
    new_keys = [key for key, _ in secrets.commits] + [key for key, _ in secrets.draws]
    if any(key in rep.items for key in new_keys) or len(set(new_keys)) != len(new_keys):
        raise IllegalMove(f"{entry.action}: an item of that name exists already", seq, author)
    commitments = expect_keys(entry.commitments, {k for k, _ in secrets.commits} | set(restock_keys),
                               "commitments", seq, author)
    sealed = expect_keys(entry.sealed, set(new_keys) | {k for k, _ in secrets.gives}, "sealed values", seq, author)
    shown = list(zip(drawn[len(secrets.draws):], secrets.shows))
    salts = expect_keys(entry.openings, {k for k, _ in secrets.opens} | {k for k, _ in shown}, "openings", seq,
                         author)
    for key, value in list(secrets.opens) + shown:
        item = rep.items.get(key)
        if item is None or item.value is not None:
            raise IllegalMove(f"{entry.action}: {key} is not a hidden item", seq, author)
        if commit(item.binding, item.owner, item.key, value, salts[key]) != item.commitment:
            raise BadOpening(f"{key}={value} does not match {_committed(rep, item)}", seq, author)
    for key, _ in secrets.gives:
        if key not in rep.items or rep.items[key].value is not None or rep.items[key].players_own:
            raise IllegalMove(f"{entry.action}: {key} is not a hidden item the dealer dealt", seq, author)
    readers = (actor,) + ((rep.referee,) if rep.referee else ())
    for key, _ in secrets.commits:
        _sealed_to(rep, sealed[key], readers, f"the value of {key}", seq, author)
    for key, player in secrets.draws:
        _sealed_to(rep, sealed[key], (player,), f"the item dealt as {key}", seq, author)
    for key, player in secrets.gives:
        _sealed_to(rep, sealed[key], (player,), f"the item given as {key}", seq, author)
    return _Attached(commitments, sealed, drawn, shown, number, restock_keys, readers)


def _record(rep: Replay, entry: Entry, secrets: Secrets, actor: str, seq: int, checked: _Attached) -> None:
    """What the entry commits, seals and opens, recorded: new Items, never changed in place (a copy of the
    replay that shares them stays as it was, turns.extend)."""
    author, commitments, sealed = entry.author, checked.commitments, checked.sealed
    for key, _ in secrets.commits:
        rep.items[key] = Item(commitments[key], rep.genesis_hash, rep.roster[actor].raw.hex(), key, checked.readers,
                              sealed[key], author)
    for (key, player), source in zip(secrets.draws, checked.drawn):
        rep.items[key] = replace(rep.items.pop(source), readers=(player,), sealed=sealed[key], sealed_by=author)
    for key, player in secrets.gives:
        rep.items[key] = replace(rep.items[key], readers=(player,), sealed=sealed[key], sealed_by=author)
    for key, value in list(secrets.opens) + checked.shown:
        rep.items[key] = replace(rep.items[key], value=value)
    del rep.stock[:len(checked.drawn)]
    if secrets.restock:
        number, keys = checked.restock, checked.restock_keys
        rep.restocks = number
        rep.seeded.append(Seeded(seq, author, f"reshuffle {number}", [commitments[k] for k in keys],
                                 (number, tuple(secrets.restock))))
        rep.items.update({k: Item(commitments[k], rep.genesis.nonce, DEALER, k) for k in keys})
        rep.stock += keys


def _committed(rep: Replay, item: Item) -> str:
    return "the item committed in the deal" if item.owner == DEALER else "its commitment"


__all__ = ["check_attachments", "expect_keys"]
