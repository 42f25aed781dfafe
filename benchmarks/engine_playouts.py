"""Random full-information Sarcophagus games per second of CPU time (one core), for 2, 3 and 4 players:
the engine and a plain model side by side.

    python benchmarks/engine_playouts.py [--seconds 5] [--pure]
    python benchmarks/engine_playouts.py --checksum   # only the checksum of the seeded games
    python benchmarks/engine_playouts.py --soak 300   # that many checked games per configuration

"engine" is driver.random_game, which plays through the lean playout (engine/sarcophagus/playout.py)
and returns the driver with its log and end State; "plain model" is benchmarks/sarc_plain.py, the same
rules written plainly, the yardstick of issue 26 (the engine at least twice as fast). Both play the same
games from the same seeds, and each round measures the two in turn, so that a neighbour's load falls on
both alike. The last rows are the ratio per configuration and over the mix (as many games of each
configuration: the harmonic mean of the rates).

It says which engine it ran (pure Python, or compiled by benchmarks/compile_engine.py; `--pure` runs
the pure modules even where compiled ones are built), and ends with a checksum of a fixed set of seeded
games, every act and outcome: two builds that play alike print the same.

The soak is the long run of tests/engines/test_rules_properties.py and tests/engines/test_playout.py: every invariant
checked at every step of random games, for every player count and option (the test plays 60 per
configuration), and the lean playout playing each game as the rules do act by act.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import sarc_plain
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


def engine(n_players: int, options: Options, rng: random.Random) -> int:
    """One random game by the engine; its acts."""
    return len(random_game(PLAYERS[:n_players], options, rng).log)


def plain(n_players: int, options: Options, rng: random.Random) -> int:
    """The same game by the plain model; its acts."""
    return sarc_plain.random_game(n_players, options.two_player, rng, options.bottom_edge_free).acts


def games_per_second(ways: list[Callable[[int, Options, random.Random], int]], n_players: int, options: Options,
                     seconds: float, rounds: int = 5) -> list[tuple[float, float, float]]:
    """For each way of playing, best and median games per CPU-second over several rounds (the best
    round is the code's own speed: this machine's neighbours come and go), and acts per game. Each
    round plays every way in turn, each from the same seed."""
    rates: list[list[float]] = [[] for _ in ways]
    acts, games = [0] * len(ways), [0] * len(ways)
    for _ in range(rounds):
        for i, way in enumerate(ways):
            rng, count = random.Random(n_players), 0
            start = time.process_time()
            while (elapsed := time.process_time() - start) < seconds / rounds / len(ways):
                acts[i] += way(n_players, options, rng)
                count += 1
            rates[i].append(count / elapsed)
            games[i] += count
    return [(max(r), statistics.median(r), a / g) for r, a, g in zip(rates, acts, games)]


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
    from engine.sarcophagus.driver import random_policy

    from engine_support import CONFIGS, play_checked

    for n_players, options in CONFIGS:
        for seed in range(games):
            game = play_checked(n_players, options, seed, random_policy, look_at_views=seed < 30)
            lean = random_game(PLAYERS[:n_players], options, random.Random(seed))  # by the lean playout
            assert (lean.log, lean.state, lean.values) == (game.log, game.state, game.values), f"game {seed} differs"
        print(f"{n_players} players, {options}: {games} games, every invariant held, the lean playout the same")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per configuration (both ways)")
    parser.add_argument("--soak", type=int, default=0, help="instead, play this many checked games per configuration")
    parser.add_argument("--checksum", action="store_true", help="only the checksum of the seeded games")
    parser.add_argument("--pure", action="store_true", help="the pure engine even where a compiled one is built")
    args = parser.parse_args()
    if args.soak:
        soak(args.soak)
        return
    print(f"engine: {engine_build()}")
    if not args.checksum:
        print(f"{'configuration':<40}{'best games/s':>14}{'median':>8}{'acts/game':>11}")
        engine_rates, plain_rates, ratios = [], [], []
        for n, options, label in CONFIGURATIONS:
            rows = games_per_second([engine, plain], n, options, args.seconds)
            for way, (best, median, acts) in zip(("random", "random, plain model"), rows):
                print(f"{f'{label}, {way}':<40}{best:>14.0f}{median:>8.0f}{acts:>11.0f}")
            engine_rates.append(rows[0][0])
            plain_rates.append(rows[1][0])
            ratios.append(f"{label} {rows[0][0] / rows[1][0]:.2f}")
        mix_engine, mix_plain = statistics.harmonic_mean(engine_rates), statistics.harmonic_mean(plain_rates)
        print(f"mix of the four, as many games of each: {mix_engine:.0f} games/s, plain model {mix_plain:.0f}")
        print(f"engine / plain model, random games: {', '.join(ratios)}, mix {mix_engine / mix_plain:.2f}")
    print(f"checksum of {CHECKED_GAMES} seeded games per configuration and 2 searches: {checksum()}")


if __name__ == "__main__":
    main()
