"""What the table shows, read from the public state: which pyramid positions can be filled and with
what value, the cards lying face up, the spaces free on the path."""

from __future__ import annotations

from .cards import BRIDGES, CARD_KINDS, DOUBLE, MUMMIES, SANDSTORM, A, B
from .state import Pyramid, State, cards_on


def fillable(pyramid: Pyramid, pos: int) -> bool:
    """An empty position whose bridged positions are filled (the level-1 middle: whenever empty)."""
    if pyramid[pos] is not None:
        return False
    below = BRIDGES.get(pos)
    return below is None or (pyramid[below[0]] is not None and pyramid[below[1]] is not None)


def to_bridge(pyramid: Pyramid, pos: int) -> int:
    """The value an upper position must hold: the difference of the two it bridges (both filled)."""
    left, right = pyramid[BRIDGES[pos][0]], pyramid[BRIDGES[pos][1]]
    assert left is not None and right is not None, "only a fillable position has a value to bridge"
    return abs(left[0] - right[0])


def public_counts(s: State) -> list[int]:
    """How many cards of each kind lie face up: discards, pyramids, Zero cards, Sandstorms in front."""
    counts = [0] * len(CARD_KINDS)
    for card in s.discards:
        counts[card] += 1
    for pyramid, zeros in zip(s.pyramids, s.zeros):
        for card in cards_on(pyramid, zeros):
            counts[card] += 1
    counts[SANDSTORM] += sum(s.storms)
    return counts


def card_total(s: State) -> int:
    """Every card counted where it lies: the deck, the discards, hands, pyramids, Sandstorms in front.
    Always the deck's size (the property tests hold the rules to it)."""
    on_pyramids = 0
    for pyramid, zeros in zip(s.pyramids, s.zeros):
        on_pyramids += zeros.bit_count()
        for filled in pyramid:
            if filled is not None:
                on_pyramids += len(filled[1])
    return s.deck + len(s.discards) + sum(map(len, s.hands)) + on_pyramids + sum(s.storms)


def closed(s: State, location: int) -> bool:
    """A woken mummy has closed this location's B space."""
    return location in MUMMIES[:s.mummies]


def free_space(s: State, location: int) -> int | None:
    """The space a marker arriving at `location` (above 0) would take: A before B; None if full."""
    taken = [sp for loc, sp in zip(s.location, s.space) if loc == location and sp is not None]
    if A not in taken:
        return A
    if location in DOUBLE and not closed(s, location) and B not in taken:
        return B
    return None

