"""The judge's pre-receive hook on a repository you control: it refuses a push that turns any game file
into anything but a valid extension of what the judge has seen and of the branch as it stands (deleted,
written over with another game, rolled back, forked, copied to a second file, an entry that does not
verify). What it has seen is its seen-store, in its own home, where no push can write.

git runs it on every push, and most pushes change no game file: the library API (which reads and
verifies game files) is loaded only once a game file has changed."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from pbem.judge.git import GAMES, ZERO, game_files, shown

if TYPE_CHECKING:
    from pbem.judge.git_games import Version

Versions = dict[tuple[str, str], "Version | str"]
"""(path, blob) -> the game file's version, or why it is none: what a push's hook has read."""


def pre_receive(repo: Path, updates: list[tuple[str, str, str]], games: str = GAMES) -> list[str]:
    """The reasons to refuse the push (none: accept). `updates` are pre-receive's (old, new, ref) lines."""
    problems = []
    for old, new, ref in updates:
        if ref.startswith("refs/heads/"):
            problems += _branch_update(repo, old, new, shown(ref), games)
    return problems


def _branch_update(repo: Path, old: str, new: str, ref: str, games: str) -> list[str]:
    """What is wrong with moving one branch from `old` to `new`."""
    before = game_files(repo, old, games) if old != ZERO else {}
    after = game_files(repo, new, games) if new != ZERO else {}
    problems = [f"{ref}: {shown(path)} deleted: a game file is never removed" for path in sorted(set(before) - set(after))]
    changed = {path: sha for path, sha in after.items() if before.get(path) != sha}
    if not changed:
        return problems
    read: Versions = {}
    was = _by_game(repo, before, ref, read)
    for files in _by_game(repo, after, ref, read).values():
        if len(files) > 1 and any(path in changed for path, _ in files):
            problems.append(f"{ref}: {', '.join(shown(p) for p, _ in files)}: one game in {len(files)} files: a game "
                            "has one file")
    for path, sha in sorted(changed.items()):
        held = read.get((path, before[path])) if path in before else None
        problem = _another_game(held, read[path, sha], path, ref) or _new_version(read[path, sha], path, ref, was)
        if problem:
            problems.append(problem)
    return problems


def _another_game(held: Version | str | None, pushed: Version | str, path: str, ref: str) -> str | None:
    """Why a file may not change games: one that held a game (that verified) holds it for good. Written over
    with another game, the game it held would be gone from the branch as surely as if its file were deleted,
    and moved to another file, its first one would hold another game."""
    from pbem.judge.git_games import Version, verifies

    if not isinstance(held, Version) or not isinstance(pushed, Version):
        return None
    was, now = held.record.genesis.game_id, pushed.record.genesis.game_id
    if was == now or not verifies(held):
        return None
    return (f"{ref}: {shown(path)}: it held the game {was[:8]}, and now holds another ({now[:8]}): a game file "
            "holds one game for good")


def _new_version(version: Version | str, path: str, ref: str, was: dict[str, list[tuple[str, Version]]]) -> str | None:
    """Why one pushed version of a game file is refused: it does not verify, or it does not extend what
    the judge has seen or what the branch held."""
    from pbem import api
    from pbem.judge.git_games import seen_problem, verifies

    if isinstance(version, str):
        return version
    where = f"{ref}: {shown(path)}"
    try:
        rep = api.verify_record(version.record)
    except api.PbemError as exc:
        return f"{where}: {exc}"
    problem = seen_problem(rep)
    for _, old in was.get(rep.genesis.game_id, []):
        refusal = None if problem else _refusal(version.hashes, old.hashes)
        if refusal and verifies(old):  # a version that does not verify never counted (checked only if it matters)
            problem = refusal
    return f"{where}: {problem}" if problem else None


def _refusal(new: list[str], old: list[str]) -> str | None:
    """Why a pusher's file cannot stand against a version already seen (None: it extends it), and what
    the pusher does about it: pull, never a path of the judge's machine."""
    from pbem.judge.git_games import stands

    how = stands(new, old)
    if how is None:
        return None
    if how.startswith("rolled back"):
        return (f"this file stops at entry {len(new) - 1}, but entry {len(old) - 1} of this game was already seen "
                "here: pull, and build on the newer version")
    return f"this file departs from the game already seen here ({how}): pull, and build on the newer version"


def _by_game(repo: Path, files: dict[str, str], where: str, read: Versions) -> dict[str, list[tuple[str, Version]]]:
    """The game files that read as games, by game id (path, version); the others are left out. Each file
    is read once a push (`read`: path and blob -> its version, or why it is no game file)."""
    from pbem.judge.git_games import Version, read_version

    found: dict[str, list[tuple[str, Version]]] = {}
    for path, sha in sorted(files.items()):
        if (path, sha) not in read:
            read[path, sha] = read_version(repo, path, sha, where)
        version = read[path, sha]
        if isinstance(version, Version):
            found.setdefault(version.record.genesis.game_id, []).append((path, version))
    return found
