"""Random play to the end of the game, the search's and the benchmarks' inner loop, on the rules' own
`Play`: one working copy of the state carried through every act, instead of a fresh State, its
duties, a list of legal acts and a policy call at each one.

It makes the choices `driver.random_policy` makes from the same draws of the random generator (one
draw per move, discard or steal: an index into the acts `legal_actions` lists, which it shares:
`moves`, `Discards`, `Steals`, `dealt`), and the dealer's acts the driver makes, so a game played here
is the game the driver plays (tests/engines/test_pop_playout.py). The deck and the hands' cards come from the
full knowledge given: a driver's secrets or a search's sampled world.
"""

from __future__ import annotations

import random
from collections.abc import Callable, MutableMapping

from engine.contract import DEALER
from engine.shuffle import shuffle

from .actions import Action, Reveal, Shuffle
from .cards import HAND_LIMIT
from .duties import owed_kind
from .legal_acts import Discards, Moves, Steals, dealt
from .play import Play
from .state import State


def play_out(state: State, cards: MutableMapping[int, int], deck: list[int], rng: random.Random,
             log: list[tuple[str, Action]] | None = None,
             known: MutableMapping[str, dict[int, int]] | None = None,
             until: Callable[[State], bool] | None = None) -> State:
    """The end of the game from `state`, every player's choice at random. `cards` holds the card of
    every slot in a hand and gains each card dealt; `deck` (top first) loses the cards revealed and
    dealt and is shuffled anew from the discards. `log`, if given, gains every act as the driver logs
    it; `known`, if given, each player's own cards as the driver keeps them. With `until`, it stops
    at the first state that satisfies it (lean.py takes the game on from there)."""
    play = Play(state, report=False)
    s = play.s
    names = s.table.players
    act, draw = play.act, rng.random  # looked up once
    while until is None or not until(s):
        what = owed_kind(s)
        actor = DEALER
        action: Action
        if what == "move":
            actor = names[s.turn]
            acts = Moves(s, tuple(map(cards.__getitem__, s.hands[s.turn])))
            action = acts[int(draw() * len(acts))]
        elif what == "deal":
            action = dealt(s, deck)
            assert action.cards is not None
            del deck[:len(action.cards)]
            cards.update(zip(action.slots, action.cards))
            if known is not None:
                known[action.player].update(zip(action.slots, action.cards))
        elif what == "reveal":
            action = Reveal(deck.pop(0))
        elif what is None:
            return s
        else:
            actor, action = _rarer_act(s, what, cards, deck, rng, known)
        if log is not None:
            log.append((actor, action))
        act(action)
    return s


def _rarer_act(s: State, what: str, cards: MutableMapping[int, int], deck: list[int], rng: random.Random,
               known: MutableMapping[str, dict[int, int]] | None) -> tuple[str, Action]:
    """A discard, a steal or a reshuffle: the rarer acts, as the driver makes them."""
    names = s.table.players
    if what == "discard":
        hand = s.hands[s.turn]
        choices = Discards(hand, tuple(map(cards.__getitem__, hand)), len(hand) - HAND_LIMIT)
        return names[s.turn], choices[int(rng.random() * len(choices))]
    if what == "steal":
        assert s.victim is not None, "a steal follows a Thief"
        steals = Steals(s.hands[s.victim], cards)
        steal = steals[int(rng.random() * len(steals))]
        if known is not None:
            thief, victim = known[names[s.turn]], known[names[s.victim]]
            for slot in steal.slots:
                thief[slot] = victim.pop(slot)
        return DEALER, steal
    assert what == "shuffle"
    deck[:] = s.discards
    shuffle(rng, deck)
    return DEALER, Shuffle()
