"""The engine benchmarks still run and print what the README says (their figures are not tested)."""

import os
import random
import re
import subprocess
import sys

import pytest

from paths_support import BENCHMARKS


def run(script: str, *args: str) -> str:
    done = subprocess.run([sys.executable, str(BENCHMARKS / script), *args],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.slow
def test_engine_playouts_prints_the_engine_and_the_plain_model_side_by_side_and_a_checksum():
    lines = run("engine_playouts.py", "--seconds", "0.02", "--pure").splitlines()
    assert lines[0] == "engine: pure Python"
    assert lines[1].split() == ["configuration", "best", "games/s", "median", "acts/game"]
    labels = [re.match(r"(.+?)\s{2,}", line).group(1) for line in lines[2:-3]]
    assert labels == [f"{config}, {way}" for config in ("2 players (pooled)", "2 players (seats)", "3 players",
                                                        "4 players") for way in ("random", "random, plain model")]
    for line in lines[2:-3]:
        best, median, acts = map(int, line.split()[-3:])
        assert best >= median > 0 and 80 < acts < 140
    assert re.fullmatch(r"mix of the four, as many games of each: \d+ games/s, plain model \d+", lines[-3])
    assert re.fullmatch(r"engine / plain model, random games: 2 players \(pooled\) [0-9.]+, 2 players \(seats\) "
                        r"[0-9.]+, 3 players [0-9.]+, 4 players [0-9.]+, mix [0-9.]+", lines[-2])
    assert re.fullmatch(r"checksum of 50 seeded games per configuration and 2 searches: [0-9a-f]{16}", lines[-1])


@pytest.mark.slow
def test_the_plain_model_plays_the_engines_games():
    """benchmarks/sarc_plain.py, the yardstick of the engine's speed, is a model of the same rules: from
    the same seeds it plays the same random games (as many acts) to the same scores and winners, in
    every configuration."""
    sys.path.insert(0, str(BENCHMARKS))
    import sarc_plain

    from engine.sarcophagus.driver import random_game
    from engine.sarcophagus.rules import outcome

    from engine_support import CONFIGS, PLAYERS

    for n, options in CONFIGS:
        players = PLAYERS[n]
        for seed in range(25):
            engine = random_game(players, options, random.Random(seed))
            plain = sarc_plain.random_game(n, options.two_player, random.Random(seed), options.bottom_edge_free)
            result = outcome(engine.state)
            fame, _ = plain.scores()
            assert (dict(zip(players, fame)), [players[p] for p in plain.winners()], plain.acts) == (
                result.scores, list(result.winners), len(engine.log))


FAKE_CALLGRIND = """#!/bin/sh
# Stands in for valgrind (a real count takes ~6 CPU-seconds a game: benchmarks/ is where it runs). It
# runs the command it is given, as callgrind would, and reports 1,000 + 7,000,000 per game played.
[ "$1" = --tool=callgrind ] && [ "$2" = --callgrind-out-file=/dev/null ] || exit 2
shift 2
"$@" || exit 3
echo "==1== Collected : $((1000 + 7000000 * $(echo "$@" | sed 's/.* //')))" >&2
"""


@pytest.mark.slow
def test_engine_instructions_counts_its_own_playouts_under_callgrind(tmp_path):
    """The script hands callgrind itself with --play WORKLOAD N (and N = 0 for the interpreter's own cost)
    for each workload (each game's random games, its plain model's and its search's iterations; Path of
    Pharaohs' by the full rules and the lean playout), and prints the difference per game or iteration;
    without valgrind it says so."""
    fake = tmp_path / "bin" / "valgrind"
    fake.parent.mkdir()
    fake.write_text(FAKE_CALLGRIND)
    fake.chmod(0o755)
    script = [sys.executable, str(BENCHMARKS / "engine_instructions.py"), "--games", "2", "--pure"]
    counted = subprocess.run(script, capture_output=True, text=True, timeout=120, check=False,
                             env={**os.environ, "PATH": f"{fake.parent}{os.pathsep}{os.environ['PATH']}"})
    assert (counted.returncode, counted.stderr) == (0, "")
    assert counted.stdout.splitlines() == [
        f"{name}, pure Python: 7.00 million instructions per {unit} (2 {unit}s, seed 4)" for name, unit in (
            ("Sarcophagus, random games (2, 2, 3, 4 players in turn)", "game"),
            ("Sarcophagus, plain model, the same games", "game"),
            ("Sarcophagus, search, 4 players, mid-game", "iteration"),
            ("Path of Pharaohs, full rules, 4 players", "game"), ("Path of Pharaohs, lean playout, 4 players", "game"),
            ("Path of Pharaohs, plain model, 4 players", "game"),
            ("Path of Pharaohs, search, 4 players, mid-game", "iteration"))]
    missing = subprocess.run(script, capture_output=True, text=True, timeout=120, check=False,
                             env={**os.environ, "PATH": str(tmp_path / "empty")})
    assert (missing.returncode, missing.stdout) == (1, "")
    assert missing.stderr == "Error: valgrind is not installed (Debian: apt install valgrind)\n"


@pytest.mark.slow
def test_bot_strength_prints_a_win_share_with_its_interval():
    lines = run("bot_strength.py", "--games", "2", "--iterations", "3", "--players", "2").splitlines()
    assert lines[0] == "search bot vs greedy, 2 games each, 3 iterations a move, seed 1"
    label, numbers = lines[2][:26].strip(), lines[2][26:].split()
    assert label == "2 players (vs 1 greedy)"
    share, low, dash, high, rate, minutes = numbers
    assert float(share) in (0.0, 0.25, 0.5, 0.75, 1.0) and 0 <= float(low) <= float(share) <= float(high) <= 1
    assert dash == "-" and float(rate) > 0 and float(minutes) >= 0


@pytest.mark.slow
def test_bot_strength_adds_up_the_games_of_runs_split_over_processes(tmp_path):
    logs = []
    for seed in ("1", "2"):
        done = subprocess.run([sys.executable, str(BENCHMARKS / "bot_strength.py"), "--games", "2", "--iterations",
                               "3", "--players", "2", "--seed", seed, "--progress"],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert len(done.stderr.splitlines()) == 2  # a line after each game
        logs.append(tmp_path / f"run-{seed}.log")
        logs[-1].write_text(done.stderr)
    shares = [float(re.search(r"share ([0-9.]+),", line).group(1)) for log in logs for line in log.read_text().splitlines()]
    lines = run("bot_strength.py", "--combine", *map(str, logs)).splitlines()
    assert lines[0].split() == ["configuration", "games", "win", "share", "95%", "interval"]
    assert lines[1].startswith("2 players (vs 1 greedy)")
    games, share = lines[1][26:].split()[:2]
    assert int(games) == 4 and float(share) == round(sum(shares) / 4, 3)
    missing = subprocess.run([sys.executable, str(BENCHMARKS / "bot_strength.py"), "--combine", str(tmp_path / "nope")],
                             capture_output=True, text=True, timeout=60)
    assert (missing.returncode, missing.stderr) == (1, f"Error: cannot read {tmp_path / 'nope'}: No such file or directory\n")
