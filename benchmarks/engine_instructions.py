"""Machine instructions per game, and per search iteration, of each game, counted by valgrind's
callgrind: the same figure on every run, whatever else the machine is doing, so two versions of the
engine compare exactly (games per second on a shared machine move by several percent from run to run).

    python benchmarks/engine_instructions.py [--games 200] [--pure] [--only WORKLOAD ...]

The workloads, each over the same seeded games every run:
- sarcophagus: random games by driver.random_game (through its lean playout), the four configurations
  of engine_playouts.py in turn (2 players pooled and seats, 3, 4), as many games of each;
- sarcophagus-plain: the same games by the plain model (benchmarks/sarc_plain.py): the yardstick, so
  the ratio of the two is the engine's speed against a plain model, exactly;
- sarcophagus-search: iterations of the search bot (engine/sarcophagus/search.py) from one 4-player
  mid-game position (per iteration, not per game);
- pop, pop-lean, pop-plain: Path of Pharaohs' random 4-player games by the full rules (the driver act
  by act: duties, legal acts, a policy, apply), by its lean playout (lean.random_winners, as
  pop_playouts.py's lean column) and by its plain model (benchmarks/pop_plain.py);
- pop-search: iterations of its search bot (greedy playouts, the default) from one 4-player mid-game
  position (per iteration).
Needs valgrind on PATH. For each, runs the interpreter twice (with no game, then with --games games or
iterations) and prints the difference per game; a few minutes in all. It counts the engine that Python
imports: the compiled one where benchmarks/compile_engine.py built it, unless `--pure`.
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
WORKLOADS = {"sarcophagus": "Sarcophagus, random games (2, 2, 3, 4 players in turn)",
             "sarcophagus-plain": "Sarcophagus, plain model, the same games",
             "sarcophagus-search": "Sarcophagus, search, 4 players, mid-game",
             "pop": "Path of Pharaohs, full rules, 4 players",
             "pop-lean": "Path of Pharaohs, lean playout, 4 players",
             "pop-plain": "Path of Pharaohs, plain model, 4 players",
             "pop-search": "Path of Pharaohs, search, 4 players, mid-game"}
PER_ITERATION = ("sarcophagus-search", "pop-search")


def play(workload: str, games: int) -> None:
    """`games` seeded games or search iterations (the modules imported and the position reached even for none)."""
    rng = random.Random(4)
    if workload.startswith("sarcophagus"):
        play_sarcophagus(workload, games, rng)
    else:
        play_pop(workload, games, rng)


def play_sarcophagus(workload: str, games: int, rng: random.Random) -> None:
    from engine.sarcophagus.driver import FullInformation, deal, random_game, random_policy
    from engine.sarcophagus.rules import duties, legal_actions
    from engine.sarcophagus.search import choose
    from engine.sarcophagus.state import Options

    if workload == "sarcophagus-search":
        game = FullInformation(Options(), PLAYERS, deal(rng), "ann")
        while len(game.state.slot_seat) < 30 or duties(game.state)[0].who != "ann" or len(
                legal_actions(game.state, "ann", game.known["ann"])) < 2:
            game.step(dict.fromkeys(PLAYERS, random_policy), rng)
        if games:
            choose(game.state, "ann", game.known["ann"], rng, None, games)
        return
    import sarc_plain

    configurations = [(2, Options("pooled")), (2, Options("seats")), (3, Options()), (4, Options())]
    for k in range(games):
        n, options = configurations[k % 4]
        if workload == "sarcophagus":
            random_game(PLAYERS[:n], options, rng)
        else:
            sarc_plain.random_game(n, options.two_player, rng, options.bottom_edge_free)


def play_pop(workload: str, games: int, rng: random.Random) -> None:
    from engine.path_of_pharaohs.driver import FullInformation, random_policy, shuffled_deck
    from engine.path_of_pharaohs.lean import random_winners
    from engine.path_of_pharaohs.rules import duties, legal_actions
    from engine.path_of_pharaohs.search import choose
    from engine.path_of_pharaohs.state import Options as PopOptions

    if workload == "pop-plain":
        import pop_plain
        for _ in range(games):
            pop_plain.random_game(4, rng)
        return
    policies = dict.fromkeys(PLAYERS, random_policy)
    if workload == "pop-search":
        game = FullInformation(PopOptions(), PLAYERS, shuffled_deck(PopOptions(), rng), "ann", rng)
        while max(game.state.location) < 4 or duties(game.state)[0].who != "ann" or len(
                legal_actions(game.state, "ann", game.known["ann"])) < 2:
            game.step(policies, rng)
        if games:
            choose(game.state, "ann", game.known["ann"], rng, None, games)
        return
    for _ in range(games):
        game = FullInformation(PopOptions(), PLAYERS, shuffled_deck(PopOptions(), rng), rng.choice(PLAYERS), rng)
        if workload == "pop":
            game.play(policies, rng, report=False)
        else:
            random_winners(game.state, game.cards, game.deck, rng)


def instructions(workload: str, games: int, pure: bool) -> tuple[int, str]:
    """The instructions of a run, and the engine it imported (engine_build's words, which it prints)."""
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, __file__]
        + ["--pure"] * pure + ["--play", workload, str(games)],
        capture_output=True, text=True, check=True)
    found = re.search(r"Collected : (\d+)", run.stderr)
    if not found:
        sys.exit(f"Error: no instruction count in valgrind's output:\n{run.stderr[-2000:]}")
    return int(found.group(1)), run.stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games to count over (the same seed each time)")
    parser.add_argument("--pure", action="store_true", help="the pure engine even where a compiled one is built")
    parser.add_argument("--only", nargs="+", choices=sorted(WORKLOADS), help="count only these")
    parser.add_argument("--play", nargs=2, metavar=("WORKLOAD", "GAMES"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.play is not None:
        play(args.play[0], int(args.play[1]))
        print(engine_build())  # this process imported the engine: the parent did not
        return
    if not shutil.which("valgrind"):
        sys.exit("Error: valgrind is not installed (Debian: apt install valgrind)")
    for workload, name in WORKLOADS.items():
        if args.only is None or workload in args.only:
            (played, engine), (empty, _) = instructions(workload, args.games, args.pure), instructions(workload, 0, args.pure)
            per_game = (played - empty) / args.games
            unit = "iteration" if workload in PER_ITERATION else "game"
            print(f"{name}, {engine}: {per_game / 1e6:.2f} million instructions per {unit} "
                  f"({args.games} {unit}s, seed 4)", flush=True)


if __name__ == "__main__":
    main()
