"""The judge in a git repository you control: a server-side hook pair (hosted CI, where only a workflow
runs, is hosted_ci.py, on the plumbing here).

- `pre_receive`: refuses a push that turns any game file into anything but a valid extension of what
  the judge has seen and of the branch as it stands (deleted, rolled back, forked, copied to a second
  file, an entry that does not verify). What it has seen is its seen-store, in its own home, where no
  push can write.
- `post_receive`: does the referee's duties in every game on the protected branch as it stands now and
  commits them on top. An entry the judge signed counts as seen only once its commit is on the branch;
  until then it waits in the judge's home (`git-pending/`), and the next run commits those very bytes.

Both hooks run in one transaction of the judge's store holding its lock for the repository (store.py):
pushes a second apart take turns, and each place the judge signs is a row of its store, which refuses a
second entry for one place, whether signed here, by mail or by another judge on the same database.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pbem
from pbem.judge import library

ZERO = "0" * 40
GAMES = "games/"
REGULAR = ("100644", "100755")
"""A game file is a regular file: a symbolic link or a submodule at a game's path is no game."""
ATTEMPTS = 5
"""How often post-receive commits again when a push lands between its reading the branch and its commit."""
PENDING = "git-pending"
"""In the judge's home: the game files holding entries it signed whose commit is not on the branch yet."""


class GitError(library.PbemError):
    pass


class BranchMoved(GitError):
    """The branch no longer points where the commit was made on: a push landed in between."""


def git(repo: Path, *args: str, data: bytes | None = None, env: dict[str, str] | None = None) -> bytes:
    done = subprocess.run(["git", "-C", str(repo), *args], input=data, capture_output=True,
                          env={**os.environ, **(env or {})}, check=False)
    if done.returncode != 0:
        raise GitError(f"git {' '.join(args[:2])} failed: {done.stderr.decode(errors='replace').strip()}")
    return done.stdout


def shown(text: str) -> str:
    """A path or a name as a pusher may read it on one line: what is not printable, escaped."""
    def escape(char: str) -> str:
        code = ord(char)
        return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"\\u{code:04x}" if code > 0xFF else f"\\x{code:02x}"
    return "".join(c if c.isprintable() else escape(c) for c in text)


def game_files(repo: Path, commit: str, games: str = GAMES) -> dict[str, str]:
    """path -> blob id of every game file (games/*.json, a regular file) in a commit."""
    out = git(repo, "ls-tree", "-r", "-z", commit, "--", games).decode(errors="surrogateescape")  # any bytes a path holds
    found = {}
    for item in filter(None, out.split("\0")):
        meta, path = item.split("\t", 1)
        mode, kind, blob = meta.split()[:3]
        if kind == "blob" and mode in REGULAR and path.endswith(".json") and "/forks/" not in path:
            found[path] = blob
    return found


MAX_BLOB = 32 * 1024 * 1024
"""A game file's size at most (as pbem reads game files): a pushed blob is sized before it is read."""


def blob(repo: Path, sha: str) -> bytes:
    size = int(git(repo, "cat-file", "-s", sha))
    if size > MAX_BLOB:
        raise GitError(f"{size} bytes, over the {MAX_BLOB // 2**20} MB a game file may be")
    return git(repo, "cat-file", "blob", sha)


@dataclass
class Version:
    """One version of a game file: where and when it was seen, its record and hash chain."""

    where: str
    record: library.GameFile
    hashes: list[str]


def _version(repo: Path, path: str, sha: str, where: str) -> Version | str:
    try:
        record = library.read_record(blob(repo, sha))
    except library.PbemError as exc:
        return f"{shown(path)} ({where}): not a game file: {exc}"
    return Version(f"{shown(path)} ({where})", record, library.hash_chain(record))


def _stands(new: list[str], old: list[str]) -> str | None:
    """None when `new` extends (or equals) `old`; else how it stands against it."""
    for seq, (a, b) in enumerate(zip(new, old)):
        if a != b:
            return f"forked at entry {seq}" if seq else "a different game"
    return f"rolled back from entry {len(old) - 1} to entry {len(new) - 1}" if len(old) > len(new) else None


