"""The lean greedy playout (engine/path_of_pharaohs/lean_greedy.py) plays the game the search bot plays
out through the full rules with greedy_policy (search.play_out): from the same world and the same
seed, the same acts in the same order, the same winners and final locations, and the random generator
left in the same state (the same draws, so the search's next iterations are the same too). Over 500
seeded games of 3 to 6 players with five decks, from every point of a game. The long run, thousands
of games a configuration: `python benchmarks/pop_playouts.py --soak 2000`."""

from __future__ import annotations

import random

import pytest

from engine.path_of_pharaohs.actions import Discard, Sandstorm, Shuffle, Steal, Thief, Zero
from engine.path_of_pharaohs.driver import greedy_policy
from engine.path_of_pharaohs.duties import owed_kind
from engine.path_of_pharaohs.lean_greedy import greedy_playout
from engine.path_of_pharaohs.search import World, play_out
from engine.path_of_pharaohs.state import State

from pop_support import random_point

pytestmark = pytest.mark.slow

GAMES = 125
"""Seeded games per player count (500 in all, about 3 s on one core)."""


def check_greedy_playout(n_players: int, seed: int) -> tuple[list, State]:
    """A seeded game played at random to a random point, then to its end both ways, from
    the same world and generator: what the full rules logged, and where the playout began."""
    game, rng = random_point(n_players, seed, 250)
    world = World(game.cards, game.deck)
    state, duty = world.advance(game.state, rng)  # the dealer's acts, as the search's worlds make them
    cards, deck = dict(world.cards), list(world.deck)
    full_rng, log = random.Random(seed), []
    winners, scores = play_out(state, duty, World(dict(cards), list(deck)), full_rng, greedy_policy, log)
    lean_rng, trace = random.Random(seed), []
    assert greedy_playout(state, cards, deck, lean_rng, trace) == (winners, scores), f"seed {seed}"
    assert trace == log, f"seed {seed}: the acts differ"
    assert lean_rng.getstate() == full_rng.getstate(), f"seed {seed}: the draws differ"
    assert (cards, deck) == (world.cards, world.deck), "what it was given is left as it was"
    return log, state


@pytest.mark.parametrize("n_players", [3, 4, 5, 6])
def test_the_lean_greedy_playout_plays_the_searchs_greedy_game(n_players):
    """Each act, the outcome and the draws, from states after any number of acts: a move or a
    discard owed, or the end; the games take in reshuffles, steals, discards and every action card."""
    starts, acts = set(), set()
    for seed in range(GAMES):
        log, start = check_greedy_playout(n_players, seed)
        starts.add(owed_kind(start))
        acts |= {type(action) for _, action in log}
    assert starts == {"move", "discard", None}
    assert {Shuffle, Steal, Discard, Zero, Thief, Sandstorm} <= acts
