"""A sequence of legal acts made only when asked for: a turn may offer a hundred, and a random player
looks at one of them. Each game's lists of placements, builds or choices derive from it."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TypeVar, overload

T = TypeVar("T")


class LazySequence(Sequence[T]):
    """A full Sequence (negative indices and slices included) of `size` items, each made by `_item(i)`
    (0 <= i < size) when asked for. A subclass sets `size` and defines `_item`."""

    __slots__ = ("size",)
    size: int

    def _item(self, i: int) -> T:
        raise NotImplementedError

    def __len__(self) -> int:
        return self.size

    def __iter__(self) -> Iterator[T]:
        """Each item once, without Sequence's default of indexing until IndexError (a search looks at
        every act of every position it expands)."""
        return map(self._item, range(self.size))

    @overload
    def __getitem__(self, i: int) -> T: ...
    @overload
    def __getitem__(self, i: slice) -> list[T]: ...

    def __getitem__(self, i: int | slice) -> T | list[T]:
        if isinstance(i, slice):
            return [self._item(k) for k in range(*i.indices(self.size))]
        if not 0 <= i < self.size:
            if not -self.size <= i < 0:
                raise IndexError(i)
            i += self.size
        return self._item(i)