def _refusal(new: list[str], old: list[str]) -> str | None:
    """Why a pusher's file cannot stand against a version already seen (None: it extends it), and what
    the pusher does about it: pull, never a path of the judge's machine."""
    how = _stands(new, old)
    if how is None:
        return None
    if how.startswith("rolled back"):
        return (f"this file stops at entry {len(new) - 1}, but entry {len(old) - 1} of this game was already seen "
                "here: pull, and build on the newer version")
    return f"this file departs from the game already seen here ({how}): pull, and build on the newer version"


def _seen_problem(rep: library.Replay) -> str | None:
    """As `_refusal`, against the judge's seen-store (its message names no path of this machine)."""
    seen = library.sighting(rep)
    if seen.kind == "older":
        return (f"this file stops at entry {rep.seq}, but entry {seen.seen_seq} of this game was already seen "
                "here: pull, and build on the newer version")
    if seen.kind == "forked":
        return (f"this file's entry {seen.fork_at} differs from the one already seen here: the game has forked; "
                "pull, and build on the newer version")
    return None


def _by_game(repo: Path, files: dict[str, str], where: str) -> dict[str, list[tuple[str, Version]]]:
    """The game files that read as games, by game id (path, version); the others are left out."""
    found: dict[str, list[tuple[str, Version]]] = {}
    for path, sha in sorted(files.items()):
        version = _version(repo, path, sha, where)
        if isinstance(version, Version):
            found.setdefault(version.record.genesis.game_id, []).append((path, version))
    return found


# ---------------------------------------------------------------- a server you control

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
    was = _by_game(repo, before, ref)
    for files in _by_game(repo, after, ref).values():
        if len(files) > 1 and any(path in changed for path, _ in files):
            problems.append(f"{ref}: {', '.join(shown(p) for p, _ in files)}: one game in {len(files)} files: a game "
                            "has one file")
    for path, sha in sorted(changed.items()):
        problem = _new_version(repo, path, sha, ref, was)
        if problem:
            problems.append(problem)
    return problems


def _new_version(repo: Path, path: str, sha: str, ref: str, was: dict[str, list[tuple[str, Version]]]) -> str | None:
    """Why one pushed version of a game file is refused: it does not verify, or it does not extend what
    the judge has seen or what the branch held."""
    version = _version(repo, path, sha, ref)
    if isinstance(version, str):
        return version
    where = f"{ref}: {shown(path)}"
    try:
        rep = library.verify_record(version.record)
    except library.PbemError as exc:
        return f"{where}: {exc}"
    problem = _seen_problem(rep)
    for _, old in was.get(rep.genesis.game_id, []):
        problem = problem or (_refusal(version.hashes, old.hashes) if _verifies(old) else None)
    return f"{where}: {problem}" if problem else None


def _verifies(version: Version) -> bool:
    """Whether a version verifies (one that does not never counted: nobody acted on it)."""
    try:
        library.verify_record(version.record)
    except library.PbemError:
        return False
    return True


@dataclass
class BranchGame:
    """A game's one file on the branch, verified."""

    path: str
    data: bytes
    rep: library.Replay


def post_receive(repo: Path, updates: list[tuple[str, str, str]], key: Path, home: Path,
                 branch: str = "refs/heads/main", games: str = GAMES, log: list[str] | None = None,
                 signed: Callable[[str, dict[int, str]], None] | None = None) -> str | None:
    """Sign the referee's duties of every game on `branch` as it stands now, and commit them on top.
    Returns the new commit, or None when the judge owed nothing (or its entries wait for the next push).
    Run in a transaction of the judge's store holding its lock for the repository, with PBEM_HOME set to
    its home; `signed` records each place it signs there."""
    log = log if log is not None else []
    if not any(ref == branch for _, _, ref in updates) and not _pending_games(home):
        return None
    identity = library.load_identity(str(key))
    for _ in range(ATTEMPTS):
        tip = _tip(repo, branch)
        if tip is None:
            return None
        made_now = _sign(repo, tip, key, identity, home, games, log, signed)
        if not made_now:
            return None
        message = "judge: the referee's duties in " + ", ".join(made_now)
        try:
            made = commit_files(repo, tip, {path: game.data for path, game in made_now.items()}, branch, message)
        except BranchMoved:
            log.append("a push landed meanwhile: the judge commits the same entries on the new tip")
            continue
        for game in made_now.values():
            library.remember(game.rep)  # on the branch now: seen
            _drop_pending(home, game.rep.genesis.game_id)
        return made
    log.append("the branch kept moving: the judge's entries wait, and the next push commits them")
    return None


