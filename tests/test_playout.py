"""The lean playout (engine/sarcophagus/playout.py) plays the game the driver plays act by act: the
same acts from the same random draws, the same end state and outcome, in every configuration."""

from __future__ import annotations

import random

import pytest
from test_rules_properties import CONFIGS

from engine.sarcophagus.driver import FullInformation, deal, random_policy
from engine.sarcophagus.playout import play_out
from engine.sarcophagus.rules import outcome
from engine.sarcophagus.state import Options

PLAYERS = ["ann", "ben", "cat", "dan"]


def _driver_game(n_players: int, options: Options, seed: int, lean: bool) -> FullInformation:
    rng = random.Random(seed)
    players = PLAYERS[:n_players]
    game = FullInformation(options, players, deal(rng), rng.choice(players))
    if lean:
        game.play_at_random(rng)
    else:
        game.play(dict.fromkeys(players, random_policy), rng)
    return game


@pytest.mark.parametrize(("n_players", "options"), CONFIGS)
def test_the_lean_playout_plays_the_drivers_game(n_players, options):
    for seed in range(25):
        step_by_step = _driver_game(n_players, options, seed, lean=False)
        lean = _driver_game(n_players, options, seed, lean=True)
        assert lean.log == step_by_step.log
        assert lean.state == step_by_step.state
        assert lean.values == step_by_step.values and lean.known == step_by_step.known
        assert lean.state.cached_duties is None and lean.state.cached_openings is None  # no stale memo
        assert outcome(lean.state) == outcome(step_by_step.state) is not None


def test_a_playout_from_mid_game_leaves_its_start_unchanged():
    rng = random.Random(7)
    game = FullInformation(Options(), PLAYERS, deal(rng), "ann")
    for _ in range(30):
        game.step(dict.fromkeys(PLAYERS, random_policy), rng)
    before = (game.state.coins, game.state.slot_seat, game.state.hands, game.state.present, game.state.out)
    values = dict(game.values)
    end = play_out(game.state, values, game.layout, random.Random(1))
    assert (game.state.coins, game.state.slot_seat, game.state.hands, game.state.present, game.state.out) == before
    assert end is not game.state and outcome(end) is not None
    assert len(values) == len(end.slot_seat) > len(game.values)
