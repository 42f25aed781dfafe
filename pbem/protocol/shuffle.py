"""The specified shuffle of a joint deal: a random stream that anyone holding the key recomputes,
the same on every Python version and machine (`random.Random` promises neither).

    block i   = SHA-256(key || i as 8 bytes big-endian), i = 0, 1, 2, ...
    stream    = block 0 || block 1 || ...
    below(n)  = the next 8 bytes as a big-endian integer x, drawn again while x >= 2**64 - 2**64 % n;
                then x % n (rejection sampling: every result equally likely)
    shuffle   = Fisher-Yates from the last item down: for i = len-1 .. 1, swap item i with item below(i+1)

This text is the specification: `verify` recomputes a deal with it, and so can anyone else."""

from __future__ import annotations

import hashlib
from collections.abc import MutableSequence, Sequence
from typing import Any, TypeVar

T = TypeVar("T")
_SPAN = 2**64


class SeededRandom:
    """Duck-types the part of `random.Random` a game's deal uses: `shuffle` and `choice`."""

    def __init__(self, key: bytes):
        self._key, self._block, self._pool = key, 0, b""

    def _take(self, n: int) -> bytes:
        while len(self._pool) < n:
            self._pool += hashlib.sha256(self._key + self._block.to_bytes(8, "big")).digest()
            self._block += 1
        out, self._pool = self._pool[:n], self._pool[n:]
        return out

    def below(self, n: int) -> int:
        """A uniformly random integer in 0 .. n-1."""
        if n < 1:
            raise ValueError("below(n) needs n >= 1")
        limit = _SPAN - _SPAN % n
        while True:
            x = int.from_bytes(self._take(8), "big")
            if x < limit:
                return x % n

    def shuffle(self, items: MutableSequence[Any]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]
