"""Invariants over thousands of random Path of Pharaohs games, for 3 to 6 players and both policies."""

import random
from dataclasses import replace
from itertools import chain, combinations_with_replacement, permutations

import pytest

from engine.contract import DEALER, IllegalAction
from engine.path_of_pharaohs.actions import Build, Discard, Sandstorm, Steal, Stop, Thief, Zero
from engine.path_of_pharaohs.board import card_total, fillable
from engine.path_of_pharaohs.cards import ALEXANDRIA, DOUBLE, MUMMIES, SANDSTORM, WILD, B
from engine.path_of_pharaohs.driver import FullInformation, greedy_policy, random_policy, shuffled_deck
from engine.path_of_pharaohs.rules import check, duties, legal_actions, outcome
from engine.path_of_pharaohs.state import DISCARD, DRAW, OVER, Options, cards_on
from engine.path_of_pharaohs.views import view

from paths_support import BENCHMARKS

PLAYERS = ["ann", "ben", "cat", "dan", "eve", "fay"]
OPTIONS = [Options(), Options((2, 8, 1, 9))]
GAMES = {3: 80, 4: 65, 5: 40, 6: 35}
"""Random games per player count: with the greedy, mixed and sampled games below, ~500 games in this
file (longer runs: `python benchmarks/pop_playouts.py --soak 1000`)."""


def new_game(n_players: int, seed: int, options: Options = Options()) -> tuple[FullInformation, random.Random]:
    rng = random.Random(seed)
    players = PLAYERS[:n_players]
    return FullInformation(options, players, shuffled_deck(options, rng), rng.choice(players), rng), rng


def check_invariants(game: FullInformation, deep: bool) -> None:
    """At every step: every card is somewhere, markers on the path. `deep` (once a turn is over): no
    space holds two markers, every card kind accounted for (hidden ones included), hands consistent."""
    s = game.state
    assert card_total(s) == s.table.options.deck_size
    assert min(s.location) >= 0 and max(s.location) <= ALEXANDRIA
    if not deep:
        return
    assert s.deck == len(game.deck)
    assert 0 <= s.sands < 3 and 0 <= s.mummies <= len(MUMMIES)
    taken = [(loc, sp) for loc, sp in zip(s.location, s.space) if sp is not None]
    assert len(taken) == len(set(taken)), "two markers on one space"
    for loc, sp in taken:
        assert loc > 0 and (sp != B or (loc in DOUBLE and loc not in MUMMIES[:s.mummies]))
    for p, (loc, sp) in enumerate(zip(s.location, s.space)):
        if loc > 0 and sp is None:  # only the mover, in motion, holds no space
            assert p == s.turn and s.phase not in (DRAW, DISCARD, OVER), "capacity exceeded at a turn's end"
    kinds = [0] * 14
    slots = [slot for hand in s.hands for slot in hand]
    assert len(slots) == len(set(slots)), "a slot in two hands"
    for card in chain(game.deck, s.discards, (game.cards[slot] for slot in slots),
                      *(cards_on(pyramid, zeros) for pyramid, zeros in zip(s.pyramids, s.zeros))):
        kinds[card] += 1
    kinds[SANDSTORM] += sum(s.storms)
    assert kinds == list(s.table.options.counts), "a card kind not conserved"
    for player, hand in zip(s.table.players, s.hands):
        known = game.known[player]
        for slot in hand:
            assert known[slot] == game.cards[slot] and s.slot_card[slot] is None


def play_checked(n_players: int, seed: int, policy, options: Options = Options(), look: bool = False):
    game, rng = new_game(n_players, seed, options)
    policies = dict.fromkeys(game.state.table.players, policy)
    turn = game.state.turn
    for _step in range(20_000):
        s = game.state
        check_invariants(game, deep=s.turn != turn or s.phase == OVER)
        turn = s.turn
        if look:
            check_views(game)
        if not duties(s):
            break
        game.step(policies, rng)
    else:
        pytest.fail("the game did not end")
    result = outcome(game.state)
    assert game.state.phase == OVER and result is not None and result.winners
    if result.how == "alexandria":
        assert result.winners == (game.state.table.players[game.state.turn],)
        assert result.scores[result.winners[0]] == ALEXANDRIA
    else:
        best = max(result.scores.values())
        assert {p for p, loc in result.scores.items() if loc == best} == set(result.winners)
    assert [p for group in result.ranking for p in group] == sorted(
        game.state.table.players, key=lambda p: (p not in result.winners, -result.scores[p]))
    return game


