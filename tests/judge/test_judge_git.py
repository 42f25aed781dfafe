"""The judge in git: hooks installed in a real bare repository refuse every rollback, fork, deletion
and invalid entry pushed, and commit the referee's duties after each push, however pushes race; on
hosted CI the judge acts on the protected branch alone, the history itself is the memory that catches
a rollback made by an ordinary commit, and no ref may hold a second entry of the judge's for a place."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import threading
import time
from pathlib import Path

import pytest

from engine.contract import DEALER
from pbem.judge import git as judge_git
from pbem.judge import hosted_ci as judge_ci
from pbem.judge import library
from pbem.judge import post_receive as judge_post
from pbem.judge.cli import app as judge_app

from git_support import GAME, PLAYERS, assert_private, play, push, run
from judge_support import cli, ok, runner


def entries(work: Path, game: str = GAME) -> int:
    return len(json.loads((work / game).read_text())["entries"])


@pytest.mark.slow
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
    assert assert_private(refused, base)[0].endswith("was already seen here: pull, and build on the newer version")
    run(ann, "reset", "-q", "--hard", "origin/main")

    forced = run(ann, "push", "-q", "--force", "origin", f"{old}:main", check=False)
    assert forced.returncode != 0 and "this file stops at entry 0" in forced.stderr
    assert_private(forced, base)

    (ann / GAME).unlink()
    refused = push(ann, "delete the game")
    assert refused.returncode != 0 and f"{GAME} deleted: a game file is never removed" in refused.stderr
    assert_private(refused, base)
    run(ann, "reset", "-q", "--hard", "origin/main")

    text = (ann / GAME).read_text()
    (ann / GAME).write_text(text.replace('"author": "ben"', '"author": "cat"', 1))  # an entry that does not verify
    refused = push(ann, "a forged entry")
    assert refused.returncode != 0 and f"Error: refs/heads/main: {GAME}: entry" in refused.stderr
    assert_private(refused, base)
    run(ann, "reset", "-q", "--hard", "origin/main")
    assert entries(ann) > dealt and run(ann, "status", "--porcelain").stdout == ""
    from pbem.judge.database import Database
    from pbem.judge.store import Store
    from pbem.record.models import from_json, payload_hash

    store = Store(Database(str(base / "judge-home" / "judge.db")), base / "unused", "reader")
    record = from_json((ann / GAME).read_bytes())
    judged = {(record.genesis.game_id, e.seq): payload_hash(e) for e in record.entries if e.author == "judge"}
    assert judged and store.places_signed() == judged  # each place the hooks signed, once, in the judge's store
    assert_the_judge_skips_only_where_it_owes_nothing(base / "judge-home" / "keys" / "judge", ann / GAME)


def assert_the_judge_skips_only_where_it_owes_nothing(key: Path, game: Path) -> None:
    """At every entry of a game the judge refereed, post-receive's cheap look (git_games.may_owe) says the
    referee has nothing to sign only where its full step (api.referee) signs nothing, and it may owe where
    the judge signed next."""
    from pbem import api
    from pbem.judge.git_games import may_owe, scratch_home

    data = json.loads(game.read_text())
    skipped = 0
    for seq in range(len(data["entries"]) + 1):
        prefix = json.dumps({**data, "entries": data["entries"][:seq]}).encode()
        rep = library.verify_record(library.read_record(prefix))
        if may_owe(rep, "judge"):
            continue
        skipped += 1
        assert seq == len(data["entries"]) or data["entries"][seq]["author"] != "judge", seq
        with scratch_home() as scratch:
            (scratch / "game.json").write_bytes(prefix)
            assert api.referee(scratch / "game.json", "judge", str(key)).written == 0, seq
    assert skipped


@pytest.mark.slow
def test_hosted_ci_reads_the_history_and_refuses_a_rollback_by_an_ordinary_commit(table, monkeypatch):
    base, origin, works = table
    for name in PLAYERS:
        play(base, works[name], name)
    ci = base / "ci"
    run(base, "clone", "-q", str(origin), str(ci))
    assert judge_ci.ci_check(ci) == []
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
    problems = judge_ci.ci_check(ci)
    assert len(problems) == 1 and problems[0].startswith(f"{GAME}: rolled back from entry ")
    with pytest.raises(judge_git.GitError, match=r"^refused to act: games/pop\.json: rolled back"):
        judge_ci.ci_referee(ci, base / "judge-home" / "keys" / "judge")
    # the same old file under another name, the original removed: the game is still known by its id
    run(ann, "mv", GAME, "games/other.json")
    assert push(ann, "rename").returncode == 0
    run(ci, "pull", "-q")
    assert [p.split(":")[0] for p in judge_ci.ci_check(ci)] == ["games/other.json"]
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
    assert judge_ci.ci_check(fresh) == []
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
        judge_ci.ci_check(shallow)


# ---------------------------------------------------------------- pushes that race

TWO = "games/two.json"
PLAYING = threading.Lock()
"""One in-process pbem command at a time: the test runner swaps the process's environment and streams."""


