"""Mutated copies of finished games, and how `verify` judged each one.

A copy is *equivalent* when it parses to the same record, a *prefix* when it is a genuine earlier
version of the game (entries dropped from the end), and otherwise must be rejected with a named error.
Anything else (accepted with a changed meaning, or a crash) is a defect."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from pbem.errors import PbemError
from pbem.record import from_json
from pbem.verify import verify

EXAMPLES = Path(__file__).parent.parent / "examples"


def _leaves(value, path=()):
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, path + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _leaves(item, path + (i,))
    else:
        yield path, value


def _set(data, path, value):
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


def _changed(value, rng: random.Random):
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + rng.choice([-1, 1, 1000])
    text = str(value)
    if not text:
        return "x"
    i = rng.randrange(len(text))
    alphabet = "0123456789abcdef" if all(c in "0123456789abcdef" for c in text) else \
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    replacement = rng.choice([c for c in alphabet if c != text[i]])
    return text[:i] + replacement + text[i + 1:]


def mutations(original: dict, other: dict, rng: random.Random, flips: int = 300) -> Iterator[tuple[str, bytes]]:
    """(kind, bytes) for each mutated copy of `original`; `other` is a different game to splice from."""
    text = json.dumps(original, indent=2, sort_keys=True).encode()
    for _ in range(flips):
        data = bytearray(text)
        at = rng.randrange(len(data))
        data[at] ^= 1 << rng.randrange(8)
        yield "flipped byte", bytes(data)

    def emit(kind, mutate):
        data = copy.deepcopy(original)
        mutate(data)
        return kind, json.dumps(data).encode()

    for path, value in _leaves(original):
        yield emit("changed value", lambda d, p=path, v=value: _set(d, p, _changed(v, rng)))
    entries = original["entries"]
    n = len(entries)
    for i in range(n):
        yield emit("removed entry", lambda d, i=i: d["entries"].pop(i))
        yield emit("duplicated entry", lambda d, i=i: d["entries"].insert(i, copy.deepcopy(d["entries"][i])))
        if i + 1 < n:
            yield emit("swapped entries", lambda d, i=i: d["entries"].__setitem__(
                slice(i, i + 2), [d["entries"][i + 1], d["entries"][i]]))
        if i < len(other["entries"]):
            yield emit("spliced from another game", lambda d, i=i: d["entries"].__setitem__(
                i, copy.deepcopy(other["entries"][i])))
        j = rng.randrange(n)
        if j != i:
            yield emit("signature moved", lambda d, i=i, j=j: d["entries"][i].__setitem__(
                "signature", d["entries"][j]["signature"]))
        players = [p["name"] for p in original["genesis"]["players"]]
        renamed = rng.choice([p for p in players + ["mallory"] if p != entries[i]["author"]])
        yield emit("author renamed", lambda d, i=i, r=renamed: d["entries"][i].__setitem__("author", r))
        if "openings" in entries[i]:
            key = next(iter(entries[i]["openings"]))
            yield emit("opening changed", lambda d, i=i, k=key: d["entries"][i]["openings"].__setitem__(
                k, _changed(d["entries"][i]["openings"][k], rng)))
        if "sealed" in entries[i]:
            donors = [e for e in entries if "sealed" in e and e is not entries[i]]
            donor = next(iter(rng.choice(donors)["sealed"].values()))
            key = next(iter(entries[i]["sealed"]))
            yield emit("sealed blob replaced", lambda d, i=i, k=key, b=donor: d["entries"][i]["sealed"].__setitem__(k, b))
            partner = rng.choice(donors)
            yield emit("commitment swapped", lambda d, i=i, k=key, c=next(iter(partner["commitments"].values())):
                       d["entries"][i]["commitments"].__setitem__(k, c))
    for _ in range(20):
        window = rng.randrange(2, 6)
        start = rng.randrange(n - window)
        order = list(range(window))
        while order == sorted(order):
            order = rng.sample(range(window), window)

        def reorder(d, s=start, w=window, order=order):
            block = d["entries"][s:s + w]
            d["entries"][s:s + w] = [block[k] for k in order]
        yield emit("reordered entries", reorder)
    keys = sorted(original["genesis"]["commitments"])
    for _ in range(20):
        a, b = rng.sample(keys, 2)

        def swap(d, a=a, b=b):
            c = d["genesis"]["commitments"]
            c[a], c[b] = c[b], c[a]
        yield emit("commitment swapped", swap)


@dataclass
class Tally:
    tried: int = 0
    rejected: Counter = field(default_factory=Counter)
    equivalent: int = 0
    prefixes: int = 0
    changed: list = field(default_factory=list)
    crashes: list = field(default_factory=list)


def judge(original_bytes: bytes, mutated: bytes, kind: str, tally: Tally) -> None:
    tally.tried += 1
    reference = from_json(original_bytes)
    try:
        record = from_json(mutated)
        verify(record)
    except PbemError as exc:
        tally.rejected[type(exc).__name__] += 1
        return
    except Exception as exc:  # noqa: BLE001 - exactly what this harness looks for
        tally.crashes.append((kind, repr(exc)))
        return
    if record == reference:
        tally.equivalent += 1
    elif record.genesis == reference.genesis and record.entries == reference.entries[:len(record.entries)]:
        tally.prefixes += 1
    else:
        tally.changed.append(kind)


def run(seed: int = 0, flips: int = 300) -> Tally:
    games = [EXAMPLES / "table-3-players.json", EXAMPLES / "referee-2-players.json"]
    tally = Tally()
    rng = random.Random(seed)
    for path, other in [(games[0], games[1]), (games[1], games[0])]:
        raw = path.read_bytes()
        original, donor = json.loads(raw), json.loads(other.read_bytes())
        for kind, mutated in mutations(original, donor, rng, flips):
            judge(raw, mutated, kind, tally)
    return tally
