"""`pbem verify`: the whole checklist of the design over one record, and forks between records.

verify() returns the replayed game or raises a VerifyError that names the entry, its author and
the reason. What it proves and what it cannot is written in docs/security.md."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import field
from pathlib import Path

from engine.frozen import Mutable
from pbem.errors import AuditFailed, Divergence, Equivocation, PbemError, RecordError
from pbem.protocol.entries import replay
from pbem.protocol.replay import Replay
from pbem.protocol.seen import Sighting, remember_quietly, sighting
from pbem.record.gamefile import load
from pbem.record.models import GameFile, payload


def verify(record: GameFile) -> Replay:
    """Signatures, chain, sequence, duties, legality, openings; for a finished game, the audit."""
    return audited(replay(record))


def audited(rep: Replay) -> Replay:
    """A replayed game, with the end audit if its play is finished: every secret a player committed was
    opened, and the dealer's seed was opened (a joint deal: everything the dealer posted was checked
    against it) or every hidden item was (a chosen deal). A game ended by a verdict has its proof in
    the verdict instead."""
    if rep.verdict is None and rep.over:
        _audit(rep)
    return rep


def _audit(rep: Replay) -> None:
    withheld = {rep.roster[a.party].raw.hex() for a in rep.absences if a.withheld}  # closed for good: they forfeit
    unopened = [key for key, item in rep.items.items()
                if item.players_own and item.value is None and item.owner not in withheld]
    if unopened:
        raise AuditFailed(f"secrets never opened: {', '.join(unopened)}")
    if rep.seed_commitment is not None:
        if rep.seed is None:
            raise AuditFailed("the dealer's seed was never opened (the end audit is owed)")
        return
    hidden = sorted(key for key, item in rep.items.items() if not item.players_own and item.value is None)
    if hidden:
        raise AuditFailed(f"hidden items never revealed: {', '.join(hidden)}")


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


class Checked(Mutable):
    """One file verified: the game, and how it stood against this machine's history before this run."""

    path: Path
    game: Replay
    seen: Sighting


class VerifyReport(Mutable):
    """`verify` over several files: each valid file, each failure (one line each), and the warnings."""

    valid: list[Checked] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def verify_files(paths: list[Path], on_valid: Callable[[Checked], None] | None = None,
                 on_failure: Callable[[str], None] | None = None,
                 on_warning: Callable[[str], None] | None = None,
                 read: Callable[[Path], GameFile] | None = None) -> VerifyReport:
    """Check every file; copies of one game are also checked against each other (a fork between two
    files is said once). `on_valid`, `on_failure` and `on_warning` hear each result as it is found;
    `read` reads a file's record (default: a game file; the API passes one that reads saved mails too)."""
    report = VerifyReport()

    def fail(message: str) -> None:
        report.failures.append(message)
        if on_failure:
            on_failure(message)

    def warn(message: str | None) -> None:
        if message:
            report.warnings.append(message)
            if on_warning:
                on_warning(message)

    for path in paths:
        try:
            record = read(path) if read else load(path)[0]
            game = verify(record)
        except RecordError as exc:  # already names the file
            fail(str(exc))
            continue
        except PbemError as exc:
            fail(f"{path}: {exc}")
            continue
        checked = Checked(path, game, sighting(game))  # against the history as it was before this run
        report.valid.append(checked)
        if on_valid:
            on_valid(checked)
    in_forked_pair = set()
    for i, first in enumerate(report.valid):
        for second in report.valid[i + 1:]:
            if first.game.genesis.game_id == second.game.genesis.game_id:
                try:
                    compare(first.game.record, second.game.record)
                except PbemError as exc:
                    fail(f"{first.path} and {second.path}: {exc}")
                    in_forked_pair |= {first.path, second.path}
    for checked in report.valid:
        problem = checked.seen.problem(checked.game.seq, checked.path)
        if checked.seen.kind == "forked" and checked.path not in in_forked_pair:
            fail(f"{checked.path}: {problem}")
        elif problem and checked.seen.kind != "forked":
            warn(f"{checked.path}: {problem}")
        warn(remember_quietly(checked.game, checked.path))
    return report
