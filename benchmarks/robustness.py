"""Tampering and fuzzing, measured: how many mutated game files `verify` rejects, and whether any
input crashes a parser.

    python benchmarks/robustness.py [--flips 300] [--fuzz 20000] [--game sarcophagus|path-of-pharaohs]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))

from engine.contract import RuleError  # noqa: E402
from engine.path_of_pharaohs.notation import parse_action as parse_pharaohs_action  # noqa: E402
from engine.sarcophagus.notation import parse_action  # noqa: E402
from pbem.crypto import Identity, PublicKey, unseal  # noqa: E402
from pbem.errors import PbemError  # noqa: E402
from pbem.record.gamefile import BEGIN, END, dearmor  # noqa: E402
from pbem.record.models import from_json  # noqa: E402

from tampering import EXAMPLES, GAMES, Tally, run, run_resigned  # noqa: E402


def fuzz(cases: int, rng: random.Random) -> tuple[int, list[str]]:
    """Random bytes, text and JSON through every parser that reads outside input."""
    me = Identity.from_seed(b"\x09" * 32)
    example = (EXAMPLES / "table-3-players.json").read_bytes()
    parsers = [
        ("game file", from_json),
        ("armored game", lambda b: dearmor(BEGIN.encode() + b"\n" + b + b"\n" + END.encode())),
        ("sealed blob", lambda b: unseal(b"age-encryption.org/v1\n" + b, me)),
        ("key file", lambda b: Identity.from_openssh(b, b"pw")),
        ("public key", lambda b: PublicKey.parse(b.decode("utf-8", "replace"))),
        ("move", lambda b: parse_action(b.decode("utf-8", "replace"))),
        ("pharaohs move", lambda b: parse_pharaohs_action(b.decode("utf-8", "replace"))),
    ]
    crashes = []
    for i in range(cases):
        name, parse = parsers[i % len(parsers)]
        if rng.random() < 0.5:
            data = rng.randbytes(rng.randrange(0, 300))
        else:  # a real game file with a few bytes damaged: deeper into the parsers
            data = bytearray(example if name == "game file" else example[:400])
            for _ in range(rng.randrange(1, 4)):
                data[rng.randrange(len(data))] = rng.randrange(256)
            data = bytes(data)
        try:
            parse(data)
        except (PbemError, RuleError):
            pass
        except Exception as exc:  # noqa: BLE001 - what this measures
            crashes.append(f"{name}: {exc!r}")
    return cases, crashes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--flips", type=int, default=300, help="random bit flips per example game")
    parser.add_argument("--fuzz", type=int, default=20000, help="fuzz cases")
    parser.add_argument("--game", choices=sorted(GAMES), action="append", help="the game whose examples are "
                        "mutated (repeat for several; default: every game)")
    args = parser.parse_args()
    start = time.perf_counter()
    found = Tally()
    for game in args.game or list(GAMES):
        print(f"== {game}: {', '.join(GAMES[game])}")
        tally = run(seed=0, flips=args.flips, game=game)
        print(f"mutations tried:                  {tally.tried}")
        print(f"rejected:                         {sum(tally.rejected.values())}")
        for name, count in tally.rejected.most_common():
            print(f"  {name:<30}  {count}")
        print(f"accepted as equivalent:           {tally.equivalent}")
        print(f"accepted as an earlier version:   {tally.prefixes}   (the last entries dropped: a genuine older file)")
        print(f"accepted with a changed meaning:  {len(tally.changed)}   (must be 0)")
        print(f"crashes while verifying:          {len(tally.crashes)}   (must be 0)")
        signed = run_resigned(seed=0, game=game)
        print(f"re-signed by a seat's own key:    {signed.tried}   "
              "(false values, reveals, cards and deals, replayed, reordered, other blobs)")
        print(f"  rejected:                       {sum(signed.rejected.values())}")
        for name, count in signed.rejected.most_common():
            print(f"    {name:<28}  {count}")
        print(f"  accepted, the same statements:  {signed.equivalent}   (genuine entries in another order the rules allow)")
        print(f"  accepted with a changed meaning: {len(signed.changed)}   (must be 0)")
        print(f"  crashes while verifying:        {len(signed.crashes)}   (must be 0)")
        found.changed += tally.changed + signed.changed
        found.crashes += tally.crashes + signed.crashes
    tally = found
    cases, crashes = fuzz(args.fuzz, random.Random(1))
    print(f"fuzz cases run:                   {cases}")
    print(f"fuzz crashes:                     {len(crashes)}   (must be 0)")
    for crash in (tally.crashes + crashes)[:10]:
        print(f"  {crash}")
    print(f"({time.perf_counter() - start:.0f} s)")
    if tally.changed or tally.crashes or crashes:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
