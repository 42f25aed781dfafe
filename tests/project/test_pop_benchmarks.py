"""benchmarks/pop_playouts.py and pop_bot_strength.py still run and print a row per configuration (their
figures are not tested)."""

import random
import re
import subprocess
import sys

import pytest

from paths_support import BENCHMARKS

SCRIPT = BENCHMARKS / "pop_playouts.py"


def has_commit(revision: str) -> bool:
    return subprocess.run(["git", "-C", str(SCRIPT.parent), "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}"],
                          capture_output=True).returncode == 0


HISTORY = has_commit("c988bcb")


def rows_and_checksum(lines: list[str], rows: list[str]) -> None:
    """What every run of pop_playouts.py prints: the engine, the table's rows in order with sane figures,
    the ratios to the plain model and the seeded games' checksum, the same by both ways of playing."""
    assert lines[0] == "engine: pure Python"
    assert lines[1].split() == ["configuration", "best", "games/s", "median", "acts/game"]
    assert [re.match(r"(.+?)\s{2,}", line).group(1) for line in lines[2:2 + len(rows)]] == rows
    for line in lines[2:2 + len(rows)]:
        best, median, acts = map(int, line.split()[-3:])
        assert best >= median > 0 and 50 < acts < 1000
    for way, line in zip(("full rules", "lean playout"), lines[2 + len(rows):4 + len(rows)]):
        assert re.fullmatch(rf"{way} / plain model, random games: 3 players [0-9.]+, 4 players [0-9.]+, "
                            r"6 players [0-9.]+", line)
    found = re.fullmatch(r"checksum of 20 seeded games per player count and policy: ([0-9a-f]{16}) \(full rules\), "
                         r"([0-9a-f]{16}) \(the random ones by the lean playout\)", lines[-1])
    assert found and found.group(1) == found.group(2)


@pytest.mark.skipif(HISTORY, reason="the --then run below prints all of this too, and is checked for it")
@pytest.mark.slow
def test_pop_playouts_prints_a_row_per_player_count_and_policy_and_a_checksum():
    done = subprocess.run([sys.executable, str(SCRIPT), "--seconds", "0.02", "--pure"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 2 + 12 + 3
    rows_and_checksum(lines, [f"{n} players ({way})" for n in (3, 4, 6)
                              for way in ("random", "random, lean", "random, plain model", "greedy")])


@pytest.mark.skipif(not HISTORY, reason="needs the repository's history (a git clone)")
@pytest.mark.slow
def test_the_engine_of_issue_26s_day_plays_beside_todays_and_the_aims_are_printed():
    """--then plays the full rules of a past commit in a child process, row by row beside today's, and
    prints today's speed against it: for issue 26's commit, with the issue's aims. Everything a run without
    --then prints is printed and checked here too."""
    done = subprocess.run([sys.executable, str(SCRIPT), "--seconds", "0.02", "--pure", "--then", "issue-26"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 2 + 15 + 6
    rows_and_checksum([*lines[:-4], lines[-1]], [f"{n} players ({way})" for n in (3, 4, 6) for way in
                      ("random", "random, lean", "random, plain model", "random, engine of c988bcb", "greedy")])
    then = [line for line in lines if "engine of c988bcb)" in line]
    assert all(50 < int(line.split()[-1]) < 1000 for line in then)  # its games were played: acts per game
    number = r"[0-9]+\.[0-9]{2}"
    assert re.fullmatch(rf"full rules / plain model, random games: 3 players {number}, 4 players {number}, "
                        rf"6 players {number}", lines[-6])  # the aims are against the engine of that day only
    assert re.fullmatch(rf"full rules / engine of c988bcb, random games: 3 players {number} \(aim 3\.13\), "
                        rf"4 players {number} \(aim 3\.06\), 6 players {number}", lines[-4])
    assert re.fullmatch(rf"lean playout / engine of c988bcb, random games: 3 players {number}, "
                        rf"4 players {number} \(aim 8\.16\), 6 players {number}", lines[-3])
    quartiles = rf"({number}) \(({number})-({number})\)"
    paired = re.fullmatch(rf"full rules / engine of c988bcb in 20 paired rounds, median \(quartiles\), random games: "
                          rf"3 players {quartiles} \(aim 3\.13\), 4 players {quartiles} \(aim 3\.06\), "
                          rf"6 players {quartiles}", lines[-2])
    assert paired is not None, lines[-2]
    for n in range(3):  # each median lies between its quartiles
        low, median, high = (float(paired.group(3 * n + k)) for k in (2, 1, 3))
        assert 0 < low <= median <= high


@pytest.mark.slow
def test_a_commit_that_does_not_exist_is_one_error_line_before_any_figure():
    done = subprocess.run([sys.executable, str(SCRIPT), "--then", "no-such-commit"], capture_output=True, text=True,
                          timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (
        1, "", "Error: 'no-such-commit' is not a commit of this repository\n")


@pytest.mark.slow
def test_the_plain_model_plays_the_engines_games():
    """benchmarks/pop_plain.py, the yardstick of the engine's speed, is a model of the same rules: from
    the same seeds it plays the same random games to the same end."""
    sys.path.insert(0, str(SCRIPT.parent))
    import pop_plain

    from engine.path_of_pharaohs.driver import random_game
    from engine.path_of_pharaohs.state import Options

    for n in (3, 4, 6):
        for seed in range(10):
            engine = random_game(["ann", "ben", "cat", "dan", "eve", "fay"][:n], Options(), random.Random(seed))
            plain = pop_plain.random_game(n, random.Random(seed))
            assert (plain.location, plain.winners, plain.acts) == (
                list(engine.state.location), list(engine.state.winners), len(engine.log))


@pytest.mark.slow
def test_pop_soak_plays_checked_games_to_their_end():
    done = subprocess.run([sys.executable, str(SCRIPT), "--soak", "2"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["configuration", "games", "to", "13", "stalled", "max", "acts"]
    assert len(lines) == 9
    for line in lines[1:]:
        games, won, stalled, longest = map(int, line.split()[-4:])
        assert games == 2 and won + stalled == 2 and longest > 50


@pytest.mark.slow
def test_pop_bot_strength_prints_a_win_share_with_its_interval():
    script = BENCHMARKS / "pop_bot_strength.py"
    done = subprocess.run([sys.executable, str(script), "--games", "2", "--iterations", "3", "--players", "3"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "search bot vs greedy, 2 games each, 3 iterations an act, greedy playouts, seed 1"
    label, numbers = lines[2][:26].strip(), lines[2][26:].split()
    assert label == "3 players (vs 2 greedy)"
    share, low, dash, high, fair, rate, minutes = numbers
    assert 0 <= float(low) <= float(share) <= float(high) <= 1  # a shared win counts a fraction
    assert dash == "-" and fair == "0.333" and float(rate) > 0 and float(minutes) >= 0
