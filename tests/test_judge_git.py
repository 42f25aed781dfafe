"""The judge in git: hooks installed in a real bare repository refuse every rollback, fork, deletion
and invalid entry pushed, and commit the referee's duties after each push; on hosted CI, the history
itself is the memory that catches a rollback made by an ordinary commit."""

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
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, env={**os.environ, **(env or {})})
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


def play(base: Path, work: Path, name: str) -> None:
    run(work, "pull", "-q", "--rebase")
    ok(cli(base / name, 0, "play", work / GAME, "--as", name, "--bot", "greedy", "--seed", "1"))
    assert push(work, f"{name} plays").returncode == 0


@pytest.fixture
def table(tmp_path, monkeypatch):
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
    return tmp_path, origin, works


def entries(work: Path) -> int:
    import json

    return len(json.loads((work / GAME).read_text())["entries"])


def test_the_judge_referees_after_each_push_and_refuses_every_rollback(table):
    base, _, works = table
    for name in PLAYERS:  # each joins; after the last join the judge deals in its post-receive
        play(base, works[name], name)
    ann = works["ann"]
    run(ann, "pull", "-q", "--rebase")
    dealt = entries(ann)
    assert dealt >= 5 and "judge" in run(ann, "log", "-1", "--format=%an").stdout
    log = run(ann, "log", "--format=%H %an", "--", GAME).stdout.splitlines()
    assert [line.split()[1:] for line in log][:2] == [["pbem", "judge"], ["cat"]]
    next_line = next(line for line in ok(cli(base / "ann", 0, "show", ann / GAME)).splitlines() if line.startswith("Next: "))
    first_mover = next(n for n in PLAYERS if n in next_line)
    play(base, works[first_mover], first_mover)
    run(ann, "pull", "-q", "--rebase")
    old = log[-1].split()[0]  # the game as ann first pushed it

    run(ann, "checkout", old, "--", GAME)  # the rollback by an ordinary commit
    refused = push(ann, "restore the old game")
    assert refused.returncode != 0 and "rejected" in refused.stderr
    assert f"Error: refs/heads/main: {GAME}: this file stops at entry 0, but entry" in refused.stderr
    run(ann, "reset", "-q", "--hard", "origin/main")

    forced = run(ann, "push", "-q", "--force", "origin", f"{old}:main", check=False)
    assert forced.returncode != 0 and "this file stops at entry 0" in forced.stderr

    (ann / GAME).unlink()
    refused = push(ann, "delete the game")
    assert refused.returncode != 0 and f"{GAME} deleted: a game file is never removed" in refused.stderr
    run(ann, "reset", "-q", "--hard", "origin/main")

    text = (ann / GAME).read_text()
    (ann / GAME).write_text(text.replace('"author": "ben"', '"author": "cat"', 1))  # an entry that does not verify
    refused = push(ann, "a forged entry")
    assert refused.returncode != 0 and f"Error: refs/heads/main: {GAME}: entry" in refused.stderr
    run(ann, "reset", "-q", "--hard", "origin/main")
    assert entries(ann) > dealt and run(ann, "status", "--porcelain").stdout == ""


def test_hosted_ci_reads_the_history_and_refuses_a_rollback_by_an_ordinary_commit(table, monkeypatch):
    base, origin, works = table
    for name in PLAYERS:
        play(base, works[name], name)
    ci = base / "ci"
    run(base, "clone", "-q", str(origin), str(ci))
    assert judge_git.ci_check(ci) == []
    # The server without hooks (hosted): ann restores the game file from before the deal
    for hook in ("pre-receive", "post-receive"):
        (origin / "hooks" / hook).unlink()
    ann = works["ann"]
    run(ann, "pull", "-q", "--rebase")
    ok(cli(base / "ben", 0, "show", ann / GAME))  # ben looks at the dealt game: his pbem remembers it
    before_deal = run(ann, "log", "--format=%H", "--", GAME).stdout.split()[1]  # cat's join, before the deal
    run(ann, "checkout", before_deal, "--", GAME)
    assert push(ann, "restore").returncode == 0
    run(ci, "pull", "-q")
    problems = judge_git.ci_check(ci)
    assert len(problems) == 1 and problems[0].startswith(f"{GAME}: rolled back from entry ")
    with pytest.raises(judge_git.GitError, match=r"^refused to act: games/pop\.json: rolled back"):
        judge_git.ci_referee(ci, base / "judge-home" / "keys" / "judge")
    # the same old file under another name, the original removed: the game is still known by its id
    run(ann, "mv", GAME, "games/other.json")
    assert push(ann, "rename").returncode == 0
    run(ci, "pull", "-q")
    assert [p.split(":")[0] for p in judge_git.ci_check(ci)] == ["games/other.json"]
    # a force-push that rewrites the history: a protected branch refuses it (here as a bare repository
    # protects one); on an unprotected one CI alone cannot see it, and a player's own memory can
    run(ann, "reset", "-q", "--hard", before_deal)
    run(origin, "config", "receive.denyNonFastForwards", "true")
    protected = run(ann, "push", "-q", "--force", "origin", "HEAD:main", check=False)
    assert protected.returncode != 0 and "non-fast-forward" in protected.stderr, protected.stderr
    run(origin, "config", "receive.denyNonFastForwards", "false")
    assert run(ann, "push", "-q", "--force", "origin", "HEAD:main", check=False).returncode == 0
    fresh = base / "ci2"
    run(base, "clone", "-q", str(origin), str(fresh))
    assert judge_git.ci_check(fresh) == []
    shown = cli(base / "ben", 0, "verify", fresh / GAME)
    assert "already seen here" in shown.output, shown.output


def test_a_shallow_checkout_is_refused(tmp_path):
    origin = tmp_path / "origin"
    run(tmp_path, "init", "-q", "-b", "main", str(origin))
    for n in range(2):
        (origin / "README").write_text(f"{n}\n")
        run(origin, "add", "README")
        run(origin, "-c", "user.name=a", "-c", "user.email=a@b", "commit", "-qm", f"{n}")
    shallow = tmp_path / "shallow"
    run(tmp_path, "clone", "-q", "--depth", "1", f"file://{origin}", str(shallow))
    with pytest.raises(judge_git.GitError, match="fetch-depth: 0"):
        judge_git.ci_check(shallow)
