"""Every legal act of an actor now (`legal_actions`), complete and canonical as `check` returns it, each
made only when asked for: a mover's hand with a Wild can fill a position a hundred ways, a discard choose
among hundreds, and a random player looks at one of them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations

from engine.contract import DEALER
from engine.lazy import LazySequence

from .actions import Action, Deal, Discard, Reveal, Sandstorm, Shuffle, Steal, Stop, Thief, Zero, new_build, new_deal
from .builds import ACTION_FIELDS, COPY_BITS, SANDSTORMS_FIELD, THIEVES_FIELD, ZEROS_FIELD, builds_for
from .cards import CARD_KINDS, HAND_LIMIT, L2_LEFT, L2_RIGHT, L3, SANDSTORM, STEAL_COUNT, THIEF, ZERO
from .choices import choice_ways, nth_choice
from .duties import duties
from .knowledge import NOT_A_PLAYERS, NOT_THE_DEALERS, DealerKnowledge, Knowledge
from .state import State


def legal_actions(s: State, actor: str, knowledge: Knowledge | None = None) -> Sequence[Action]:
    """Every legal act of `actor` now, complete and canonical, as `check` would return it.
    A player's cards need their hand as `knowledge` (without it only `stop` is listed); the dealer's
    reveal and deals need the deck order; a steal lists every choice randomness may make."""
    owed = s.cached_duties or duties(s)  # tuned: mostly asked just after the duties, at every act
    if not owed:
        return []
    duty = owed[0]
    if duty.who != actor:
        return []
    what = duty.what
    if actor != DEALER:  # a mover's (tuned: their acts first, and their knowledge tested without a call)
        if knowledge is None:
            return [Stop()] if what == "move" else []
        if isinstance(knowledge, DealerKnowledge):
            raise TypeError(NOT_A_PLAYERS)
        hand = s.hands[s.turn]
        cards = tuple(map(knowledge.__getitem__, hand))
        return Moves(s, cards) if what == "move" else Discards(hand, cards, len(hand) - HAND_LIMIT)
    if what == "shuffle":  # needs no knowledge
        return [_SHUFFLE]
    if knowledge is not None and not isinstance(knowledge, DealerKnowledge):
        raise TypeError(NOT_THE_DEALERS)
    if what == "reveal":
        return [_REVEALS[knowledge.deck[0]]] if knowledge is not None else []
    if what == "deal":
        return [dealt(s, None if knowledge is None else knowledge.deck)]
    assert what == "steal" and s.victim is not None
    return Steals(s.hands[s.victim], None if knowledge is None else knowledge.cards)


_SHUFFLE = Shuffle()
_REVEALS = tuple(Reveal(card) for card in CARD_KINDS)
"""The dealer's reveal of each card, made once: acts are values, and a frozen one takes microseconds to
make (about every fourth act of a game is a reveal)."""


def dealt(s: State, deck: Sequence[int] | None) -> Deal:
    """The deal owed now, with the top cards of `deck` if the dealer's deck is given."""
    player, count = s.owed_deal[0]
    k, first = min(count, s.deck), len(s.slot_card)
    return new_deal(s.table.players[player], tuple(range(first, first + k)), None if deck is None else tuple(deck[:k]))


def lowest_slots(hand: tuple[int, ...], cards: tuple[int, ...], chosen: Sequence[int]) -> tuple[int, ...]:
    """The slots a canonical act playing the `chosen` cards names (as `check` fills them in): for each,
    in order, the lowest slot of `hand` holding it that is not taken yet (`cards`: the card of each
    slot of `hand`). Tuned: a mover's acts are listed from their hand's cards alone (its slots
    grouped by card cost a tenth of a move), and only the act chosen looks its slots up."""
    taken: list[int] = []
    for card in chosen:
        if cards.count(card) == 1:  # the commoner case, in two calls in C
            taken.append(hand[cards.index(card)])
        else:
            taken.append(min([slot for slot, held in zip(hand, cards) if held == card and slot not in taken]))
    return tuple(taken)


class Steals(LazySequence[Steal]):
    """Every choice of slots a steal may take from the victim's hand, made only when asked for:
    the trust layer's randomness picks one."""

    __slots__ = ("cards", "choices")

    def __init__(self, hand: tuple[int, ...], cards: Mapping[int, int] | None):
        self.choices = list(combinations(sorted(hand), min(STEAL_COUNT, len(hand))))
        self.cards = cards
        self.size = len(self.choices)

    def _item(self, i: int) -> Steal:
        slots = self.choices[i]
        return Steal(slots, None if self.cards is None else tuple(self.cards[x] for x in slots))


