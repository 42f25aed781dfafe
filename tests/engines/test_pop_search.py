"""The Path of Pharaohs search bot: honest (it sees only its own knowledge), legal, and it finishes games."""

import random
from collections import Counter

import pytest

from engine.contract import DEALER
from engine.path_of_pharaohs import GAME
from engine.path_of_pharaohs.actions import Build, Deal, Reveal, Shuffle, Stop, public
from engine.path_of_pharaohs.board import public_counts
from engine.path_of_pharaohs.cards import full_deck
from engine.path_of_pharaohs.driver import FullInformation, greedy_policy, shuffled_deck
from engine.path_of_pharaohs.rules import duties, legal_actions
from engine.path_of_pharaohs.search import SearchPolicy, choose, determinize
from engine.path_of_pharaohs.state import Options

from engine_support import assert_same_search

PLAYERS = ["ann", "ben", "cat"]


def _until_ann_chooses(game: FullInformation, rng: random.Random, turns: int) -> None:
    """Greedy play until ann owes a move with several choices on her `turns`-th turn or later."""
    policies = dict.fromkeys(game.state.table.players, greedy_policy)
    seen = 0
    while True:
        duty = duties(game.state)[0]  # IndexError if the game ends first: pick another seed
        if duty.who == "ann" and duty.what == "move" and not game.state.built:
            seen += 1
            if seen >= turns and len(legal_actions(game.state, "ann", game.known["ann"])) > 3:
                return
        game.step(policies, rng)


def _look_alike(game: FullInformation) -> FullInformation:
    """The same public play and ann's same hand, but the cards ann has not seen (the opponents' unplayed
    cards and the deck) in another order: a game ann cannot tell from `game`."""
    assert not any(isinstance(action, Shuffle) for _, action in game.log)
    deck = list(game.first_deck)
    owner = {}  # deck position -> the slot it was dealt into
    position = 0
    for _, action in game.log:
        if isinstance(action, Reveal):
            position += 1
        elif isinstance(action, Deal):
            owner.update(zip(range(position, position + len(action.slots)), action.slots))
            position += len(action.slots)
    hidden_hands = {slot for p, hand in enumerate(game.state.hands) if PLAYERS[p] != "ann" for slot in hand}
    unseen = [i for i in range(len(deck)) if i >= position or owner.get(i) in hidden_hands]
    cards = [deck[i] for i in unseen]
    cards = cards[1:] + cards[:1]
    for i, card in zip(unseen, cards):
        deck[i] = card
    other = FullInformation(Options(), PLAYERS, deck, "ann")
    for actor, action in game.log:
        other.act(actor, public(action))  # checked against each actor's knowledge in the other game
    return other


def _seated(game: FullInformation, bot):
    """A bot as a driver policy: the driver hands it its player's own cards, and nothing else."""
    return lambda state, actor, actions, rng: bot(state, actor, actions, rng, game.known[actor])


def _game(seed: int) -> FullInformation:
    rng = random.Random(seed)
    game = FullInformation(Options(), PLAYERS, shuffled_deck(Options(), rng), "ann", rng)
    game.first_deck = list(game.deck)
    return game


def test_two_games_that_look_the_same_to_the_bot_get_the_same_search_and_move():
    game = _game(11)
    _until_ann_chooses(game, random.Random(11), turns=3)
    other = _look_alike(game)
    assert other.state == game.state and other.known["ann"] == game.known["ann"]
    assert other.deck != game.deck and other.cards != game.cards
    assert_same_search(choose, game, other, "ann", iterations=25)
    game.step({"ann": _seated(game, SearchPolicy(iterations=10))}, random.Random(5))
    other.step({"ann": _seated(other, SearchPolicy(iterations=10))}, random.Random(5))
    assert game.log[-1] == other.log[-1]


def test_sampled_worlds_agree_with_what_the_bot_knows_and_vary_in_the_rest():
    game = _game(5)
    _until_ann_chooses(game, random.Random(5), turns=3)
    state, known, seen = game.state, game.known["ann"], set()
    in_hands = sorted(slot for hand in state.hands for slot in hand)
    for seed in range(20):
        world = determinize(state, known, random.Random(seed))
        assert sorted(world.cards) == in_hands and len(world.deck) == state.deck
        assert all(world.cards[slot] == known[slot] for slot in state.hands[0])
        everything = Counter(world.cards.values()) + Counter(world.deck)
        for card, n in enumerate(public_counts(state)):
            everything[card] += n
        assert everything == Counter(full_deck(Options().actions))
        seen.add((tuple(world.cards[s] for s in in_hands), tuple(world.deck)))
    assert len(seen) == 20


