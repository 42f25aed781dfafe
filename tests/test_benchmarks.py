"""The engine benchmarks still run and print what the README says (their figures are not tested)."""

import re
import subprocess
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).parent.parent / "benchmarks"


def run(script: str, *args: str) -> str:
    done = subprocess.run([sys.executable, str(BENCHMARKS / script), *args],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_engine_playouts_prints_a_row_per_configuration():
    lines = run("engine_playouts.py", "--seconds", "0.1").splitlines()
    assert lines[0].split() == ["configuration", "best", "games/s", "median", "acts/game"]
    labels = [re.match(r"(.+?)\s{2,}", line).group(1) for line in lines[1:]]
    assert labels == ["2 players (pooled)", "2 players (seats)", "3 players", "4 players"]
    for line in lines[1:]:
        best, median, acts = map(int, line.split()[-3:])
        assert best >= median > 0 and 80 < acts < 140


def test_engine_instructions_plays_its_games_under_valgrind_by_the_same_script():
    # the counted run is the script itself with --play; without valgrind it is a plain playout
    assert run("engine_instructions.py", "--play", "2") == ""


def test_bot_strength_prints_a_win_share_with_its_interval():
    lines = run("bot_strength.py", "--games", "2", "--iterations", "3", "--players", "2").splitlines()
    assert lines[0] == "search bot vs greedy, 2 games each, 3 iterations a move, seed 1"
    label, numbers = lines[2][:26].strip(), lines[2][26:].split()
    assert label == "2 players (vs 1 greedy)"
    share, low, dash, high, rate, minutes = numbers
    assert float(share) in (0.0, 0.25, 0.5, 0.75, 1.0) and 0 <= float(low) <= float(share) <= float(high) <= 1
    assert dash == "-" and float(rate) > 0 and float(minutes) >= 0
