"""Random full-information Path of Pharaohs games per second of CPU time (one core), for 3, 4 and 6 players.

    python benchmarks/pop_playouts.py [--seconds 5] [--pure]
    python benchmarks/pop_playouts.py --checksum    # only the checksum of the seeded games
    python benchmarks/pop_playouts.py --soak 1000   # that many checked games per player count and policy

Like engine_playouts.py, it says which engine it ran (`--pure`: the pure modules even where compiled
ones are built) and ends with a checksum of seeded games: two builds that play alike print the same.

The soak is the long run of tests/test_pop_properties.py: every card accounted for at every step,
markers on the path, and every game ends.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import statistics
import sys
import time

from compile_engine import engine_build, prefer_pure_engine

if "--pure" in sys.argv[1:]:
    prefer_pure_engine()  # before the engine's first import

from engine.path_of_pharaohs.driver import FullInformation, greedy_policy, random_game, random_policy, shuffled_deck
from engine.path_of_pharaohs.rules import card_total, duties, outcome
from engine.path_of_pharaohs.state import Options

PLAYERS = ["ann", "ben", "cat", "dan", "eve", "fay"]
CHECKED_GAMES = 20


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


def checksum(games: int = CHECKED_GAMES) -> str:
    """A digest of `games` seeded games per player count and policy: every act, and the outcome."""
    digest = hashlib.sha256()
    for n in (3, 4, 6):
        for policy in (random_policy, greedy_policy):
            for seed in range(games):
                game = random_game(PLAYERS[:n], Options(), random.Random(seed), policy)
                digest.update(repr((game.log, outcome(game.state))).encode())
    return digest.hexdigest()[:16]


def soak(games: int) -> None:
    """Play `games` checked games per configuration; print how they ended."""
    print(f"{'configuration':<24}{'games':>8}{'to 13':>8}{'stalled':>9}{'max acts':>10}")
    for n in (3, 4, 5, 6):
        for policy, label in ((random_policy, "random"), (greedy_policy, "greedy")):
            ends, longest = {"alexandria": 0, "stalled": 0}, 0
            for seed in range(games):
                rng, players = random.Random(seed), PLAYERS[:n]
                game = FullInformation(Options(), players, shuffled_deck(Options(), rng), rng.choice(players), rng)
                policies = dict.fromkeys(players, policy)
                for _ in range(100_000):
                    s = game.state
                    assert card_total(s) == s.table.options.deck_size, f"game {seed}: a card lost"
                    assert s.deck == len(game.deck) and min(s.location) >= 0 and max(s.location) <= 13
                    if not duties(s):
                        break
                    game.step(policies, rng)
                else:
                    raise AssertionError(f"game {seed} with {n} players did not end")
                ends[outcome(game.state).how] += 1
                longest = max(longest, len(game.log))
            print(f"{f'{n} players ({label})':<24}{games:>8}{ends['alexandria']:>8}{ends['stalled']:>9}{longest:>10}")


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
        for n in (3, 4, 6):
            for policy, label in ((random_policy, "random"), (greedy_policy, "greedy")):
                best, median, acts = games_per_second(n, policy, args.seconds)
                print(f"{f'{n} players ({label})':<24}{best:>14.0f}{median:>8.0f}{acts:>11.0f}")
    print(f"checksum of {CHECKED_GAMES} seeded games per player count and policy: {checksum()}")


if __name__ == "__main__":
    main()