def bot_plays(home: Path, work: Path, game: str, who: str, seed: int) -> None:
    """`pbem play --bot greedy` as the player `who` types it (in this process: threads take turns)."""
    with PLAYING:
        played = cli(home, 0, "play", work / game, "--as", who, "--bot", "greedy", "--seed", seed)
    assert played.exit_code in (0, 3), played.output


def game_at(work: Path, game: str) -> library.Replay:
    return library.verify_record(library.read_record((work / game).read_bytes()))


def judge_owes(rep: library.Replay) -> bool:
    return any(duty.who in (DEALER, rep.referee) for duty in rep.duties())


def judge_entries(origin: Path, *extra: Path) -> dict[tuple[str, int], set[str]]:
    """(game id, place) -> the hash of every distinct entry the judge signed there, in any object of the
    repository (reachable or not: a commit that never landed too) and in the files `extra`."""
    listing = run(origin, "cat-file", "--batch-all-objects", "--batch-check=%(objectname) %(objecttype)").stdout
    blobs = [line.split()[0] for line in listing.splitlines() if line.endswith(" blob")]
    found: dict[tuple[str, int], set[str]] = {}
    for data in [*blob_contents(origin, blobs), *(path.read_bytes() for path in extra)]:
        try:
            record = library.read_record(data)
        except library.PbemError:
            continue
        referee = record.genesis.dealer.referee
        hashes = library.hash_chain(record)
        for entry in record.entries:
            if referee is not None and entry.author == referee.name:
                found.setdefault((record.genesis.game_id, entry.seq), set()).add(hashes[entry.seq])
    return found


def blob_contents(origin: Path, blobs: list[str]) -> list[bytes]:
    """The bytes of each blob, read by one git process (`cat-file --batch`: a header line, the bytes, a newline)."""
    out = subprocess.run(["git", "-C", str(origin), "cat-file", "--batch"], input="".join(f"{b}\n" for b in blobs).encode(),
                         capture_output=True, check=True).stdout
    contents, at = [], 0
    for _ in blobs:
        header_end = out.index(b"\n", at)
        size = int(out[at:header_end].split()[2])
        contents.append(out[header_end + 1:header_end + 1 + size])
        at = header_end + 1 + size + 1
    return contents


def twice(found: dict[tuple[str, int], set[str]]) -> list[tuple[str, int]]:
    return [place for place, signed in found.items() if len(signed) > 1]


def slow_server(origin: Path, accepted: float, before: float, racing: Path) -> None:
    """A busy server: after the judge's pre-receive accepts a push, git waits up to `accepted` seconds
    (at random) before it moves the branch (other pushes' hooks run in between), and each post-receive
    waits until another push lands, up to `before` seconds, before the judge's starts (other pushes land
    while it is at work). Each post-receive writes a file in `racing` named by the commit pushed as it
    begins (a sign for the chatter to push), holding the branch's tip as the judge's starts."""
    def pause(seconds: float) -> str:  # a random length, without a Python process
        return f"od -An -N2 -tu2 /dev/urandom | awk '{{print $1 / 65535 * {seconds}}}'"

    racing.mkdir()
    judged = {name: origin / "hooks" / f"{name}-judge" for name in ("pre-receive", "post-receive")}
    pre_judge, post_judge = judged["pre-receive"], judged["post-receive"]
    pre = f'"{pre_judge}"; status=$?\nsleep "$({pause(accepted)})"\nexit $status\n'
    post = (f'updates=$(cat)\nset -- $updates\n: > "{racing}/$2"\n'
            f'steps={int(before / 0.05)}\n'
            'while [ "$steps" -gt 0 ] && [ "$(git rev-parse refs/heads/main)" = "$2" ]; do\n'
            '  sleep 0.05; steps=$((steps - 1))\ndone\n'
            f'git rev-parse refs/heads/main > "{racing}/$2"\n'
            f'printf "%s\\n" "$updates" | "{post_judge}"\n')
    for name, script in (("pre-receive", pre), ("post-receive", post)):
        hook = origin / "hooks" / name
        hook.rename(judged[name])
        hook.write_text("#!/bin/sh\n" + script)
        hook.chmod(0o755)


