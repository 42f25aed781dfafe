"""The full-information driver: holds every secret, fulfils every duty. For simulation, tests, the
end-of-game audit and bots. Never part of a player's normal path: a player's program knows only
its own coin values."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from engine.contract import DEALER, Duty, InvalidSetup, Randomness

from .actions import Action, Discard, Place
from .deal import deal_unseen, layout_problem
from .duties import duties, opening
from .geometry import SARCOPHAGUS_POSITIONS, free_sides, parse_pos, pos_name
from .legality import legal_actions
from .pieces import NULL, Tile, parse_tile
from .rules import apply, apply_checked, setup
from .scoring import fame
from .state import Options, State


@dataclass(frozen=True, slots=True)
class Layout:
    """Where every tile lies: the dealer's secret."""

    pyramid: tuple[Tile, ...]
    under: tuple[Tile, ...]

    def __post_init__(self) -> None:
        problem = layout_problem(self.pyramid, self.under)
        if problem:
            raise InvalidSetup(f"impossible layout: {problem}")

    def to_names(self) -> dict[str, dict[str, str]]:
        return {
            "pyramid": {pos_name(p): str(t) for p, t in enumerate(self.pyramid)},
            "sarcophagus": {pos_name(p): str(t) for p, t in zip(SARCOPHAGUS_POSITIONS, self.under)},
        }


def deal(rng: Randomness) -> Layout:
    """Shuffle and lay out as the setup rules say (deal.deal_unseen with nothing shown)."""
    return Layout(*deal_unseen((None,) * 21, (None,) * 3, rng))


def layout_from_names(pyramid: Mapping[str, str], sarcophagus: Mapping[str, str]) -> Layout:
    """From `{"1a": "sun-3", ...}` and `{"5c": "moon-5", "6c": ..., "6d": ...}`."""
    try:
        cells = {parse_pos(k): parse_tile(v) for k, v in pyramid.items()}
        under = {parse_pos(k): parse_tile(v) for k, v in sarcophagus.items()}
    except ValueError as exc:
        raise InvalidSetup(f"layout: {exc}") from None
    if set(cells) != set(range(21)):
        raise InvalidSetup("layout: the pyramid needs a tile at each of the 21 positions 1a..6f")
    if set(under) != set(SARCOPHAGUS_POSITIONS):
        raise InvalidSetup("layout: the sarcophagus needs a tile under each of 5c, 6c and 6d")
    return Layout(tuple(cells[p] for p in range(21)), tuple(under[p] for p in SARCOPHAGUS_POSITIONS))


Policy = Callable[[State, str, Sequence[Action], random.Random, Mapping[int, int]], Action]
"""Chooses among `actions` for `actor`; the last argument is what the actor privately knows (its own
coin values), for policies that look further than the legal actions (search.SearchPolicy)."""


def random_policy(state: State, actor: str, actions: Sequence[Action], rng: random.Random,
                  known: Mapping[int, int] | None = None) -> Action:
    """Any legal action, each as likely (`random()` rather than `choice`: one call instead of three)."""
    return actions[int(rng.random() * len(actions))]


def greedy_policy(state: State, actor: str, actions: Sequence[Action], rng: random.Random,
                  known: Mapping[int, int] | None = None) -> Action:
    """Claims what it can win now, with its cheapest coin; builds on valuable tiles; avoids traps."""
    seat = state.turn

    def worth(tile: Tile | None, held: tuple[Tile, ...]) -> float:
        if tile is None:
            return 0
        if tile.rank == NULL:
            protected = any(t.is_god for t in held)
            return 0 if protected or not any(t.is_number for t in held) else -4
        if tile.is_god:
            return 0 if any(t.is_god for t in held) else 2.5
        return fame(held + (tile,)) - fame(held)

    def rating(action: Action) -> float:
        if isinstance(action, Discard):
            return -action.tile.rank
        if not isinstance(action, Place):
            return 0
        pos = action.pos
        assert pos is not None, "a legal placement names its tile"
        coins = state.coins[pos]
        mine = sum(1 for slot in coins if state.slot_seat[slot] == seat)
        others = max([sum(1 for s in coins if state.slot_seat[s] == o) for o in range(len(state.table.seats))
                      if o != seat] or [0])
        value = worth(state.tiles[pos], state.claimed[seat])
        coin = action.value or 0
        if len(coins) == 3 and free_sides(pos, state.present, state.table.options.bottom_edge_free) >= 2:
            if mine + 1 > others:
                return 10 * value - coin
            if mine + 1 == others:
                return 4 * value + coin
            return -5 - coin
        return value * (1 + mine - others) / 2 - coin / 10 + rng.random() / 100

    return max(actions, key=rating)