def _tip(repo: Path, branch: str) -> str | None:
    try:
        return git(repo, "rev-parse", "-q", "--verify", f"{branch}^{{commit}}").decode().strip() or None
    except GitError:
        return None


def _sign(repo: Path, tip: str, key: Path, identity: library.Identity, home: Path, games: str,
          log: list[str], signed: Callable[[str, dict[int, str]], None] | None = None) -> dict[str, BranchGame]:
    """path -> the game file to commit: the entries already signed and waiting, else the duties owed now."""
    found: dict[str, BranchGame] = {}
    for game_id, game in _branch_games(repo, tip, games, log).items():
        library.remember(game.rep)  # on the branch: seen
        waiting = _pending(home, game_id, log)
        if waiting is not None and _proper_prefix(game.rep.hashes, waiting.rep.hashes):
            found[game.path] = BranchGame(game.path, waiting.data, waiting.rep)  # the very bytes signed before
            log.append(f"committing {shown(game.path)} entries {game.rep.seq + 1}-{waiting.rep.seq}, signed before")
            continue
        if waiting is not None:
            _drop_pending(home, game_id)
            if waiting.rep.hashes != game.rep.hashes[:len(waiting.rep.hashes)]:
                log.append(f"dropped the judge's entries of {shown(game.path)} from entry {_fork(waiting, game)}: a push "
                           "took their place first, and they were never on the branch")
        problem = _seen_problem(game.rep)
        if problem:
            log.append(f"error {shown(game.path)}: {problem}")
            continue
        duties = _duties(game, key, identity, log)
        if duties is not None:
            if signed is not None:  # one entry a place, whichever process signs: the store refuses a second
                signed(game_id, {seq: duties.rep.hashes[seq] for seq in range(game.rep.seq + 1, duties.rep.seq + 1)})
            library.write_file(_pending_path(home, game_id), duties.data)  # before the commit: a crash keeps it
            found[game.path] = duties
    return found


def _fork(one: BranchGame, other: BranchGame) -> int:
    return next(seq for seq, (a, b) in enumerate(zip(one.rep.hashes, other.rep.hashes)) if a != b)


def _proper_prefix(short: list[str], long: list[str]) -> bool:
    return len(short) < len(long) and long[:len(short)] == short


def _branch_games(repo: Path, tip: str, games: str, log: list[str]) -> dict[str, BranchGame]:
    """game id -> its file on the branch, verified; a game in two files is acted on in neither."""
    found: dict[str, BranchGame] = {}
    twice: set[str] = set()
    for path, sha in sorted(game_files(repo, tip, games).items()):
        try:
            data = blob(repo, sha)
            rep = library.verify_record(library.read_record(data))
        except library.PbemError as exc:
            log.append(f"error {shown(path)}: {exc}")
            continue
        game_id = rep.genesis.game_id
        if game_id in found:
            twice.add(game_id)
            log.append(f"error {shown(path)}: the game is in {shown(found[game_id].path)} too: the judge acts on neither")
        found[game_id] = BranchGame(path, data, rep)
    return {game_id: game for game_id, game in found.items() if game_id not in twice}


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


def _duties(game: BranchGame, key: Path, identity: library.Identity, log: list[str]) -> BranchGame | None:
    """The game file with every duty the judge owes now signed (None: it is not the referee, or owes nothing)."""
    with scratch_home() as scratch:
        copy = scratch / "game.json"
        copy.write_bytes(game.data)
        try:
            name = library.referee_name(copy, identity.public)
            if name is None:
                return None
            turn = library.referee(copy, name, str(key))
        except library.PbemError as exc:
            log.append(f"error {shown(game.path)}: {exc}")
            return None
        if not turn.written:
            return None
        log.append(f"signed {shown(game.path)} entries {turn.rep.seq - turn.written + 1}-{turn.rep.seq} as {name}")
        return BranchGame(game.path, copy.read_bytes(), turn.rep)