def landed_meanwhile(racing: Path, mine: set[str]) -> int:
    """How many of the tables' pushes saw another push (or a commit of the judge's) land while their
    post-receive waited, before the judge's began."""
    return sum(path.read_text().strip() != path.name for path in racing.iterdir() if path.name not in mine)


class Table:
    """One game played by bots from one clone, its pushes racing everyone else's."""

    def __init__(self, base: Path, work: Path, game: str):
        self.base, self.work, self.game = base, work, game
        self.moves = self.lost_races = self.waits = self.retries = 0
        self.problems: list[str] = []

    def advance(self, seed: int, patience: float = 60.0) -> bool:
        """One act by whoever owes it, pushed (rebased on the new tip and pushed again whenever another
        push won the race); False when the game is over. A refused push, or a judge still owing after
        `patience`, fails it."""
        waited = time.monotonic()
        while True:
            run(self.work, "pull", "-q", "--rebase")
            rep = game_at(self.work, self.game)
            if not rep.duties():
                return False
            if not judge_owes(rep):
                break
            assert time.monotonic() - waited < patience, f"{self.game}: the judge never did its duty: stuck"
            self.waits += 1
            time.sleep(0.1)
        who = rep.duties()[0].who
        bot_plays(self.base / who, self.work, self.game, who, seed)
        run(self.work, "commit", "-qam", f"{who} plays")
        while True:
            done = run(self.work, "push", "-q", "origin", "HEAD:main", check=False)
            lines = assert_private(done, self.base)
            refused = [line for line in lines if line.startswith("Error:")]
            assert not refused, f"{self.game}: an honest push refused: {refused}"
            self.retries += sum("a push landed meanwhile" in line for line in lines)
            if done.returncode == 0:
                self.moves += 1
                return True
            self.lost_races += 1
            run(self.work, "pull", "-q", "--rebase")  # another push landed first: build on it