class FullInformation:
    """One play with every secret in hand: the layout and every coin's value."""

    def __init__(self, options: Options, players: Sequence[str], layout: Layout, first: str):
        self.layout = layout
        self.state = setup(options, players, first)
        self.values: dict[int, int] = {}
        self.known: dict[str, dict[int, int]] = {p: {} for p in self.state.table.players}
        self.log: list[tuple[str, Action]] = []

    def knowledge(self, actor: str) -> Layout | dict[int, int]:
        """What `actor` privately knows: the layout for the dealer, a player's own coin values."""
        if actor == DEALER:
            return self.layout
        return self.known[actor]

    def act(self, actor: str, action: Action, checked: bool = False) -> tuple[object, ...]:
        """Apply an act with its private parts; remembers a placed coin's value."""
        slot = len(self.state.slot_seat)
        self.state, events = (apply_checked if checked else apply)(self.state, actor, action)
        if type(action) is Place:
            assert action.value is not None, "the driver places coins with their values"
            self.values[slot] = self.known[actor][slot] = action.value
        self.log.append((actor, action))
        return events

    def step(self, policies: Mapping[str, Policy], rng: random.Random) -> tuple[object, ...]:
        """Fulfil the first duty owed."""
        return self._fulfil(duties(self.state)[0], policies, rng)

    def _fulfil(self, duty: Duty, policies: Mapping[str, Policy], rng: random.Random) -> tuple[object, ...]:
        """The dealer and openings need no choice; the rest ask a policy. Holding every coin's value,
        the driver opens a tie-break's or the audit's coins in one act."""
        who, what, _ = duty
        if what == "open":
            return self.act(DEALER, opening(self.state, DEALER, self.values), checked=True)
        if what == "reveal":
            return self.act(who, legal_actions(self.state, who, self.layout)[0], checked=True)
        known = self.known[who]
        actions = legal_actions(self.state, who, known)
        return self.act(who, policies[who](self.state, who, actions, rng, known), checked=True)

    def play(self, policies: Mapping[str, Policy], rng: random.Random, limit: int = 10_000) -> list[object]:
        events: list[object] = []
        for _ in range(limit):
            owed = duties(self.state)
            if not owed:
                return events
            events += self._fulfil(owed[0], policies, rng)
        raise RuntimeError("the game did not end")  # a rules bug, never a player's doing

    def play_at_random(self, rng: random.Random) -> None:
        """`play` with random_policy for everyone, the same game from the same `rng`, by the lean
        playout (playout.play_out) rather than act by act. The playout is imported here, by the searches
        that use it: a command that only reads a game does not load it (4 ms of `pbem show`'s 190)."""
        from .playout import play_out

        self.state = play_out(self.state, self.values, self.layout, rng, self.log)
        known_by_seat = [self.known[seat.player] for seat in self.state.table.seats]
        slot_seat = self.state.slot_seat
        for slot, value in self.values.items():
            known_by_seat[slot_seat[slot]][slot] = value


def random_game(players: Sequence[str], options: Options, rng: random.Random,
                policy: Policy = random_policy) -> FullInformation:
    """Deal and play one whole game; returns the driver at the end."""
    game = FullInformation(options, players, deal(rng), rng.choice(list(players)))
    if policy is random_policy:
        game.play_at_random(rng)
    else:
        game.play(dict.fromkeys(players, policy), rng)  # raises if the game does not end
    return game
