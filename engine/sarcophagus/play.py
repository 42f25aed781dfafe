"""Applying an act to one copy of the state (`Play`): the act itself, then every step the rules take on
their own (reveals owed, claims and their cascade, traps, passes, the all-coins-played assessment)
until somebody owes an act."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from .actions import Action, Open, Place, Reveal
from .duties import coin_name, leaders, unopened_tied
from .events import (
    AllCoinsPlayed,
    Claimed,
    Opened,
    Passed,
    Placed,
    PyramidEmpty,
    Revealed,
    SarcophagusTaken,
    TieBreak,
    TileDiscarded,
    Trap,
    TrapDiscard,
)
from .geometry import NEIGHBOUR_MASKS, SARCOPHAGUS_INDEX, forced_position, free_sides, positions_in
from .pieces import NULL, Tile
from .state import DISCARDED, State

T = TypeVar("T")


def _with(items: tuple[T, ...], i: int, value: T) -> tuple[T, ...]:
    """A copy of a tuple with one item replaced (through a list: a third of the time of slicing)."""
    changed = list(items)
    changed[i] = value
    return tuple(changed)


class Play:
    """Builds the next state in place: one copy of the fields, changed by the action and by the rules
    that follow on their own, then returned by `apply`. The new State is never seen half-built: it
    leaves `apply` only once settled. Fields stay tuples, rebuilt only where the action changes them.
    The lean playout (playout.play_out) follows its methods, on one mutable copy of the state."""

    __slots__ = ("changed", "events", "s", "seats")

    def __init__(self, before: State, report: bool = True):
        self.s = State(
            before.table, before.present, before.face_up, before.tiles, before.coins, before.under,
            before.under_owner, before.slot_seat, before.slot_value, before.slot_back, before.hands, before.out,
            before.claimed, before.turn, before.placed, before.reveal, before.tie, before.traps, before.full,
            before.entombed, before.forfeits,
        )  # positional: measurably faster in the playout loop; order as in State
        self.seats = before.table.seats
        self.events: list[object] | None = [] if report else None
        """What happened, for a game report; a playout asks for none (making them is a twentieth of its time)."""
        self.changed = True
        """A coin may have been placed or a tile removed since the last look for claimable tiles
        (true as each `settle` begins: a placement's cascade can wait for a reveal owed in between)."""

    # -- the acts

    def act(self, actor: str, action: Action) -> None:
        """Perform an act known legal and complete, and what the rules then do on their own."""
        if isinstance(action, Place):
            assert action.pos is not None, "a checked placement names its tile"
            self.place(action.pos)
        elif isinstance(action, Reveal):
            self.reveal_tiles(action)
        elif isinstance(action, Open):
            self.open(actor, action.values)
        else:
            self.discard(action.tile)
        self.settle()

    def place(self, pos: int) -> None:
        s = self.s
        slot = len(s.slot_seat)
        seat = s.turn
        s.slot_seat += (seat,)
        s.slot_value += (None,)
        s.slot_back += (None,)
        coins = s.coins[pos] + (slot,)
        s.coins = _with(s.coins, pos, coins)
        if len(coins) == 4:
            s.full |= 1 << pos
        s.hands = _with(s.hands, seat, s.hands[seat] - 1)
        s.out = _with(s.out, seat, s.out[seat] + (slot,))
        s.placed += 1
        if self.events is not None:
            self.events.append(Placed(self.seats[seat].name, pos, slot, s.slot_seat.count(seat)))
        face_down = NEIGHBOUR_MASKS[pos] & s.present & ~s.face_up
        if face_down:
            s.reveal = positions_in(face_down)

    def reveal_tiles(self, action: Reveal) -> None:
        s = self.s
        for pos, tile in action.tiles:
            if self.events is not None:
                self.events.append(Revealed(pos, tile, action.under))
            if action.under:
                k = SARCOPHAGUS_INDEX[pos]
                s.under = _with(s.under, k, tile)
                owner = s.under_owner[k]
                assert owner is not None, "every sarcophagus tile is taken or discarded before the end reveal"
                if owner != DISCARDED:
                    s.claimed = _with(s.claimed, owner, s.claimed[owner] + (tile,))
                    if tile.rank == NULL:
                        s.traps += (owner,)
            else:
                s.tiles = _with(s.tiles, pos, tile)
                s.face_up |= 1 << pos
        s.reveal = ()

    def open(self, player: str, values: tuple[tuple[int, int], ...]) -> None:
        s = self.s
        slot_value = list(s.slot_value)
        for slot, value in values:
            slot_value[slot] = value
        s.slot_value = tuple(slot_value)
        if self.events is not None:
            self.events.append(Opened(player, values, tuple(coin_name(s, slot) for slot, _ in values)))

    def discard(self, tile: Tile) -> None:
        s = self.s
        seat, s.traps = s.traps[0], s.traps[1:]
        self._lose(seat, tile)

    # -- what the rules do on their own

    def settle(self) -> None:
        """Run the rules forward until someone owes an act."""
        s = self.s
        self.changed = True
        while True:
            if s.reveal:
                return
            if s.tie is not None:
                tied = leaders(s, s.tie)
                if unopened_tied(s, s.tie, tied):
                    return
                pos, s.tie = s.tie, None
                self._resolve_tie(pos, tied)
                continue
            if s.traps:
                if self._spring_trap():
                    return
                continue
            if self.changed:
                claimable = self._first_claimable() if s.full else None
                if claimable is not None:
                    self._assess(claimable)
                    continue
                self.changed = False
            if not s.present:
                return
            if self._advance_turn():
                return

    def _advance_turn(self) -> bool:
        """Pass, end the turn or assess the forced tile; True when the seat to move owes a move."""
        s = self.s
        seat = s.turn
        if s.placed == 0:
            forced = forced_position(s.present)
            if s.hands[seat] or not any(s.hands):
                if not s.face_up >> forced & 1:
                    s.reveal = (forced,)
                    return True
                if s.hands[seat]:
                    return True
                if self.events is not None:
                    self.events.append(AllCoinsPlayed(forced))
                self._next_seat()
                self._assess(forced)
                return False
            if self.events is not None:
                self.events.append(Passed(self.seats[seat].name))
        elif s.placed == 1 and s.hands[seat] and s.present & s.face_up & ~s.full:
            return True
        self._next_seat()
        return False

    def _next_seat(self) -> None:
        s = self.s
        s.turn = (s.turn + 1) % len(self.seats)
        s.placed = 0

    def _first_claimable(self) -> int | None:
        """Top row first, then left to right: position order."""
        s = self.s
        bottom = s.table.options.bottom_edge_free
        full = s.full
        while full:
            pos = (full & -full).bit_length() - 1
            if free_sides(pos, s.present, bottom) >= 2:
                return pos
            full &= full - 1
        return None

    def _assess(self, pos: int) -> None:
        s = self.s
        if not s.coins[pos]:
            self._remove(pos, None)
            return
        most = leaders(s, pos)
        if len(most) == 1:
            self._remove(pos, most[0])
        elif unopened_tied(s, pos, most):
            s.tie = pos
        else:
            self._resolve_tie(pos, most)

    def _resolve_tie(self, pos: int, tied: Sequence[int]) -> None:
        s = self.s
        totals = dict.fromkeys(tied, 0)
        for slot in s.coins[pos]:
            if s.slot_seat[slot] in totals:
                value = s.slot_value[slot]
                assert value is not None, "a tie-break waits until the tied coins are opened"
                totals[s.slot_seat[slot]] += value
        if self.events is not None:
            self.events.append(TieBreak(pos, tuple((self.seats[seat].name, t) for seat, t in totals.items())))
        best = max(totals.values())
        winners = [seat for seat, t in totals.items() if t == best]
        self._remove(pos, winners[0] if len(winners) == 1 else None)

    def _remove(self, pos: int, claimer: int | None) -> None:
        """The tile leaves the pyramid, claimed or discarded; coins go back or into the sarcophagus."""
        s = self.s
        tile = s.tiles[pos]
        s.present &= ~(1 << pos)
        s.full &= ~(1 << pos)
        self.changed = True
        k = SARCOPHAGUS_INDEX.get(pos)
        slot_seat, coins = s.slot_seat, s.coins[pos]
        returning = coins if k is None else [slot for slot in coins if slot_seat[slot] != claimer]
        entombed = len(coins) - len(returning)
        if returning:  # one rebuild per field, not one per coin
            back = len(slot_seat)
            slot_back, hands, out = list(s.slot_back), list(s.hands), list(s.out)
            for slot in returning:
                seat = slot_seat[slot]
                slot_back[slot] = back
                hands[seat] += 1
                held = out[seat]
                i = held.index(slot)
                out[seat] = held[:i] + held[i + 1:]
            s.slot_back, s.hands, s.out = tuple(slot_back), tuple(hands), tuple(out)
        s.coins = _with(s.coins, pos, ())
        if claimer is None:
            if self.events is not None:
                self.events.append(TileDiscarded(pos, tile))
            if k is not None:
                s.under_owner = _with(s.under_owner, k, DISCARDED)
                if self.events is not None:
                    self.events.append(TileDiscarded(pos, None, under=True))
        else:
            assert tile is not None, "a claimed tile holds coins, so it is face up"
            name = self.seats[claimer].name
            s.claimed = _with(s.claimed, claimer, s.claimed[claimer] + (tile,))
            if self.events is not None:
                self.events.append(Claimed(name, pos, tile))
            if k is not None:
                s.under_owner = _with(s.under_owner, k, claimer)
                s.entombed = _with(s.entombed, k, tuple(slot for slot in coins if slot_seat[slot] == claimer))
                if self.events is not None:
                    self.events.append(SarcophagusTaken(name, pos, entombed))
            if tile.rank == NULL:
                s.traps += (claimer,)
        if not s.present and self.events is not None:
            self.events.append(PyramidEmpty())

    def _spring_trap(self) -> bool:
        """Resolve the first sprung trap on its own if nobody has a choice; True if the claimer does."""
        s = self.s
        seat = s.traps[0]
        name = self.seats[seat].name
        held = s.claimed[seat]
        if any(t.is_god for t in held):
            if self.events is not None:
                self.events.append(Trap(name, "protected"))
        else:
            numbers = [t for t in held if t.is_number]
            if len(numbers) > 1:
                if self.events is not None:
                    self.events.append(Trap(name, "discard"))
                return True
            if not numbers:
                if self.events is not None:
                    self.events.append(Trap(name, "harmless"))
            else:
                if self.events is not None:
                    self.events.append(Trap(name, "discard"))
                self._lose(seat, numbers[0])
        s.traps = s.traps[1:]
        return False

    def _lose(self, seat: int, tile: Tile) -> None:
        s = self.s
        held = list(s.claimed[seat])
        held.remove(tile)
        s.claimed = _with(s.claimed, seat, tuple(held))
        if self.events is not None:
            self.events.append(TrapDiscard(self.seats[seat].name, tile))
