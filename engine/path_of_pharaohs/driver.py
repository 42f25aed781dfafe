"""The full-information driver: holds every secret (the deck order, every hand), fulfils every duty.
For simulation, tests and bots. Never part of a player's normal path: a player's program knows only
its own hand."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence

from engine.contract import DEALER, Duty
from engine.shuffle import shuffle

from .actions import Action, Build, Deal, Discard, Reveal, Sandstorm, Shuffle, Steal, Thief, Zero
from .cards import ACTION_CARDS, L3, POINTS, WILD, full_deck
from .duties import duties
from .knowledge import DealerKnowledge
from .legal_acts import legal_actions
from .play import Play
from .playout import play_out
from .rules import apply, apply_checked, setup
from .state import Options, State


def shuffled_deck(options: Options, rng: random.Random) -> list[int]:
    """A fresh deck in random order, top first."""
    deck = full_deck(options.actions)
    shuffle(rng, deck)
    return deck


Policy = Callable[[State, str, Sequence[Action], random.Random], Action]


def random_policy(state: State, actor: str, actions: Sequence[Action], rng: random.Random) -> Action:
    """Any legal action, each as likely."""
    return actions[int(rng.random() * len(actions))]


def greedy_policy(state: State, actor: str, actions: Sequence[Action], rng: random.Random) -> Action:
    """Moves as far as it can now, with as few cards (and Wilds) as it can; slows the leader down;
    keeps its action cards when it discards."""
    return max(actions, key=greedy_rating(state, actor, rng))


def greedy_rating(state: State, actor: str, rng: random.Random) -> Callable[[Action], float]:
    """How much greedy_policy likes each act of `actor` now (ties among discards broken by `rng`)."""
    me = state.table.players.index(actor)
    leader = max(range(len(state.table.players)), key=lambda p: (p != me, state.location[p]))

    def rating(action: Action) -> float:
        if isinstance(action, Build):
            points = 0 if state.zeros[me] >> action.pos & 1 else POINTS[action.pos] + 2 * (action.pos == L3)
            wilds = sum(card == WILD for card, _ in action.terms)
            return 10 * points + 3 - len(action.terms) - 2 * wilds
        if isinstance(action, (Zero, Sandstorm)):
            return 4 + (action.target == state.table.players[leader]) * 4
        if isinstance(action, Thief):
            return 3
        if isinstance(action, Discard):
            return -sum(3 if card in ACTION_CARDS else 0 for card in action.cards) + rng.random()
        return 0  # stop

    return rating


class FullInformation:
    """One play with every secret in hand: the deck order and every dealt card."""

    def __init__(self, options: Options, players: Sequence[str], deck: Sequence[int], first: str,
                 rng: random.Random | None = None):
        self.state = setup(options, players, first)
        self.deck = list(deck)
        """The deck order, top first: the dealer's secret."""
        self.cards: dict[int, int] = {}
        """The card of every slot dealt."""
        self.known: dict[str, dict[int, int]] = {p: {} for p in self.state.table.players}
        self.rng = rng or random.Random(0)
        """The dealer's randomness for reshuffles."""
        self.log: list[tuple[str, Action]] = []
        self._dealer = DealerKnowledge(self.deck, self.cards)
        """A view of `deck` and `cards`, which change in place."""

    def knowledge(self, actor: str) -> DealerKnowledge | dict[int, int]:
        """What `actor` privately knows: the deck and every dealt card for the dealer, a player's hand."""
        if actor == DEALER:
            return self._dealer
        return self.known[actor]

    def act(self, actor: str, action: Action, checked: bool = False, report: bool = True) -> tuple[object, ...]:
        """Apply an act with its private parts, and keep every secret up to date; what happened, if
        `report`."""
        before = self.state
        if checked:
            self.state, events = apply_checked(before, actor, action, report)
        else:
            self.state, events = apply(before, actor, action, self.knowledge(actor))
        if actor == DEALER:  # a player's act changes no secret the driver keeps
            self._keep_secrets(before, action)
        self.log.append((actor, action))
        return events

    def _keep_secrets(self, before: State, action: Action) -> None:
        """The deck and the dealt cards after the dealer's `action` from the state `before` it."""
        if isinstance(action, Reveal):
            del self.deck[0]
        elif isinstance(action, Deal):
            k = len(action.slots)
            dealt = list(zip(action.slots, self.deck[:k]))
            del self.deck[:k]
            self.cards.update(dealt)
            self.known[action.player].update(dealt)
        elif isinstance(action, Shuffle):
            self.deck[:] = before.discards
            shuffle(self.rng, self.deck)
        elif isinstance(action, Steal):
            assert before.victim is not None, "a steal follows a Thief"
            thief, victim = self.known[before.mover], self.known[before.table.players[before.victim]]
            for slot in action.slots:
                thief[slot] = victim.pop(slot)

    def step(self, policies: Mapping[str, Policy], rng: random.Random) -> tuple[object, ...]:
        """Fulfil the duty owed now."""
        duty = duties(self.state)[0]
        who = duty.who
        actions = legal_actions(self.state, who, self.knowledge(who))
        return self.act(who, self._choose(duty, actions, policies, rng), True)

    def _choose(self, duty: Duty, actions: Sequence[Action], policies: Mapping[str, Policy],
                rng: random.Random) -> Action:
        """The dealer's reveals, deals and shuffles need no choice; a steal is chosen at random, as
        the trust layer's fair randomness would; the players ask their policies."""
        who = duty.who
        if who == DEALER:
            return actions[int(rng.random() * len(actions))] if duty.what == "steal" else actions[0]
        return policies[who](self.state, who, actions, rng)

    def play(self, policies: Mapping[str, Policy], rng: random.Random, limit: int = 100_000,
             report: bool = True) -> list[object]:
        """Play to the end; what happened, if `report`. Each act as `step` does it (the duty, the legal
        acts, the choice, then what apply_checked does: a play.Play performs it on a copy of the state
        and settles), but tuned, for this loop is the benchmarks' full rules: one Play is carried
        through the game, a player's act copies the state (so that a state a policy was shown never
        changes), and the dealer's acts that follow change that copy in place, since nobody sees the
        states between (a copy per act was a tenth of a game's cost)."""
        work = Play(self.state, report)  # the caller's state is never changed
        state = self.state = work.s
        log = self.log
        for _ in range(limit):
            owed = duties(state)
            if not owed:
                break
            duty = owed[0]
            who = duty.who
            if who == DEALER:
                actions = legal_actions(state, DEALER, self._dealer)
                action = actions[int(rng.random() * len(actions))] if duty.what == "steal" else actions[0]
                self._keep_secrets(state, action)  # before the state changes in place
            else:
                action = policies[who](state, who, legal_actions(state, who, self.known[who]), rng)
                state = self.state = work.s = state.copy()  # the policy was shown `state`
            work.act(action)
            log.append((who, action))
        else:
            raise RuntimeError("the game did not end")  # a rules bug, never a player's doing
        return [] if work.events is None else work.events

    def play_at_random(self) -> None:
        """`play` with random_policy for everyone and the driver's own randomness for every draw, the
        same game, by the lean playout (playout.play_out) rather than act by act."""
        self.state = play_out(self.state, self.cards, self.deck, self.rng, self.log, self.known)


def random_game(players: Sequence[str], options: Options, rng: random.Random,
                policy: Policy = random_policy) -> FullInformation:
    """Deal and play one whole game; returns the driver at the end. Random games go by the lean
    playout: the same game as act by act (tests/engines/test_pop_playout.py)."""
    game = FullInformation(options, players, shuffled_deck(options, rng), rng.choice(list(players)), rng)
    if policy is random_policy:
        game.play_at_random()
    else:
        game.play(dict.fromkeys(players, policy), rng, report=False)  # raises if the game does not end
    return game


__all__ = ["FullInformation", "greedy_policy", "greedy_rating", "random_game", "random_policy", "shuffled_deck"]
