"""Random full-information Sarcophagus games per second of CPU time (one core), for 2, 3 and 4 players.

    python benchmarks/engine_playouts.py [--seconds 5] [--pure]
    python benchmarks/engine_playouts.py --checksum   # only the checksum of the seeded games
    python benchmarks/engine_playouts.py --soak 300   # that many checked games per configuration

It says which engine it ran (pure Python, or compiled by benchmarks/compile_engine.py; `--pure` runs
the pure modules even where compiled ones are built), and ends with a checksum of a fixed set of seeded
games, every act and outcome: two builds that play alike print the same.

The soak is the long run of tests/test_rules_properties.py: every invariant checked at every step of
random games, for every player count and option (the test plays 60 per configuration).
"""

from __future__ import annotations

import argparse
import hashlib
import random
import statistics
import sys
import time
from pathlib import Path

from compile_engine import engine_build, prefer_pure_engine

if "--pure" in sys.argv[1:]:
    prefer_pure_engine()  # before the engine's first import

from engine.sarcophagus.driver import FullInformation, deal, greedy_policy, random_game
from engine.sarcophagus.rules import outcome
from engine.sarcophagus.search import SearchPolicy
from engine.sarcophagus.state import Options

PLAYERS = ["ann", "ben", "cat", "dan"]
CONFIGURATIONS = [(2, Options("pooled"), "2 players (pooled)"), (2, Options("seats"), "2 players (seats)"),
                  (3, Options(), "3 players"), (4, Options(), "4 players")]
CHECKED_GAMES = 50
SEARCH_ITERATIONS = 10


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


def checksum(games: int = CHECKED_GAMES) -> str:
    """A digest of `games` seeded random games per configuration, and of one game per player count in
    which the search bot (SEARCH_ITERATIONS a move) plays greedy players: every act with its private
    values, and the scores."""
    digest = hashlib.sha256()
    for n_players, options, _ in CONFIGURATIONS:
        for seed in range(games):
            game = random_game(PLAYERS[:n_players], options, random.Random(seed))
            digest.update(repr((game.log, outcome(game.state))).encode())
    for n_players in (2, 4):
        rng, players = random.Random(n_players), PLAYERS[:n_players]
        game = FullInformation(Options(), players, deal(rng), players[0])
        game.play({p: SearchPolicy(None, SEARCH_ITERATIONS) if p == players[0] else greedy_policy for p in players}, rng)
        digest.update(repr((game.log, outcome(game.state))).encode())
    return digest.hexdigest()[:16]


def soak(games: int) -> None:
    """Play `games` checked random games per configuration of the property test; print the count."""
    sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))
    from test_rules_properties import CONFIGS, play_checked

    from engine.sarcophagus.driver import random_policy

    for n_players, options in CONFIGS:
        for seed in range(games):
            play_checked(n_players, options, seed, random_policy, look_at_views=seed < 30)
        print(f"{n_players} players, {options}: {games} games, every invariant held")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per configuration")
    parser.add_argument("--soak", type=int, default=0, help="instead, play this many checked games per configuration")
    parser.add_argument("--checksum", action="store_true", help="only the checksum of the seeded games")
    parser.add_argument("--pure", action="store_true", help="the pure engine even where a compiled one is built")
    args = parser.parse_args()
    if args.soak:
        soak(args.soak)
        return
    print(f"engine: {engine_build()}")
    if not args.checksum:
        print(f"{'configuration':<24}{'best games/s':>14}{'median':>8}{'acts/game':>11}")
        for n, options, label in CONFIGURATIONS:
            best, median, acts = games_per_second(n, options, args.seconds)
            print(f"{label:<24}{best:>14.0f}{median:>8.0f}{acts:>11.0f}")
    print(f"checksum of {CHECKED_GAMES} seeded games per configuration and 2 searches: {checksum()}")


if __name__ == "__main__":
    main()