@pytest.mark.slow
def test_racing_pushes_never_leave_a_game_stuck_nor_make_the_judge_sign_a_place_twice(table):
    """Two tables race their pushes on a slowed server, round after round: whenever a push lands while
    another push's post-receive is at work, the judge commits its entries on the new tip; no honest push
    is ever refused, the judge's duties are always done and committed, and across every object of the
    repository (commits that never landed included) it signed at most one entry for any place."""
    base, origin, works = table
    rounds = int(os.environ.get("PBEM_RACE_ROUNDS", "4"))
    ok(cli(base / "ann", 0, "new", "path-of-pharaohs", "-o", works["ann"] / TWO, "--as", "ann",
           *[f"--player={n}={(base / n / 'keys' / f'{n}.pub').read_text().strip()}" for n in PLAYERS],
           f"--referee=judge={(base / 'judge-home' / 'keys' / 'judge.pub').read_text().strip()}"))
    run(works["ann"], "pull", "-q", "--rebase")
    assert push(works["ann"], "a second game").returncode == 0
    racing = base / "racing"
    slow_server(origin, accepted=0.2, before=1.0, racing=racing)
    tables = [Table(base, works["ben"], GAME), Table(base, works["cat"], TWO)]
    failures: list[BaseException] = []

    def race(table: Table, offset: int, steps: int) -> None:
        try:
            for step in range(steps):
                time.sleep(random.random() * 0.2)
                if not table.advance(seed=offset + step):
                    return
        except BaseException as exc:  # noqa: BLE001  (reported by the main thread)
            failures.append(exc)

    over = threading.Event()
    mine: set[str] = set()
    """The commits the chatter pushed (each push's post-receive leaves a file named by its commit)."""

    def chatter(work: Path) -> None:
        """A third clone pushing a note as every second push of the tables reaches its post-receive: its
        push lands while that post-receive waits or the judge's is at work (the other table's pushes land
        in the others)."""
        try:
            answered: set[str] = set()
            while not over.wait(0.02):
                news = {path.name for path in racing.iterdir()} - mine - answered
                if not news:
                    continue
                answered |= news
                if len(answered) % 2:  # every second one
                    continue
                run(work, "pull", "-q", "--rebase")
                (work / "notes.txt").write_text(f"{len(answered)}\n")
                run(work, "add", "notes.txt")
                run(work, "commit", "-qm", f"note {len(answered)}")
                mine.add(run(work, "rev-parse", "HEAD").stdout.strip())
                run(work, "push", "-q", "origin", "HEAD:main", check=False)  # lost a race: the next note goes on
        except BaseException as exc:  # noqa: BLE001  (reported by the main thread)
            failures.append(exc)

    threads = [threading.Thread(target=race, args=(t, 100 * n, rounds)) for n, t in enumerate(tables)]
    noise = threading.Thread(target=chatter, args=(works["ann"],))
    for thread in [*threads, noise]:
        thread.start()
    for thread in threads:
        thread.join()
    over.set()
    noise.join()
    assert not failures, failures[0]
    meanwhile = landed_meanwhile(racing, mine)
    retried = sum(t.retries for t in tables)
    assert meanwhile + retried > 0, "no push landed while another's post-receive was at work: nothing raced"
    assert all(table.moves >= min(rounds, 3) for table in tables), [(t.game, t.moves) for t in tables]
    finals = [threading.Thread(target=race, args=(t, 999, 1)) for t in tables]  # both tables at once
    for thread in finals:
        thread.start()
    for thread in finals:
        thread.join()
    assert not failures, failures[0]
    for table in tables:  # the judge owes nothing on the branch, and an honest push is still accepted
        run(table.work, "pull", "-q", "--rebase")
        assert not judge_owes(game_at(table.work, table.game))
    assert twice(judge_entries(origin, *(base / "judge-home" / judge_post.PENDING).glob("*.json"))) == []
    signed = run(origin, "rev-list", "--count", "--author=pbem judge", "main").stdout.strip()
    print(f"race: {signed} commits of the judge's, {sum(t.moves for t in tables)} pushes landed, "
          f"{len(mine)} notes pushed, {meanwhile} post-receives saw a push land before the judge's began, "
          f"{sum(t.lost_races for t in tables)} lost a race and were pushed again, "
          f"{retried} commits of the judge's tried again on a new tip, "
          f"{sum(t.waits for t in tables)} looks found the judge at work")


@pytest.mark.slow
def test_an_entry_whose_commit_did_not_land_is_committed_next_time_as_it_was_signed(table, monkeypatch):
    """The branch moves between the judge's duties and its commit, every time it tries: the entry it
    signed is not counted as seen, the next honest push is accepted without it, and that push's
    post-receive commits the very bytes signed before (never the duty signed again)."""
    base, origin, works = table
    hook = origin / "hooks" / "post-receive"
    hook.rename(hook.with_name("post-receive-off"))  # ben and cat join; the judge's deal waits
    play(base, works["ben"], "ben")
    play(base, works["cat"], "cat")
    home = base / "judge-home"
    real = judge_git.commit_files

    def a_push_lands_first(repo: Path, parent: str, files: dict[str, bytes], branch: str, message: str) -> str:
        real(repo, parent, {"notes.txt": f"{time.time()}\n".encode()}, branch, "a push landed meanwhile")
        return real(repo, parent, files, branch, message)

    monkeypatch.setenv("PBEM_HOME", str(home))
    monkeypatch.setattr(judge_post, "commit_files", a_push_lands_first)
    tip = run(origin, "rev-parse", "main").stdout.strip()
    log: list[str] = []
    assert judge_post.post_receive(origin, [(judge_git.ZERO, tip, "refs/heads/main")], home / "keys" / "judge", home,
                                   log=log) is None
    assert log[-1] == "the branch kept moving: the judge's entries wait, and the next push commits them", log
    assert sum("a push landed meanwhile" in line for line in log) == judge_post.ATTEMPTS
    waiting = next((home / judge_post.PENDING).glob("*.json")).read_bytes()
    dealt = library.verify_record(library.read_record(waiting))
    assert library.sighting(dealt).seen_seq < dealt.seq  # signed, not seen: not on the branch
    monkeypatch.undo()

    hook.with_name("post-receive-off").rename(hook)
    ann = works["ann"]
    run(ann, "pull", "-q", "--rebase")
    (ann / "README").write_text("our games\n")
    done = push(ann, "a readme")
    lines = assert_private(done, base)
    assert done.returncode == 0 and any(line.startswith("committing games/pop.json entries") for line in lines), lines
    run(ann, "pull", "-q", "--rebase")
    assert (ann / GAME).read_bytes() == waiting
    assert not list((home / judge_post.PENDING).glob("*.json"))
    assert twice(judge_entries(origin)) == []
    first = game_at(ann, GAME).duties()[0].who
    play(base, works[first], first)


