"""The judge's git plumbing, shared by the hooks of a repository you control (pre_receive.py,
post_receive.py) and hosted CI (hosted_ci.py): running git, the game files of a commit and their blobs,
committing without a work tree, installing the hooks, and saying a path or a message to a pusher.

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
from pathlib import Path

import pbem
from pbem.errors import PbemError

ZERO = "0" * 40
GAMES = "games/"
REGULAR = ("100644", "100755")
"""A game file is a regular file: a symbolic link or a submodule at a game's path is no game."""


class GitError(PbemError):
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
    """A blob's bytes, its size read first (one git process: `cat-file --batch` says the size before the
    content, and one over MAX_BLOB is refused unread)."""
    with subprocess.Popen(["git", "-C", str(repo), "cat-file", "--batch"], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE) as done:
        assert done.stdin is not None and done.stdout is not None and done.stderr is not None
        done.stdin.write(sha.encode() + b"\n")
        done.stdin.close()
        header = done.stdout.readline().split()
        if len(header) != 3 or header[1] != b"blob":
            done.kill()
            found = b" ".join(header[1:]).decode(errors="replace") or done.stderr.read().decode(errors="replace").strip()
            raise GitError(f"git cat-file {sha} failed: {found or 'no answer'}")
        size = int(header[2])
        if size > MAX_BLOB:
            done.kill()
            raise GitError(f"{size} bytes, over the {MAX_BLOB // 2**20} MB a game file may be")
        data = done.stdout.read(size)
        done.stdout.read()
    if len(data) != size or done.returncode != 0:
        raise GitError(f"git cat-file {sha} failed: {len(data)} of {size} bytes read")
    return data


def branch_tip(repo: Path, branch: str) -> str | None:
    try:
        return git(repo, "rev-parse", "-q", "--verify", f"{branch}^{{commit}}").decode().strip() or None
    except GitError:
        return None


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
        if branch_tip(repo, branch) != parent:
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
