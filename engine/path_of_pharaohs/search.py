"""A computer player that searches: single-observer information-set Monte Carlo tree search
(Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 2012), as
engine/sarcophagus/search.py does it for Sarcophagus.

Honest by construction: `choose` is given only what its player knows, the public State (hands are
slots, the deck a count) and the cards the player has seen dealt to it. Each iteration samples one
world that agrees with that knowledge (`determinize`): every card not in sight (the deck's counts
minus the public cards and the player's own) is shuffled into the opponents' unseen slots and the
deck order. The iteration then walks one tree shared by every sampled world, choosing only among
the acts legal in that world, with the availability counts of the published algorithm, adds one
node, plays the world out and credits every player's share of the win along the path.

A turn is several acts by one player (builds, action cards, stop): the tree branches on each act.
An act is keyed by its public form without slots (`_key`): which slot an opponent's Wild came from
differs from world to world and tells nothing. The dealer's reveals, deals, reshuffles and steals
are not choices: they follow from the sampled world (a steal and a reshuffle at random).

A Wild fills a position dozens of ways, so the tree tries only the acts greedy (driver.greedy_policy)
rates best (`_candidates`), and the playouts are greedy: by the lean greedy playout
(lean_greedy.greedy_playout), which makes the acts and the draws greedy_policy makes act by act
through the full rules (`play_out`, still used for any other policy), so each search is the same,
at a third of the instructions an iteration (tests/engines/test_pop_search.py holds the two searches equal).
The history of that choice: benchmarks/pop_bot_strength.py measures it: at 1 s a move on the same loaded machine, greedy playouts
won 0.44 of 92 three-player and 0.40 of 93 four-player games against greedy players, where the lean
random playout (`playout=None`) won 0.345 of 200 each, at about as many iterations a second (random
games run longer: 147 acts from the start against greedy's 105 with 3 players). Random playouts now go
by the lean playout (lean.random_winners), which gives about twice the iterations it did then (846
against 446 a second for greedy playouts, one 4-player mid-game position, pure Python, load 13);
whether that makes them the stronger is for pop_bot_strength.py to measure again.
Greedy playouts play the worlds out as greedy opponents would. (A variant that kept greedy's act
unless the search found another better by two standard errors won less: 0.35 against 0.48 of
3-player games at 200 iterations.) Measured again in issue 26 (pop_bot_strength.py's docstring has
the figures): about 1,000 iterations a CPU-second mid-game with 3 players and 700 with 4, the budget
of 1 s a move; at 100 iterations an act it wins less than at that budget. The `Tuning` it tried (a
reward graded by the final location, a smaller exploration constant) made no difference that 200
games can show, so the defaults stay as they were. Those iterations were act by act through the full
rules: the lean greedy playout leaves every search at a given number of iterations as it was, and
gives about three times as many iterations in a second (search, 4 players, mid-game: 20.9 -> 7.2 M
instructions an iteration; 7.1 M since a sampled world's cards are shuffled by engine/shuffle.py), so
the 1 s budget now searches more than those measurements did.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from engine.contract import DEALER, Duty
from engine.ismcts import EXPLORATION, Node, Result, credit, credit_rewards, search, select
from engine.shuffle import shuffle

from .actions import Action, Build, Deal, Discard, Reveal, Sandstorm, Shuffle, Thief, Zero
from .board import public_counts
from .driver import greedy_policy, greedy_rating
from .duties import duties
from .knowledge import DealerKnowledge
from .lean import random_winners
from .lean_greedy import greedy_playout
from .legal_acts import legal_actions
from .rules import apply_checked, outcome
from .state import State

FILLINGS = 2
"""The tree tries the best few ways to fill each position (by greedy's rating), not the hundred a Wild allows."""
DISCARDS = 4
"""And the best few discards."""

@dataclass(frozen=True)
class Tuning:
    """What the search weighs (benchmarks/pop_bot_strength.py --exploration, --progress compare)."""

    exploration: float = EXPLORATION
    """UCB's exploration constant."""
    progress: float = 0.0
    """The weight of a player's final location (out of 13) in their reward, the rest their share of the
    win: a graded reward tells close acts apart in fewer iterations than a win or a loss."""


Playout = Callable[[State, str, Sequence[Action], random.Random], Action]
"""A policy that plays sampled worlds out act by act (None: the lean random playout instead)."""


class World:
    """One determinization: the card of every slot in a hand and the deck order (top first), kept up
    to date as the world's acts are applied (`act`), as driver.FullInformation keeps its secrets."""

    __slots__ = ("cards", "dealer", "deck")

    def __init__(self, cards: dict[int, int], deck: list[int]):
        self.cards, self.deck = cards, deck
        self.dealer = DealerKnowledge(deck, cards)
        """A view of `deck` and `cards`, which change in place."""

    def act(self, state: State, who: str, action: Action, rng: random.Random) -> State:
        """The next state; the deck loses the cards revealed or dealt, a reshuffle orders it anew."""
        after = apply_checked(state, who, action)[0]
        if isinstance(action, Reveal):
            del self.deck[0]
        elif isinstance(action, Deal):
            k = len(action.slots)
            self.cards.update(zip(action.slots, self.deck[:k]))
            del self.deck[:k]
        elif isinstance(action, Shuffle):
            self.deck[:] = state.discards
            shuffle(rng, self.deck)
        return after  # a steal moves slots, and `cards` is by slot: nothing to do

    def advance(self, state: State, rng: random.Random,
                log: list[tuple[str, Action]] | None = None) -> tuple[State, Duty | None]:
        """Make the dealer's acts, which the world decides (a draw each), until a player has a choice
        (that duty is returned) or the game is over (None). `log`, if given, gains each act."""
        while True:
            owed = duties(state)
            if not owed:
                return state, None
            duty = owed[0]
            if duty.who != DEALER:
                return state, duty
            options = legal_actions(state, DEALER, self.dealer)
            action = options[int(rng.random() * len(options))]
            if log is not None:
                log.append((DEALER, action))
            state = self.act(state, DEALER, action, rng)


def unseen_cards(state: State, known: Mapping[int, int]) -> list[int]:
    """The cards `known`'s holder has not seen, in kind order: the deck's counts minus every face-up
    card and every card it knows in a hand."""
    left = list(state.table.options.counts)
    for card, n in enumerate(public_counts(state)):
        left[card] -= n
    for hand in state.hands:
        for slot in hand:
            if slot in known:
                left[known[slot]] -= 1
    return [card for card, n in enumerate(left) for _ in range(n)]


def determinize(state: State, known: Mapping[int, int], rng: random.Random) -> World:
    """A world drawn at random among those the holder of `known` cannot tell apart from the real one.
    `known` is every card its holder has seen dealt to it (stolen ones too: it knows where they went)."""
    cards = {slot: known[slot] for hand in state.hands for slot in hand if slot in known}
    hidden = sorted(slot for hand in state.hands for slot in hand if slot not in known)
    pool = unseen_cards(state, known)
    assert len(pool) == len(hidden) + state.deck, "every card is in sight, in a hand or in the deck"
    shuffle(rng, pool)
    cards.update(zip(hidden, pool))
    return World(cards, pool[len(hidden):])


def _key(action: Action) -> Action:
    """An act as the tree knows it: its public form without the slots the cards came from."""
    if isinstance(action, (Build, Discard)):
        return replace(action, slots=None)
    if isinstance(action, (Zero, Thief, Sandstorm)):
        return replace(action, slot=None)
    return action


def choose(state: State, actor: str, known: Mapping[int, int], rng: random.Random,
           seconds: float | None = 1.0, iterations: int | None = None,
           playout: Playout | None = greedy_policy, tuning: Tuning | None = None) -> Result:
    """The act `actor` owes now (a move or a discard), by search for `seconds` (wall clock) or, if
    given, `iterations` (at least 1; then the result depends on `rng` alone, not on the machine).
    `playout` plays the sampled worlds to their end act by act (greedy by default); None plays them at
    random by the lean playout (benchmarks/pop_bot_strength.py compares)."""
    legal = legal_actions(state, actor, known)
    if len(legal) == 1:
        return Result(legal[0], 0, 0.0)
    by_key = {_key(action): action for action in legal}
    tune = tuning or Tuning()
    def one_world(root: Node[Action]) -> None:
        _iterate(root, state, determinize(state, known, rng), rng, playout, tune)

    found = search(one_world, seconds, iterations)
    found.action = by_key[found.action]  # the tree keys acts without their slots; the act played names them
    return found


def _iterate(root: Node[Action], state: State, world: World, rng: random.Random, playout: Playout | None,
             tune: Tuning) -> None:
    """One iteration: select and expand in this world, play it out, credit the path."""
    path = [root]
    node = root
    state, duty = world.advance(state, rng)
    expanded = False
    while duty is not None and not expanded:
        who = duty.who
        options = _candidates(state, who, legal_actions(state, who, world.cards))
        keys = [_key(action) for action in options]
        untried = [i for i, key in enumerate(keys) if key not in node.children]
        if untried:
            i = untried[int(rng.random() * len(untried))]
            child = node.children[keys[i]] = Node(who)
            child.available = 1
            expanded = True
        else:
            i, child = select(node, keys, tune.exploration)
        path.append(child)
        node = child
        state, duty = world.advance(world.act(state, who, options[i], rng), rng)
    if duty is None:
        end = outcome(state)
        assert end is not None, "no duty is owed once the game is over"
        winners, scores = end.winners, end.scores
    elif playout is None:
        credit(path, random_winners(state, world.cards, world.deck, rng))
        return
    elif playout is greedy_policy:
        winners, scores = greedy_playout(state, world.cards, world.deck, rng)
    else:
        winners, scores = play_out(state, duty, world, rng, playout)
    if tune.progress:
        share = 1 / len(winners)
        credit_rewards(path, {player: (1 - tune.progress) * (share if player in winners else 0.0)
                              + tune.progress * location / 13 for player, location in scores.items()})
    else:
        credit(path, winners)


def play_out(state: State, duty: Duty | None, world: World, rng: random.Random, playout: Playout,
             log: list[tuple[str, Action]] | None = None) -> tuple[tuple[str, ...], dict[str, int]]:
    """A sampled world played to its end act by act through the full rules, `duty` owed now, the
    players' choices by `playout` (a lone legal act played without asking it): the winners and every
    player's final location. `log`, if given, gains every act. lean_greedy.greedy_playout plays the
    same game for greedy_policy, faster."""
    while duty is not None:
        options = legal_actions(state, duty.who, world.cards)
        action = options[0] if len(options) == 1 else playout(state, duty.who, options, rng)
        if log is not None:
            log.append((duty.who, action))
        state, duty = world.advance(world.act(state, duty.who, action, rng), rng, log)
    result = outcome(state)
    assert result is not None, "a playout ends with the game"
    return result.winners, result.scores


class _Steady(random.Random):
    """No noise: greedy's ties stay in the rules' order."""

    def random(self) -> float:
        return 0.0


def _candidates(state: State, who: str, options: Sequence[Action]) -> Sequence[Action]:
    """The acts the tree tries: every action card and stop, the best FILLINGS ways to fill each
    position and the best DISCARDS discards by greedy's rating. The search then has visits enough
    to tell them apart."""
    if len(options) <= DISCARDS:
        return options
    ranked = sorted(options, key=greedy_rating(state, who, _Steady()), reverse=True)
    kept: list[Action] = []
    fillings: dict[int, int] = {}
    discards = 0
    for action in ranked:
        if isinstance(action, Build):
            if fillings.get(action.pos, 0) == FILLINGS:
                continue
            fillings[action.pos] = fillings.get(action.pos, 0) + 1
        elif isinstance(action, Discard):
            if discards == DISCARDS:
                continue
            discards += 1
        kept.append(action)
    return kept


class SearchPolicy:
    """The search as a driver Policy (and a bot's): `seconds` or `iterations` an act."""

    def __init__(self, seconds: float | None = 1.0, iterations: int | None = None,
                 playout: Playout | None = greedy_policy, tuning: Tuning | None = None):
        self.seconds, self.iterations, self.playout, self.tuning = seconds, iterations, playout, tuning

    def __call__(self, state: State, actor: str, actions: Sequence[Action], rng: random.Random,
                 known: Mapping[int, int]) -> Action:
        if len(actions) == 1:
            return actions[0]
        chosen: Action = choose(state, actor, known, rng, self.seconds, self.iterations, self.playout,
                                self.tuning).action
        return chosen


__all__ = ["SearchPolicy", "Tuning", "World", "choose", "determinize", "play_out"]
