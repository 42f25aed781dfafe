"""benchmarks/pop_playouts.py still runs and prints a row per configuration (its figures are not tested)."""

import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).parent.parent / "benchmarks" / "pop_playouts.py"


def test_pop_playouts_prints_a_row_per_player_count_and_policy_and_a_checksum():
    done = subprocess.run([sys.executable, str(SCRIPT), "--seconds", "0.05", "--pure"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "engine: pure Python"
    assert lines[1].split() == ["configuration", "best", "games/s", "median", "acts/game"]
    labels = [re.match(r"(.+?)\s{2,}", line).group(1) for line in lines[2:-1]]
    assert labels == [f"{n} players ({policy})" for n in (3, 4, 6) for policy in ("random", "greedy")]
    for line in lines[2:-1]:
        best, median, acts = map(int, line.split()[-3:])
        assert best >= median > 0 and 50 < acts < 1000
    assert re.fullmatch(r"checksum of 20 seeded games per player count and policy: [0-9a-f]{16}", lines[-1])


def test_pop_soak_plays_checked_games_to_their_end():
    done = subprocess.run([sys.executable, str(SCRIPT), "--soak", "2"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["configuration", "games", "to", "13", "stalled", "max", "acts"]
    assert len(lines) == 9
    for line in lines[1:]:
        games, won, stalled, longest = map(int, line.split()[-4:])
        assert games == 2 and won + stalled == 2 and longest > 50
