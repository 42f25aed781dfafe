"""A git server with the judge's hooks and three players' clones, for the tests of the judge on git
(tests/judge/test_judge_git.py, test_speed_attacks.py): the `table` fixture (tests/judge/conftest.py) and
the git commands the players run."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from pbem.judge import git as judge_git

from judge_support import cli, fast_cli, ok

PLAYERS = ["ann", "ben", "cat"]
GAME = "games/pop.json"


def run(cwd: Path, *args: str, check: bool = True, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    # env None: git inherits the environment (no copy of os.environ made while another thread's in-process
    # pbem command changes it)
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True,
                          env=None if env is None else {**os.environ, **env})
    if check:
        assert done.returncode == 0, done.stderr
    return done


def clone(base: Path, origin: Path, name: str) -> Path:
    work = base / f"{name}-work"
    run(base, "clone", "-q", str(origin), str(work))
    run(work, "config", "user.name", name)
    run(work, "config", "user.email", f"{name}@example.org")
    return work


def push(work: Path, message: str, *extra: str) -> subprocess.CompletedProcess[str]:
    run(work, "add", "-A")
    run(work, "commit", "-qm", message, check=False)
    return run(work, "push", "-q", *extra, "origin", "HEAD:main", check=False)


def play(base: Path, work: Path, name: str, game: str = GAME) -> None:
    run(work, "pull", "-q", "--rebase")
    ok(cli(base / name, 0, "play", work / game, "--as", name, "--bot", "greedy", "--seed", "1"))
    assert push(work, f"{name} plays").returncode == 0


def remote_lines(done: subprocess.CompletedProcess[str]) -> list[str]:
    """What the server's hooks told the pusher (git prefixes it with 'remote: ')."""
    return [line[len("remote: "):].rstrip() for line in done.stderr.splitlines() if line.startswith("remote: ")]


def assert_private(done: subprocess.CompletedProcess[str], base: Path) -> list[str]:
    """The hooks' lines name no path of the server (every test's server lives under `base`, in the
    temporary folder) and hold no traceback. Returns them."""
    lines = remote_lines(done)
    shown = "\n".join(lines)
    assert str(base) not in shown and "/tmp" not in shown and "Traceback" not in shown, shown
    return lines


def git_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path, dict[str, Path]]:
    """A bare repository with the judge's hooks, three players' clones, and a Path of Pharaohs game in
    referee mode made and pushed by ann: the judge joined it in its post-receive."""
    fast_cli(monkeypatch)
    origin = tmp_path / "server.git"
    run(tmp_path, "init", "-q", "--bare", "-b", "main", str(origin))
    judge_home = tmp_path / "judge-home"
    judge_pub = ok(cli(judge_home, 0, "key", "new", "judge", "--no-passphrase")).splitlines()[-1]
    config = tmp_path / "judge.toml"
    config.write_text(f'home = "{judge_home}"\nkey = "{judge_home / "keys" / "judge"}"\n'
                      'address = "judge@example.org"\n')
    judge_git.install_hooks(origin, config)
    keys = {n: ok(cli(tmp_path / n, 0, "key", "new", n, "--no-passphrase")).splitlines()[-1] for n in PLAYERS}
    works = {n: clone(tmp_path, origin, n) for n in PLAYERS}
    (works["ann"] / "games").mkdir()
    ok(cli(tmp_path / "ann", 0, "new", "path-of-pharaohs", "-o", works["ann"] / GAME, "--as", "ann",
           *[f"--player={n}={keys[n]}" for n in PLAYERS], f"--referee=judge={judge_pub}"))
    made = push(works["ann"], "a new game")
    assert made.returncode == 0 and "judge: committed" in made.stderr, made.stderr
    assert_private(made, tmp_path)
    return tmp_path, origin, works