def check_views(game: FullInformation) -> None:
    """A player sees their own hand and nothing of anyone else's; the state's cached duties agree with it."""
    s = game.state
    assert duties(replace(s, cached_duties=None)) == duties(s)
    for player in s.table.players:
        shown = view(s, player, game.knowledge(player))
        mine = s.hands[s.table.players.index(player)]
        assert [entry["slot"] for entry in shown["my_hand"]] == sorted(mine)
        assert shown["hands"] == {p: len(h) for p, h in zip(s.table.players, s.hands)}
        assert "deck_order" not in shown
    assert "my_hand" not in view(s, None, None)


@pytest.mark.parametrize("n_players", [3, 4, 5, 6])
@pytest.mark.slow
def test_random_games_keep_every_invariant(n_players):
    for seed in range(GAMES[n_players]):
        play_checked(n_players, seed, random_policy, look=seed < 3)


@pytest.mark.parametrize("n_players", [3, 6])
@pytest.mark.slow
def test_greedy_games_and_other_decks_keep_every_invariant(n_players):
    for seed in range(100):
        play_checked(n_players, seed, greedy_policy, OPTIONS[seed % 2])


def test_greedy_beats_random_more_often_than_not():
    wins = 0
    for seed in range(60):
        game, rng = new_game(3, seed)
        players = game.state.table.players
        game.play({p: greedy_policy if p == "ann" else random_policy for p in players}, rng)
        wins += "ann" in outcome(game.state).winners
    assert wins > 30  # a third would be chance


def _candidates(s, actor, known):
    """A brute force over what a player might try: every combination of the cards they hold (and
    one they do not), on every position, and every action card on every player and position."""
    hand = sorted({known[slot] for slot in s.hands[s.turn]})
    terms = {(c, v) for c in hand if c <= 9 for v in {c, -c}}
    if WILD in hand:
        terms |= {(WILD, v) for v in range(-9, 10)}
    terms |= {(9, 9)}
    out = [Stop()]
    pyramid = s.pyramids[s.turn]
    for size in (1, 2, 3):
        # every combination on a position that can be filled; a sample where none can be
        positions = [pos for pos in range(6) if fillable(pyramid, pos) or size == 1]
        for combo in combinations_with_replacement(sorted(terms), size):
            out += [Build(pos, combo) for pos in positions]
    for target in s.table.players:
        out += [Thief(target), Sandstorm(target)] + [Zero(target, pos) for pos in range(6)]
    return out


@pytest.mark.slow
def test_legal_actions_are_exactly_what_check_accepts():
    compared = {"move": 0, "discard": 0, "steal": 0}
    for seed in range(10):
        game, rng = new_game(3 + seed % 4, seed)
        policies = dict.fromkeys(game.state.table.players, random_policy)
        steps = 0
        while duties(game.state) and steps < 60:
            duty = duties(game.state)[0]
            s, who = game.state, duty.who
            known = game.knowledge(who)
            if duty.what in compared and rng.random() < 0.5:
                listed = legal_actions(s, who, known)
                if duty.what == "move":
                    candidates = _candidates(s, who, known)
                elif duty.what == "discard":
                    held = sorted(known[slot] for slot in s.hands[s.turn]) + [WILD]
                    k = len(s.hands[s.turn]) - 7
                    candidates = [Discard(c) for c in combinations_with_replacement(sorted(set(held)), k)]
                else:  # a steal: every choice of the victim's slots, in any order, and one not theirs
                    pool = list(s.hands[s.victim]) + [len(s.slot_card) + 1]
                    candidates = [Steal(slots) for r in (1, 2) for slots in permutations(pool, r)]
                    listed, known = [Steal(a.slots) for a in listed], None
                accepted = set()
                for action in candidates:
                    try:
                        accepted.add(check(s, who, action, known))
                    except IllegalAction:
                        pass
                assert set(listed) == accepted and len(set(listed)) == len(listed)
                compared[duty.what] += 1
            game.step(policies, rng)
            steps += 1
    assert compared["move"] > 100 and compared["discard"] > 5 and compared["steal"] > 5, compared


