"""The judge in a git repository: a server-side hook pair on a repository you control, or a check of
the whole history on hosted CI where only a workflow runs.

- `pre_receive`: refuses a push that turns any game file into anything but a valid extension of what
  the judge has seen (deleted, rolled back, forked, an entry that does not verify). What it has seen
  is its seen-store, in its own home, where no push can write.
- `post_receive`: records what was accepted, does the referee's duties in every game it referees and
  commits them on top of the push (plumbing only: a bare repository has no work tree).
- `ci_check` (hosted CI): the memory is the repository's history. Every version of every game file in
  it is read; a file at HEAD behind or forked from any valid earlier version is refused, and so is a
  game that was there once and is gone. An ordinary commit restoring old files is thereby caught; a
  force-push that rewrites the history itself is not (protect the branch; docs/git.md).
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pbem
from pbem.judge import library

ZERO = "0" * 40
GAMES = "games/"


class GitError(library.PbemError):
    pass


def git(repo: Path, *args: str, data: bytes | None = None, env: dict[str, str] | None = None) -> bytes:
    done = subprocess.run(["git", "-C", str(repo), *args], input=data, capture_output=True,
                          env={**os.environ, **(env or {})}, check=False)
    if done.returncode != 0:
        raise GitError(f"git {' '.join(args[:2])} failed: {done.stderr.decode(errors='replace').strip()}")
    return done.stdout


def game_files(repo: Path, commit: str, games: str = GAMES) -> dict[str, str]:
    """path -> blob id of every game file (games/*.json) in a commit."""
    out = git(repo, "ls-tree", "-r", "-z", commit, "--", games).decode(errors="surrogateescape")  # any bytes a path holds
    found = {}
    for item in filter(None, out.split("\0")):
        meta, path = item.split("\t", 1)
        kind, blob = meta.split()[1:3]
        if kind == "blob" and path.endswith(".json") and "/forks/" not in path:
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
        return f"{path} ({where}): not a game file: {exc}"
    return Version(f"{path} ({where})", record, library.hash_chain(record))


def _stands(new: list[str], old: list[str]) -> str | None:
    """None when `new` extends (or equals) `old`; else how it stands against it."""
    for seq, (a, b) in enumerate(zip(new, old)):
        if a != b:
            return f"forked at entry {seq}" if seq else "a different game"
    return f"rolled back from entry {len(old) - 1} to entry {len(new) - 1}" if len(old) > len(new) else None


# ---------------------------------------------------------------- a server you control

def pre_receive(repo: Path, updates: list[tuple[str, str, str]], games: str = GAMES) -> list[str]:
    """The reasons to refuse the push (none: accept). `updates` are pre-receive's (old, new, ref) lines."""
    problems = []
    for old, new, ref in updates:
        if not ref.startswith("refs/heads/"):
            continue
        before = game_files(repo, old, games) if old != ZERO else {}
        after = game_files(repo, new, games) if new != ZERO else {}
        for path in sorted(set(before) - set(after)):
            problems.append(f"{ref}: {path} deleted: a game file is never removed")
        for path, sha in sorted(after.items()):
            if before.get(path) == sha:
                continue
            version = _version(repo, path, sha, ref)
            if isinstance(version, str):
                problems.append(version)
                continue
            try:
                rep = library.verify_record(version.record)
            except library.PbemError as exc:
                problems.append(f"{ref}: {path}: {exc}")
                continue
            seen = library.sighting(rep)
            if seen.kind in ("older", "forked"):
                problems.append(f"{ref}: {path}: {seen.problem(rep.seq)}")
    return problems


def post_receive(repo: Path, updates: list[tuple[str, str, str]], key: Path, branch: str = "refs/heads/main",
                 games: str = GAMES, log: list[str] | None = None) -> str | None:
    """Record what was accepted; sign the referee's duties of every game on `branch` and commit them
    on top. Returns the new commit, or None when the judge owed nothing."""
    log = log if log is not None else []
    tip = next((new for old, new, ref in updates if ref == branch and new != ZERO), None)
    if tip is None:
        return None
    identity = library.load_identity(str(key))
    changed: dict[str, bytes] = {}
    with tempfile.TemporaryDirectory(prefix="pbem-judge-") as scratch:
        for path, sha in sorted(game_files(repo, tip, games).items()):
            try:
                data = blob(repo, sha)
                record = library.read_record(data)
                rep = library.verify_record(record)
            except library.PbemError as exc:
                log.append(f"error {path}: {exc}")
                continue
            library.remember(rep)
            copy = Path(scratch) / Path(path).name
            copy.write_bytes(data)
            name = library.referee_name(copy, identity.public)
            if name is None:
                continue
            try:
                turn = library.referee_duties(copy, name, key)
            except library.PbemError as exc:
                log.append(f"error {path}: {exc}")
                continue
            if turn.written:
                changed[path] = copy.read_bytes()
                log.append(f"signed {path} entries {turn.rep.seq - turn.written + 1}-{turn.rep.seq} as {name}")
    if not changed:
        return None
    return commit_files(repo, tip, changed, branch, "judge: the referee's duties in " + ", ".join(changed))


def commit_files(repo: Path, parent: str, files: dict[str, bytes], branch: str, message: str) -> str:
    """A commit of `files` on top of `parent`, made without a work tree; the branch moves only if it
    still points at `parent` (a push in between wins, and the duties are done again after it)."""
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
    git(repo, "update-ref", branch, commit, parent)
    return commit


# ---------------------------------------------------------------- hosted CI: the history is the memory

def history(repo: Path, games: str = GAMES, until: str = "HEAD") -> dict[str, list[Version]]:
    """Every version of every game file ever in the history of `until`, by game id (any path: a game
    copied to a new name is still the same game)."""
    if git(repo, "rev-parse", "--is-shallow-repository").strip() == b"true":
        raise GitError("the history is shallow: check out the whole history (actions/checkout: fetch-depth: 0)")
    out = git(repo, "log", "--format=%H", "--raw", "--no-abbrev", "--no-renames", "-m", until, "--",
              games).decode(errors="surrogateescape")
    versions: dict[str, list[Version]] = {}
    seen: set[str] = set()
    commit = ""
    for line in out.splitlines():
        if len(line) == 40 and not line.startswith(":"):
            commit = line
            continue
        if not line.startswith(":"):
            continue
        meta, path = line.split("\t", 1)
        sha = meta.split()[3]
        if sha == ZERO or sha in seen or not path.endswith(".json") or "/forks/" in path:
            continue
        seen.add(sha)
        version = _version(repo, path, sha, f"commit {commit[:12]}")
        if isinstance(version, Version):
            versions.setdefault(version.record.genesis.game_id, []).append(version)
    return versions


def ci_check(repo: Path, games: str = GAMES) -> list[str]:
    """The reasons HEAD must not be acted on: a game file behind or forked from any valid earlier
    version in the history, a game that is gone, or a file that does not verify."""
    problems = []
    current: dict[str, list[Version]] = {}
    for path, sha in sorted(game_files(repo, "HEAD", games).items()):
        version = _version(repo, path, sha, "HEAD")
        if isinstance(version, str):
            problems.append(version)
            continue
        try:
            library.verify_record(version.record)
        except library.PbemError as exc:
            problems.append(f"{path}: {exc}")
            continue
        current.setdefault(version.record.genesis.game_id, []).append(version)
    for game_id, earlier in history(repo, games).items():
        if game_id not in current:
            problems.append(f"game {library.short_id(game_id)} ({earlier[0].where}) is gone from HEAD: a game file "
                            "is never removed")
            continue
        for now in current[game_id]:
            for old in earlier:
                how = _stands(now.hashes, old.hashes)
                if how is None:
                    continue
                try:
                    library.verify_record(old.record)  # an invalid version never counted: nobody acted on it
                except library.PbemError:
                    continue
                problems.append(f"{now.where.split(' (')[0]}: {how} as in {old.where}: refused")
    return problems


def ci_referee(repo: Path, key: Path, games: str = GAMES, log: list[str] | None = None) -> list[str]:
    """Hosted CI: check the history, then do the referee's duties in the work tree's game files (the
    workflow commits and pushes them). Raises GitError with every problem when HEAD must not be acted on."""
    problems = ci_check(repo, games)
    if problems:
        raise GitError("refused to act: " + "; ".join(problems))
    log = log if log is not None else []
    identity = library.load_identity(str(key))
    written = []
    with tempfile.TemporaryDirectory(prefix="pbem-judge-home-") as home:
        os.environ["PBEM_HOME"] = home  # a fresh memory: the history checked above is the real one
        for path in sorted(game_files(repo, "HEAD", games)):
            copy = repo / path
            name = library.referee_name(copy, identity.public)
            if name is None:
                continue
            turn = library.referee_duties(copy, name, key)
            if turn.written:
                written.append(path)
                log.append(f"signed {path} entries {turn.rep.seq - turn.written + 1}-{turn.rep.seq} as {name}")
    return written


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
