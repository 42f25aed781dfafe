"""The lean playout (engine/sarcophagus/playout.py), a second reading of the rules for random play,
plays the game the driver plays act by act through rules.apply: the same acts from the same random
draws, the same end state and outcome, in every configuration, from the start and from any point of a
game (a reveal, a tie-break's opening or a trap's discard owed). `benchmarks/engine_playouts.py
--soak N` checks N more games per configuration."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.sarcophagus.driver import FullInformation, deal, random_policy
from engine.sarcophagus.playout import play_out
from engine.sarcophagus.rules import duties, outcome
from engine.sarcophagus.state import Options

from engine_support import CONFIGS

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


def _continued(n_players: int, options: Options, seed: int, steps: int, lean: bool) -> FullInformation:
    """A game played act by act for `steps` acts (or to its end), then on to the end by the lean
    playout or act by act, from the same generator."""
    rng = random.Random(seed)
    players = PLAYERS[:n_players]
    game = FullInformation(options, players, deal(rng), rng.choice(players))
    policies = dict.fromkeys(players, random_policy)
    for _ in range(steps):
        if not duties(game.state):
            break
        game.step(policies, rng)
    if lean:
        game.play_at_random(rng)
    else:
        game.play(policies, rng)
    return game


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(CONFIGS), st.integers(0, 150))
@pytest.mark.slow
def test_the_lean_playout_takes_over_at_any_point_of_a_game(seed, config, steps):
    step_by_step = _continued(*config, seed, steps, lean=False)
    lean = _continued(*config, seed, steps, lean=True)
    assert (lean.log, lean.state, lean.values, lean.known) == (
        step_by_step.log, step_by_step.state, step_by_step.values, step_by_step.known)


@pytest.mark.slow
def test_the_lean_playout_takes_over_whatever_is_owed():
    """From states that owe each kind of act, in each configuration: a reveal, a tie-break's opening,
    a trap's discard, a move."""
    taken_over: dict[str, int] = {}
    for seed, config in enumerate(CONFIGS * 4):
        kinds = _owed_at_each_act(*config, seed)
        for what in ("reveal", "open", "discard", "move"):
            owed_at = [step for step, kind in enumerate(kinds) if kind == what]
            if owed_at:
                steps = owed_at[len(owed_at) // 2]  # mid-game where there is a choice of points
                lean = _continued(*config, seed, steps, lean=True)
                step_by_step = _continued(*config, seed, steps, lean=False)
                assert (lean.log, lean.state, lean.values) == (step_by_step.log, step_by_step.state, step_by_step.values)
                taken_over[what] = taken_over.get(what, 0) + 1
    assert taken_over["reveal"] == taken_over["open"] == taken_over["move"] == 32 and taken_over["discard"] >= 5


def _owed_at_each_act(n_players: int, options: Options, seed: int) -> list[str]:
    """What is owed before each act of the game `_continued` plays from this seed."""
    rng = random.Random(seed)
    players = PLAYERS[:n_players]
    game = FullInformation(options, players, deal(rng), rng.choice(players))
    kinds = []
    while owed := duties(game.state):
        kinds.append(owed[0].what)
        game.step(dict.fromkeys(players, random_policy), rng)
    return kinds
