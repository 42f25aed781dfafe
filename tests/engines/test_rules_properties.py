"""Invariants over hundreds of random games, for every player count and option (thousands: the soak in
benchmarks/engine_playouts.py)."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.sarcophagus.actions import Place
from engine.sarcophagus.driver import FullInformation, deal, greedy_policy, random_policy
from engine.sarcophagus.legality import Placements
from engine.sarcophagus.rules import duties, outcome
from engine.sarcophagus.state import Options

from engine_support import CONFIGS, PLAYERS, play_checked

GAMES_PER_CONFIG = 30
"""Games per configuration here (240 in all, every view checked); `benchmarks/engine_playouts.py --soak 300` is
the long run."""


@pytest.mark.parametrize("n_players,options", CONFIGS, ids=lambda c: str(c))
@pytest.mark.slow
def test_random_games_keep_every_invariant(n_players, options):
    for seed in range(GAMES_PER_CONFIG):
        play_checked(n_players, options, seed, random_policy, look_at_views=True)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(CONFIGS), st.sampled_from([random_policy, greedy_policy]))
@pytest.mark.slow
def test_any_seed_and_policy_plays_to_an_audited_end(seed, config, policy):
    play_checked(*config, seed, policy, look_at_views=False)


@pytest.mark.slow
def test_greedy_beats_random_more_often_than_not():
    wins = 0
    for seed in range(100):
        rng = random.Random(seed)
        game = FullInformation(Options(), ["greedy", "random"], deal(rng), rng.choice(["greedy", "random"]))
        game.play({"greedy": greedy_policy, "random": random_policy}, rng)
        wins += "greedy" in outcome(game.state).winners
    assert wins > 60  # 87 of these 100 seeded games


@pytest.mark.slow
def test_legal_actions_are_exactly_the_placements_check_accepts():
    """The lazy list of placements against a brute force over every position and coin value."""
    from engine.contract import IllegalAction
    from engine.sarcophagus.actions import Place
    from engine.sarcophagus.rules import check, legal_actions

    compared = 0
    for seed in range(20):
        rng = random.Random(seed)
        players = PLAYERS[2 + seed % 3]
        options = Options("pooled" if seed % 2 else "seats")
        game = FullInformation(options, players, deal(rng), rng.choice(players))
        policies = dict.fromkeys(players, random_policy)
        while duties(game.state):
            duty = duties(game.state)[0]
            if duty.what == "move":
                s, known = game.state, game.known[duty.who]
                listed = legal_actions(s, duty.who, known)
                accepted = set()
                for pos in (None, *range(21)):
                    for value in range(6):
                        try:
                            accepted.add(check(s, duty.who, Place(pos, value), known))
                        except IllegalAction:
                            pass
                assert sorted(listed, key=repr) == sorted(accepted, key=repr)
                assert len(set(listed)) == len(listed)
                assert listed[-1] == list(listed)[-1] and listed[-len(listed)] == listed[0]
                compared += 1
            game.step(policies, rng)
    assert compared > 1000


def test_placements_are_a_full_sequence():
    """legal_actions' lazy placements index, iterate and slice like the list they stand for."""
    placements = Placements((3, 5), (None, 1, 2))
    made = [placements[i] for i in range(len(placements))]
    assert made[0] == Place(3, None) and made[-1] == Place(5, 2) and len(made) == 6
    assert list(placements) == placements[:] == made
    assert placements[-1] == made[-1] and placements[1:5:2] == made[1:5:2] and placements[::-1] == made[::-1]
    for outside in (6, -7):
        with pytest.raises(IndexError):
            placements[outside]
