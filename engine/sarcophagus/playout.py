"""Random play to the end of the game, the search's and the benchmarks' inner loop, on the rules' own
`Play`: one working copy of the state carried through every act, instead of a fresh State, duties,
a list of legal acts and a policy call at each one.

It makes the choices `driver.random_policy` would make from the same draws of the random generator
(one draw per placement or discard, an index into the acts `legal_actions` lists), so a game played
here is the game the driver plays (tests/test_playout.py). Reveals and openings come from the
full knowledge given: a driver's layout or a search's sampled world.
"""

from __future__ import annotations

import random
from collections.abc import MutableMapping

from engine.contract import DEALER

from .actions import Action
from .rules import (
    PLACES,
    Play,
    TileKnowledge,
    discards,
    opening,
    owed_kind,
    placement_targets,
    placement_values,
    reveal,
)
from .state import State


def play_out(state: State, values: MutableMapping[int, int], tiles: TileKnowledge, rng: random.Random,
             log: list[tuple[str, Action]] | None = None) -> State:
    """The end of the game from `state`, every player's choice at random. `values` holds every coin
    slot's value and gains each coin placed; `log`, if given, gains every act as the driver logs it."""
    play = Play(state, report=False)
    s = play.s
    seats = s.table.seats
    place, settle, draw = play.place, play.settle, rng.random  # looked up once
    while True:
        what = owed_kind(s)
        if what == "move":
            targets, hand = placement_targets(s), placement_values(s, values)
            width = len(hand)
            target, value = divmod(int(draw() * (len(targets) * width)), width)
            pos, value = targets[target], hand[value]
            values[len(s.slot_seat)] = value
            if log is not None:
                log.append((seats[s.turn].player, PLACES[pos][value]))
            place(pos)
            settle()
        elif what is None:
            return s
        else:
            actor, action = _other_act(s, what, values, tiles, rng)
            if log is not None:
                log.append((actor, action))
            play.act(actor, action)


def _other_act(s: State, what: str, values: MutableMapping[int, int], tiles: TileKnowledge,
               rng: random.Random) -> tuple[str, Action]:
    """A reveal, an opening (the dealer's, for every owner at once) or a discard: the rarer acts."""
    if what == "reveal":
        return DEALER, reveal(s, tiles)
    if what == "open":
        return DEALER, opening(s, DEALER, values)
    choices = discards(s)
    return s.table.seats[s.traps[0]].player, choices[int(rng.random() * len(choices))]