def test_a_game_of_search_bots_and_greedy_players_ends_with_only_legal_acts():
    chosen = []

    def checked_bot(state, actor, actions, rng):
        known = game.known[actor]
        action = GAME.policy("mcts", iterations=4)(state, actor, actions, rng, known)
        assert action in list(legal_actions(state, actor, known))
        chosen.append(action)
        return action

    rng = random.Random(8)
    game = FullInformation(Options(), PLAYERS, shuffled_deck(Options(), rng), "ben", rng)
    game.play({"ann": checked_bot, "ben": checked_bot, "cat": greedy_policy}, rng)
    assert not duties(game.state) and len(chosen) >= 20
    assert any(isinstance(action, Build) for action in chosen) and Stop() in chosen
    assert all(actor == DEALER or actor in PLAYERS for actor, _ in game.log)



def test_the_search_can_play_its_worlds_out_by_the_lean_playout():
    """playout=None: each sampled world is played out at random by engine/path_of_pharaohs/playout.py.
    The search still sees only ann's knowledge (two look-alike games, the same search) and picks a
    legal act, tried by the tree, after as many playouts as iterations."""
    game = _game(11)
    _until_ann_chooses(game, random.Random(11), turns=3)
    other = _look_alike(game)
    state, known = game.state, game.known["ann"]
    found = choose(state, "ann", known, random.Random(3), None, 40, playout=None)
    again = choose(other.state, "ann", other.known["ann"], random.Random(3), None, 40, playout=None)
    assert (found.action, found.iterations) == (again.action, again.iterations) and found.iterations == 40
    assert found.action in list(legal_actions(state, "ann", known))
    assert game.state == state  # the playouts worked on their own copies


def test_a_graded_reward_credits_each_mover_their_own_reward_along_the_path():
    """The Path of Pharaohs search's `progress` tuning credits each node's mover a reward in [0, 1]
    (part win, part final location) instead of their share of the win; the root, nobody's move, none."""
    from engine.ismcts import Node, credit_rewards

    path = [Node(None), Node("ann"), Node("ben"), Node("ann")]
    credit_rewards(path, {"ann": 0.25, "ben": 0.75})
    assert [(n.visits, n.reward) for n in path] == [(0, 0.0), (1, 0.25), (1, 0.75), (1, 0.25)]


@pytest.mark.slow
def test_greedy_playouts_by_the_lean_game_search_as_the_full_rules_do():
    """The search plays its worlds out greedily by the lean greedy playout (lean_greedy.py). Played out
    act by act through the full rules with greedy_policy instead (search.play_out, which any other
    policy object goes by), every search is the same: the act chosen, every root act's visits and
    reward, and the generator's state after, so the bot's choices and strength stand. With 3 and 4
    players, mid-game and late, a discard owed, and the graded reward."""
    from engine.path_of_pharaohs.search import Tuning

    def full_rules_greedy(state, actor, actions, rng):
        return greedy_policy(state, actor, actions, rng)

    owed = set()
    for seed, n_players, least, tuning in [(1, 3, 4, None), (2, 4, 4, None), (3, 4, 8, Tuning(progress=0.3)),
                                           (4, 3, 9, None), (6, 4, 0, None), (17, 3, 2, None)]:
        rng = random.Random(seed)
        players = ["ann", "ben", "cat", "dan"][:n_players]
        game = FullInformation(Options(), players, shuffled_deck(Options(), rng), "ann", rng)
        while not (max(game.state.location) >= least and duties(game.state)[0].who == "ann"
                   and len(legal_actions(game.state, "ann", game.known["ann"])) > 1):
            game.step(dict.fromkeys(players, greedy_policy), rng)
        owed.add(duties(game.state)[0].what)
        lean_rng, full_rng = random.Random(seed), random.Random(seed)
        lean = choose(game.state, "ann", game.known["ann"], lean_rng, None, 40, tuning=tuning)
        full = choose(game.state, "ann", game.known["ann"], full_rng, None, 40, full_rules_greedy, tuning)
        assert (lean.action, lean.moves) == (full.action, full.moves), seed
        assert lean_rng.getstate() == full_rng.getstate(), seed
    assert owed == {"move", "discard"}
