"""Game files as the judge reads them out of git, and the referee's duties it signs on one: a version of
a file and how it stands against another, the judge's seen-store, and signing in a scratch home so that
nothing is remembered before it is on the branch. Shared by both hooks and hosted CI. It calls the
library API itself (pbem.api loads what is asked of it): a pre-receive, which only reads game files,
loads none of what `library` gathers for the judge by mail."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from pbem import api
from pbem.judge.git import blob, shown


@dataclass
class Version:
    """One version of a game file: where and when it was seen, its record and hash chain."""

    where: str
    record: api.GameFile
    hashes: list[str]


def read_version(repo: Path, path: str, sha: str, where: str) -> Version | str:
    try:
        record = api.read_record(blob(repo, sha))
    except api.PbemError as exc:
        return f"{shown(path)} ({where}): not a game file: {exc}"
    return Version(f"{shown(path)} ({where})", record, api.hash_chain(record))


def stands(new: list[str], old: list[str]) -> str | None:
    """None when `new` extends (or equals) `old`; else how it stands against it."""
    for seq, (a, b) in enumerate(zip(new, old)):
        if a != b:
            return f"forked at entry {seq}" if seq else "a different game"
    return f"rolled back from entry {len(old) - 1} to entry {len(new) - 1}" if len(old) > len(new) else None


def seen_problem(rep: api.Replay) -> str | None:
    """Why a file cannot stand against the judge's seen-store, and what the pusher does about it (its message
    names no path of this machine): None when it extends what was seen."""
    seen = api.sighting(rep)
    if seen.kind == "older":
        return (f"this file stops at entry {rep.seq}, but entry {seen.seen_seq} of this game was already seen "
                "here: pull, and build on the newer version")
    if seen.kind == "forked":
        return (f"this file's entry {seen.fork_at} differs from the one already seen here: the game has forked; "
                "pull, and build on the newer version")
    return None


def verifies(version: Version) -> bool:
    """Whether a version verifies (one that does not never counted: nobody acted on it)."""
    try:
        api.verify_record(version.record)
    except api.PbemError:
        return False
    return True


@dataclass
class BranchGame:
    """A game's one file on the branch, verified."""

    path: str
    data: bytes
    rep: api.Replay


@contextmanager
def scratch_home() -> Iterator[Path]:
    """An empty PBEM_HOME for the length of the block: the judge signs there, so nothing it signs is
    remembered in its own home before it is on the branch."""
    before = os.environ.get("PBEM_HOME")
    with tempfile.TemporaryDirectory(prefix="pbem-judge-") as scratch:
        os.environ["PBEM_HOME"] = scratch
        try:
            yield Path(scratch)
        finally:
            if before is None:
                del os.environ["PBEM_HOME"]
            else:
                os.environ["PBEM_HOME"] = before


def sign_duties(game: BranchGame, key: Path, identity: api.Identity, log: list[str]) -> BranchGame | None:
    """The game file with every duty the judge owes now signed (None: it is not the referee, or owes nothing)."""
    try:
        name = judge_name(game.rep, identity.public)
    except api.PbemError as exc:
        log.append(f"error {shown(game.path)}: {exc}")
        return None
    if name is None or not may_owe(game.rep, name):
        return None
    with scratch_home() as scratch:
        copy = scratch / "game.json"
        copy.write_bytes(game.data)
        try:
            turn = api.referee(copy, name, str(key))
        except api.PbemError as exc:
            log.append(f"error {shown(game.path)}: {exc}")
            return None
        if not turn.written:
            return None
        log.append(f"signed {shown(game.path)} entries {turn.rep.seq - turn.written + 1}-{turn.rep.seq} as {name}")
        return BranchGame(game.path, copy.read_bytes(), turn.rep)


def judge_name(rep: api.Replay, key: api.PublicKey) -> str | None:
    """The judge's name in a game (its creator chose it), if the judge is its referee."""
    referee = rep.genesis.dealer.referee
    return referee.name if referee is not None and api.PublicKey.parse(referee.key).same_key(key) else None


def may_owe(rep: api.Replay, name: str) -> bool:
    """Whether the referee NAME may have anything to sign in a verified game: False only when its full step
    (api.referee: its join, the dealer's acts, openings, a verdict it can prove) surely signs nothing, so a
    push that leaves the judge nothing to do costs no turn machinery. A duty of its own, the dealer's or an
    opening; or, while the game runs, a secret of a player's it has not opened, or a thing dealt that
    another posted (which its seed might prove false)."""
    if any((d.what == "join" and d.who == name) or d.who == api.DEALER or d.what == "open" for d in rep.duties()):
        return True
    if rep.verdict or rep.state is None:
        return False
    unopened = any(item.players_own and item.value is None and name in item.readers for item in rep.items.values())
    return unopened or any(posted.author != name for posted in rep.seeded)
