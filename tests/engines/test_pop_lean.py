"""The lean playout (engine/path_of_pharaohs/lean.py) plays the game the full rules play: from the same
seed, the same acts in the same order and the same winners, over 650 seeded games of 3 to 6 players
with five decks (stalled games, mummies, steals and reshuffles among them), from the start and from
every kind of state a game passes through. The long run, thousands of games a configuration:
`python benchmarks/pop_playouts.py --soak 2000`."""

from __future__ import annotations

import random

import pytest

from engine.contract import DEALER
from engine.path_of_pharaohs.actions import Shuffle, Steal
from engine.path_of_pharaohs.driver import random_policy
from engine.path_of_pharaohs.lean import random_winners
from engine.path_of_pharaohs.playout import play_out
from engine.path_of_pharaohs.rules import apply, duties, outcome
from engine.path_of_pharaohs.state import Options

from pop_support import DECKS, PLAYERS, random_point, seeded_start

GAMES = 125
"""Seeded games per player count from the start (500 in all, about 2 s on one core)."""


@pytest.mark.parametrize("n_players", [3, 4, 5, 6])
@pytest.mark.slow
def test_the_lean_playout_plays_the_full_rules_game(n_players):
    """Each act as the driver logs it, and the winners. Every eighth game is played act by act
    through the full rules (duties, legal acts, the random policy, apply); the rest by the driver's
    own random game (playout.py), which tests/engines/test_pop_playout.py holds to that act by act."""
    ends, shuffles, steals = set(), 0, 0
    for seed in range(GAMES):
        options = DECKS[seed % len(DECKS)]
        full, rng = seeded_start(n_players, options, seed)
        if seed % 8 == 0:
            full.play(dict.fromkeys(PLAYERS[:n_players], random_policy), rng, report=False)
        else:
            full.play_at_random()
        lean, rng = seeded_start(n_players, options, seed)
        trace: list = []
        winners = random_winners(lean.state, lean.cards, lean.deck, rng, trace)
        assert trace == full.log, f"seed {seed}: the acts differ"
        end = outcome(full.state)
        assert end is not None and winners == end.winners, f"seed {seed}"
        ends.add(end.how)
        shuffles += Shuffle() in (action for _, action in trace)
        steals += any(isinstance(action, Steal) for _, action in trace)
    assert "alexandria" in ends and ("stalled" in ends or n_players < 5)  # 3 or 4 players seldom stall
    assert shuffles > GAMES / 2 and steals > GAMES / 2


@pytest.mark.slow
def test_from_any_state_of_a_game_it_plays_on_as_the_full_rules_do():
    """From states half way through a turn, a setup, a steal or a deal owed (the dealer's acts the
    lean game leaves to the full rules), a discard owed, and the end: the same acts and winners as
    playout.py from there with the same generator, and what it was given left as it was."""
    kinds = set()
    for seed in range(150):
        n_players = 3 + seed % 4
        game, _ = random_point(n_players, seed, 400)
        owed = duties(game.state)
        kinds.add(owed[0].what if owed else "over")
        state, cards, deck = game.state, dict(game.cards), list(game.deck)
        log: list = []
        end = play_out(state.copy(), dict(cards), list(deck), random.Random(seed), log)
        trace: list = []
        winners = random_winners(state, cards, deck, random.Random(seed), trace)
        assert trace == log and winners == outcome(end).winners, f"seed {seed}"
        assert (state, cards, deck) == (game.state, game.cards, game.deck)
    assert kinds >= {"move", "discard", "reveal", "deal", "steal", "over"}


def test_its_acts_are_legal_and_lead_to_its_winners():
    """Replayed as a verifier replays a record (the full rules' check, no secrets), the acts the lean
    playout makes from a mid-game state are legal, and the game they make ends with its winners."""
    game, rng = seeded_start(4, Options(), 11)
    for _ in range(90):
        game.step(dict.fromkeys(PLAYERS[:4], random_policy), rng)
    trace: list = []
    winners = random_winners(game.state, game.cards, game.deck, random.Random(3), trace)
    state = game.state
    for actor, action in trace:
        state = apply(state, actor, action)[0]
    end = outcome(state)
    assert end is not None and end.winners == winners and len(trace) > 50
    assert {actor for actor, _ in trace} == {DEALER, *PLAYERS[:4]}
