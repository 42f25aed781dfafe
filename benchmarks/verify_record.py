"""Verifying a finished 4-player game of each game in each dealer mode: total time, against the bare
Ed25519 checks it contains. Also the record's size: bytes per entry and per finished game.

    python benchmarks/verify_record.py [--repeat 20] [--game sarcophagus|path-of-pharaohs]
"""

from __future__ import annotations

import argparse
import base64
import random
import statistics
import time

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from pbem.crypto import Identity
from pbem.crypto.sshsig import sshsig_signed_data as _sshsig_signed_data
from pbem.protocol import remembered
from pbem.protocol.bots import play_out
from pbem.protocol.genesis import new_game
from pbem.protocol.session import Session
from pbem.protocol.verify import verify
from pbem.record.canonical import canonical
from pbem.record.models import from_json, payload, to_json

PLAYERS = ["ann", "ben", "cat", "dan"]


def finished_game(game: str, mode: str) -> str:
    ids = {n: Identity.generate(n) for n in PLAYERS + ["ref"]}
    referee = ("ref", ids["ref"].public) if mode == "referee" else None
    creator = "ref" if referee else "ann"
    rep = new_game(game, {}, [(n, ids[n].public) for n in PLAYERS], creator, ids[creator], referee)
    play_out({n: Session(rep, n, ids[n]) for n in rep.roster}, "greedy", random.Random(7))
    return to_json(rep.record)


def bare_checks(text: str):
    """The Ed25519 verifications alone: keys, signed bytes and raw signatures prepared beforehand."""
    record = from_json(text.encode())
    keys = {p.name: p.key for p in record.genesis.players}
    if record.genesis.dealer.referee:
        keys[record.genesis.dealer.referee.name] = record.genesis.dealer.referee.key
    jobs = []
    for signed in [record.genesis, *record.entries]:
        raw_key = base64.b64decode(keys[signed.author].split()[1])[-32:]
        blob = base64.b64decode(signed.signature)
        jobs.append((Ed25519PublicKey.from_public_bytes(raw_key), blob[-64:],
                     _sshsig_signed_data("pbem", canonical(payload(signed)))))
    return jobs


def fresh(data: bytes):
    """The record, read as a new process would: this process's memory of replays it verified
    (pbem.protocol.remembered) forgotten, or every run after the first would check nothing again."""
    remembered.forget()
    return from_json(data)


def best_of(repeat: int, work) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--game", choices=["sarcophagus", "path-of-pharaohs"], action="append")
    args = parser.parse_args()
    for game, mode in [(g, m) for g in args.game or ["sarcophagus", "path-of-pharaohs"] for m in ("table", "referee")]:
        text = finished_game(game, mode)
        data = text.encode()
        record = from_json(data)
        jobs = bare_checks(text)
        full, full_median = best_of(args.repeat, lambda data=data: verify(fresh(data)))
        bare, _ = best_of(args.repeat, lambda jobs=jobs: [key.verify(sig, msg) for key, sig, msg in jobs])
        entries = len(record.entries)
        print(f"{game}, {mode} mode, 4 players: {entries} entries, {len(data):,} bytes "
              f"({len(data) // (entries + 1):,} bytes per entry)")
        print(f"  verify (read + check + replay + audit): {full * 1e3:7.1f} ms (median {full_median * 1e3:.1f} ms)")
        print(f"  bare Ed25519 checks ({len(jobs)} signatures): {bare * 1e3:7.1f} ms")
        print(f"  ratio: {full / bare:.1f}x")


if __name__ == "__main__":
    main()
