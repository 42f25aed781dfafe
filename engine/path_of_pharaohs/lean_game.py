"""The lean game's turns and the mover's acts, for the playouts (lean.py's random one, lean_greedy.py's
greedy one), where only who wins and where everyone ends matters.

The full rules (rules.py) build a public State act by act, with hands of opaque slots, duties and
a list of legal acts; `playout.play_out` carries one of their `Play`s through a game for the
driver, which keeps the log and the end state. Here a game is a few lists changed in place (cards as
small ints, a hand as its cards in the order of their slots and its counts packed in one int, a
pyramid as six values: lean_table.py, with the dealer's and the path's acts), the turn goes in the
order the rules take it (bases, moves, the place taken, the draw, the discard) instead of being
asked of the duties at each act, and nothing is built that only a record or a report reads. The
players' choices (`_moves`, `_discard_choice`) are each playout's own; the dealer's acts, the steals
and the reshuffles are the same for both.
"""

from __future__ import annotations

from .actions import Action, Build, Discard, Sandstorm, Stop, Thief, Zero
from .builds import CARD_BITS, COPY_BITS, Fillings, bridge_fillings, middle_fillings
from .cards import (
    ALEXANDRIA,
    COMPLETION_BONUS,
    DRAW_COUNT,
    HAND_LIMIT,
    L1_LEFT,
    L1_RIGHT,
    L3,
    POINTS,
    SANDSTORM,
    THIEF,
    ZERO,
)
from .choices import choice_ways, nth_choice
from .duties import owed_kind
from .lean_table import NONE, LeanTable
from .state import DISCARD, SETUP, Term

_MASKS = tuple(bit * ((1 << CARD_BITS) - 1) for bit in COPY_BITS)
"""Where a packed hand (builds.hand_key) counts each card."""
_ACTION_CARDS = _MASKS[ZERO] | _MASKS[THIEF] | _MASKS[SANDSTORM]
_NO_ACTS: list[tuple[int, int, int]] = []


def fillings(values: list[int], held: int) -> tuple[Fillings, Fillings, Fillings, Fillings]:
    """The ways to fill the level-1 middle, 2l, 2r and 3 of a pyramid (its `values`) from the hand
    `held` packs, as legal_acts.Moves lists them (builds.builds_for: middle_fillings and bridge_fillings over
    the values; none where a position cannot be filled now)."""
    left, middle, right, upper_left, upper_right, top = values
    return (middle_fillings(held) if middle == NONE else (),
            bridge_fillings(abs(left - middle), held) if upper_left == NONE and left != NONE and middle != NONE else (),
            bridge_fillings(abs(middle - right), held) if upper_right == NONE and middle != NONE and right != NONE
            else (),
            bridge_fillings(abs(upper_left - upper_right), held)
            if top == NONE and upper_left != NONE and upper_right != NONE else ())


