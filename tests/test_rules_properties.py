"""Invariants over hundreds of random games, for every player count and option (thousands: the soak in
benchmarks/engine_playouts.py)."""

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.contract import DEALER
from engine.sarcophagus.actions import Place
from engine.sarcophagus.driver import FullInformation, deal, greedy_policy, random_policy
from engine.sarcophagus.rules import Placements, duties, hand_values, outcome, owed_openings
from engine.sarcophagus.scoring import score
from engine.sarcophagus.state import DISCARDED, Options
from engine.sarcophagus.views import view

PLAYERS = {2: ["ann", "ben"], 3: ["ann", "ben", "cat"], 4: ["ann", "ben", "cat", "dan"]}
CONFIGS = [
    (2, Options("pooled")), (2, Options("seats")), (3, Options()), (4, Options()),
    (2, Options("pooled", False)), (2, Options("seats", False)), (3, Options(bottom_edge_free=False)),
    (4, Options(bottom_edge_free=False)),
]
GAMES_PER_CONFIG = 30
"""Games per configuration here (240 in all, every view checked); `benchmarks/engine_playouts.py --soak 300` is
the long run."""


def check_invariants(game: FullInformation, look_at_views: bool) -> None:
    s = game.state
    out = sorted(slot for seat_out in s.out for slot in seat_out)
    assert out == [slot for slot, back in enumerate(s.slot_back) if back is None]
    on_tiles = [slot for coins in s.coins for slot in coins]
    assert len(on_tiles) == len(set(on_tiles))
    for p in range(21):
        assert len(s.coins[p]) <= 4
        if not s.present >> p & 1:
            assert s.coins[p] == ()
    entombed = set(out) - set(on_tiles)
    takers = {owner for owner in s.under_owner if owner not in (None, DISCARDED)}
    assert {s.slot_seat[slot] for slot in entombed} <= takers
    assert entombed == {slot for tomb in s.entombed for slot in tomb}, "State.entombed names every entombed coin"
    for k, tomb in enumerate(s.entombed):
        assert all(s.slot_seat[slot] == s.under_owner[k] for slot in tomb)
    for i, seat in enumerate(s.table.seats):
        # every coin in exactly one place; the public count matches the private hand
        assert s.hands[i] + len(s.out[i]) == len(seat.coins)
        assert len(hand_values(s, i, game.values)) == s.hands[i]
    held = [t for tiles in s.claimed for t in tiles]
    assert len(held) == len(set(held)), "a tile claimed twice"
    assert not set(held) & {s.tiles[p] for p in range(21) if s.present >> p & 1}
    if look_at_views:
        fresh = replace(s, cached_duties=None, cached_openings=None)  # the caches agree with the state
        assert duties(fresh) == duties(s)
        assert all(owed_openings(fresh, p) == owed_openings(s, p) for p in s.table.players + (DEALER,))
        for player in s.table.players:
            shown = view(s, player, game.knowledge(player))
            for spot in list(shown["pyramid"].values()) + list(shown["sarcophagus"].values()):
                for coin in spot["coins"]:
                    if coin["value"] is not None:
                        assert coin["owner"] == player or s.slot_value[coin["slot"]] is not None
            for name, spot in shown["pyramid"].items():
                if spot["tile"] is not None:
                    from engine.sarcophagus.geometry import parse_pos
                    assert s.face_up >> parse_pos(name) & 1
            for k, spot in enumerate(shown["sarcophagus"].values()):
                assert (spot["tile"] is None) == (s.under[k] is None)


def play_checked(n_players, options, seed, policy, look_at_views=True) -> FullInformation:
    rng = random.Random(seed)
    players = PLAYERS[n_players]
    game = FullInformation(options, players, deal(rng), rng.choice(players))
    policies = dict.fromkeys(players, policy)
    for _ in range(2000):
        check_invariants(game, look_at_views)
        if not duties(game.state):
            break
        game.step(policies, rng)
    else:
        pytest.fail("the game did not end")
    result = outcome(game.state)
    assert result is not None
    assert None not in game.state.slot_value, "the end audit opened every coin"
    assert all(game.state.slot_value[k] == v for k, v in game.values.items())
    assert result == score(game.state.table, game.state.claimed)
    return game


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
