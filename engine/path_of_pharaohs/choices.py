"""The choices of cards to discard down to the hand limit, as multisets of cards in one fixed order:
counted, and the i-th found by its index, without listing them (a hand of twelve has hundreds, and a
random player takes one)."""

from __future__ import annotations

import functools


def card_choices(held: tuple[tuple[int, int], ...], k: int) -> tuple[tuple[int, ...], ...]:
    """Every multiset of `k` cards from `held` ((card, copies) pairs, cards ascending): as many of the
    first card as can be (descending), each followed by the choices of the rest. The order
    `nth_choice` indexes; tests/engines/test_pop_properties.py holds them together."""
    if k == 0:
        return ((),)
    if not held:
        return ()
    (card, copies), rest = held[0], held[1:]
    out: list[tuple[int, ...]] = []
    for n in range(min(copies, k), -1, -1):
        out += [(card,) * n + tail for tail in card_choices(rest, k - n)]
    return tuple(out)


@functools.lru_cache(maxsize=1 << 14)
def choice_ways(copies: tuple[int, ...], k: int) -> tuple[tuple[int, ...], ...]:
    """ways[j][m]: how many multisets of m cards (m <= k) there are of cards held in these numbers of
    `copies`, from the j-th card on. Remembered by the copies alone, not the cards (a few thousand
    shapes of hand, where hands of every card crowded each other out of a cache)."""
    row = (1,) + (0,) * k
    ways = [row]
    for n in reversed(copies):
        row = tuple([sum(row[max(0, m - n):m + 1]) for m in range(k + 1)])
        ways.append(row)
    ways.reverse()
    return tuple(ways)


def choice_count(held: tuple[tuple[int, int], ...], k: int) -> int:
    """len(card_choices(held, k)), without listing them."""
    return choice_ways(tuple([n for _, n in held]), k)[0][k]


def nth_choice(held: tuple[tuple[int, int], ...], k: int, i: int,
               ways: tuple[tuple[int, ...], ...] | None = None) -> tuple[int, ...]:
    """card_choices(held, k)[i], without listing the others (`ways`: choice_ways of held's copies)."""
    if k == 1:  # tuned: four discards in ten are of one card, and its choices are the cards held, in order
        return (held[i][0],)
    if ways is None:
        ways = choice_ways(tuple([n for _, n in held]), k)
    out: tuple[int, ...] = ()
    j = 0
    while k:
        card, copies = held[j]
        j += 1
        for n in range(min(copies, k), -1, -1):
            count = ways[j][k - n]
            if i < count:
                out += (card,) * n
                k -= n
                break
            i -= count
    return out

