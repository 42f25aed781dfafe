"""The fuzz harness (tests/fuzz_support.py) over every input path, with a small fixed budget: each path
gets its seeds and some dozens of mutations of them; and the judge's whole path for one mail
(tests/judge_fuzz_support.py): the hostile mails of issue 32 by name, then a short seeded run of the
corpus. benchmarks/fuzz_inputs.py runs both for hours (--judge for the second)."""

import base64
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzz_support import Sandbox, check, mutate, sandbox
from judge_fuzz_support import Corpus, JudgeBox, hostile
from paths_support import BENCHMARKS

PATHS = ["game file", "turn block", "armored text", "whole mail", "key file", "address book", "config"]


@pytest.fixture(scope="module")
def box(tmp_path_factory) -> Sandbox:
    return sandbox(tmp_path_factory.mktemp("fuzz"))


@pytest.fixture(autouse=True)
def _home(box, monkeypatch):
    monkeypatch.setenv("PBEM_HOME", str(box.home))
    monkeypatch.delenv("PBEM_PASSPHRASE", raising=False)
    monkeypatch.delenv("PBEM_GAMES", raising=False)


def ops(tokens):
    return st.lists(st.tuples(st.integers(0, 2**32 - 1), st.integers(0, 5),
                              st.binary(min_size=1, max_size=8) | st.sampled_from(tokens)), max_size=6)


@pytest.mark.parametrize("name", PATHS)
def test_every_seed_passes(box, name):
    """The seeds themselves: a value or a clean error, nothing changed (they are known already)."""
    path = box.path(name)
    for seed in path.seeds:
        check(box, path, seed)


