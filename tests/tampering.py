"""Mutated copies of finished games, and how `verify` judged each one.

A copy is *equivalent* when it parses to the same record, a *prefix* when it is a genuine earlier
version of the game (entries dropped from the end), and otherwise must be rejected with a named error.
Anything else (accepted with a changed meaning, or a crash) is a defect."""

from __future__ import annotations

import copy
import functools
import json
import random
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from pbem.errors import PbemError
from pbem.protocol.verify import verify
from pbem.record.models import GameFile, from_json

from paths_support import EXAMPLES


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
    for kind, make in lazy_mutations(original, other, rng, flips):
        yield kind, make()


def lazy_mutations(original: dict, other: dict, rng: random.Random,
                   flips: int = 300) -> Iterator[tuple[str, Callable[[], bytes]]]:
    """As `mutations`, each copy made only when called: a test that samples a few of thousands builds
    only those (the random choices inside a mutation are then drawn when it is made)."""
    text = json.dumps(original, indent=2, sort_keys=True).encode()
    for _ in range(flips):
        at, bit = rng.randrange(len(text)), rng.randrange(8)

        def flipped(at: int = at, bit: int = bit) -> bytes:
            data = bytearray(text)
            data[at] ^= 1 << bit
            return bytes(data)

        yield "flipped byte", flipped

    def emit(kind, mutate):
        def make():
            data = copy.deepcopy(original)
            mutate(data)
            return json.dumps(data).encode()

        return kind, make

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
            partners = [e for e in donors if "commitments" in e]  # a dealt card is sealed, not committed
            if "commitments" in entries[i] and partners:
                partner = rng.choice(partners)
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
    deal = next(i for i, e in enumerate(entries) if e["action"].startswith("deal first="))  # the deal's commitments
    keys = sorted(entries[deal]["commitments"])
    for _ in range(20):
        a, b = rng.sample(keys, 2)

        def swap(d, a=a, b=b):
            c = d["entries"][deal]["commitments"]
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


def _accepted(mutated: bytes, kind: str, tally: Tally) -> GameFile | None:
    """The copy as `verify` accepted it; None after counting a rejection (by error class) or a crash."""
    tally.tried += 1
    try:
        record = from_json(mutated)
        verify(record)
    except PbemError as exc:
        tally.rejected[type(exc).__name__] += 1
        return None
    except Exception as exc:  # noqa: BLE001 - exactly what this harness looks for
        tally.crashes.append((kind, repr(exc)))
        return None
    return record


def judge(original_bytes: bytes, mutated: bytes, kind: str, tally: Tally) -> None:
    reference = from_json(original_bytes)
    record = _accepted(mutated, kind, tally)
    if record is None:
        return
    if record == reference:
        tally.equivalent += 1
    elif record.genesis == reference.genesis and record.entries == reference.entries[:len(record.entries)]:
        tally.prefixes += 1
    else:
        tally.changed.append(kind)


GAMES = {"sarcophagus": ("table-3-players.json", "referee-2-players.json"),
         "path-of-pharaohs": ("pharaohs-table-4-players.json", "pharaohs-referee-4-players.json")}
"""Each game's example records, in both dealer modes: each is mutated, with the other to splice from."""


def _pairs(game: str) -> list[tuple[Path, Path]]:
    table, referee = (EXAMPLES / name for name in GAMES[game])
    return [(table, referee), (referee, table)]


def run(seed: int = 0, flips: int = 300, game: str = "sarcophagus") -> Tally:
    tally = Tally()
    rng = random.Random(seed)
    for path, other in _pairs(game):
        raw = path.read_bytes()
        original, donor = json.loads(raw), json.loads(other.read_bytes())
        for kind, mutated in mutations(original, donor, rng, flips):
            judge(raw, mutated, kind, tally)
    return tally


# ---------------------------------------------------------------- a malicious signer

KEYS = EXAMPLES / "test-keys"
TILE_NAMES = [f"{suit}-{rank}" for suit in ("sun", "moon", "crown", "arms")
              for rank in ("null", "ace", "2", "3", "4", "5")]
CARD_NAMES = [str(v) for v in range(10)] + ["W", "Z", "T", "S"]
"""Path of Pharaohs's cards, as a reveal (`reveal 7`) or a card played from a slot (`discard 7#12`) names them."""
_CARD_IN_SLOT = re.compile(r"\b([0-9WZTS])#(\d+)")


@functools.cache
def _signer(name: str):
    from pbem.crypto import Identity

    return Identity.from_openssh((KEYS / name).read_bytes(), None)


