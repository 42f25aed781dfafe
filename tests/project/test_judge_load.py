"""benchmarks/judge_load.py's open-loop modes still run and print their figures (tiny runs: the figures
themselves are measured by hand, docs/judge.md's Speed section, not tested)."""

import re
import subprocess
import sys

import pytest

from paths_support import BENCHMARKS

pytestmark = pytest.mark.slow

SCRIPT = BENCHMARKS / "judge_load.py"


def run(*args: str) -> str:
    done = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "players' errors" not in done.stdout, done.stdout
    return done.stdout


def test_the_open_loop_load_sets_up_the_games_then_offers_turns_at_a_fixed_rate():
    out = run("--games", "2", "--rate", "4", "--seconds", "0.5")
    assert re.search(r"warm-up: 2 of 2 games owe a player's move after [0-9.]+ s", out), out
    line = re.search(r"offered 2 turns at 4/s for 0.5 s: missed slots (\d+), sent (\d+) .*replies (\d+), "
                     r"unanswered 0; delivery to reply: median [0-9.]+ s, 99th percentile [0-9.]+ s, max [0-9.]+ s; "
                     r"[0-9.]+ turns a second achieved; CPU: players \(this process\) \d+% of a core, judges \d+%; "
                     r"judge's peak memory \(VmHWM\) \d+ MB", out)
    assert line, out
    missed, sent, replies = map(int, line.groups())
    assert missed + sent == 2 and 0 < replies <= sent


def test_the_time_per_turn_by_entry_number_is_printed_for_four_entries():
    out = run("--flat", "--others", "2", "--long", "1", "--until", "30")
    assert re.search(r"3 games hosted by the judge in this process \(1 played to their end\)", out), out
    assert re.search(r"turns of the long games timed, from a checkpoint \(not timed: \d+ the judge.s memory still "
                     r"held\)", out), out
    assert re.search(r"entry 10: \d+ ms .*; entry 50: \d+ ms .*; entry 100: \d+ ms .*; entry 150: \d+ ms", out), out


def test_two_judges_on_postgresql_one_killed_sign_no_place_twice_and_lose_no_turn(postgres):
    """The mode runs and prints every figure, on a database of the session's cluster (the claim itself, two
    judges and kills at random, is tests/judge/test_judge_several.py's): one kill, two slots a round."""
    out = run("--games", "2", "--rate", "4", "--seconds", "0.5", "--database", "postgresql", "--judges", "2",
              "--kill-every", "0.25", "--saturate", "4", "--saturate-seconds", "0.5",
              "--database-url", postgres.new_database())
    line = re.search(r"2 judges on postgresql, one killed every 0.25 s \((\d+) kills\) .*places signed twice: 0 of (\d+); "
                     r"turns lost: 0 of (\d+) \(0 not in the database\); throughput at an offered 4/s: 2 judges [0-9.]+ "
                     r"turns/s, 1 judge [0-9.]+ turns/s; peak memory per judge \(VmHWM\) \d+ MB", out)
    assert line, out
    kills, places, sent = map(int, line.groups())
    assert kills == 1 and places > 0 and sent > 0
