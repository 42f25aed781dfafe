"""Replays this process has verified, kept so that a record that extends one is checked from where that
one stopped instead of from its genesis: each `pbem` command that reads a game file more than once, and
the judge, the app and the library, which read a game again after every turn.

Nothing is taken on trust that this process did not check itself, and no changed byte gets through:
- kept in memory only, never written anywhere another process or a later run could read;
- found only by the SHA-256 chain of the exact bytes it verified: the canonical bytes of the genesis and
  of every entry, and their signatures. A record that differs from it in any byte (an entry changed,
  dropped, added or re-signed) shares only the part before that byte's entry, and everything from that
  entry on is checked as if nothing were kept;
- the one check of a replay that depends on the reader rather than the record, that no signed time is
  ahead of this program's clock (pbem.protocol.absence.check_time), is made again for every time the
  kept part holds, at the clock of the moment;
- a kept replay is never handed out, only copies of it (Replay.fork), so a caller that goes on from
  one changes nothing kept.
tests/protocol/test_remembered.py holds a tampered file to the same refusal as in a fresh process."""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Sequence

from pbem.protocol.absence import FUTURE_TOLERANCE
from pbem.protocol.replay import Replay
from pbem.record.deadlines import now
from pbem.record.models import Entry, GameFile, Genesis, SignedBytes, signed_bytes

KEPT = 32
"""Replays kept at most, the least recently used dropped first (a finished 4-player Path of Pharaohs game of
146 entries keeps about 0.4 MB, its entries included)."""

KEPT_BYTES = 16 * 1024 * 1024
"""The records kept, at most, in the canonical bytes their keys hash (a game's prefixes each counted whole:
a bound, not a measure). Anyone can mail the judge a valid game under keys of their own, up to the 8 MB a
file may have (sealed blobs padded to their limit): without this bound 32 of them were held for as long as
the process ran, 274 MB (tracemalloc); the largest example game is 0.12 MB."""

_kept: OrderedDict[bytes, tuple[Replay, int, int]] = OrderedDict()
_lock = threading.Lock()  # the app serves requests on threads


class Chain(list[bytes]):
    """The key of each prefix of a record, how many bytes they hash in all (`size`), and the signed bytes of
    the genesis and of each entry (`signed[seq]`), which the replay checks the signatures and the chain of."""

    def __init__(self, keys: Sequence[bytes] = ()) -> None:
        super().__init__(keys)
        self.size = 0
        self.signed: list[SignedBytes] = []


def chain(record: GameFile) -> Chain:
    """The key of each prefix of the record: [genesis, genesis and entry 1, ...], each the SHA-256 of the key
    before it, the next signed object's payload hash and its signature (parts of fixed length, then the rest:
    one reading only). The payload hash binds the payload's exact canonical bytes."""
    keys = Chain()
    key = b""
    signed_objects: list[Genesis | Entry] = [record.genesis, *record.entries]
    for signed in signed_objects:
        part = signed_bytes(signed)
        key = hashlib.sha256(key + part.hash.encode() + signed.signature.encode()).digest()
        keys.append(key)
        keys.signed.append(part)
        keys.size += len(part.data) + len(signed.signature)
    return keys


def recall(keys: Sequence[bytes]) -> Replay | None:
    """A copy of the longest prefix of the record kept here whose signed times are all within this
    program's clock now (its `seq` says how many entries it holds), or None."""
    mine = now()
    with _lock:
        for key in reversed(keys):
            kept = _kept.get(key)
            if kept is not None and kept[1] <= mine + FUTURE_TOLERANCE:
                _kept.move_to_end(key)
                return kept[0].fork()
    return None


def holds(key: bytes) -> bool:
    with _lock:
        return key in _kept


def keep(keys: Chain, rep: Replay) -> None:
    """Keep a copy of a replay that verified the whole record `keys` were made from (the least recently
    used dropped beyond KEPT replays or KEPT_BYTES)."""
    kept = (rep.fork(), _latest_time(rep), keys.size)
    with _lock:
        _kept[keys[-1]] = kept
        _kept.move_to_end(keys[-1])
        while len(_kept) > KEPT or sum(size for _, _, size in _kept.values()) > KEPT_BYTES:
            _kept.popitem(last=False)


def _latest_time(rep: Replay) -> int:
    """The latest signed time the replay was checked against the clock for (0: none was, no deadlines)."""
    if rep.genesis.deadlines is None:
        return 0
    return max([rep.genesis.time or 0] + [entry.time or 0 for entry in rep.entries])


def forget() -> None:
    """Drop every kept replay (a test that wants the check from the genesis)."""
    with _lock:
        _kept.clear()


__all__ = ["KEPT", "KEPT_BYTES", "Chain", "chain", "forget", "holds", "keep", "recall"]
