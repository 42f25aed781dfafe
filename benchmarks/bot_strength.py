"""How strong the search bot is: its win rate against greedy players, and its iterations per second.

    python benchmarks/bot_strength.py [--games 400] [--think 1.0 | --iterations N] [--players 2 4]

Plays full-information games (engine/sarcophagus/driver.py) where one seat is the search bot
(engine/sarcophagus/search.py, given only its own knowledge) and the others play greedy; the bot
takes each seat in turn as first player. A shared win counts as a fraction. Prints the win rate with
a 95% interval (normal approximation over per-game shares) and the search's iterations per CPU-second
in mid-game (moves made while 8 to 15 tiles remain in the pyramid). On a shared machine prefer
--iterations: --think is wall-clock time, and neighbours take some of it. The issue's full run is
`--games 400 --think 1.0` for 2 and 4 players: 400 x 42 moves x 1 s with 2 players and 400 x 21 with
4, about seven hours of one core. Runs with different seeds play different games, so the cores of a
machine can share the games, and a run stopped early still counts the games it finished:

    python benchmarks/bot_strength.py --players 2 --seed 1 --progress 2> two-1.log &
    python benchmarks/bot_strength.py --players 2 --seed 2 --progress 2> two-2.log &
    python benchmarks/bot_strength.py --combine two-1.log two-2.log
"""

from __future__ import annotations

import argparse
import math
import random
import re
import sys
import time
from typing import Any

from engine.sarcophagus.driver import FullInformation, deal, greedy_policy
from engine.sarcophagus.rules import outcome
from engine.sarcophagus.search import choose
from engine.sarcophagus.state import Options

OPPONENTS = ["greedy1", "greedy2", "greedy3"]


class MeasuredSearch:
    """The search as a policy, remembering iterations and time spent on mid-game moves."""

    def __init__(self, think: float | None, iterations: int | None):
        self.think, self.iterations = think, iterations
        self.mid_iterations, self.mid_seconds = 0, 0.0

    def __call__(self, state, actor, actions, rng, known):
        if len(actions) == 1:
            return actions[0]
        cpu = time.process_time()
        result = choose(state, actor, known, rng, self.think, self.iterations)
        if 8 <= bin(state.present).count("1") <= 15:
            self.mid_iterations += result.iterations
            self.mid_seconds += time.process_time() - cpu  # CPU time: the machine is shared
        return result.action


def play(n_players: int, games: int, bot: MeasuredSearch, seed: int, progress: bool = False) -> list[float]:
    """The bot's share of the win in each game; with `progress`, a line on stderr after each game (a run
    at the default budget takes hours: its figures so far are worth reading)."""
    rng = random.Random(seed)
    shares: list[float] = []
    for k in range(games):
        players = ["mcts"] + OPPONENTS[:n_players - 1]
        game = FullInformation(Options(), players, deal(rng), players[k % n_players])
        game.play({p: bot if p == "mcts" else greedy_policy for p in players}, rng)
        winners = outcome(game.state).winners
        shares.append(1 / len(winners) if "mcts" in winners else 0.0)
        if progress:
            print_progress(n_players, games, shares, bot)
    return shares


def print_progress(n_players: int, games: int, shares: list[float], bot: Any) -> None:
    """The line on stderr after each game of a --progress run (this one's and pop_bot_strength.py's),
    which --combine reads."""
    mean, low, high = interval(shares)
    print(f"{n_players} players: game {len(shares)}/{games}, share {shares[-1]:.2f}, so far {mean:.3f} "
          f"({low:.3f} - {high:.3f}), {iterations_per_second(bot):.0f} iterations/s", file=sys.stderr, flush=True)


def interval(shares: list[float]) -> tuple[float, float, float]:
    """Mean and its 95% interval (normal approximation)."""
    n = len(shares)
    mean = sum(shares) / n
    variance = sum((x - mean) ** 2 for x in shares) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(variance / n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def label(n_players: int) -> str:
    return f"{n_players} players (vs {n_players - 1} greedy)"


def share_columns(shares: list[float]) -> str:
    """The win share and its interval as the tables print them (this one and pop_bot_strength.py's)."""
    mean, low, high = interval(shares)
    return f"{mean:>10.3f}{f'{low:.3f} - {high:.3f}':>18}"


def iterations_per_second(bot: Any) -> float:
    """The mid-game search speed a MeasuredSearch (of either game) has seen, per CPU-second."""
    return float(bot.mid_iterations / bot.mid_seconds) if bot.mid_seconds else 0.0


PROGRESS_LINE = re.compile(r"^(\d) players: game \d+/\d+, share ([0-9.]+),")


def combine(logs: list[str]) -> None:
    """The win share over every game that the --progress lines of these logs report, per player count."""
    shares: dict[int, list[float]] = {}
    for log in logs:
        try:
            with open(log, encoding="utf-8") as lines:
                for line in lines:
                    found = PROGRESS_LINE.match(line)
                    if found:
                        shares.setdefault(int(found.group(1)), []).append(float(found.group(2)))
        except (OSError, UnicodeDecodeError) as exc:
            sys.exit(f"Error: cannot read {log}: {exc.strerror if isinstance(exc, OSError) else 'not text'}")
    if not shares:
        sys.exit(f"Error: no progress lines in {', '.join(logs)}")
    print(f"{'configuration':<26}{'games':>6}{'win share':>10}{'95% interval':>18}")
    for n, played in sorted(shares.items()):
        print(f"{label(n):<26}{len(played):>6}{share_columns(played)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per configuration")
    parser.add_argument("--think", type=float, default=1.0, help="seconds a move (the default budget)")
    parser.add_argument("--iterations", type=int, help="iterations a move instead of --think")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4], choices=[2, 3, 4])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--progress", action="store_true", help="a line on stderr after each game")
    parser.add_argument("--combine", nargs="+", metavar="LOG", help="only add up the games of these --progress logs")
    args = parser.parse_args()
    if args.combine:
        combine(args.combine)
        return
    budget = f"{args.iterations} iterations" if args.iterations else f"{args.think} s"
    print(f"search bot vs greedy, {args.games} games each, {budget} a move, seed {args.seed}")
    print(f"{'configuration':<26}{'win share':>10}{'95% interval':>18}{'iterations/s':>14}{'minutes':>9}")
    for n in args.players:
        bot = MeasuredSearch(None if args.iterations else args.think, args.iterations)
        start = time.perf_counter()
        shares = play(n, args.games, bot, args.seed, args.progress)
        print(f"{label(n):<26}{share_columns(shares)}{iterations_per_second(bot):>14.0f}"
              f"{(time.perf_counter() - start) / 60:>9.1f}", flush=True)


if __name__ == "__main__":
    main()
