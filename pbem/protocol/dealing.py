"""The dealer's randomness: the deal, each reshuffle and each pick by chance, all drawn from the
dealer's committed seed and every participant's contribution through the specified shuffle
(pbem.shuffle), so nobody chooses them and anyone can recompute them once the seed is opened.

The stock (a deck) is committed item by item under keys `s0.0`, `s0.1`, ... (the deal's) and
`sK.0`, ... (the K-th reshuffle's), in drawing order."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.contract import Value
from pbem.crypto import sha256
from pbem.protocol.shuffle import SeededRandom
from pbem.record.canonical import canonical


def seeded_random(domain: str, genesis_hash: str, seed: str, contributions: Sequence[str],
                  **context: Any) -> SeededRandom:
    """The shuffle keyed by one use of the seed: `domain` and `context` say which (the deal, the K-th
    reshuffle, the pick after entry H), so no two uses share a stream."""
    return SeededRandom(sha256(canonical({"domain": domain, "game": genesis_hash, "seed": seed,
                                          "contributions": list(contributions), **context})))


def deal_random(genesis_hash: str, seed: str, contributions: Sequence[str]) -> SeededRandom:
    return seeded_random("pbem/deal/v1", genesis_hash, seed, contributions)


def restocked(genesis_hash: str, seed: str, contributions: Sequence[str], number: int,
              values: Sequence[Value]) -> list[Value]:
    """The K-th reshuffle: the public items it takes, in the order the seed gives them."""
    order = list(values)
    seeded_random("pbem/restock/v1", genesis_hash, seed, contributions, number=number).shuffle(order)
    return order


def chance_pick(genesis_hash: str, seed: str, contributions: Sequence[str], after: str, choices: int) -> int:
    """Which of `choices` chance picks right after the entry whose hash is `after`."""
    return seeded_random("pbem/chance/v1", genesis_hash, seed, contributions, after=after).below(choices)


def stock_key(number: int, index: int) -> str:
    return f"s{number}.{index}"


def item_salt(seed: str, key: str) -> str:
    """A seeded deal's salt for one item: derived from the secret seed, so the dealer keeps nothing
    else and the end audit can recompute every commitment from the opened seed."""
    return sha256(canonical({"domain": "pbem/tile-salt/v1", "seed": seed, "slot": key})).hex()


__all__ = ["chance_pick", "deal_random", "item_salt", "restocked", "seeded_random", "stock_key"]
