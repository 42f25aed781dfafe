"""Play by email: how many mails a game takes, how big a turn mail's armored block is, and how fast
`pbem status` and `pbem inbox` are.

Mails per game (issue 34, one mail a turn): 4-player games of both games played by greedy players in the
CLI's way, one run of `pbem play` at a time, each run with --send, in two styles: a whole turn a command
(`pbem play G 3 2@2a --send`), and an act a command (a player who plays a coin or a card, looks, then the
next). Counted by the old rule (a mail after every run that wrote something) and the new one (a mail once
the player owes nothing more now: api.part_done; what was held goes in it).

Turn blocks: 4-player games played by greedy bots, one mail per run of `pbem play` (a player's move
with the reveals and openings it causes), each carrying the entries since the previous mail. Prints the
typical (median) and largest block, against the whole game armored. Status: 20 local games (half
finished), listed cold (each copy verified) and warm (the cache), in-process and as a command.

    python benchmarks/mail_turns.py [--games 20] [--mails-only]
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pbem.crypto import Identity
from pbem.protocol.bots import bot_turn
from pbem.protocol.entries import replay
from pbem.protocol.genesis import new_game
from pbem.protocol.session import Session
from pbem.record.gamefile import save
from pbem.record.models import GameFile, to_json
from pbem.transport import turns
from pbem.transport.armor import wrap

PLAYERS = ["ann", "ben", "cat", "dan"]
IDS = {n: Identity.generate(n) for n in PLAYERS}


def mailed_game(seed: int, stop_at: int | None = None):
    """A game played one run of `pbem play` at a time; returns it and the entry each mail ended at."""
    rng = random.Random(seed)
    rep = new_game("sarcophagus", {}, [(n, IDS[n].public) for n in PLAYERS], "ann", IDS["ann"])
    sessions = {n: Session(rep, n, IDS[n]) for n in PLAYERS}
    sessions["ann"].automatic()
    ends = [rep.seq]
    while rep.duties() and (stop_at is None or rep.seq < stop_at):
        who = next(d.who for d in rep.duties() if d.who in sessions)
        bot_turn(sessions[who], "greedy", rng)
        ends.append(rep.seq)
    return rep, ends


def mail_counts(game: str, seed: int, act_by_act: bool) -> tuple[int, int, int]:
    """One game played by greedy players run by run: its entries, and the mails the old and the new rule
    send (every run that wrote, or once the player owes nothing more now)."""
    from pbem.api import part_done
    from pbem.protocol.bots import policy_for

    rng = random.Random(seed)
    rep = new_game(game, {}, [(n, IDS[n].public) for n in PLAYERS], "ann", IDS["ann"])
    sessions = {n: Session(rep, n, IDS[n]) for n in PLAYERS}
    sessions["ann"].automatic()
    choose = policy_for(rep.game, "greedy")
    old = new = 0
    held: set[str] = set()
    while rep.duties():
        who = next(d.who for d in rep.duties() if d.who in sessions)
        session, before = sessions[who], rep.seq
        if act_by_act:  # one run: what needs no decision, one choice, and what follows it
            session.automatic()
            owed = [d for d in rep.duties() if d.who == who and d.what in ("move", "discard")]
            if owed:
                known = session.knowledge()
                session.act(choose(rep.state, who, list(rep.game.legal_actions(rep.state, who, known)), rng, known))
                session.automatic()
        else:
            bot_turn(session, choose, rng)
        if rep.seq == before:
            continue
        old += 1
        if part_done(rep, who):
            new += 1
            held.discard(who)
        else:
            held.add(who)
    return rep.seq, old, new


def mails_per_game(games: int) -> None:
    print(f"mails per game, {games} 4-player games each, greedy players, every run of pbem play with --send:")
    for game in ("sarcophagus", "path-of-pharaohs"):
        for act_by_act in (False, True):
            counts = [mail_counts(game, seed, act_by_act) for seed in range(games)]
            entries = statistics.mean(c[0] for c in counts)
            old = statistics.mean(c[1] for c in counts)
            new = statistics.mean(c[2] for c in counts)
            style = "an act a command" if act_by_act else "a turn a command"
            print(f"  {game:16} {style:16}  {entries:5.1f} entries: before {old:5.1f} mails, after {new:5.1f} "
                  f"({new / old:.0%})")


def block_sizes(rep, ends) -> list[tuple[int, int]]:
    """(bytes, entries) of each turn block after the first mail (which carries the whole file)."""
    return [(len(turns.to_block(turns.make(rep, a, b))), b - a) for a, b in itertools.pairwise(ends) if b > a]


def status_timings(count: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["PBEM_HOME"] = str(Path(tmp) / "home")
        keys = Path(tmp) / "home" / "keys"
        keys.mkdir(parents=True)
        (keys / "ann.pub").write_text(IDS["ann"].public.line() + "\n")
        folder = Path(tmp) / "games"
        folder.mkdir()
        for i in range(count):
            rep, _ = mailed_game(100 + i, stop_at=None if i % 2 else 20 + 5 * i)
            save(folder / f"sarcophagus-{i:02d}.json", rep.record)
        from pbem.transport.copies import all_copies
        from pbem.transport.status import collect

        paths = all_copies(folder)
        cache = Path(tmp) / "home" / "status-cache.json"
        cold, warm = [], []
        for _ in range(3):
            cache.unlink(missing_ok=True)
            start = time.perf_counter()
            status = collect(paths)
            cold.append(time.perf_counter() - start)
            start = time.perf_counter()
            collect(paths)
            warm.append(time.perf_counter() - start)
        print(f"status of {len(paths)} games ({sum(g.i_owe for g in status.games)} owed by ann, "
              f"{sum(g.finished for g in status.games)} finished), in-process:")
        print(f"  cold (every copy verified): {min(cold) * 1000:.0f} ms   warm (cached): {min(warm) * 1000:.1f} ms")
        env = dict(os.environ, PBEM_GAMES=str(folder))
        command = [sys.executable, "-m", "pbem.cli", "status"]
        walls = {}
        for label in ("help", "cold", "warm"):
            runs = []
            for _ in range(3):
                if label == "cold":
                    cache.unlink(missing_ok=True)
                start = time.perf_counter()
                subprocess.run(command[:3] + ["--help"] if label == "help" else command, env=env, capture_output=True)
                runs.append(time.perf_counter() - start)
            walls[label] = min(runs)
        print(f"  'pbem status' wall time, interpreter start included: cold {walls['cold'] * 1000:.0f} ms, "
              f"warm {walls['warm'] * 1000:.0f} ms ('pbem --help': {walls['help'] * 1000:.0f} ms)")


def inbox_timing(rep, ends) -> None:
    """Applying a late turn of a game onto the copy before it."""
    a, b = ends[-3], ends[-2]
    copy = replay(GameFile.model_construct(genesis=rep.genesis, entries=list(rep.entries[:a])))
    turn = turns.make(rep, a, b)
    start = time.perf_counter()
    for _ in range(10):
        turns.extend(copy, turn)
    print(f"applying a {b - a}-entry turn onto a {a}-entry copy: {(time.perf_counter() - start) * 100:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--mails-only", action="store_true", help="only the mails per game")
    args = parser.parse_args()
    mails_per_game(args.games)
    if args.mails_only:
        return
    sizes, whole = [], []
    for seed in range(args.games):
        rep, ends = mailed_game(seed)
        sizes += block_sizes(rep, ends)
        whole.append(len(wrap("GAME", to_json(rep.record).encode())))
    by_bytes = sorted(s for s, _ in sizes)
    largest = max(sizes)
    print(f"turn blocks of {args.games} 4-player games ({len(sizes)} mails after the first):")
    print(f"  median {statistics.median(by_bytes) / 1024:.1f} KB, 90th percentile "
          f"{by_bytes[int(len(by_bytes) * 0.9)] / 1024:.1f} KB, largest {largest[0] / 1024:.1f} KB "
          f"({largest[1]} entries, {largest[0] // 65} lines)")
    print(f"  entries a mail: median {statistics.median(n for _, n in sizes):.0f}, most {max(n for _, n in sizes)}")
    print(f"  the whole finished game armored: median {statistics.median(whole) / 1024:.0f} KB "
          f"({int(statistics.median(whole)) // 65} lines)")
    inbox_timing(rep, ends)
    status_timings(args.games)


if __name__ == "__main__":
    main()
