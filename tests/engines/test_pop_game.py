"""Path of Pharaohs as a game of the engine: its registry entry, its views, its outcome."""

import copy
import json
import random
from collections.abc import Sequence

import pytest

from engine import GAMES, find_game
from engine.contract import DEALER, HandWords, Pace, UnknownGame
from engine.path_of_pharaohs import GAME
from engine.path_of_pharaohs.actions import Action, Deal, Steal
from engine.path_of_pharaohs.cards import card_name
from engine.path_of_pharaohs.driver import FullInformation, greedy_policy, random_game, random_policy, shuffled_deck
from engine.path_of_pharaohs.rules import duties
from engine.path_of_pharaohs.state import Options, State
from engine.sarcophagus import GAME as SARCOPHAGUS


def test_the_entry_has_the_shape_of_every_game_and_is_registered():
    contract = [name for name in vars(type(SARCOPHAGUS)) if not name.startswith("_")]
    assert all(callable(getattr(GAME, name)) or isinstance(getattr(GAME, name), (str, int, tuple, Pace, HandWords))
               for name in contract)
    assert (GAME.name, GAME.title) == ("path-of-pharaohs", "Path of Pharaohs")
    assert GAMES["path-of-pharaohs"] is GAME is find_game("Path-of-Pharaohs")
    with pytest.raises(UnknownGame, match="known: path-of-pharaohs, sarcophagus"):
        find_game("chess")


def test_the_public_form_of_a_deal_or_a_steal_carries_no_card():
    assert GAME.public(Deal("ann", (3, 4), (5, 11))) == Deal("ann", (3, 4))
    assert GAME.public(Steal((3, 4), (5, 11))) == Steal((3, 4))
    assert GAME.format_action(GAME.public(Deal("ann", (3, 4), (5, 11)))) == "deal ann #3 #4"


def test_a_player_sees_their_own_hand_and_only_counts_of_the_others():
    rng = random.Random(5)
    game = FullInformation(Options(), ["ann", "ben", "cat", "dan"], shuffled_deck(Options(), rng), "cat", rng)
    players = dict.fromkeys(game.state.table.players, random_policy)
    for _ in range(60):
        game.step(players, rng)
    state = game.state
    assert all(state.hands)
    shown = GAME.view(state, "ben", game.knowledge("ben"))
    ben = state.table.players.index("ben")
    assert [entry["slot"] for entry in shown["my_hand"]] == sorted(state.hands[ben])
    assert shown["hands"] == {p: len(h) for p, h in zip(state.table.players, state.hands)}
    text = json.dumps(shown)
    for other in ("ann", "cat", "dan"):
        for slot in state.hands[state.table.players.index(other)]:
            assert f'"slot": {slot},' not in text  # nobody else's slot, let alone its card
    assert "my_hand" not in GAME.view(state, "ben") and "deck_order" not in shown
    assert "my_hand" not in GAME.view(state, None, game.knowledge("ben"))


def test_the_dealer_sees_the_deck_order_and_the_finished_game_its_result():
    game = random_game(["ann", "ben", "cat"], Options(), random.Random(2))
    shown = GAME.view(game.state, DEALER, game.knowledge(DEALER))
    assert shown["deck_order"] == [card_name(card) for card in game.deck] and game.deck
    result = GAME.outcome(game.state)
    assert shown["status"] == "finished" and shown["winners"] == list(result.winners)
    assert shown["ranking"][0] == list(result.winners) and shown["scores"] == result.scores
    assert shown["duties"] == [] and shown["turn"] is None


def test_the_public_record_replays_without_any_secret_to_the_same_state():
    """What a verifier does: every act in its public form, checked with no knowledge at all."""
    for seed in range(6):
        rng = random.Random(seed)
        players = ["ann", "ben", "cat", "dan", "eve"][: 3 + seed % 3]
        first = players[seed % len(players)]
        game = FullInformation(Options(), players, shuffled_deck(Options(), rng), first, rng)
        game.play(dict.fromkeys(players, random_policy), rng)
        state = GAME.setup(Options(), players, first)
        for actor, action in game.log:
            state, _ = GAME.apply(state, actor, GAME.public(action))
        assert state == game.state and GAME.outcome(state) == GAME.outcome(game.state)


def test_play_is_step_after_step_and_never_changes_a_state_a_policy_was_shown():
    """play changes its working copy in place between players' acts (tuned): the same events, log and
    end state as a step at a time, and every state a policy saw is as it was when it saw it."""
    shown: list[tuple[State, State]] = []

    def watched(state: State, actor: str, actions: Sequence[Action], rng: random.Random) -> Action:
        shown.append((state, copy.copy(state)))
        return greedy_policy(state, actor, actions, rng) if actor == "ann" else random_policy(state, actor, actions, rng)

    for seed in range(12):
        players = ["ann", "ben", "cat", "dan"][: 3 + seed % 2]
        played, stepped = (FullInformation(Options(), players, shuffled_deck(Options(), random.Random(seed)),
                                           players[seed % len(players)], random.Random(seed)) for _ in range(2))
        rng = random.Random(seed + 100)
        events = played.play(dict.fromkeys(players, watched), rng)
        rng, step_events = random.Random(seed + 100), []
        while duties(stepped.state):
            step_events += stepped.step(dict.fromkeys(players, watched), rng)
        assert events == step_events and played.log == stepped.log and played.state == stepped.state
        assert played.deck == stepped.deck and played.known == stepped.known
    assert shown and all(state == then for state, then in shown)


def test_acts_made_cheaply_are_the_same_values_and_stay_frozen():
    import dataclasses

    from engine.path_of_pharaohs.actions import Build, new_build, new_deal

    pairs = [(new_build(3, ((5, 5), (2, -2)), (7, 9)), Build(3, ((5, 5), (2, -2)), (7, 9))),
             (new_deal("ann", (4, 5), (1, 13)), Deal("ann", (4, 5), (1, 13))), (new_deal("ben", (6,), None), Deal("ben", (6,)))]
    for made, built in pairs:
        assert made == built and hash(made) == hash(built) and repr(made) == repr(built)
        assert GAME.format_action(made) == GAME.format_action(built)
        with pytest.raises(dataclasses.FrozenInstanceError):
            made.slots = ()  # type: ignore[misc]
