"""The Path of Pharaohs lean playout (engine/path_of_pharaohs/playout.py) plays the game the driver
plays act by act through the full rules: the same acts from the same random draws, the same end
state, secrets and outcome, over hundreds of seeded games of 3 to 6 players and two decks."""

from __future__ import annotations

import random

import pytest

from engine.path_of_pharaohs.driver import FullInformation, random_policy, shuffled_deck
from engine.path_of_pharaohs.playout import play_out
from engine.path_of_pharaohs.rules import outcome
from engine.path_of_pharaohs.state import Options

PLAYERS = ["ann", "ben", "cat", "dan", "eve", "fay"]
GAMES = {3: 240, 4: 160, 5: 100, 6: 100}
"""Seeded games per player count, half with each deck: 600 in all, about 3 s (thousands more:
`python benchmarks/pop_playouts.py --soak 1000` compares every random game it plays)."""
DECKS = [Options(), Options((2, 8, 1, 9))]


def _driver_game(n_players: int, options: Options, seed: int, lean: bool) -> FullInformation:
    rng = random.Random(seed)
    players = PLAYERS[:n_players]
    game = FullInformation(options, players, shuffled_deck(options, rng), rng.choice(players), rng)
    if lean:
        game.play_at_random()
    else:
        game.play(dict.fromkeys(players, random_policy), rng)
    return game


@pytest.mark.parametrize("n_players", sorted(GAMES))
@pytest.mark.slow
def test_the_lean_playout_plays_the_drivers_game(n_players):
    for seed in range(GAMES[n_players]):
        options = DECKS[seed % 2]
        step_by_step = _driver_game(n_players, options, seed, lean=False)
        lean = _driver_game(n_players, options, seed, lean=True)
        assert lean.log == step_by_step.log, f"seed {seed}"
        assert lean.state == step_by_step.state
        assert (lean.deck, lean.cards, lean.known) == (step_by_step.deck, step_by_step.cards, step_by_step.known)
        assert lean.state.cached_duties is None  # no stale memo of a state it changed in place
        assert outcome(lean.state) == outcome(step_by_step.state) is not None


def test_a_playout_from_mid_game_leaves_its_start_unchanged():
    rng = random.Random(7)
    game = FullInformation(Options(), PLAYERS[:4], shuffled_deck(Options(), rng), "ann", rng)
    for _ in range(60):
        game.step(dict.fromkeys(PLAYERS[:4], random_policy), rng)
    before = game.state.copy()
    cards, deck = dict(game.cards), list(game.deck)
    end = play_out(game.state, cards, deck, random.Random(1))
    assert game.state == before
    assert end is not game.state and outcome(end) is not None
    assert len(cards) == len(end.slot_card) > len(game.cards)
