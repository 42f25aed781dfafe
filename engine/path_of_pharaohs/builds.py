"""Every way a hand fills each pyramid position it can, from the hand's count of each card packed in one
int (`hand_key`): a cheap key to remember the ways by, which the legal acts and the playouts keep up to
date as cards come and go. Tuned: a mover's acts are listed at every move of every game a search plays."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from .cards import CARD_KINDS, L1_MIDDLE, L2_LEFT, L2_RIGHT, L3, MAX_TERMS, SANDSTORM, THIEF, WILD, ZERO
from .state import Pyramid, Term

Fillings = tuple[tuple[Term, ...], ...]
"""The ways to fill one position: each a combination of cards, with the value each counts."""
Builds = tuple[tuple[tuple[int, Fillings], ...], int]
"""(position, fillings) pairs, and how many fillings in all."""


CARD_BITS = 5
"""`hand_key` packs a hand's count of each card kind in this many bits (a deck holds at most 20 copies)."""
_FIELD = (1 << CARD_BITS) - 1
_VALUES_AND_WILDS = sum(_FIELD << CARD_BITS * card for card in (*range(10), WILD))
_NO_ZEROS = _VALUES_AND_WILDS & ~_FIELD
ZEROS_FIELD, THIEVES_FIELD, SANDSTORMS_FIELD = (_FIELD << CARD_BITS * card for card in (ZERO, THIEF, SANDSTORM))
ACTION_FIELDS = ZEROS_FIELD | THIEVES_FIELD | SANDSTORMS_FIELD
"""Where a packed hand (`hand_key`) counts its action cards."""


def hand_key(counts: Sequence[int]) -> int:
    """A hand's count of each card kind (`counts[card]`), packed in one int: a cheap key to remember
    a hand's ways to fill a position by, which a playout keeps up to date as cards come and go
    (card_bit(card) per copy)."""
    return sum(n << CARD_BITS * card for card, n in enumerate(counts))


def card_bit(card: int) -> int:
    """What one copy of `card` adds to a hand's `hand_key`."""
    return 1 << CARD_BITS * card


COPY_BITS = tuple(1 << CARD_BITS * card for card in CARD_KINDS)
"""What one copy of each card adds to a packed hand (`card_bit`)."""


def _counts(hand: int) -> list[int]:
    mask = (1 << CARD_BITS) - 1
    return [hand >> CARD_BITS * card & mask for card in CARD_KINDS]


def builds_for(pyramid: Pyramid, hand: int) -> Builds:
    """Every way to fill each position of `pyramid` that can be filled (the level-1 middle whenever it
    is empty, an upper one once both it bridges are) from a hand whose counts `hand_key` packs. Not
    remembered whole (hands and pyramids seldom meet twice): each position's ways are, by the hand's
    value cards and Wilds. `fillable` and `to_bridge` spelled out over BRIDGES, in the order of the
    positions: a mover's acts are listed at every move."""
    left, middle, right, upper_left, upper_right, top = pyramid
    out = []
    total = 0
    if middle is None:
        fillings = middle_fillings(hand)
        if fillings:
            out.append((L1_MIDDLE, fillings))
            total += len(fillings)
    elif left is not None and upper_left is None:
        fillings = bridge_fillings(abs(left[0] - middle[0]), hand)
        if fillings:
            out.append((L2_LEFT, fillings))
            total += len(fillings)
    if middle is not None and right is not None and upper_right is None:
        fillings = bridge_fillings(abs(middle[0] - right[0]), hand)
        if fillings:
            out.append((L2_RIGHT, fillings))
            total += len(fillings)
    if top is None and upper_left is not None and upper_right is not None:
        fillings = bridge_fillings(abs(upper_left[0] - upper_right[0]), hand)
        if fillings:
            out.append((L3, fillings))
            total += len(fillings)
    return tuple(out), total


_MIDDLES: dict[int, Fillings] = {}
_BRIDGES: dict[int, Fillings] = {}
KEPT = 1 << 17
"""Hands remembered (about 50,000 tell positions apart in thousands of random games), then forgotten at once."""


def middle_fillings(hand: int) -> Fillings:
    """Every way to fill the level-1 middle from the hand `hand_key` packs: one of its value cards, or a
    Wild counting any value. Remembered by the hand's value cards and Wilds."""
    key = hand & _VALUES_AND_WILDS
    found = _MIDDLES.get(key)
    if found is None:
        if len(_MIDDLES) >= KEPT:
            _MIDDLES.clear()
        counts = _counts(hand)
        singles = tuple(((v, v),) for v in range(10) if counts[v])
        found = _MIDDLES[key] = singles + (tuple(((WILD, v),) for v in range(10)) if counts[WILD] else ())
    return found