@pytest.mark.parametrize("name", PATHS)
def test_mutated_inputs_never_crash_hang_or_change_a_file(box, name):
    path = box.path(name)

    @settings(max_examples=25, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(st.integers(0, len(path.seeds) - 1), ops(path.tokens))
    def one(seed, edits):
        check(box, path, mutate(path.seeds[seed], edits))

    one()


# ---------------------------------------------------------------- the judge's path for one mail

@pytest.fixture
def judge_box(tmp_path):
    """A judge in this process with its Maildir, a real SMTP server, and an honest game it referees
    (its invitation applied and answered). The environment the judge sets is restored by conftest."""
    box = JudgeBox(tmp_path / "judge")
    try:
        assert box.run_pass("the invitation", expect=box.rep.genesis.game_id) is None, box.log
        for _ in range(4):  # the joins and the deal: a game under way
            assert box.honest_turn() is None, box.log
        yield box
    finally:
        box.close()


def _turn(box: JudgeBox) -> str:
    return armor_text(box.history[box.rep.genesis.game_id][-1])


def armor_text(data: bytes) -> str:
    from pbem.transport import armor, turns

    return armor.wrap(turns.LABEL, data)


def named_mails(box: JudgeBox) -> dict[str, bytes]:
    """The hostile mails issue 32 names, each as the judge's Maildir would hold it."""
    crlf = "=?utf-8?q?turn=0D=0AX-Injected=3A_yes?="
    block = _turn(box)
    game_id = box.rep.genesis.game_id
    attached = base64.encodebytes(box.history[game_id][0]).decode()

    def mail(*headers: str, body: str = block) -> bytes:
        return ("\r\n".join(headers) + "\r\n\r\n" + body).encode()

    return {
        "a Subject that decodes to CR LF, from a player's real address": mail(
            "From: ann <ann@example.org>", "To: judge@example.org", f"Subject: {crlf}", "Message-ID: <1@x>",
            body="-----BEGIN PBEM TURN-----\r\nH4sIdamaged\r\n-----END PBEM TURN-----\r\n"),
        "a Message-ID that decodes to CR LF": mail(
            "From: ben@example.org", "Subject: [pbem] #1", f"Message-ID: {crlf}", body="-----BEGIN PBEM TURN-----\r\n"
            "H4sIdamaged\r\n-----END PBEM TURN-----\r\n"),
        "a From that is a group": mail("From: a:b;c", "To: judge@example.org", "Subject: x"),
        "a To that is a group, on a valid turn": mail("From: cat <cat@example.org>", "To: a:b;c", "Subject: x"),
        "a stranger replays a valid turn": mail("From: eve <eve@evil.example>", "To: judge@example.org", "Subject: x"),
        "a forged From naming ann": mail("From: ann <eve@evil.example>", "Cc: ben <eve@evil.example>", "Subject: x"),
        "the stranger again, with a damaged turn": mail(
            "From: eve <eve@evil.example>", "Subject: x", body="-----BEGIN PBEM TURN-----\r\nH4sIAAAA\r\n"
            "-----END PBEM TURN-----\r\n"),
        "an unknown game id": mail("From: ann@example.org", "Subject: x", body=armor_text(
            box.history[game_id][-1].replace(game_id.encode(), b"0" * 32))),
        "a malformed game id": mail("From: ann@example.org", "Subject: x", body=armor_text(
            box.history[game_id][-1].replace(game_id.encode(), b"../../etc\r\nX-Injected: id"))),
        "a turn that forks the game": mail("From: ann@example.org", "Subject: x", body=armor_text(
            re.sub(rb'"prev":"[0-9a-f]{64}"', b'"prev":"' + b"0" * 64 + b'"', box.history[game_id][-1]))),
        "deep nesting": mail("From: ann@example.org", "Subject: x", body=armor_text(
            b'{"format":"pbem-turn/1","entries":' + b"[" * 100_000 + b"]" * 100_000 + b"}")),
        "multipart nesting": mail("From: ann@example.org", *[f'Content-Type: multipart/mixed; boundary="n{i}"\r\n\r\n'
                                                              f"--n{i}" for i in range(300)]),
        "an attachment in a wrong charset": mail(
            "From: ann@example.org", "Subject: x", 'Content-Type: multipart/mixed; boundary="b"',
            body=f'--b\r\nContent-Type: application/json; charset="utf-7"; name="=?utf-8?q?=0D=0A.json?="\r\n'
                 f"Content-Transfer-Encoding: base64\r\n\r\n{attached}\r\n--b--\r\n"),
    }


@pytest.mark.slow
def test_the_judge_takes_the_hostile_mails_of_issue_32_and_the_honest_game_goes_on(judge_box):
    """Each mail, then an honest turn: the judge's pass returns, it signs no place twice, mails no smuggled
    header, no path of its machine and no stranger, and the honest turn is applied and answered."""
    found = []
    for name, data in named_mails(judge_box).items():
        finding = judge_box.execute(data)
        found += [f"{name}: {finding.kind}: {finding.text[:400]}"] if finding else []
        finding = judge_box.honest_turn()
        found += [f"after {name}: {finding.kind}: {finding.text[:400]}"] if finding else []
    assert found == []


@pytest.mark.slow
def test_a_short_run_of_hostile_mails_never_crashes_the_judge(judge_box):
    """Seeded: the same 60 mails every time (corpus and mutations), each checked, and an honest turn after
    every third (as fuzz_inputs.py --judge --honest-every 3): a mail that stalled the game is one of the
    three before. The honest turns are most of the cost; the named mails above have one after each."""
    corpus, rng = Corpus(judge_box), random.Random(32)
    found: list[str] = []
    recent: list[bytes] = []
    for count in range(1, 61):
        data = hostile(corpus, rng)
        recent = [*recent[-2:], data]
        finding = judge_box.execute(data)
        if finding is not None:
            found.append(f"{finding.kind}: {finding.text[:400]}\n  the mail: {data[:600]!r}")
        elif count % 3 == 0 and (finding := judge_box.honest_turn()) is not None:
            found.append(f"{finding.kind}: {finding.text[:400]}\n  the mails before: {[m[:300] for m in recent]!r}")
    assert found == [], "\n".join(found)


# ---------------------------------------------------------------- benchmarks/judge_soak.py

def _soak():
    import sys

    sys.path.insert(0, str(BENCHMARKS))
    import judge_soak

    return judge_soak


def test_the_soak_takes_its_sizes_and_a_quick_run_and_refuses_nonsense():
    soak = _soak()
    args = soak.arguments([])
    assert (args.games, args.git_games, args.kills, args.hostile) == (100, 20, 50, 0.1)
    quick = soak.arguments(["--quick", "--games", "7"])
    assert {k: getattr(quick, k) for k in soak.QUICK} == soak.QUICK
    assert soak.arguments(["--games", "3", "--kills", "0", "--git-games", "0"]).games == 3
    for wrong in (["--hostile", "1"], ["--kills", "-1"], ["--minutes", "0"], ["--games", "x"]):
        with pytest.raises(SystemExit):
            soak.arguments(wrong)


@pytest.mark.slow
def test_a_tiny_soak_plays_a_game_by_mail_and_prints_every_figure():
    """Its smallest settings with git (one game each way) take 15-25 s: too long for the suite. A tiny run
    instead: one game by mail, hostile mail among its turns, the judge killed once (about 8 s)."""
    import subprocess
    import sys

    script = BENCHMARKS / "judge_soak.py"
    done = subprocess.run([sys.executable, str(script), "--games", "1", "--git-games", "0", "--kills", "1",
                           "--minutes", "3", "--seed", "2"], capture_output=True, text=True, timeout=300, check=False)
    lines = done.stdout.splitlines()
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.fullmatch(r"judge soak: 1 mail games, 0 git games, 1 kills, at most 3 minutes \(in .+\)", lines[0])
    assert re.fullmatch(r"mail: 1 games of 3 players, \d+ turn mails and \d+ hostile ones to the judge, \d+ mails "
                        r"from it; judge killed 1 times", lines[1])
    assert lines[2] == "git: 0 games, 0 pushes from 3 processes, 0 accepted"
    assert lines[3:7] == ["crashes: 0", "places signed twice: 0", "stuck games: 0", "accepted turns lost: 0"]
    assert re.fullmatch(r"pass time: 99th percentile [0-9.]+ ms, median [0-9.]+ ms, of \d+ passes that did something",
                        lines[7])
    assert re.fullmatch(r"batch time \(a pass reads batches of 16 mails until fewer come\): 99th percentile [0-9.]+ "
                        r"ms, median [0-9.]+ ms, of \d+ batches", lines[8])
    assert re.fullmatch(r"\(\d+ s\)", lines[9])


# ---------------------------------------------------------------- what the harnesses found (fixed since)

@pytest.mark.slow
def test_a_sarcophagus_game_refereed_by_mail_reaches_its_end(tmp_path):
    """Found by `fuzz_inputs.py --judge --game sarcophagus`, with no hostile mail at all: 'judge opens coins:
    ...' in one line, over RFC 5321's 1,000 octets (aiosmtpd: 500 Line too long), so the judge retries the
    mail forever and the game stalls at its end."""
    box = JudgeBox(tmp_path / "judge", game="sarcophagus")
    try:
        assert box.run_pass("the invitation", expect=box.rep.genesis.game_id) is None
        for _ in range(300):
            assert box.honest_turn() is None, box.log[-2:]
            if box.stats.games > 1:
                return  # the first game ended and a second began
        raise AssertionError("the game did not end in 300 turns")
    finally:
        box.close()


def test_a_judge_killed_between_applying_an_invitation_and_learning_its_addresses_still_mails_the_game(tmp_path):
    """Found by benchmarks/judge_soak.py (one game of 100 stuck at its invitation in each full run, the judge
    SIGKILLed just after logging 'applied ... the invitation'): the mail is settled as done in the store,
    _learn runs after, so a kill there leaves no address for the players and the mail is never read again.
    The kill stands here as an exception out of Judge._learn (the judge without [contacts], as judge_load's)."""
    from pbem.judge.service import Judge

    box = JudgeBox(tmp_path / "judge", contacts=False)
    learn = Judge._learn
    try:
        def killed(self, *args):
            raise KeyboardInterrupt("SIGKILL here")

        Judge._learn = killed
        with pytest.raises(KeyboardInterrupt):
            box.judge.once()
        Judge._learn = learn
        box.judge = box._start()  # started again
        assert box.run_pass("after the restart", expect=box.rep.genesis.game_id) is None, box.log[-2:]
    finally:
        Judge._learn = learn
        box.close()
