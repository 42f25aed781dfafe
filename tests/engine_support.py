"""Helpers for rules tests: the tables Sarcophagus is tested at, scripted games on fixed layouts, states built
by hand, the search bots' honesty check shared by both games, and random games checked at every step."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine.contract import DEALER
from engine.sarcophagus.driver import FullInformation, Layout, deal
from engine.sarcophagus.duties import hand_values, owed_openings
from engine.sarcophagus.geometry import SARCOPHAGUS_POSITIONS, parse_pos
from engine.sarcophagus.notation import parse_action
from engine.sarcophagus.pieces import parse_tile
from engine.sarcophagus.rules import check, duties, legal_actions, make_table, outcome
from engine.sarcophagus.scoring import score
from engine.sarcophagus.state import DISCARDED, Options, State
from engine.sarcophagus.views import view

PLAYERS = {2: ["ann", "ben"], 3: ["ann", "ben", "cat"], 4: ["ann", "ben", "cat", "dan"]}
# Every table the Sarcophagus rules are tested at: (player count, options).
CONFIGS = [
    (2, Options("pooled")), (2, Options("seats")), (3, Options()), (4, Options()),
    (2, Options("pooled", False)), (2, Options("seats", False)), (3, Options(bottom_edge_free=False)),
    (4, Options(bottom_edge_free=False)),
]


def layout_with(pyramid: dict[str, str] | None = None, under: dict[str, str] | None = None, seed: int = 0) -> Layout:
    """A legal layout with the given tiles at the given places (the rest dealt from a seed)."""
    base = deal(random.Random(seed))
    cells = list(base.pyramid) + list(base.under)
    wanted = {parse_pos(p): parse_tile(t) for p, t in (pyramid or {}).items()}
    wanted.update({21 + SARCOPHAGUS_POSITIONS.index(parse_pos(p)): parse_tile(t) for p, t in (under or {}).items()})
    for index, tile in wanted.items():
        j = cells.index(tile)
        cells[index], cells[j] = cells[j], cells[index]
    for index, tile in wanted.items():
        assert cells[index] == tile, "requested tiles conflict"
    return Layout(tuple(cells[:21]), tuple(cells[21:]))


class Scripted:
    """A full-information game driven move by move; dealer reveals and openings happen on their own."""

    def __init__(self, players, layout: Layout, first: str, options: Options = Options()):
        self.game = FullInformation(options, players, layout, first)
        self.events: list = []
        self.auto()

    @property
    def state(self) -> State:
        return self.game.state

    def auto(self) -> None:
        while True:
            owed = [d for d in duties(self.state) if d.what in ("reveal", "open")]
            if not owed:
                return
            duty = owed[0]
            action = legal_actions(self.state, duty.who, self.game.knowledge(duty.who))[0]
            self.events += self.game.act(duty.who, action)

    def play(self, actor: str, *moves: str) -> list[str]:
        """Make moves as `actor` (checked with their knowledge); returns what happened, as text."""
        start = len(self.events)
        for text in moves:
            action = check(self.state, actor, parse_action(text), self.game.knowledge(actor))
            self.events += self.game.act(actor, action)
            self.auto()
        return [str(e) for e in self.events[start:]]


def build(players, coins: dict[str, list[str]], face_up: dict[str, str], removed=(), *, turn: str | None = None,
          placed: int = 0, claimed: dict[str, list[str]] | None = None, options: Options = Options(),
          values: dict[str, list[int]] | None = None) -> State:
    """A state by hand: `coins` maps a position to the seats owning its coins, in placement order;
    `face_up` maps positions to their tiles; positions in `removed` have left the pyramid. Hands hold
    each seat's remaining coins. `values` (optional) opens coins: position -> values in order."""
    table = make_table(options, players)
    names = [seat.name for seat in table.seats]
    present = (1 << 21) - 1
    for pos in removed:
        present &= ~(1 << parse_pos(pos))
    tiles = [None] * 21
    up = 0
    for pos, tile in face_up.items():
        tiles[parse_pos(pos)] = parse_tile(tile)
        up |= 1 << parse_pos(pos)
    coin_slots = [()] * 21
    slot_seat, slot_value = [], []
    out = [() for _ in names]
    full = 0
    for pos, owners in coins.items():
        p = parse_pos(pos)
        opened = (values or {}).get(pos, [None] * len(owners))
        for owner, value in zip(owners, opened):
            seat = names.index(owner)
            coin_slots[p] += (len(slot_seat),)
            out[seat] += (len(slot_seat),)
            slot_seat.append(seat)
            slot_value.append(value)
        if len(owners) == 4:
            full |= 1 << p
    hands = tuple(len(seat.coins) - len(out[i]) for i, seat in enumerate(table.seats))
    held = tuple(tuple(parse_tile(t) for t in (claimed or {}).get(name, ())) for name in names)
    return State(
        table, present, up, tuple(tiles), tuple(coin_slots), (None,) * 3, (None,) * 3, tuple(slot_seat),
        tuple(slot_value), (None,) * len(slot_seat), hands, tuple(out), held,
        names.index(turn or names[0]), placed, (), None, (), full,
    )


def texts(events) -> list[str]:
    return [str(e) for e in events]


__all__ = ["DEALER", "Scripted", "build", "layout_with", "texts"]


def assert_same_search(choose, game, other, player: str, iterations: int) -> None:
    """Two full-information games that look the same to `player` give the same search and move with the
    same seed (`choose` is a game's search); another seed gives another search, so the agreement is not
    a constant."""
    first = choose(game.state, player, game.known[player], random.Random(3), iterations=iterations)
    second = choose(other.state, player, other.known[player], random.Random(3), iterations=iterations)
    assert first.iterations == second.iterations == iterations
    assert first.moves == second.moves and first.action == second.action
    assert choose(game.state, player, game.known[player], random.Random(4), iterations=iterations).moves != first.moves


# ---------------------------------------------------------------- invariants of random games

def check_invariants(game: FullInformation, look_at_views: bool) -> None:
    """Every coin in one place, every tile held once, and (with `look_at_views`) the caches and each player's
    view agree with the state."""
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
                    assert s.face_up >> parse_pos(name) & 1
            for k, spot in enumerate(shown["sarcophagus"].values()):
                assert (spot["tile"] is None) == (s.under[k] is None)


def play_checked(n_players, options, seed, policy, look_at_views=True) -> FullInformation:
    """A seeded game of `policy` players on one of CONFIGS' tables, every invariant checked at each step, to an
    audited end that scores as the rules say."""
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