# ---------------------------------------------------------------- hostile pushes

@pytest.mark.slow
def test_hostile_pushes_are_refused_one_line_each_and_never_stop_the_game(table):
    """Junk, a huge blob, odd paths, a game copied to a second file, a rollback while the judge's memory
    of the game is gone: each refused with one line naming no path of the server, no traceback; the
    game goes on."""
    base, _, works = table
    ann = works["ann"]
    run(ann, "pull", "-q", "--rebase")
    home = base / "judge-home"

    def refused(message: str, *expected: str) -> list[str]:
        done = push(ann, message)
        lines = assert_private(done, base)
        assert done.returncode != 0 and lines and all(line.startswith("Error: ") for line in lines), done.stderr
        for text in expected:
            assert any(text in line for line in lines), (text, lines)
        run(ann, "reset", "-q", "--hard", "origin/main")
        return lines

    (ann / "games" / "junk.json").write_text("{not json")
    refused("junk", "games/junk.json (refs/heads/main): not a game file")
    (ann / "games" / "big.json").write_bytes(b" " * (judge_git.MAX_BLOB + 1))
    refused("a huge blob", "over the 32 MB a game file may be")
    (ann / "games" / "a\nb.json").write_text("[]")
    assert refused("a newline in a path", "games/a\\x0ab.json")[0].count("\n") == 0
    (ann / os.fsdecode(b"games/\xff.json")).write_bytes((ann / GAME).read_bytes())
    refused("the game in a second file", "games/pop.json, games/\\xff.json: one game in 2 files: a game has one file")
    old = run(ann, "log", "--reverse", "--format=%H", "--", GAME).stdout.split()[0]
    for seen in (home / "games").glob("*.json"):
        seen.unlink()  # the judge's memory of the game lost: the branch itself still refuses a rollback
    run(ann, "checkout", old, "--", GAME)
    refused("a rollback", "this file stops at entry 0, but entry 1 of this game was already seen here: pull")
    (ann / "games" / "link.json").symlink_to("/etc/passwd")  # not a regular file: no game file at all
    assert push(ann, "a link").returncode == 0
    first = game_at(ann, GAME).duties()[0].who
    play(base, works[first], first)


# ---------------------------------------------------------------- hosted CI

def ci_run(base: Path, origin: Path, branch: str, *args: str, github: bool = True,
           push_back: bool = True) -> subprocess.CompletedProcess[str]:
    """The workflow of docs/git.md on a push to `branch`: a whole clone, `pbem judge ci`, and a commit and
    push of what the judge wrote. The command runs in this process (typer's runner, as `cli` runs pbem),
    in an environment without the suite's PBEM_, GITHUB_ and CI_ variables, as on a fresh CI runner."""
    ci = base / f"ci-{branch}-{time.monotonic_ns()}"
    run(base, "clone", "-q", "--no-single-branch", str(origin), str(ci))
    run(ci, "checkout", "-q", branch)
    env: dict[str, str | None] = {k: None for k in os.environ if k.startswith(("PBEM_", "GITHUB_", "CI_"))}
    env["PBEM_HOME"] = str(ci.with_name(ci.name + "-home"))  # the runner's own home, empty
    if github:
        env["GITHUB_REF"] = f"refs/heads/{branch}"
    command = ["ci", str(base / "judge-home" / "keys" / "judge"), str(ci), *args]
    result = runner.invoke(judge_app, command, env=env)
    done = subprocess.CompletedProcess(command, result.exit_code, result.stdout, result.stderr)
    if done.returncode == 0 and push_back and run(ci, "status", "--porcelain").stdout:
        run(ci, "-c", "user.name=judge", "-c", "user.email=judge@invalid", "commit", "-qam", "judge: the referee's duties")
        run(ci, "push", "-q", "origin", f"HEAD:{branch}")
    return done