def test_the_dealer_deals_exactly_what_the_deck_holds():
    """The dealer's acts from legal_actions are the ones check accepts with the dealer's knowledge."""
    game, rng = new_game(4, 7)
    policies = dict.fromkeys(game.state.table.players, random_policy)
    dealer_acts = 0
    while duties(game.state):
        duty = duties(game.state)[0]
        if duty.who == DEALER:
            for action in legal_actions(game.state, DEALER, game.knowledge(DEALER)):
                assert check(game.state, DEALER, action, game.knowledge(DEALER)) == action
            dealer_acts += 1
        game.step(policies, rng)
    assert dealer_acts > 20


def test_a_discard_found_by_its_index_is_the_one_listed_at_that_index():
    """Discards counts the choices and makes only the one taken (`nth_choice`); listed in full
    (`card_choices`), they come in the same order, for hands of every shape."""
    from engine.path_of_pharaohs.choices import card_choices, choice_count, nth_choice

    rng = random.Random(3)
    for _ in range(400):
        k = rng.randint(0, 6)
        held = tuple((card, min(rng.randint(1, 4), k)) for card in sorted(rng.sample(range(14), rng.randint(0, 8))))
        listed = card_choices(held, k)
        assert choice_count(held, k) == len(listed)
        assert [nth_choice(held, k, i) for i in range(len(listed))] == list(listed)


def test_the_ways_to_bridge_a_value_are_every_pair_and_triple_tried_in_order():
    """The rules list the combinations making a value once, in rank order (`_combinations`), and keep
    those whose cards a hand holds (`bridge_fillings`, over `_bridge_table`); the plain model
    (benchmarks/pop_plain.py) tries every pair and triple of the terms a hand allows. They list the
    same ways, in the same order, for hands of every shape, Wilds included, each worked out afresh."""
    import sys

    sys.path.insert(0, str(BENCHMARKS))
    from pop_plain import fillings

    from engine.path_of_pharaohs import builds

    rng = random.Random(5)
    for _ in range(500):
        held = sorted(rng.choice([*range(10), WILD, WILD]) for _ in range(rng.randint(0, 9)))
        counts = [held.count(card) for card in range(14)]
        need = rng.randint(0, 9)
        builds._BRIDGES.clear()
        assert list(builds.bridge_fillings(need, builds.hand_key(counts))) == fillings(need, counts), (need, held)


@pytest.mark.slow
def test_the_ways_remembered_by_a_packed_hand_are_the_plain_models():
    """The rules and the lean playout look a hand's ways to fill a position up by its counts packed in
    one int (`hand_key`), 0s, action cards and copies past what can take part left in: for hands of
    every shape (up to twenty Wilds, as a deck option allows), the ways of the plain model
    (benchmarks/pop_plain.py) that lists every pair and triple, and every value card or Wild for the
    level-1 middle, asked twice (the second time remembered)."""
    import sys

    sys.path.insert(0, str(BENCHMARKS))
    from pop_plain import fillings

    from engine.path_of_pharaohs.builds import bridge_fillings, hand_key, middle_fillings

    rng = random.Random(8)
    for _ in range(1500):
        counts = [0] * 14
        for _ in range(rng.randint(0, 12)):
            counts[rng.choice([*range(14), WILD, WILD])] += 1
        if rng.random() < 0.05:
            counts[WILD] = rng.randint(4, 20)
        need, hand = rng.randint(0, 9), hand_key(counts)
        middles = [((v, v),) for v in range(10) if counts[v]] + [((WILD, v),) for v in range(10) if counts[WILD]]
        for _ in range(2):
            assert list(bridge_fillings(need, hand)) == fillings(need, counts), (need, counts)
            assert list(middle_fillings(hand)) == middles, counts