class LeanGame(LeanTable):
    """One game to its end over a LeanTable's lists (see the module's docstring): the turn in the
    order the rules take it, and the mover's acts; each playout's subclass makes its players' choices."""

    __slots__ = ()

    # -- a game, turn by turn

    def play(self) -> None:
        s = self.start
        if owed_kind(s) is None:
            return
        if s.phase == SETUP:
            for p, pos in s.owed_bases:
                self._deal_base(p, pos)
            for p, count in s.owed_deal:
                self._deal(p, count)
        elif s.phase == DISCARD:
            if self._finish_turn(s.built, s.drew):
                return
        elif self._end_turn(self._moves(s.built)):
            return
        while not self._turn():
            pass

    def _turn(self) -> bool:
        """One whole turn; True if the game is over."""
        me = self.turn
        values = self.values[me]
        skipped = self.storms[me] or not self.hands[me]
        if skipped and self._take_place():  # a skipped turn ends before its empty bases are dealt
            return True
        if values[L1_LEFT] == NONE:
            self._deal_base(me, L1_LEFT)
        if values[L1_RIGHT] == NONE:
            self._deal_base(me, L1_RIGHT)
        if skipped:
            return self._draw(False)
        return self._end_turn(self._moves(False))

    def _end_turn(self, built: bool) -> bool:
        """The mover's marker takes its place, then the draw; True if the game is over."""
        if self._take_place():
            return True
        return self._draw(built)

    def _draw(self, built: bool) -> bool:
        """The mover draws, discards down to the hand limit; True if the game is over."""
        drew = self._deal(self.turn, DRAW_COUNT)
        return self._finish_turn(built, drew)

    def _finish_turn(self, built: bool, drew: bool) -> bool:
        me = self.turn
        if len(self.hands[me]) > HAND_LIMIT:
            self._discard()
        if self.storms[me]:
            self.storms[me] = False
            self.discards.append(SANDSTORM)
        self.idle = 0 if built or drew else self.idle + 1
        if self.idle >= self.n:
            best = max(self.location)
            self.winners = tuple(p for p in range(self.n) if self.location[p] == best)
            return True
        self.turn = (me + 1) % self.n
        return False

    # -- the mover's choices

    def _moves(self, built: bool) -> bool:
        """The mover's acts until they stop or hold no card; whether they built (each playout's own
        choices, in the order legal_acts.Moves lists the acts)."""
        raise NotImplementedError

    def _stop(self) -> None:
        if self.trace is not None:
            self.trace.append((self.names[self.turn], Stop()))

    def _action_card(self, card: int, target: int, pos: int) -> None:
        slot = self._play(card)
        if self.trace is not None:
            name = self.names[target]
            act: Action = (Zero(name, pos, slot) if card == ZERO else Thief(name, slot) if card == THIEF
                           else Sandstorm(name, slot))
            self.trace.append((self.names[self.turn], act))
        if card == ZERO:
            self.zeros[target] |= 1 << pos
        elif card == THIEF:
            self.discards.append(THIEF)
            self._steal(target)
        else:
            self.storms[target] = True
            self._advance_sands()

    def _others(self) -> list[tuple[int, int, int]]:
        """The mover's action cards to play now (`_action_cards`). Tuned: the same after a build (which
        takes no action card and changes no opponent's pyramid, hand or Sandstorm), so worked out
        again only after an action card is played."""
        held = self.packed[self.turn]
        return self._action_cards(held) if held & _ACTION_CARDS else _NO_ACTS

    def _action_cards(self, held: int) -> list[tuple[int, int, int]]:
        """(card, opponent, position) of each action card the mover can play, as legal_acts._action_cards
        lists them."""
        me, n = self.turn, self.n
        out: list[tuple[int, int, int]] = []
        if held & _MASKS[ZERO]:
            for p in range(n):
                if p != me:
                    left, middle, right, upper_left, upper_right, top = self.values[p]
                    zeros = self.zeros[p]
                    if upper_left == NONE and left != NONE and middle != NONE and not zeros >> 3 & 1:
                        out.append((ZERO, p, 3))
                    if upper_right == NONE and middle != NONE and right != NONE and not zeros >> 4 & 1:
                        out.append((ZERO, p, 4))
                    if top == NONE and upper_left != NONE and upper_right != NONE and not zeros >> 5 & 1:
                        out.append((ZERO, p, 5))
        if held & _MASKS[THIEF]:
            out += [(THIEF, p, 0) for p in range(n) if p != me and self.hands[p]]
        if held & _MASKS[SANDSTORM]:
            out += [(SANDSTORM, p, 0) for p in range(n) if p != me and not self.storms[p]]
        return out

    def _play(self, card: int) -> int:
        """The mover's lowest slot holding `card` leaves the hand; its slot."""
        me = self.turn
        hand = self.hands[me]
        i = hand.index(card)
        del hand[i]
        self.packed[me] -= COPY_BITS[card]
        return self.slots[me].pop(i)

    def _build(self, pos: int, terms: tuple[Term, ...]) -> None:
        me = self.turn
        hand, in_slots, packed = self.hands[me], self.slots[me], self.packed
        slots = []
        for card, _ in terms:  # _play, spelled out: a build is the commonest act
            i = hand.index(card)
            del hand[i]
            packed[me] -= COPY_BITS[card]
            slots.append(in_slots.pop(i))
        if self.trace is not None:
            self.trace.append((self.names[me], Build(pos, terms, tuple(slots))))
        values, on = self.values[me], self.terms[me]
        values[pos] = terms[0][1] if len(terms) == 1 else sum([value for _, value in terms])
        on[pos] = terms
        points = 0 if self.zeros[me] >> pos & 1 else POINTS[pos]
        if pos == L3:  # complete: every card to the discards, a new base (once the marker has moved)
            discards = self.discards
            for placed in on:
                discards += [card for card, _ in placed]
            discards += [ZERO] * self.zeros[me].bit_count()
            self.zeros[me] = 0
            values[:] = [NONE] * 6
            on[:] = [()] * 6
            points += COMPLETION_BONUS
        if points and self.location[me] < ALEXANDRIA:
            self.location[me] = min(ALEXANDRIA, self.location[me] + points)
            self.space[me] = NONE
        if pos == L3:
            self._deal_base(me, L1_LEFT)
            self._deal_base(me, L1_RIGHT)

    def _discard(self) -> None:
        """Down to the hand limit: the choice among legal_acts.Discards' that `_discard_choice` makes."""
        me = self.turn
        hand = self.hands[me]
        k = len(hand) - HAND_LIMIT
        held = tuple([(card, min(hand.count(card), k)) for card in sorted(set(hand))])
        ways = choice_ways(tuple([n for _, n in held]), k)
        cards = nth_choice(held, k, self._discard_choice(held, k, ways), ways)
        slots = tuple([self._play(card) for card in cards])
        if self.trace is not None:
            self.trace.append((self.names[me], Discard(cards, slots)))
        self.discards += cards

    def _discard_choice(self, held: tuple[tuple[int, int], ...], k: int, ways: tuple[tuple[int, ...], ...]) -> int:
        """The index of the discard chosen among legal_acts.Discards' (of `k` cards from `held`, (card,
        copies) pairs; `ways` their choice_ways): each playout's own choice."""
        raise NotImplementedError


__all__ = ["LeanGame", "fillings"]