def until_the_judge_owes(homes: Path, work: Path, seed: int) -> None:
    """Players (their homes in `homes`) play in the clone, in turn, until the judge owes a duty."""
    for _ in range(40):
        rep = game_at(work, GAME)
        if judge_owes(rep):
            return
        who = rep.duties()[0].who
        bot_plays(homes / who, work, GAME, who, seed)
        run(work, "commit", "-qam", f"{who} plays")
    raise AssertionError("the judge never owed anything")


@pytest.mark.slow
def test_hosted_ci_acts_on_the_protected_branch_alone_and_never_signs_a_place_twice(table):
    """A player pushes one branch per try, each with his move, and the workflow runs on each: the
    judge refuses every branch but main (one Error line, nothing written), so it signs one reveal for
    the place, on main. A run made to act on another branch (a workflow changed, an old judge) signs
    there; main then refuses to sign a second entry for that place, and says where the first is."""
    base, origin, works = table
    for hook in ("pre-receive", "post-receive"):
        (origin / "hooks" / hook).unlink()  # hosted: no hooks, only the workflow
    player = works["ben"]
    run(player, "pull", "-q", "--rebase")
    for n in (1, 2, 3):  # each try from the same start: the players' memories copied, so pbem plays it
        for name in PLAYERS:
            shutil.copytree(base / name, base / f"try{n}" / name)
        run(player, "checkout", "-q", "-B", f"try{n}", "origin/main")
        until_the_judge_owes(base / f"try{n}", player, seed=n)
        run(player, "push", "-q", "origin", f"try{n}")
        done = ci_run(base, origin, f"try{n}")
        assert done.returncode == 1 and done.stdout == "" and done.stderr.splitlines() == [
            f"Error: the judge acts only on the protected branch main, and this run is on refs/heads/try{n}: refused "
            "(run it on that branch alone; docs/git.md)"]
    assert "on refs/heads/try1" in ci_run(base, origin, "try1", github=False).stderr  # the checkout's own branch
    detached = ci_run(base, origin, "main", "--branch", "main", github=False, push_back=False)
    assert detached.returncode == 0  # on main itself, read from the checkout
    run(player, "checkout", "-q", "-B", "main", "origin/main")
    until_the_judge_owes(base, player, seed=1)
    run(player, "push", "-q", "origin", "main")
    signed = ci_run(base, origin, "main")
    assert signed.returncode == 0 and "signed games/pop.json" in signed.stdout, signed.stderr
    assert twice(judge_entries(origin)) == []

    run(player, "pull", "-q", "--rebase")
    for name in PLAYERS:
        shutil.copytree(base / name, base / "try4" / name)
    run(player, "checkout", "-q", "-B", "try4", "origin/main")
    until_the_judge_owes(base / "try4", player, seed=4)
    run(player, "push", "-q", "origin", "try4")
    astray = ci_run(base, origin, "try4", "--branch", "try4")  # a run made to act elsewhere signs there
    assert astray.returncode == 0 and "signed games/pop.json" in astray.stdout
    run(player, "checkout", "-q", "main")
    until_the_judge_owes(base, player, seed=5)
    run(player, "push", "-q", "origin", "main")
    refused = ci_run(base, origin, "main")
    # named: the first place main's judge was about to sign where try4 holds another entry of the judge's
    found = re.fullmatch(r"Error: refused to act: games/pop\.json: entry (\d+) of this game was already signed by the "
                         r"judge on refs/remotes/origin/try4, and HEAD's file does not hold it: refused to sign another "
                         r"for its place\n", refused.stderr)
    assert refused.returncode == 1 and found, refused.stderr
    place = int(found[1])
    assert place > entries(player)  # a place main's judge was about to sign
    assert len(judge_entries(origin)[(game_at(player, GAME).genesis.game_id, place)]) == 1
    run(origin, "branch", "-D", "try4")  # that branch gone, nothing blocks main
    assert ci_run(base, origin, "main").returncode == 0
