"""Random full-information Path of Pharaohs games per second of CPU time (one core), for 3, 4 and 6 players:
the full rules, the lean playout and a plain model, side by side.

    python benchmarks/pop_playouts.py [--seconds 5] [--pure] [--then COMMIT]
    python benchmarks/pop_playouts.py --checksum    # only the checksums of the seeded games
    python benchmarks/pop_playouts.py --soak 1000   # that many checked games per player count and policy

"full rules" is the driver act by act, as a game is played: the duties, the legal acts, a policy's
choice and `apply` at every act (without the events of a game report, which nobody reads here).
"lean" is the lean playout (engine/path_of_pharaohs/lean.py), which the search bot's random playouts
use: it tells who wins, without the log and end state the driver's random games keep
(`FullInformation.play_at_random`, through playout.py). "plain model" is benchmarks/pop_plain.py, the
same rules written plainly, the yardstick of issue 26 (the full rules at least twice as fast). All
three play the same games from the same seeds, and each round measures the three in turn, so that a
neighbour's load falls on all three alike.

`--then COMMIT` adds a row per player count: the full rules of that commit, played in a child process
in the same rounds (benchmarks/engine_then.py); then, for the ratio of the two full rules, 20 pairs
of short rounds, each pair back to back, and the median of the pairs' ratios with its quartiles: a
neighbour's load that comes and goes falls on both rounds of a pair, where the best rounds of the
table may come from different minutes. Issue 26 set its aims in games a second on the machine of
its day; `--then issue-26` (its commit, c988bcb) turns them into ratios that hold on any machine, and
prints them beside today's.

Like engine_playouts.py, it says which engine it ran (`--pure`: the pure modules even where compiled
ones are built) and ends with checksums of seeded games: two builds that play alike print the same, and
the lean playout the same as the full rules (its acts, replayed through the full rules for the outcome).

The soak is the long run of tests/engines/test_pop_properties.py, tests/engines/test_pop_playout.py,
tests/engines/test_pop_lean.py and tests/engines/test_pop_lean_greedy.py: every card accounted for at every step,
markers on the path, every game ends, the driver's random game (playout.py) and the lean playout
(lean.py) play each random game as the full rules do (the same acts, end state and winners), and from
a point of each greedy game the search's greedy playout by the lean game (lean_greedy.py) plays as it
does through the full rules (the same acts, outcome and draws).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import random
import statistics
import sys
import time
from collections.abc import Callable

import pop_plain
from compile_engine import engine_build, prefer_pure_engine
from engine_then import ISSUE_26_AIMS, ISSUE_26_COMMIT, ISSUE_26_LEAN_AIM, EngineThen, resolve

if "--pure" in sys.argv[1:]:
    prefer_pure_engine()  # before the engine's first import

from engine.path_of_pharaohs.actions import Action
from engine.path_of_pharaohs.board import card_total
from engine.path_of_pharaohs.driver import FullInformation, Policy, greedy_policy, random_policy, shuffled_deck
from engine.path_of_pharaohs.lean import random_winners
from engine.path_of_pharaohs.lean_greedy import greedy_playout
from engine.path_of_pharaohs.rules import apply, duties, outcome
from engine.path_of_pharaohs.search import World, play_out
from engine.path_of_pharaohs.state import Options, State

PLAYERS = ["ann", "ben", "cat", "dan", "eve", "fay"]
CHECKED_GAMES = 20


def new_game(n_players: int, rng: random.Random) -> FullInformation:
    players = PLAYERS[:n_players]
    return FullInformation(Options(), players, shuffled_deck(Options(), rng), rng.choice(players), rng)


def full_rules(n_players: int, rng: random.Random, policy: Policy = random_policy) -> int:
    """One game act by act (no events: a simulation reads none); its acts."""
    game = new_game(n_players, rng)
    game.play(dict.fromkeys(PLAYERS[:n_players], policy), rng, report=False)
    return len(game.log)


def greedy(n_players: int, rng: random.Random) -> int:
    return full_rules(n_players, rng, greedy_policy)


def lean(n_players: int, rng: random.Random) -> int:
    """One game by the lean playout; its winners (it counts no acts: the column shows the full rules')."""
    game = new_game(n_players, rng)
    return len(random_winners(game.state, game.cards, game.deck, rng))


def plain(n_players: int, rng: random.Random) -> int:
    return pop_plain.random_game(n_players, rng).acts


def games_per_second(ways: list[Callable[[int, random.Random], int]], n_players: int, seconds: float,
                     rounds: int = 5, then: EngineThen | None = None) -> list[tuple[float, float, float]]:
    """For each way of playing, best and median games per CPU-second over several rounds (the best
    round is the code's own speed: this machine's neighbours come and go), and acts per game. Each
    round plays every way in turn, each from the same seed, then the engine of another day (`then`,
    in its own process), whose figures come last."""
    rates: list[list[float]] = [[] for _ in range(len(ways) + (then is not None))]
    acts, games = [0] * len(rates), [0] * len(rates)
    for _ in range(rounds):
        for i, way in enumerate(ways):
            rng, count = random.Random(n_players), 0
            start = time.process_time()
            while (elapsed := time.process_time() - start) < seconds / rounds:
                acts[i] += way(n_players, rng)
                count += 1
            rates[i].append(count / elapsed)
            games[i] += count
        if then is not None:
            count, played, elapsed = then.round(seconds / rounds)
            rates[-1].append(count / elapsed)
            games[-1], acts[-1] = games[-1] + count, acts[-1] + played
    return [(max(r), statistics.median(r), a / g) for r, a, g in zip(rates, acts, games)]


PAIRS = 20
"""Paired rounds against the engine of another day (`--then`), per player count."""


def paired_ratios(n_players: int, seconds: float, then: EngineThen) -> tuple[float, float, float]:
    """Today's full rules against the engine of another day in PAIRS pairs of short rounds, each pair
    played back to back (which goes first alternates), `seconds` in all for each side: the median ratio
    of the pairs' speeds and its quartiles. The best rounds of a table are each the quietest second of
    their own minute; a pair's two rounds share their moment, so a neighbour's load that comes and goes
    falls on both, and the median leaves out the pairs it split."""
    rng, ratios = random.Random(n_players), []
    for pair in range(PAIRS):
        ours = then_rate = 0.0
        for side in ((0, 1) if pair % 2 == 0 else (1, 0)):
            if side == 0:
                count, start = 0, time.process_time()
                while (elapsed := time.process_time() - start) < seconds / PAIRS:
                    full_rules(n_players, rng)
                    count += 1
                ours = count / elapsed
            else:
                count, _, elapsed = then.round(seconds / PAIRS)
                then_rate = count / elapsed
        ratios.append(ours / then_rate)
    low, median, high = statistics.quantiles(ratios, n=4)
    return median, low, high


def lean_game(n_players: int, seed: int) -> tuple[list[tuple[str, Action]], State]:
    """A seeded random game by the lean playout: its acts, and the end state they lead to by the full
    rules (checked as a verifier checks a record, without secrets), which must have its winners."""
    rng = random.Random(seed)
    game = new_game(n_players, rng)
    trace: list[tuple[str, Action]] = []
    winners = random_winners(game.state, game.cards, game.deck, rng, trace)
    state = game.state
    for actor, action in trace:
        state = apply(state, actor, action)[0]
    end = outcome(state)
    assert end is not None and end.winners == winners, f"game {seed}: the lean playout's winners differ"
    return trace, state


def check_greedy_playout(game: FullInformation, seed: int) -> None:
    """From where `game` stands, the search's greedy playout by the lean game (lean_greedy.py) and
    through the full rules (search.play_out), in the same world with the same seed: the same acts,
    winners, final locations and draws."""
    world = World(dict(game.cards), list(game.deck))
    state, duty = world.advance(game.state, random.Random(seed))
    cards, deck = dict(world.cards), list(world.deck)
    full_rng, log = random.Random(seed), []
    full = play_out(state, duty, world, full_rng, greedy_policy, log)
    lean_rng, trace = random.Random(seed), []
    lean = greedy_playout(state, cards, deck, lean_rng, trace)
    assert (lean, trace, lean_rng.getstate()) == (full, log, full_rng.getstate()), \
        f"game {seed}: the lean greedy playout differs"


def checksum(lean_random: bool, games: int = CHECKED_GAMES) -> str:
    """A digest of `games` seeded games per player count and policy: every act, and the outcome;
    with `lean_random`, the random games by the lean playout."""
    digest = hashlib.sha256()
    for n in (3, 4, 6):
        for policy in (random_policy, greedy_policy):
            for seed in range(games):
                if lean_random and policy is random_policy:
                    log, end = lean_game(n, seed)
                else:
                    rng = random.Random(seed)
                    game = new_game(n, rng)
                    game.play(dict.fromkeys(PLAYERS[:n], policy), rng)
                    log, end = game.log, game.state
                digest.update(repr((log, outcome(end))).encode())
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
                greedy_from = random.Random(seed).randrange(120)  # where the lean greedy playout is checked
                for _ in range(100_000):
                    s = game.state
                    assert card_total(s) == s.table.options.deck_size, f"game {seed}: a card lost"
                    assert s.deck == len(game.deck) and min(s.location) >= 0 and max(s.location) <= 13
                    if not duties(s):
                        break
                    if policy is greedy_policy and len(game.log) == greedy_from:
                        check_greedy_playout(game, seed)
                    game.step(policies, rng)
                else:
                    raise AssertionError(f"game {seed} with {n} players did not end")
                if policy is random_policy:  # the driver's random game and the lean playout play the same game
                    rng, players = random.Random(seed), PLAYERS[:n]
                    logged = FullInformation(Options(), players, shuffled_deck(Options(), rng), rng.choice(players), rng)
                    logged.play_at_random()
                    assert (logged.log, logged.state) == (game.log, game.state), f"game {seed}: playout.py differs"
                    assert lean_game(n, seed) == (game.log, game.state), f"game {seed}: the lean playout differs"
                ends[outcome(game.state).how] += 1
                longest = max(longest, len(game.log))
            print(f"{f'{n} players ({label})':<24}{games:>8}{ends['alexandria']:>8}{ends['stalled']:>9}{longest:>10}")


def aim(then: str | None, way: int, n_players: int) -> str:
    """Issue 26's aim for the ratio of this way (0 the full rules, 1 the lean playout) to the engine of
    `then`, where the issue set one: against the engine of its day only."""
    if then is None or resolve(then) != ISSUE_26_COMMIT:
        return ""
    found = ISSUE_26_AIMS.get(n_players) if way == 0 else ISSUE_26_LEAN_AIM if n_players == 4 else None
    return "" if found is None else f" (aim {found:.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per configuration (each row)")
    parser.add_argument("--soak", type=int, default=0, help="instead, play this many checked games per configuration")
    parser.add_argument("--checksum", action="store_true", help="only the checksums of the seeded games")
    parser.add_argument("--pure", action="store_true", help="the pure engine even where a compiled one is built")
    parser.add_argument("--then", metavar="COMMIT", help="also the full rules of this commit, side by side (issue 26's "
                        f"aims are times the speed of {ISSUE_26_COMMIT}'s: benchmarks/engine_then.py)")
    args = parser.parse_args()
    if args.then == "issue-26":
        args.then = ISSUE_26_COMMIT[:7]
    if args.then:
        resolve(args.then)  # a commit that does not exist is said before any figure
    if args.soak:
        soak(args.soak)
        return
    print(f"engine: {engine_build()}")
    if not args.checksum:
        print(f"{'configuration':<40}{'best games/s':>14}{'median':>8}{'acts/game':>11}")
        ratios: dict[str, list[str]] = {"full rules / plain model": [], "lean playout / plain model": []}
        if args.then:
            ratios |= {f"full rules / engine of {args.then}": [], f"lean playout / engine of {args.then}": [],
                       f"full rules / engine of {args.then} in {PAIRS} paired rounds, median (quartiles)": []}
        for n in (3, 4, 6):
            paired = None
            with contextlib.ExitStack() as stack:
                then = stack.enter_context(EngineThen(args.then, n)) if args.then else None
                rows = games_per_second([full_rules, lean, plain], n, args.seconds, then=then)
                if then is not None:
                    paired = paired_ratios(n, args.seconds, then)
            rows[1] = (*rows[1][:2], rows[0][2])  # the same games as the full rules' (the lean playout counts no acts)
            labels = ["random", "random, lean", "random, plain model"] + [f"random, engine of {args.then}"] * bool(then)
            for label, (best, median, acts) in zip(labels, rows):
                print(f"{f'{n} players ({label})':<40}{best:>14.0f}{median:>8.0f}{acts:>11.0f}")
            for found, (way, against) in zip(ratios.values(), [(0, 2), (1, 2), (0, 3), (1, 3)]):
                found.append(f"{n} players {rows[way][0] / rows[against][0]:.2f}"
                             + (aim(args.then, way, n) if against == 3 else ""))
            if paired is not None:
                median, low, high = paired
                found = list(ratios.values())[-1]
                found.append(f"{n} players {median:.2f} ({low:.2f}-{high:.2f}){aim(args.then, 0, n)}")
            best, median, acts = games_per_second([greedy], n, args.seconds)[0]
            print(f"{f'{n} players (greedy)':<40}{best:>14.0f}{median:>8.0f}{acts:>11.0f}")
        for name, found in ratios.items():
            print(f"{name}, random games: {', '.join(found)}")
    print(f"checksum of {CHECKED_GAMES} seeded games per player count and policy: {checksum(False)} "
          f"(full rules), {checksum(True)} (the random ones by the lean playout)")


if __name__ == "__main__":
    main()
