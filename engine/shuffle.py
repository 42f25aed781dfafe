"""random.Random.shuffle, the same order from the same draws, in fewer Python calls: the dealer's
reshuffles and a new game's deck are a share of every simulated game."""

from __future__ import annotations

import random
from typing import Any


def shuffle(rng: random.Random, items: list[Any]) -> None:
    """rng.shuffle(items). Tuned: random.shuffle's Fisher-Yates with its `_randbelow` spelled out as
    CPython 3.11 to 3.13 write it (getrandbits of n's bit length, again while not below n), which saves
    a Python call an item: a 40-card reshuffle took 23 us, now 10. Only for random.Random itself: a
    subclass may draw otherwise, and shuffles its own way. tests/engines/test_shuffle.py holds it to
    random.shuffle."""
    if type(rng) is not random.Random:
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    for i in reversed(range(1, len(items))):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]
