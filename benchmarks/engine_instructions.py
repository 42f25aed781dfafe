"""Machine instructions per random 4-player game, counted by valgrind's callgrind: the same figure on
every run, whatever else the machine is doing, so two versions of the engine compare exactly (games
per second on a shared machine move by several percent from run to run).

    python benchmarks/engine_instructions.py [--games 200] [--pure]

Needs valgrind on PATH. Runs the interpreter twice (with no game, then with --games games) and
prints the difference per game; about half a minute. It counts the engine that Python imports: the
compiled one where benchmarks/compile_engine.py built it, unless `--pure`.
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import subprocess
import sys

from compile_engine import engine_build, prefer_pure_engine

if "--pure" in sys.argv[1:]:
    prefer_pure_engine()  # before the engine's first import

from engine.sarcophagus.driver import random_game
from engine.sarcophagus.state import Options

PLAYERS = ["ann", "ben", "cat", "dan"]


def play(games: int) -> None:
    rng = random.Random(4)
    for _ in range(games):
        random_game(PLAYERS, Options(), rng)


def instructions(games: int, pure: bool) -> int:
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, __file__]
        + ["--pure"] * pure + ["--play", str(games)],
        capture_output=True, text=True, check=True)
    found = re.search(r"Collected : (\d+)", run.stderr)
    if not found:
        sys.exit(f"Error: no instruction count in valgrind's output:\n{run.stderr[-2000:]}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games to count over (the same seed each time)")
    parser.add_argument("--pure", action="store_true", help="the pure engine even where a compiled one is built")
    parser.add_argument("--play", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.play is not None:
        play(args.play)
        return
    if not shutil.which("valgrind"):
        sys.exit("Error: valgrind is not installed (Debian: apt install valgrind)")
    per_game = (instructions(args.games, args.pure) - instructions(0, args.pure)) / args.games
    print(f"4 players, {engine_build()}: {per_game / 1e6:.2f} million instructions per game "
          f"({args.games} games, seed 4)")


if __name__ == "__main__":
    main()