def bridge_fillings(need: int, hand: int) -> Fillings:
    """Every canonical way to make `need` from the hand `hand_key` packs: one card of the value (or a
    Wild), or two or three signed cards, in the order `_combinations` ranks them. Remembered by the
    need and the hand's value cards and Wilds (its 0s only for a need of 0) in one int; worked out
    by `_bridge_table` (tests/engines/test_pop_properties.py holds both to the plain model)."""
    key = (hand & (_NO_ZEROS if need else _VALUES_AND_WILDS)) << 4 | need
    found = _BRIDGES.get(key)
    if found is None:
        if len(_BRIDGES) >= KEPT:
            _BRIDGES.clear()
        have = hand & _VALUES | _GUARDS
        table = _bridge_table(need, min(hand >> CARD_BITS * WILD & _FIELD, MAX_TERMS))
        found = _BRIDGES[key] = tuple([terms for first, rows in table if hand & first
                                       for needs, terms in rows if (have - needs) & _GUARDS == _GUARDS])
    return found


_VALUES = sum(_FIELD << CARD_BITS * card for card in range(10))
_GUARDS = sum(1 << CARD_BITS * card + CARD_BITS - 1 for card in range(10))
"""The top bit of each value card's count in a packed hand, never set by a count (a deck holds six
copies of a value card): set in the hand, a borrow clears it in `hand - needs` when the hand holds
fewer copies of that card than `needs` (packed the same way) does, so one subtraction tests all ten."""


@functools.cache
def _bridge_table(need: int, wilds: int) -> tuple[tuple[int, tuple[tuple[int, tuple[Term, ...]], ...]], ...]:
    """Every way to make `need` with at most `wilds` Wilds (any value cards, as many copies as they
    use), in rank order, each with the value cards it uses packed as `hand_key` packs a hand. A hand
    makes those whose cards it holds: a filter over a few dozen rows (a few hundred with Wilds) where
    trying every pair and triple of its cards took ten times as long, at every hand met first. The
    rows come in blocks by the card of their first term, with that card's place in a packed hand:
    a hand without it skips the block (a third of the filter's time)."""
    rows: list[tuple[int, tuple[Term, ...]]] = [(card_bit(need), ((need, need),))]  # a 0 makes a need of 0 alone
    if wilds:
        rows.append((0, ((WILD, need),)))
    rows += [(needs, terms) for used, needs, terms in _combinations(need) if used <= wilds]
    blocks: list[tuple[int, list[tuple[int, tuple[Term, ...]]]]] = []
    for needs, terms in rows:
        first = _FIELD << CARD_BITS * terms[0][0]
        if blocks and blocks[-1][0] == first:
            blocks[-1][1].append((needs, terms))
        else:
            blocks.append((first, [(needs, terms)]))
    return tuple((first, tuple(block)) for first, block in blocks)


@functools.cache
def _combinations(need: int) -> tuple[tuple[int, int, tuple[Term, ...]], ...]:
    """Every combination of two or three signed terms making `need` (any card, as many copies as it
    uses), in rank order, as (Wilds it uses, the value cards it uses packed as `hand_key` packs a
    hand, its terms). The terms of every value card and of a Wild, sorted by value down then
    card, are listed in one row; a combination's rank is the place of its terms in the row, a pair
    before the triples that start with the same term (the order in which they are found here). The
    terms a hand allows are a subsequence of the row, so the combinations it can make, in rank
    order, are those the plain model (benchmarks/pop_plain.py) lists by trying every pair and
    triple of them in order."""
    terms = sorted([(v, v) for v in range(1, 10)] + [(v, -v) for v in range(1, 10)]
                   + [(WILD, x) for x in range(-9, 10) if x], key=lambda t: (-t[1], t[0]))
    index: dict[int, list[int]] = {}
    for i, (_, value) in enumerate(terms):
        index.setdefault(value, []).append(i)
    found: list[tuple[Term, ...]] = []
    for i, (_, v1) in enumerate(terms):
        found += [(terms[i], terms[k]) for k in index.get(need - v1, ()) if k >= i and v1 != -terms[k][1]]
        for j in range(i, len(terms)):
            v2 = terms[j][1]
            if v1 != -v2:
                found += [(terms[i], terms[j], terms[k]) for k in index.get(need - v1 - v2, ())
                          if k >= j and terms[k][1] != -v1 and terms[k][1] != -v2]
    wilds = [sum(card == WILD for card, _ in combination) for combination in found]
    return tuple(zip(wilds, [sum(card_bit(card) for card, _ in combination if card != WILD) for combination in found],
                     found))

