"""Helpers for rules tests: scripted games on fixed layouts, states built by hand, and the search bots'
honesty check shared by both games."""

from __future__ import annotations

import random

from engine.contract import DEALER
from engine.sarcophagus.driver import FullInformation, Layout, deal
from engine.sarcophagus.geometry import SARCOPHAGUS_POSITIONS, parse_pos
from engine.sarcophagus.notation import parse_action
from engine.sarcophagus.pieces import parse_tile
from engine.sarcophagus.rules import check, duties, legal_actions, make_table
from engine.sarcophagus.state import Options, State


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