class Moves(LazySequence[Action]):
    """A mover's legal acts, each made only when asked for: a hand with a Wild can fill a position
    a hundred ways, and a random player looks at one of them. Then the action cards, as
    (card, opponent, position) until asked for, and stop."""

    __slots__ = ("builds", "cards", "hand", "others", "players")

    def __init__(self, s: State, cards: tuple[int, ...]):
        """The mover's acts, from the card of each slot of their hand (`cards`, in its order)."""
        hand = sum(map(COPY_BITS.__getitem__, cards))  # hand_key
        self.others = _action_cards(s, hand) if hand & ACTION_FIELDS else _NO_OTHERS
        self.builds, builds = builds_for(s.pyramids[s.turn], hand)
        self.hand, self.cards, self.players = s.hands[s.turn], cards, s.table.players
        self.size = builds + len(self.others) + 1

    def _item(self, i: int) -> Action:
        for pos, fillings in self.builds:
            if i < len(fillings):
                terms = fillings[i]
                return new_build(pos, terms, lowest_slots(self.hand, self.cards, [card for card, _ in terms]))
            i -= len(fillings)
        if i == len(self.others):
            return _STOP
        card, p, pos = self.others[i]
        slot = lowest_slots(self.hand, self.cards, (card,))[0]
        if card == ZERO:
            return Zero(self.players[p], pos, slot)
        return Thief(self.players[p], slot) if card == THIEF else Sandstorm(self.players[p], slot)


def _action_cards(s: State, hand: int) -> list[tuple[int, int, int]]:
    """The action cards the mover can play from the hand `hand_key` packs, on each opponent they can be
    played on: (card, opponent, position), made acts only when asked for (tuned: a frozen act costs a
    microsecond to make). `fillable` spelled out over BRIDGES for the upper positions (a mover's acts
    are listed at every move)."""
    me = s.turn
    others: list[tuple[int, int, int]] = []
    opponents = _OPPONENTS[len(s.table.players)][me]
    if hand & ZEROS_FIELD:
        for p in opponents:
            left, middle, right, upper_left, upper_right, top = s.pyramids[p]
            zeros = s.zeros[p]
            if upper_left is None and left is not None and middle is not None and not zeros >> L2_LEFT & 1:
                others.append((ZERO, p, L2_LEFT))
            if upper_right is None and middle is not None and right is not None and not zeros >> L2_RIGHT & 1:
                others.append((ZERO, p, L2_RIGHT))
            if top is None and upper_left is not None and upper_right is not None and not zeros >> L3 & 1:
                others.append((ZERO, p, L3))
    if hand & THIEVES_FIELD:
        others += [(THIEF, p, 0) for p in opponents if s.hands[p]]
    if hand & SANDSTORMS_FIELD:
        others += [(SANDSTORM, p, 0) for p in opponents if not s.storms[p]]
    return others


_OPPONENTS = {n: tuple(tuple(p for p in range(n) if p != me) for me in range(n)) for n in range(3, 7)}
"""_OPPONENTS[players][mover]: the other seats, in order."""
_STOP = Stop()
_NO_OTHERS: list[tuple[int, int, int]] = []
"""No action card to play (shared: never changed)."""


class Discards(LazySequence[Discard]):
    """Every choice of cards to discard, each made only when asked for (which copy of a card goes
    does not matter: the lowest slots holding it). Choices are multisets of cards in the order
    `choices.card_choices` lists them; a random player takes one, so they are counted and the one taken
    is found by its index (`nth_choice`) rather than all listed (a hand of twelve has hundreds)."""

    __slots__ = ("cards", "hand", "held", "k", "ways")

    def __init__(self, hand: tuple[int, ...], cards: tuple[int, ...], k: int):
        """The choices of `k` cards from `hand`, whose slots hold `cards` (in its order)."""
        self.hand, self.cards, self.k = hand, cards, k
        self.held = tuple([(card, min(cards.count(card), k)) for card in sorted(set(cards))])
        self.ways = choice_ways(tuple([n for _, n in self.held]), k)
        self.size = self.ways[0][k]

    def _item(self, i: int) -> Discard:
        cards = nth_choice(self.held, self.k, i, self.ways)
        return Discard(cards, lowest_slots(self.hand, self.cards, cards))