def _pending_path(home: Path, game_id: str) -> Path:
    folder = home / PENDING
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    return folder / f"{game_id}.json"


def _pending_games(home: Path) -> list[str]:
    folder = home / PENDING
    return sorted(p.stem for p in folder.glob("*.json")) if folder.is_dir() else []


def _pending(home: Path, game_id: str, log: list[str]) -> BranchGame | None:
    """The game file with the entries signed for this game and not yet on the branch, if any."""
    path = home / PENDING / f"{game_id}.json"
    if not path.exists():
        return None
    try:
        data = library.read_file(path, "the judge's entries waiting for a commit", MAX_BLOB)
        return BranchGame(path.name, data, library.verify_record(library.read_record(data)))
    except library.PbemError as exc:
        log.append(f"error: the judge's waiting entries of game {library.short_id(game_id)} cannot be read ({exc}): "
                   "dropped; they were never on the branch")
        _drop_pending(home, game_id)
        return None


def _drop_pending(home: Path, game_id: str) -> None:
    (home / PENDING / f"{game_id}.json").unlink(missing_ok=True)


def commit_files(repo: Path, parent: str, files: dict[str, bytes], branch: str, message: str) -> str:
    """A commit of `files` on top of `parent`, made without a work tree; the branch moves only if it
    still points at `parent` (BranchMoved otherwise: a push landed in between)."""
    ident = {"GIT_AUTHOR_NAME": "pbem judge", "GIT_AUTHOR_EMAIL": "judge@pbem.invalid",
             "GIT_COMMITTER_NAME": "pbem judge", "GIT_COMMITTER_EMAIL": "judge@pbem.invalid"}
    with tempfile.TemporaryDirectory(prefix="pbem-judge-index-") as scratch:
        env = {**ident, "GIT_INDEX_FILE": str(Path(scratch) / "index")}
        git(repo, "read-tree", parent, env=env)
        for path, data in files.items():
            sha = git(repo, "hash-object", "-w", "--stdin", data=data).decode().strip()
            git(repo, "update-index", "--add", "--cacheinfo", f"100644,{sha},{path}", env=env)
        tree = git(repo, "write-tree", env=env).decode().strip()
        commit = git(repo, "commit-tree", tree, "-p", parent, "-m", message, env=env).decode().strip()
    try:
        git(repo, "update-ref", branch, commit, parent)
    except GitError:
        if _tip(repo, branch) != parent:
            raise BranchMoved(f"{branch} moved while the judge committed") from None
        raise
    return commit


HOOK = """#!/bin/sh
# pbem judge: written by install-hooks
{env}exec {python} -m pbem.judge {name} {config}
"""


def install_hooks(repo: Path, config: Path) -> list[Path]:
    """Write pre-receive and post-receive into a bare repository's hooks/, running this Python."""
    hooks = repo / "hooks"
    if not hooks.is_dir():
        raise GitError(f"{repo} is not a bare git repository (no hooks/ folder)")
    source = Path(pbem.__file__).resolve().parent.parent
    env = f"PYTHONPATH={shlex.quote(str(source))}${{PYTHONPATH:+:$PYTHONPATH}} export PYTHONPATH\n"
    written = []
    for name in ("pre-receive", "post-receive"):
        path = hooks / name
        path.write_text(HOOK.format(env=env.replace(" export", "; export"), python=shlex.quote(sys.executable),
                                    name=name, config=shlex.quote(str(config))))
        path.chmod(0o755)
        written.append(path)
    return written


def private(text: str, paths: list[Path]) -> str:
    """`text` as a pusher may read it: every path under one of `paths` (the judge's home, the repository,
    the temporary folder) replaced by words, and what is not printable escaped."""
    for prefix in sorted({str(p) for p in paths if str(p) not in ("", "/", ".")}, key=len, reverse=True):
        text = re.sub(r"(?<![^\s'\"(=:,])" + re.escape(prefix) + r"[^\s'\"]*", "(a path on the server)", text)
    return shown(text)
