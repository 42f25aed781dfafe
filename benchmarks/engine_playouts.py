"""Random full-information Sarcophagus games per second of CPU time (one core), for 2, 3 and 4 players.

    python benchmarks/engine_playouts.py [--seconds 5]
"""

from __future__ import annotations

import argparse
import random
import time

from engine.sarcophagus.driver import random_game
from engine.sarcophagus.state import Options

PLAYERS = ["ann", "ben", "cat", "dan"]


def games_per_second(n_players: int, options: Options, seconds: float) -> tuple[float, float]:
    rng = random.Random(n_players)
    games = acts = 0
    start = time.process_time()  # CPU time of this process: games per second on one core
    while (elapsed := time.process_time() - start) < seconds:
        acts += len(random_game(PLAYERS[:n_players], options, rng).log)
        games += 1
    return games / elapsed, acts / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per configuration")
    args = parser.parse_args()
    print(f"{'configuration':<24}{'games/s':>10}{'acts/game':>11}")
    for n, options, label in [(2, Options("pooled"), "2 players (pooled)"), (2, Options("seats"), "2 players (seats)"),
                              (3, Options(), "3 players"), (4, Options(), "4 players")]:
        rate, acts = games_per_second(n, options, args.seconds)
        print(f"{label:<24}{rate:>10.0f}{acts:>11.0f}")


if __name__ == "__main__":
    main()
