"""A verified replay kept outside the process, so that a long-running referee (the judge) applies a new turn
from where its last check stopped instead of from the genesis, however long the game and however many
games it holds: a turn then costs the same at entry 10 as at entry 150.

A checkpoint is the replay as Python's pickle writes it, with the key of the exact record it verified
(remembered.py's chain of SHA-256 over the canonical bytes of every signed object) and a stamp of the code
that made it. It is read back only:
- by the code that made it (the stamp is the hash of the source of the engine and of pbem's record,
  crypto and protocol layers: any change to either, and the checkpoint is ignored, the game replayed);
- into this process's memory of verified replays (remembered.keep), under the key it was made with, so it
  serves only a record that is byte for byte the one it verified, and every entry after it is checked as
  any other.

Pickle runs code of the bytes it reads: a checkpoint must come only from where the judge's own secrets
are (its database), which whoever could write could as well sign with the judge's key. Never read one
from anyone else.
"""

from __future__ import annotations

import functools
import hashlib
import pickle
from dataclasses import dataclass
from pathlib import Path

from pbem.protocol import remembered
from pbem.protocol.replay import Replay

FORMAT = "pbem-checkpoint/1"


@functools.cache
def code_stamp() -> str:
    """The hash of the source a replay's pickle depends on: the engine and pbem's lower layers."""
    root = Path(__file__).resolve().parent.parent.parent
    digest = hashlib.sha256()
    for folder in (root / "engine", root / "pbem" / "record", root / "pbem" / "crypto", root / "pbem" / "protocol"):
        for path in sorted(folder.rglob("*.py")):
            digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return f"{FORMAT} {digest.hexdigest()[:32]}"


@dataclass(frozen=True)
class Checkpoint:
    """A replay as kept: the key of the record it verified, that record's canonical size, the code stamp and
    the pickle."""

    seq: int
    key: bytes
    size: int
    stamp: str
    state: bytes


def make(rep: Replay) -> Checkpoint | None:
    """The replay as a checkpoint; None when it cannot be pickled (an engine compiled without pickle
    support): the game is then replayed as it would be without checkpoints."""
    keys = remembered.chain(rep.record)
    try:
        state = pickle.dumps(rep, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError):
        return None
    return Checkpoint(rep.seq, keys[-1], keys.size, code_stamp(), state)


def held(key: bytes) -> bool:
    """Whether this process's memory holds the replay of the record with this key already."""
    return remembered.holds(key)


def resume(point: Checkpoint) -> bool:
    """Make the checkpoint's replay this process's memory of its record: whether it could (made by other
    code, or unreadable: no, and the record is replayed from its genesis as it would be anyway)."""
    if point.stamp != code_stamp():
        return False
    try:
        rep = pickle.loads(point.state)  # only from the judge's own database: see above
    except Exception:  # noqa: BLE001  (any failure to read it: replay from the genesis instead)
        return False
    if not isinstance(rep, Replay) or rep.seq != point.seq:
        return False
    keys = remembered.Chain([point.key])
    keys.size = point.size
    remembered.keep(keys, rep)
    return True
