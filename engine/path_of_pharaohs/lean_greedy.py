"""The lean greedy playout: the search bot's playouts (search.py), greedy to the end over the lean
state (lean_game.LeanGame), where only who wins and where everyone ends matters.

It plays the game the search plays out act by act through the full rules with
`driver.greedy_policy` (search._play_out): every act greedy would make, from the same draws of the
random generator in the same order. Greedy draws nothing for a move (its ratings of builds and
action cards have no noise); it rates every discard with a draw (`rng.random()` breaks ties), unless
there is only one, which the search plays without asking; and the search's world takes a draw for
each of the dealer's acts (a reveal, a deal, a reshuffle before its shuffle, a steal's choice).
tests/engines/test_pop_lean_greedy.py holds it to that act by act, with the generator's state at the end;
`python benchmarks/pop_playouts.py --soak N` over thousands more games.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping, Sequence

from .builds import KEPT, Fillings
from .cards import L1_MIDDLE, L2_LEFT, L2_RIGHT, L3, POINTS, THIEF, WILD, ZERO
from .choices import card_choices
from .lean_game import LeanGame, fillings
from .lean_table import NONE, Trace, lean_start
from .state import State, Term

_PLACES = (L1_MIDDLE, L2_LEFT, L2_RIGHT, L3)


def greedy_playout(state: State, cards: Mapping[int, int], deck: Sequence[int], rng: random.Random,
                   trace: Trace | None = None) -> tuple[tuple[str, ...], dict[str, int]]:
    """The winners and every player's final location of the game the search plays out from
    `state` with greedy_policy and this `rng` (search._play_out). `state` is one where a player owes
    a choice (as the search's world leaves it), or over; `cards` and `deck` as lean.random_winners
    takes them (neither is changed); `trace`, if given, gains every act as the driver logs it."""
    if not lean_start(state):
        raise ValueError("a greedy playout starts where a player owes a choice")
    game = GreedyGame(state, cards, list(deck), rng, trace)
    game.play()
    return tuple(game.names[p] for p in game.winners), dict(zip(game.names, game.location))


class GreedyGame(LeanGame):
    """A LeanGame whose players choose as driver.greedy_policy does, in a world that takes a draw
    for each of the dealer's acts."""

    __slots__ = ()

    def __init__(self, s: State, cards: Mapping[int, int], deck: list[int], rng: random.Random,
                 trace: Trace | None = None):
        super().__init__(s, cards, deck, rng, trace)
        self.dealer_draws = True

    def _moves(self, built: bool) -> bool:
        """The mover's acts, each the first of the best rated among the legal ones in the order
        legal_acts.Moves lists them (greedy_rating: a build by the points it moves and the cards it
        spends, an action card by its target, stop 0), until they stop or hold no card."""
        hand = self.hands[self.turn]
        others, build = self._others(), self._best_build()
        while hand:
            best, place, terms = build
            card = card_target = card_pos = NONE
            if others:
                leader = self._leader()
                for other, target, pos in others:
                    rating = 3 if other == THIEF else 4 + 4 * (target == leader)
                    if rating > best:
                        best, card, card_target, card_pos = rating, other, target, pos
            if best < 0:  # stop, rated 0, comes last: it wins only over acts rated below it
                self._stop()
                return built
            if card != NONE:
                self._action_card(card, card_target, card_pos)
                others = self._others()
                if card == THIEF:  # the steal brings cards; a Zero or a Sandstorm leaves the builds as they were
                    build = self._best_build()
                continue
            self._build(place, terms)
            built = True
            build = self._best_build()
        return built

    def _best_build(self) -> tuple[int, int, tuple[Term, ...]]:
        """greedy_rating's best build now, the first of the best in the order legal_acts.Moves lists them:
        (its rating, position, terms), or a rating below any act's if none can be made."""
        me = self.turn
        zeros = self.zeros[me]
        best, place = -1_000, NONE
        terms: tuple[Term, ...] = ()
        for pos, ways in zip(_PLACES, fillings(self.values[me], self.packed[me])):
            if ways:
                cost, cheapest = _cheapest(ways)
                points = 0 if zeros >> pos & 1 else POINTS[pos] + 2 * (pos == L3)
                rating = 10 * points + 3 - cost
                if rating > best:
                    best, place, terms = rating, pos, cheapest
        return best, place, terms

    def _leader(self) -> int:
        """The opponent an action card is best aimed at: the furthest on the path, the first in
        seat order among equals (greedy_rating's `leader`)."""
        me, location = self.turn, self.location
        return max([p for p in range(self.n) if p != me], key=location.__getitem__)

    def _discard_choice(self, held: tuple[tuple[int, int], ...], k: int, ways: tuple[tuple[int, ...], ...]) -> int:
        """greedy_rating's choice: the fewest action cards, ties broken by a draw for every choice in
        order (the first of the highest rated wins, as `max` takes it); a lone choice without a draw."""
        choices = ways[0][k]
        if choices == 1:
            return 0
        draw = self.rng.random
        drawn = [draw() for _ in range(choices)]
        fewest, candidates = _fewest_action_cards(tuple([n for _, n in held]), sum(card < ZERO for card, _ in held), k)
        penalty = -3 * fewest  # greedy adds an int to each draw: the same sums, rounded alike
        return max(candidates, key=lambda i: penalty + drawn[i])


def _cheapest(fillings: Fillings) -> tuple[int, tuple[Term, ...]]:
    """The first of the ways to fill a position that spends the fewest cards, a Wild counting three
    (greedy_rating's cost), with that cost. Remembered for each list of ways (rules remembers the
    lists: the same object for the same hand and need); keyed by its identity, as hashing a list of
    a hundred ways would cost as much as looking through it, and each entry holds its list, so that
    no other list can take its identity while it is remembered."""
    entry = _CHEAPEST.get(id(fillings))
    if entry is not None:
        return entry[1]
    if len(_CHEAPEST) >= KEPT:
        _CHEAPEST.clear()
    best, found = 10, fillings[0]
    for terms in fillings:
        cost = len(terms) + 2 * sum([card == WILD for card, _ in terms])
        if cost < best:
            best, found = cost, terms
            if cost <= 2:  # only the first way can cost 1 (a single value card): after it, none costs less than 2
                break
    _CHEAPEST[id(fillings)] = (fillings, (best, found))
    return best, found


_CHEAPEST: dict[int, tuple[Fillings, tuple[int, tuple[Term, ...]]]] = {}


@functools.lru_cache(maxsize=1 << 12)
def _fewest_action_cards(copies: tuple[int, ...], values: int, k: int) -> tuple[int, tuple[int, ...]]:
    """Of the choices of `k` cards from a hand whose kinds are held in these numbers of `copies`
    (value cards first, `values` kinds of them, then action cards), in choices.card_choices' order:
    the fewest action cards a choice holds, and the index of every choice that holds that few.
    Remembered by the hand's shape (a few hundred)."""
    held = tuple(enumerate(copies))
    counts = [sum(kind >= values for kind in choice) for choice in card_choices(held, k)]
    fewest = min(counts)
    return fewest, tuple(i for i, n in enumerate(counts) if n == fewest)


__all__ = ["GreedyGame", "greedy_playout"]
