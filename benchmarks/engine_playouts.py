"""Random full-information Sarcophagus games per second of CPU time (one core), for 2, 3 and 4 players.

    python benchmarks/engine_playouts.py [--seconds 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from engine.sarcophagus.driver import random_game
from engine.sarcophagus.state import Options

PLAYERS = ["ann", "ben", "cat", "dan"]


def games_per_second(n_players: int, options: Options, seconds: float, rounds: int = 5):
    """Best and median games per CPU-second over several rounds: this machine's neighbours come and go,
    and the best round is the code's own speed."""
    rng = random.Random(n_players)
    rates, acts, games = [], 0, 0
    for _ in range(rounds):
        count = 0
        start = time.process_time()
        while (elapsed := time.process_time() - start) < seconds / rounds:
            acts += len(random_game(PLAYERS[:n_players], options, rng).log)
            count += 1
        rates.append(count / elapsed)
        games += count
    return max(rates), statistics.median(rates), acts / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per configuration")
    args = parser.parse_args()
    print(f"{'configuration':<24}{'best games/s':>14}{'median':>8}{'acts/game':>11}")
    for n, options, label in [(2, Options("pooled"), "2 players (pooled)"), (2, Options("seats"), "2 players (seats)"),
                              (3, Options(), "3 players"), (4, Options(), "4 players")]:
        best, median, acts = games_per_second(n, options, args.seconds)
        print(f"{label:<24}{best:>14.0f}{median:>8.0f}{acts:>11.0f}")


if __name__ == "__main__":
    main()
