"""`pbem verify`: the whole checklist of the design over one record, and forks between records.

verify() returns the replayed game or raises a VerifyError that names the entry, its author and
the reason. What it proves and what it cannot is written in docs/security.md."""

from __future__ import annotations

from .dealing import TILE_KEYS
from .errors import AuditFailed, Divergence, Equivocation
from .protocol import Replay, replay
from .record import GameFile, payload


def verify(record: GameFile) -> Replay:
    """Signatures, chain, sequence, duties, legality, openings; for a finished game, the audit."""
    return audited(replay(record))


def audited(rep: Replay) -> Replay:
    """A replayed game, with the end audit if it is finished: every hidden tile and every coin it
    committed to was opened. (A game ended by a verdict has its proof in the verdict instead.)"""
    if rep.outcome() is not None:
        _audit(rep)
    return rep


def _audit(rep: Replay) -> None:
    state = rep.state
    unopened = [f"#{slot}" for slot, value in enumerate(state.slot_value) if value is None]
    if unopened:
        raise AuditFailed(f"coins never opened: {', '.join(unopened)}")
    opened = {key for entry in rep.entries for key in (entry.openings or {}) if not key.startswith("#")}
    missing = sorted(set(TILE_KEYS) - opened)
    if missing:
        raise AuditFailed(f"hidden tiles never revealed: {', '.join(missing)}")


def compare(first: GameFile, second: GameFile) -> str | None:
    """None when one record extends the other; else raise Divergence or Equivocation at the fork.

    Both records must already have passed `verify`, so every signature involved is genuine: one
    author's two signed entries for one seq (after a common history) prove equivocation. Entries are
    compared by what was signed, not by the signature bytes: the same payload signed twice (another
    hash algorithm, another signing tool) is one move, and the chain after it is the same."""
    if first.genesis.game_id != second.genesis.game_id:
        raise Divergence("the files are of two different games")
    if payload(first.genesis) != payload(second.genesis):
        raise Divergence("the files have different genesis entries", 0)
    for a, b in zip(first.entries, second.entries):
        if payload(a) == payload(b):
            continue
        if a.author == b.author:
            what = (f"{a.action!r} in one file and {b.action!r} in the other" if a.action != b.action else
                    f"{a.action!r} in both, with different commitments, sealed values or openings")
            raise Equivocation(f"{a.author} signed two different entries for seq {a.seq}: {what}", a.seq, a.author)
        raise Divergence(f"the files fork at entry {a.seq}: {a.author} signed {a.action!r} in one, "
                         f"{b.author} signed {b.action!r} in the other", a.seq)
    return None


__all__ = ["audited", "compare", "verify"]
