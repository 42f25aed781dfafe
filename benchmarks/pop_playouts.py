"""Random full-information Path of Pharaohs games per second of CPU time (one core), for 3, 4 and 6 players.

    python benchmarks/pop_playouts.py [--seconds 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from engine.path_of_pharaohs.driver import greedy_policy, random_game, random_policy
from engine.path_of_pharaohs.state import Options

PLAYERS = ["ann", "ben", "cat", "dan", "eve", "fay"]


def games_per_second(n_players: int, policy, seconds: float, rounds: int = 5):
    """Best and median games per CPU-second over several rounds (the best round is the code's own
    speed: this machine's neighbours come and go), and acts per game (the dealer's included)."""
    rng = random.Random(n_players)
    rates, acts, games = [], 0, 0
    for _ in range(rounds):
        count = 0
        start = time.process_time()
        while (elapsed := time.process_time() - start) < seconds / rounds:
            acts += len(random_game(PLAYERS[:n_players], Options(), rng, policy).log)
            count += 1
        rates.append(count / elapsed)
        games += count
    return max(rates), statistics.median(rates), acts / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per configuration")
    args = parser.parse_args()
    print(f"{'configuration':<24}{'best games/s':>14}{'median':>8}{'acts/game':>11}")
    for n in (3, 4, 6):
        for policy, label in ((random_policy, "random"), (greedy_policy, "greedy")):
            best, median, acts = games_per_second(n, policy, args.seconds)
            print(f"{f'{n} players ({label})':<24}{best:>14.0f}{median:>8.0f}{acts:>11.0f}")


if __name__ == "__main__":
    main()
