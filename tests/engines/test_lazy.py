"""engine/lazy.py: a lazily made list of acts behaves as the list it stands for."""

from __future__ import annotations

import pytest

from engine.lazy import LazySequence


class Squares(LazySequence[int]):
    def __init__(self, size: int):
        self.size = size
        self.made = 0

    def _item(self, i: int) -> int:
        self.made += 1
        return i * i


def test_a_lazy_sequence_is_the_list_it_stands_for():
    eager = [i * i for i in range(7)]
    lazy = Squares(7)
    assert list(lazy) == eager and len(lazy) == 7
    assert [lazy[i] for i in range(-7, 7)] == [eager[i] for i in range(-7, 7)]
    assert lazy[2:5] == eager[2:5] and lazy[::-2] == eager[::-2]
    assert 25 in lazy and 26 not in lazy and lazy.index(16) == 4
    for bad in (7, -8):
        with pytest.raises(IndexError):
            lazy[bad]


def test_iterating_makes_each_item_once():
    lazy = Squares(5)
    assert list(lazy) == [0, 1, 4, 9, 16] and lazy.made == 5
    assert list(Squares(0)) == []
