"""The lean state of a game (lists changed in place, for lean_game.py's playouts) and the acts that
change it without a player's choice: the dealer's (reveals, deals, reshuffles, steals) and the path's
(the sands, the mummies, a marker taking its place or falling back).

Apart from the turn and the mover's acts (lean_game.LeanGame, built on LeanTable): these are the
same whichever playout plays and whatever its players choose, and read on their own.
"""

from __future__ import annotations

import random
from bisect import bisect
from collections.abc import Mapping

from engine.contract import DEALER
from engine.shuffle import shuffle

from .actions import Action, Deal, Reveal, Shuffle, Steal
from .builds import COPY_BITS, hand_key
from .cards import ALEXANDRIA, BUMP_BACK, CARD_KINDS, DOUBLE, MUMMIES, SANDS_TO_WAKE, SANDSTORM, STEAL_COUNT, A, B
from .duties import owed_kind
from .state import PLAY, SETUP, State, Term

Trace = list[tuple[str, Action]]
NONE = -1
"""An empty position's value, and the space of a marker at the start or on the move."""


def lean_start(s: State) -> bool:
    """A state the lean game starts from: a player owes a choice, or the game is being set up, or over."""
    what = owed_kind(s)
    return what is None or s.phase == SETUP or (s.phase == PLAY and what == "move") or what == "discard"