def _signed_hash(signed: dict) -> str:
    from pbem.crypto import sha256
    from pbem.record.canonical import canonical

    return sha256(canonical({k: v for k, v in signed.items() if k != "signature"})).hex()


def _rechain(data: dict, start: int) -> None:
    """Re-sign entries from index `start` on, each by its own author's key, with seq and prev made
    right again: what honest players' programs do when they build on a file without seeing the cheat."""
    import base64

    from pbem.record.canonical import canonical

    entries = data["entries"]
    for i in range(start, len(entries)):
        entry = {k: v for k, v in entries[i].items() if k != "signature"}
        entry["seq"] = i + 1
        entry["prev"] = _signed_hash(entries[i - 1] if i else data["genesis"])
        entry["signature"] = base64.b64encode(_signer(entry["author"]).sign(canonical(entry))).decode()
        entries[i] = entry


def _action_values(action: str) -> list[tuple[str, str]]:
    """`open #3=2 #4=0`, `reveal 2a=moon-4` or `reveal sarcophagus 5c=...`: its (slot, value) pairs."""
    return [tuple(part.split("=", 1)) for part in action.split() if "=" in part]


def _with_values(action: str, values: list[tuple[str, str]]) -> str:
    words = [part for part in action.split() if "=" not in part]
    return " ".join(words + [f"{k}={v}" for k, v in values])


