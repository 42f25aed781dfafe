"""engine.shuffle spells random.shuffle out for speed (the dealer's reshuffles, a new game's deck, a search's
worlds): it must give the same order and leave the generator in the same state, or seeded games change."""

from __future__ import annotations

import random

from engine.shuffle import shuffle


class Noisy(random.Random):
    """A subclass whose random() is its own: random.shuffle then draws through random(), not getrandbits."""

    def random(self) -> float:
        return 0.5


class Counting(random.Random):
    """A subclass that draws as Random does but counts its draws: left to random.shuffle all the same."""

    draws = 0

    def getrandbits(self, k: int) -> int:
        self.draws += 1
        return super().getrandbits(k)


def test_it_shuffles_as_random_shuffle_does_for_every_length_and_seed():
    for seed in range(300):
        items = [f"card{i}" for i in range(seed % 90)]
        ours, theirs = random.Random(seed), random.Random(seed)
        shuffled, expected = list(items), list(items)
        shuffle(ours, shuffled)
        theirs.shuffle(expected)
        assert shuffled == expected and ours.getstate() == theirs.getstate(), seed
        assert sorted(shuffled) == sorted(items)


def test_a_subclass_of_random_shuffles_its_own_way():
    for rng_type in (Noisy, Counting):
        for seed in range(50):
            ours, theirs = rng_type(seed), rng_type(seed)
            shuffled, expected = list(range(40)), list(range(40))
            shuffle(ours, shuffled)
            theirs.shuffle(expected)
            assert shuffled == expected and ours.getstate() == theirs.getstate(), (rng_type, seed)
    counting = Counting(1)
    shuffle(counting, list(range(40)))
    assert counting.draws >= 39  # through the subclass's own getrandbits
