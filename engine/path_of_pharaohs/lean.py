"""The lean playout: random play to the end of the game over a compact state, for the search bot's
playouts and the benchmarks, where only who wins matters.

The game goes over the lean state and its steps (lean_table.py: a few lists changed in place, and
the dealer's and the path's acts; lean_game.py: the turn in the order the rules take it, the mover's
acts); here are the random players' choices.

It plays the game the driver plays with `driver.random_policy`: the same draws of the random
generator in the same order (an index into the acts `legal_actions` would list for each move,
discard and steal; `shuffle` for each reshuffle), so the same acts and the same winners.
tests/engines/test_pop_lean.py holds it to that over 650 seeded games, act by act (`trace` gives the acts
as the driver logs them); `python benchmarks/pop_playouts.py --soak N` over thousands more.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from .cards import L1_MIDDLE, L2_LEFT, L2_RIGHT, L3, THIEF
from .lean_game import LeanGame, fillings
from .lean_table import Trace, lean_start
from .playout import play_out
from .state import State


def random_winners(state: State, cards: Mapping[int, int], deck: Sequence[int], rng: random.Random,
                   trace: Trace | None = None) -> tuple[str, ...]:
    """Who wins the game from `state`, every player's choice at random: the winners of the game the
    driver would play from there with `random_policy` and this `rng`. `cards` holds the card of every
    slot in a hand, `deck` the deck order (top first): a driver's secrets or a search's sampled world;
    neither is changed. `trace`, if given, gains every act as the driver logs it."""
    game = RandomGame(*_at_a_choice(state, cards, deck, rng, trace), rng, trace)
    game.play()
    return tuple(game.names[p] for p in game.winners)


def _at_a_choice(state: State, cards: Mapping[int, int], deck: Sequence[int], rng: random.Random,
                 trace: Trace | None) -> tuple[State, Mapping[int, int], list[int]]:
    """`state` if the lean game can take it from there (a player owes a choice, the game is set up or
    over), else the dealer's acts by the full rules until it can: a state given half way through the
    dealer's acts (a steal or a deal owed) is rare, and not worth a second copy of those rules."""
    if lean_start(state):
        return state, cards, list(deck)
    cards, deck = dict(cards), list(deck)
    return play_out(state, cards, deck, rng, trace, until=lean_start), cards, deck



class RandomGame(LeanGame):
    """A LeanGame whose players choose at random, as driver.random_policy does."""

    __slots__ = ()

    def _moves(self, built: bool) -> bool:
        """The mover's acts, each drawn at random among the legal ones in the order legal_acts.Moves lists
        them (builds by position: the level-1 middle, 2l, 2r, 3; Zero Block Values, Thieves,
        Sandstorms; stop), until they stop or hold no card; whether they built."""
        me = self.turn
        hand, values, packed = self.hands[me], self.values[me], self.packed
        draw = self.rng.random
        others, ways = self._others(), fillings(values, packed[me])
        while hand:
            middles, lefts, rights, tops = ways
            n_middles, n_lefts, n_rights, n_tops = len(middles), len(lefts), len(rights), len(tops)
            i = int(draw() * (n_middles + n_lefts + n_rights + n_tops + len(others) + 1))
            # the i-th act, position by position (spelled out: a tuple of them built at every move cost 3%)
            if i < n_middles:
                self._build(L1_MIDDLE, middles[i])
            elif (i := i - n_middles) < n_lefts:
                self._build(L2_LEFT, lefts[i])
            elif (i := i - n_lefts) < n_rights:
                self._build(L2_RIGHT, rights[i])
            elif (i := i - n_rights) < n_tops:
                self._build(L3, tops[i])
            elif (i := i - n_tops) < len(others):
                card, target, pos = others[i]
                self._action_card(card, target, pos)
                others = self._others()
                if card == THIEF:  # the steal brings cards; a Zero or a Sandstorm leaves the ways to build as they were
                    ways = fillings(values, packed[me])
                continue
            else:
                self._stop()
                return built
            built = True
            ways = fillings(values, packed[me])
        return built

    def _discard_choice(self, held: tuple[tuple[int, int], ...], k: int, ways: tuple[tuple[int, ...], ...]) -> int:
        """The index of the discard chosen among legal_acts.Discards' (of `k` cards from `held`, (card,
        copies) pairs; `ways` their choice_ways): at random."""
        return int(self.rng.random() * ways[0][k])


__all__ = ["RandomGame", "random_winners"]