def resigned_mutations(original: dict, other: dict, rng: random.Random) -> Iterator[tuple[str, str, Callable]]:
    """(kind, mode, build): build() makes the bytes of a copy with one entry changed and re-signed by its
    own author's valid key (built on demand: re-signing is the slow part).

    mode `sent`: the file ends at the forged entry, as the cheater would mail it. mode `built on`: every
    later entry re-signed by its own author too, as if the others had played on without noticing; the
    finished game then has to fail (the audit opens every commitment)."""
    entries = original["entries"]
    others = [e for e in other["entries"] if "sealed" in e and "commitments" in e]

    def forged(kind, mode, i, change, insert=False):
        def build() -> bytes:
            data = copy.deepcopy(original)
            if insert:
                data["entries"].insert(i, {})
            change(data["entries"], i)
            if mode == "sent":
                del data["entries"][i + 1:]
            _rechain(data, i)
            return json.dumps(data).encode()
        return kind, mode, build

    for i, entry in enumerate(entries):
        verb = entry["action"].split()[0]
        card = _CARD_IN_SLOT.search(entry["action"]) if verb == "discard" else None
        if (verb == "reveal" and "=" not in entry["action"]) or card:  # a Pharaohs card shown from the stock or a hand
            shown = entry["action"].split()[1] if card is None else card.group(1)
            false = rng.choice([c for c in CARD_NAMES if c != shown])
            text = f"reveal {false}" if card is None else \
                entry["action"][:card.start()] + f"{false}#{card.group(2)}" + entry["action"][card.end():]
            for mode in ("sent", "built on"):
                yield forged("false card", mode, i, lambda es, i, t=text: es[i].__setitem__("action", t))
            donor = next((e for e in other["entries"] if e["action"].split()[0] == verb and "openings" in e), None)
            if donor:
                salt, key = next(iter(donor["openings"].values())), next(iter(entry["openings"]))
                yield forged("another game's salt", "sent", i, lambda es, i, s=salt, k=key: es[i]["openings"].__setitem__(k, s))
        elif verb in ("open", "reveal"):
            pairs = _action_values(entry["action"])
            at = rng.randrange(len(pairs))
            slot, value = pairs[at]
            choices = [str(v) for v in range(6)] if verb == "open" else TILE_NAMES
            false = rng.choice([c for c in choices if c != value])
            wrong = pairs[:at] + [(slot, false)] + pairs[at + 1:]
            kind = "false value" if verb == "open" else "false reveal"
            for mode in ("sent", "built on"):
                yield forged(kind, mode, i, lambda es, i, w=wrong: es[i].__setitem__(
                    "action", _with_values(es[i]["action"], w)))
            donor = next((e for e in other["entries"] if e["action"].split()[0] == verb), None)
            if donor:
                salt = next(iter(donor["openings"].values()))
                yield forged("another game's salt", "sent", i, lambda es, i, s=salt, k=slot: es[i]["openings"].__setitem__(k, s))
            if len(pairs) > 1:
                swapped = [(k, v) for (k, _), (_, v) in zip(pairs, pairs[::-1])]
                if swapped != pairs:
                    yield forged(kind, "sent", i, lambda es, i, w=swapped: es[i].__setitem__(
                        "action", _with_values(es[i]["action"], w)))
        if entry["action"].startswith("deal first="):  # the posted deal is checked when its seed opens: built on only
            players = [p["name"] for p in original["genesis"]["players"]]
            first = entry["action"].split("=", 1)[1]
            yield forged("false deal", "built on", i, lambda es, i, f=rng.choice([p for p in players if p != first]):
                         es[i].__setitem__("action", f"deal first={f}"))
            for _ in range(3):
                a, b = rng.sample(sorted(entry["commitments"]), 2)

                def swap(es, i, a=a, b=b):
                    c = es[i]["commitments"]
                    c[a], c[b] = c[b], c[a]
                yield forged("false deal", "built on", i, swap)
        if "sealed" in entry and "commitments" in entry and others:  # a secret committed (a coin, the seed)
            slot = next(iter(entry["sealed"]))
            donor = rng.choice(others)
            blob, commitment = next(iter(donor["sealed"].values())), next(iter(donor["commitments"].values()))

            def other_blobs(es, i, k=slot, b=blob, c=commitment):
                es[i]["sealed"], es[i]["commitments"] = {k: b}, {k: c}
            yield forged("another game's blobs", "built on", i, other_blobs)
            mine = [e for e in entries if "sealed" in e and "commitments" in e and e["author"] == entry["author"]
                    and e is not entry]
            if mine:
                twin = rng.choice(mine)

                def another_coin(es, i, k=slot, t=twin):
                    es[i]["sealed"] = {k: next(iter(t["sealed"].values()))}
                    es[i]["commitments"] = {k: next(iter(t["commitments"].values()))}
                yield forged("another coin's commitment", "built on", i, another_coin)
        receiver = entry["action"].split()[1] if verb == "deal" and "=" not in entry["action"] else None
        elsewhere = [e for e in entries if receiver and e["action"].split()[0] == "deal" and "sealed" in e
                     and e["action"].split()[1] != receiver]
        if elsewhere:  # a card dealt to another hand: sealed to the wrong player
            blob, key = next(iter(rng.choice(elsewhere)["sealed"].values())), next(iter(entry["sealed"]))
            for mode in ("sent", "built on"):
                yield forged("another hand's card", mode, i, lambda es, i, k=key, b=blob: es[i]["sealed"].__setitem__(k, b))
        # a bare public move (Path of Pharaohs's `stop`) signed again is its author's own new move, not a forgery
        earlier = [e for e in entries[:i] if e["author"] == entry["author"]
                   and any(k in e for k in ("commitments", "sealed", "openings", "contribution"))]
        if earlier:
            replayed = rng.choice(earlier)
            for mode in ("sent", "built on"):
                yield forged("replayed entry", mode, i, lambda es, i, r=replayed: es.__setitem__(i, copy.deepcopy(r)),
                             insert=True)
        if i + 1 < len(entries) and entries[i + 1]["author"] == entry["author"] and \
                entries[i + 1]["action"] != entry["action"]:
            for mode in ("sent", "built on"):
                yield forged("reordered entries", mode, i, lambda es, i: es.__setitem__(
                    slice(i, i + 2), [es[i + 1], es[i]]))


def judge_resigned(original_bytes: bytes, mutated: bytes, kind: str, tally: Tally) -> None:
    """Rejected, or accepted only if every entry states what a genuine entry of the original states
    (apart from seq, prev and signature), each at most once: the same signed statements, at most in
    another order the rules allow (a referee's two audit openings). A statement of its own is a defect."""
    reference = json.loads(original_bytes)
    if _accepted(mutated, kind, tally) is None:
        return

    def statements(entries) -> Counter:
        return Counter(json.dumps({k: v for k, v in e.items() if k not in ("seq", "prev", "signature")},
                                  sort_keys=True) for e in entries)
    if statements(json.loads(mutated)["entries"]) <= statements(reference["entries"]):
        tally.equivalent += 1
    else:
        tally.changed.append(kind)


def run_resigned(seed: int = 0, game: str = "sarcophagus") -> Tally:
    tally = Tally()
    rng = random.Random(seed)
    for path, other in _pairs(game):
        raw = path.read_bytes()
        for kind, _mode, build in resigned_mutations(json.loads(raw), json.loads(other.read_bytes()), rng):
            judge_resigned(raw, build(), kind, tally)
    return tally
