"""Machine instructions per random 4-player game of each game, counted by valgrind's callgrind: the
same figure on every run, whatever else the machine is doing, so two versions of the engine compare
exactly (games per second on a shared machine move by several percent from run to run).

    python benchmarks/engine_instructions.py [--games 200] [--pure] [--only sarcophagus|pop|pop-lean]

Counts Sarcophagus (driver.random_game, through its lean playout), Path of Pharaohs's full rules (the
driver act by act: duties, legal acts, a policy, apply) and its lean playout, the same seeded games.
Needs valgrind on PATH. For each, runs the interpreter twice (with no game, then with --games games)
and prints the difference per game; about a minute in all. It counts the engine that Python imports:
the compiled one where benchmarks/compile_engine.py built it, unless `--pure`.
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

PLAYERS = ["ann", "ben", "cat", "dan"]
WORKLOADS = {"sarcophagus": "Sarcophagus", "pop": "Path of Pharaohs, full rules",
             "pop-lean": "Path of Pharaohs, lean playout"}


def play(workload: str, games: int) -> None:
    """`games` seeded random 4-player games (the modules imported even for none)."""
    rng = random.Random(4)
    if workload == "sarcophagus":
        from engine.sarcophagus.driver import random_game
        from engine.sarcophagus.state import Options
        for _ in range(games):
            random_game(PLAYERS, Options(), rng)
        return
    from engine.path_of_pharaohs.driver import FullInformation, random_policy, shuffled_deck
    from engine.path_of_pharaohs.state import Options as PopOptions
    policies = dict.fromkeys(PLAYERS, random_policy)
    for _ in range(games):
        game = FullInformation(PopOptions(), PLAYERS, shuffled_deck(PopOptions(), rng), rng.choice(PLAYERS), rng)
        if workload == "pop":
            game.play(policies, rng, report=False)
        else:
            game.play_at_random()


def instructions(workload: str, games: int, pure: bool) -> int:
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, __file__]
        + ["--pure"] * pure + ["--play", workload, str(games)],
        capture_output=True, text=True, check=True)
    found = re.search(r"Collected : (\d+)", run.stderr)
    if not found:
        sys.exit(f"Error: no instruction count in valgrind's output:\n{run.stderr[-2000:]}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games to count over (the same seed each time)")
    parser.add_argument("--pure", action="store_true", help="the pure engine even where a compiled one is built")
    parser.add_argument("--only", choices=sorted(WORKLOADS), help="count only this one")
    parser.add_argument("--play", nargs=2, metavar=("WORKLOAD", "GAMES"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.play is not None:
        play(args.play[0], int(args.play[1]))
        return
    if not shutil.which("valgrind"):
        sys.exit("Error: valgrind is not installed (Debian: apt install valgrind)")
    for workload, name in WORKLOADS.items():
        if args.only in (None, workload):
            per_game = (instructions(workload, args.games, args.pure) - instructions(workload, 0, args.pure)) / args.games
            print(f"{name}, 4 players, {engine_build()}: {per_game / 1e6:.2f} million instructions per game "
                  f"({args.games} games, seed 4)", flush=True)


if __name__ == "__main__":
    main()