class LeanTable:
    """A game's state over lists changed in place, and the dealer's and the path's acts on it.
    Tuned for speed, as play.Play is not: the hot loops read their lists into locals once; a hand
    is a list of cards (`hands`) beside the list of their slots (`slots`), both in slot order, so
    that finding the lowest slot holding a card (the one an act names) is `list.index`; and its
    counts by card are packed in one int (`packed`), the key its ways to fill a position are
    remembered by."""

    __slots__ = ("dealer_draws", "deck", "discards", "hands", "idle", "location", "mummies", "n", "names", "next_slot",
                 "packed", "rng", "sands", "slots", "space", "start", "storms", "terms", "trace", "turn", "values",
                 "winners", "zeros")

    def __init__(self, s: State, cards: Mapping[int, int], deck: list[int], rng: random.Random,
                 trace: Trace | None = None):
        assert lean_start(s), "the dealer owes nothing but the setup"
        self.start = s
        self.names = s.table.players
        self.n = len(self.names)
        self.rng = rng
        self.trace = trace
        self.dealer_draws = False
        """Whether each of the dealer's acts takes a draw of `rng` (as the search's worlds do), or only
        a steal (as the driver does)."""
        self.deck = deck[::-1]
        """The deck, top last: drawing is a pop."""
        self.discards = list(s.discards)
        self.slots = [sorted(hand) for hand in s.hands]
        self.hands = [[cards[slot] for slot in slots] for slots in self.slots]
        self.packed = [hand_key([hand.count(card) for card in CARD_KINDS]) for hand in self.hands]
        """How many of each card each hand holds, packed in one int (builds.hand_key)."""
        self.next_slot = len(s.slot_card)
        self.values = [[NONE if filled is None else filled[0] for filled in pyramid] for pyramid in s.pyramids]
        self.terms: list[list[tuple[Term, ...]]] = [[() if filled is None else filled[1] for filled in pyramid]
                                                    for pyramid in s.pyramids]
        self.zeros = list(s.zeros)
        self.location = list(s.location)
        self.space = [NONE if space is None else space for space in s.space]
        self.sands, self.mummies = s.sands, s.mummies
        self.storms = list(s.storms)
        self.turn, self.idle = s.turn, s.idle
        self.winners: tuple[int, ...] = s.winners

    # -- the dealer

    def _steal(self, victim: int) -> None:
        """The dealer's steal after a Thief: legal_acts.Steals' choice at random (the pairs of the victim's
        slots in order), found by its index."""
        me = self.turn
        cards, slots = self.hands[victim], self.slots[victim]
        n = len(slots)
        k = min(STEAL_COUNT, n)
        if k == 1:
            taken = [int(self.rng.random() * n)]
        else:
            i, first = int(self.rng.random() * (n * (n - 1) // 2)), 0
            while i >= n - 1 - first:
                i -= n - 1 - first
                first += 1
            taken = [first, first + 1 + i]
        stolen = [(slots[x], cards[x]) for x in taken]
        for x in reversed(taken):
            del cards[x], slots[x]
        mine, my_slots = self.hands[me], self.slots[me]
        for slot, card in stolen:
            x = bisect(my_slots, slot)
            my_slots.insert(x, slot)
            mine.insert(x, card)
            self.packed[victim] -= COPY_BITS[card]
            self.packed[me] += COPY_BITS[card]
        if self.trace is not None:
            self.trace.append((DEALER, Steal(tuple(slot for slot, _ in stolen), tuple(card for _, card in stolen))))

    def _shuffle(self) -> None:
        if self.dealer_draws:
            self.rng.random()
        deck = self.discards
        shuffle(self.rng, deck)
        deck.reverse()  # top last
        self.deck, self.discards = deck, []
        if self.trace is not None:
            self.trace.append((DEALER, Shuffle()))

    def _deal_base(self, p: int, pos: int) -> None:
        """Turn up cards until a value card lies on the base (none left anywhere: it stays empty)."""
        while True:
            if not self.deck:
                if not any(card <= 9 for card in self.discards):
                    return
                self._shuffle()
            card = self.deck.pop()
            if self.dealer_draws:
                self.rng.random()
            if self.trace is not None:
                self.trace.append((DEALER, Reveal(card)))
            if card <= 9:
                self.values[p][pos] = card
                self.terms[p][pos] = ((card, card),)
                return
            self.discards.append(card)
            if card == SANDSTORM:
                self._advance_sands()

    def _deal(self, p: int, count: int) -> bool:
        """Deal `count` cards to `p`, reshuffling as needed; whether any card was dealt."""
        dealt = False
        while count:
            deck = self.deck
            if not deck:
                if not self.discards:
                    return dealt
                self._shuffle()
                deck = self.deck
            if self.dealer_draws:
                self.rng.random()
            k = min(count, len(deck))
            cards = deck[:-k - 1:-1]  # the top k, top first
            del deck[-k:]
            first = self.next_slot
            self.next_slot = slots_end = first + k
            self.hands[p] += cards
            self.slots[p] += range(first, slots_end)
            held = self.packed[p]
            for card in cards:
                held += COPY_BITS[card]
            self.packed[p] = held
            count -= k
            dealt = True
            if self.trace is not None:
                self.trace.append((DEALER, Deal(self.names[p], tuple(range(first, slots_end)), tuple(cards))))
        return dealt

    # -- the path

    def _advance_sands(self) -> None:
        if self.mummies == len(MUMMIES):
            return
        self.sands += 1
        if self.sands < SANDS_TO_WAKE:
            return
        location = MUMMIES[self.mummies]
        self.mummies += 1
        self.sands = 0
        for p in range(self.n):
            if self.location[p] == location and self.space[p] == B:
                self._fall_back(p, location - 1)

    def _free_space(self, location: int) -> int:
        """board.free_space: A before B, NONE if full."""
        a = b = False
        for loc, space in zip(self.location, self.space):
            if loc == location:
                if space == A:
                    a = True
                elif space == B:
                    b = True
        if not a:
            return A
        if location in DOUBLE and location not in MUMMIES[:self.mummies] and not b:
            return B
        return NONE

    def _fall_back(self, p: int, start: int) -> None:
        self.space[p] = NONE
        location, space = max(0, start), NONE
        while location > 0:
            space = self._free_space(location)
            if space != NONE:
                break
            location -= 1
        self.location[p], self.space[p] = location, space

    def _take_place(self) -> bool:
        """The mover's marker takes its place at the end of the turn, bumping if it must; True if it
        is on Alexandria (the mover wins)."""
        me = self.turn
        location = self.location[me]
        if location != 0 and self.space[me] == NONE:
            space = self._free_space(location)
            bumped = NONE
            if space == NONE:
                space = B if location in DOUBLE and location not in MUMMIES[:self.mummies] else A
                bumped = next(p for p in range(self.n) if self.location[p] == location and self.space[p] == space)
            self.space[me] = space
            if bumped != NONE:
                self._fall_back(bumped, location - BUMP_BACK)
        if location == ALEXANDRIA:
            self.winners = (me,)
            return True
        return False



__all__ = ["NONE", "LeanTable", "Trace", "lean_start"]
