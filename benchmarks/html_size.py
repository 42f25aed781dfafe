"""The HTML replay (`pbem html`) of finished 4-player games: page size (public, and as one player)
and the time to build it, over several random deals. The issue's bound: under 250 KB.

    python benchmarks/html_size.py [--games 10]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from pbem.crypto import Identity
from pbem.presentation.html import page
from pbem.protocol.bots import play_out
from pbem.protocol.genesis import new_game
from pbem.protocol.session import Session

PLAYERS = ["ann", "ben", "cat", "dan"]


def finished_game(seed: int):
    ids = {n: Identity.generate(n) for n in PLAYERS}
    rep = new_game("sarcophagus", {}, [(n, ids[n].public) for n in PLAYERS], "ann", ids["ann"])
    sessions = {n: Session(rep, n, ids[n]) for n in PLAYERS}
    play_out(sessions, "greedy", random.Random(seed))
    return rep, sessions


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10)
    args = parser.parse_args()
    public, as_ann, seconds, entries = [], [], [], []
    for seed in range(args.games):
        rep, sessions = finished_game(seed)
        start = time.perf_counter()
        public.append(len(page(rep).encode()))
        seconds.append(time.perf_counter() - start)
        as_ann.append(len(page(rep, "ann", sessions["ann"].knowledge(), viewer="ann").encode()))
        entries.append(len(rep.entries))
    print(f"finished 4-player games: {args.games}, {min(entries)}-{max(entries)} entries")
    print(f"page, public:      median {statistics.median(public) / 1024:.0f} KB, largest {max(public) / 1024:.0f} KB")
    print(f"page, as a player: median {statistics.median(as_ann) / 1024:.0f} KB, largest {max(as_ann) / 1024:.0f} KB")
    print(f"build time (replay and draw every entry): median {statistics.median(seconds) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
