"""How strong the Path of Pharaohs search bot is: its win share against greedy players, and its
iterations per second.

    python benchmarks/pop_bot_strength.py [--games 60] [--iterations 100 | --think 1.0] [--players 3 4]
                                          [--playout greedy|random] [--exploration 0.7] [--progress-weight 0]
                                          [--seed 1] [--progress]

Plays full-information games (engine/path_of_pharaohs/driver.py) where one seat is the search bot
(engine/path_of_pharaohs/search.py, handed only its own cards) and the others play greedy; the bot
takes each seat in turn, and each player begins in turn. The seat matters: greedy players aim their
action cards at the leader and, all being level, at the lowest seat, so in all-greedy games seat 1 of 3
wins 19% and seat 1 of 4 wins 5% (300 games each). A shared win counts as a fraction; a fair share is
1/players.
Prints the win share with a 95% interval (normal approximation over per-game shares) and the
search's iterations per CPU-second in mid-game (acts chosen while the leader is on locations 4 to 9).
The default budget is a fixed number of iterations, so that the results do not depend on the load of
this shared machine; --think is wall-clock time instead. A run at the bot's own budget (--think 1.0)
takes hours: --progress prints a line on stderr after each game, and runs with different --seeds
on several cores add up with `python benchmarks/bot_strength.py --combine LOG...`. --exploration and
--progress-weight try the search's Tuning (UCB's constant; a reward graded by the final location).

Measured on 25 November 2026 (issue 26), on the 2-core machine shared by five, runs niced:
- Speed: mid-game, about 1,000 iterations per CPU-second with 3 players and 700 with 4 (greedy
  playouts, the default; 760-800 and 600-640 while the machine ran at a load of 10-14). So the bot's
  budget of 1 s a move on a quiet core is `--iterations 1000` with 3 players and `--iterations 700`
  with 4, and a game at that budget costs about 21 CPU-seconds (3 players) or 18 (4): 200 games of
  each is two CPU-hours, more than that session could give (niced, a run got a tenth of a core).
  Random playouts by the lean playout (`--playout random`) ran about 1,800 iterations a second.
- At that budget (seeds 1, 2 and 3, their logs added up with `bot_strength.py --combine`; the aims are
  0.55 and 0.45): 0.657 (0.591 - 0.723) of 201 three-player games and 0.500 (0.433 - 0.567) of 218
  four-player games. Seed 3's runs, on a quiet core, searched 1,030-1,070 and 780-800 iterations a
  second mid-game.
- Since 27 November the greedy playouts go by the lean greedy playout (engine/path_of_pharaohs/
  lean_greedy.py), which makes the acts and the draws greedy makes act by act through the full rules:
  every search at a given number of iterations is as it was (tests/engines/test_pop_search.py), so the shares
  above stand for those numbers of iterations, and an iteration costs a third: callgrind counts 20.9
  -> 7.1 M instructions (4 players, mid-game). Side by side at a load of 6 to 7 (three mid-game
  positions each, 300 iterations): 290-380 -> 540-1,150 iterations a CPU-second with 3 players, 260-440
  -> 810-1,120 with 4. The 1 s budget now searches about three times the iterations those shares were
  measured at; its win share at that budget is not measured again yet.
- At --iterations 100 (seeds 7 and 8, 150 + 50 games; two CPU-seconds a 3-player game, three a
  4-player one): 0.440 (0.371 - 0.509) of 200 three-player and 0.425 (0.356 - 0.494) of 200
  four-player games. With --progress-weight 0.3: 0.495 (0.426 - 0.564) and 0.420 (0.351 - 0.489),
  more with 3 players, the same with 4, within the noise of 200 games; --exploration 0.35 won 0.345 of
  the 29 three-player games it played before it was stopped for lack of promise.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence

from bot_strength import iterations_per_second, label, print_progress, share_columns  # benchmarks/: one each

from engine.path_of_pharaohs.actions import Action
from engine.path_of_pharaohs.driver import FullInformation, greedy_policy, shuffled_deck
from engine.path_of_pharaohs.rules import outcome
from engine.path_of_pharaohs.search import Tuning, choose
from engine.path_of_pharaohs.state import Options, State

OPPONENTS = ["greedy1", "greedy2", "greedy3", "greedy4", "greedy5"]
PLAYOUTS = {"greedy": greedy_policy, "random": None}
"""How the search plays its sampled worlds out: greedy (by the lean greedy playout, the acts greedy makes act by
act), or at random by the lean playout."""


class MeasuredSearch:
    """The search as a driver policy for one game, remembering iterations and time spent in mid-game."""

    def __init__(self, think: float | None, iterations: int | None, playout: str, tuning: Tuning | None = None):
        self.think, self.iterations, self.playout, self.tuning = think, iterations, PLAYOUTS[playout], tuning
        self.mid_iterations, self.mid_seconds = 0, 0.0
        self.game: FullInformation | None = None

    def __call__(self, state: State, actor: str, actions: Sequence[Action], rng: random.Random) -> Action:
        if len(actions) == 1:
            return actions[0]
        assert self.game is not None
        cpu = time.process_time()
        result = choose(state, actor, self.game.known[actor], rng, self.think, self.iterations, self.playout,
                        self.tuning)
        if 4 <= max(state.location) <= 9:
            self.mid_iterations += result.iterations
            self.mid_seconds += time.process_time() - cpu  # CPU time: the machine is shared
        return result.action


def play(n_players: int, games: int, bot: MeasuredSearch, seed: int, progress: bool = False) -> list[float]:
    """The bot's share of the win in each game; with `progress`, a line on stderr after each."""
    rng = random.Random(seed)
    options = Options()
    shares = []
    for k in range(games):
        seat, first = k % n_players, k // n_players % n_players
        players = OPPONENTS[:seat] + ["mcts"] + OPPONENTS[seat:n_players - 1]
        game = bot.game = FullInformation(options, players, shuffled_deck(options, rng), players[first], rng)
        game.play({p: bot if p == "mcts" else greedy_policy for p in players}, rng)
        result = outcome(game.state)
        assert result is not None
        shares.append(1 / len(result.winners) if "mcts" in result.winners else 0.0)
        if progress:
            print_progress(n_players, games, shares, bot)
    return shares


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60, help="games per configuration")
    parser.add_argument("--iterations", type=int, default=100, help="iterations an act (the default budget)")
    parser.add_argument("--think", type=float, help="seconds an act (wall clock) instead of --iterations")
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4], choices=[3, 4, 5, 6])
    parser.add_argument("--playout", choices=sorted(PLAYOUTS), default="greedy",
                        help="how worlds are played out: greedy (the default) or random (the lean playout)")
    parser.add_argument("--exploration", type=float, default=Tuning().exploration, help="UCB's exploration constant")
    parser.add_argument("--progress-weight", type=float, default=Tuning().progress,
                        help="weight of the final location in the search's reward (0: the win alone)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--progress", action="store_true", help="a line on stderr after each game")
    args = parser.parse_args()
    iterations = None if args.think else args.iterations
    budget = f"{args.think} s" if args.think else f"{args.iterations} iterations"
    tuning = Tuning(args.exploration, args.progress_weight)
    tuned = "" if tuning == Tuning() else f", exploration {tuning.exploration}, progress weight {tuning.progress}"
    print(f"search bot vs greedy, {args.games} games each, {budget} an act, {args.playout} playouts{tuned}, "
          f"seed {args.seed}")
    print(f"{'configuration':<26}{'win share':>10}{'95% interval':>18}{'fair':>7}{'iterations/s':>14}{'minutes':>9}")
    for n in args.players:
        bot = MeasuredSearch(args.think, iterations, args.playout, tuning)
        start = time.perf_counter()
        shares = play(n, args.games, bot, args.seed, args.progress)
        print(f"{label(n):<26}{share_columns(shares)}{1 / n:>7.3f}{iterations_per_second(bot):>14.0f}"
              f"{(time.perf_counter() - start) / 60:>9.1f}", flush=True)


if __name__ == "__main__":
    main()
