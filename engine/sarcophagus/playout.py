"""Random play to the end of the game: the search's and the benchmarks' inner loop.

A second, lean reading of the rules (rules.py and the modules it names) for this one purpose.
`play.Play` keeps the State's fields as tuples and rebuilds a tuple at every change, because each State
it returns must stay as it is; a playout returns only the last one. So this works on one mutable copy of
the state (lists changed in place, the rules' bit masks, each seat's hand as a mask of the values it
holds), builds the end State once, and runs the common turn (a placement, its reveal, no claim, the next
coin or seat) in one loop without a call per step; the rarer steps (claims and their cascade,
tie-breaks, traps, the end) follow play.Play method for method, in the same order.

It makes the choices `driver.random_policy` would make from the same draws of the random generator
(one draw per placement or discard, an index into the acts `legal_actions` lists), so a game played
here is the game the driver plays act by act: tests/engines/test_playout.py checks the same acts, the same end
State and the same coin values over every configuration, from the start and from mid-game. Reveals and
openings come from the full knowledge given: a driver's layout or a search's sampled world.
"""

from __future__ import annotations

import random
from collections.abc import MutableMapping

from engine.contract import DEALER

from .actions import Action, Discard, Open, Reveal
from .duties import most_coins
from .geometry import NEIGHBOUR_MASKS, POSITION_CHUNKS, SARCOPHAGUS_POSITIONS, forced_position, free_sides
from .knowledge import TileKnowledge
from .legality import PLACES
from .pieces import NULL
from .state import DISCARDED, State

_HAND_VALUES = tuple((values, len(values)) for values in (tuple(v for v in range(6) if mask >> v & 1)
                                                          for mask in range(64)))
"""The distinct coin values of a hand mask (bit v: the seat holds a coin of value v), ascending, and
how many: the values a seat may place, as duties.placement_values lists them."""
_SARCOPHAGUS_INDEX = {pos: k for k, pos in enumerate(SARCOPHAGUS_POSITIONS)}


def play_out(state: State, values: MutableMapping[int, int], tiles: TileKnowledge, rng: random.Random,
             log: list[tuple[str, Action]] | None = None) -> State:
    """The end of the game from `state`, every player's choice at random. `values` holds every coin
    slot's value and gains each coin placed; `log`, if given, gains every act as the driver logs it.
    `state` itself is left as it is (it may be a search's root)."""
    game = _Playout(state, values, tiles, rng, log)
    game.run()
    return game.end_state()


class _Playout:
    """One game being played out: the State's fields as mutable lists, and what a playout adds."""

    __slots__ = ("bottom", "changed", "claimed", "coins", "entombed", "face_up", "full", "hand",
                 "log", "out", "placed", "players", "present", "pyramid", "reveal", "rng", "slot_back", "slot_seat",
                 "slot_value", "spare", "start", "tie", "tiles", "traps", "turn", "under", "under_owner", "under_tiles",
                 "values")

    def __init__(self, s: State, values: MutableMapping[int, int], tiles: TileKnowledge, rng: random.Random,
                 log: list[tuple[str, Action]] | None):
        self.start = s
        self.values, self.rng, self.log = values, rng, log
        self.pyramid, self.under_tiles = tiles.pyramid, tiles.under
        seats = s.table.seats
        self.players = [seat.player for seat in seats]
        self.bottom = s.table.options.bottom_edge_free
        self.present, self.face_up, self.full = s.present, s.face_up, s.full
        self.tiles = list(s.tiles)
        self.coins = [list(coins) for coins in s.coins]
        self.under, self.under_owner, self.entombed = list(s.under), list(s.under_owner), list(s.entombed)
        self.slot_seat = list(s.slot_seat)
        # Room for every coin still to be placed, made once rather than appended at each placement: a
        # tile takes at most 4 coins before it leaves with them (only an absence takes some back early),
        # and a tile gone from the pyramid holds none.
        room: list[int | None] = [None] * (4 * s.present.bit_count() - sum(map(len, s.coins)))
        self.slot_value: list[int | None] = list(s.slot_value) + room
        self.slot_back: list[int | None] = list(s.slot_back) + room
        self.out = [list(out) for out in s.out]
        self.claimed = [list(held) for held in s.claimed]
        self.turn, self.placed, self.reveal, self.tie, self.traps = s.turn, s.placed, s.reveal, s.tie, list(s.traps)
        self.changed = True
        self.hand: list[int] = []
        """The values each seat holds, a mask (bit v: a coin of value v); it holds coins if it is not 0.
        Each seat's hand is counted from these at the end: fewer steps at each placement..."""
        self.spare: list[int] = []
        """...and the values of which it holds a second coin (pooled suits: two of each value)."""
        for i, seat in enumerate(seats):
            held, spare = (63, 63) if len(seat.coins) == 12 else (63, 0)  # every value, twice with pooled suits
            for slot in s.out[i]:
                bit = 1 << values[slot]
                if spare & bit:
                    spare ^= bit
                else:
                    held ^= bit
            self.hand.append(held)
            self.spare.append(spare)

    def end_state(self) -> State:
        s, placed = self.start, len(self.slot_seat)
        return State(
            s.table, self.present, self.face_up, tuple(self.tiles), tuple(map(tuple, self.coins)), tuple(self.under),
            tuple(self.under_owner), tuple(self.slot_seat), tuple(self.slot_value[:placed]), tuple(self.slot_back[:placed]),
            tuple([held.bit_count() + spare.bit_count() for held, spare in zip(self.hand, self.spare)]),
            tuple(map(tuple, self.out)), tuple(map(tuple, self.claimed)), self.turn, self.placed,
            self.reveal, self.tie, tuple(self.traps), self.full, tuple(self.entombed), s.forfeits)

    # -- the acts, in the order duties.owed_kind asks for them

    def run(self) -> None:
        while True:
            if self.reveal:
                self._reveal_pyramid(self.reveal)
            elif self.tie is not None:
                self._open(self._unopened_tied(self.tie, self._leaders(self.tie)))
            elif self.traps:
                self._discard()
            elif self.present:
                self._moves()
            elif None in self.under:
                self._reveal_under()
            elif None in self.slot_value[:len(self.slot_seat)]:  # the end audit
                self._open([slot for slot, value in enumerate(self.slot_value[:len(self.slot_seat)]) if value is None])
            else:
                return
            self._settle()

    def _moves(self) -> None:
        """Placements, as long as each needs nothing but its reveal, perhaps a claim of its tile, and
        the next placement follows it; then the general `_settle` takes over (a trap, a cascade of
        claims, the end, a pass, a forced tile face down, all coins played).

        Most acts of a game are made here, so the loop holds the state in local names (written back
        as it returns) and does in line what play.Play.place, reveal_tiles, settle and _advance_turn
        do in these cases, and geometry's forced_position and positions_in: a call or an attribute
        costs more than the work of most steps."""
        draw, log, values, players, pyramid, tiles = self.rng.random, self.log, self.values, self.players, \
            self.pyramid, self.tiles
        coins, slot_seat = self.coins, self.slot_seat
        out, hand, spare = self.out, self.hand, self.spare
        present, face_up, full, seat, placed = self.present, self.face_up, self.full, self.turn, self.placed
        low, mid, high = POSITION_CHUNKS
        n_seats = len(hand)
        while True:
            if placed == 0:
                targets: tuple[int, ...] = ((present & -present).bit_length() - 1,)  # the forced tile
            else:
                open_tiles = present & face_up & ~full
                targets = low[open_tiles & 127] + mid[open_tiles >> 7 & 127] + high[open_tiles >> 14]
            held, width = _HAND_VALUES[hand[seat]]
            index = int(draw() * (len(targets) * width))  # as random_policy draws from legality.Placements
            pos, value = targets[index // width], held[index % width]
            slot = len(slot_seat)
            values[slot] = value
            if log is not None:
                log.append((players[seat], PLACES[pos][value]))
            slot_seat.append(seat)
            on_tile = coins[pos]
            on_tile.append(slot)
            out[seat].append(slot)
            bit = 1 << value
            if spare[seat] & bit:
                spare[seat] ^= bit
            else:
                hand[seat] ^= bit
            placed += 1
            face_down = NEIGHBOUR_MASKS[pos] & present & ~face_up
            if face_down:  # the dealer's reveal, an act of its own
                shown = low[face_down & 127] + mid[face_down >> 7 & 127] + high[face_down >> 14]
                if log is not None:
                    log.append((DEALER, Reveal(tuple([(p, pyramid[p]) for p in shown]))))
                for p in shown:
                    tiles[p] = pyramid[p]
                face_up |= face_down
            if len(on_tile) == 4:
                full |= 1 << pos
                if free_sides(pos, present, self.bottom) >= 2:  # a claim: only this tile can have become claimable
                    self.face_up, self.full, self.turn, self.placed = face_up, full, seat, placed
                    self._assess(pos)
                    if self.traps or not self.present or (self.full and self._first_claimable() is not None):
                        return  # a trap, the end or a cascade: the general _settle
                    present, full = self.present, self.full
            if placed == 1 and hand[seat] and present & face_up & ~full:
                continue  # the turn's second coin
            seat = (seat + 1) % n_seats
            placed = 0
            if not (hand[seat] and face_up >> (present & -present).bit_length() - 1 & 1):
                self.face_up, self.full, self.turn, self.placed = face_up, full, seat, placed
                return  # a pass, a forced tile to turn up, or every coin played

    def _reveal_pyramid(self, positions: tuple[int, ...]) -> None:
        pyramid = self.pyramid
        if self.log is not None:
            self.log.append((DEALER, Reveal(tuple([(pos, pyramid[pos]) for pos in positions]))))
        for pos in positions:
            self.tiles[pos] = pyramid[pos]
            self.face_up |= 1 << pos
        self.reveal = ()

    def _reveal_under(self) -> None:
        shown = [(pos, self.under_tiles[k]) for k, pos in enumerate(SARCOPHAGUS_POSITIONS) if self.under[k] is None]
        if self.log is not None:
            self.log.append((DEALER, Reveal(tuple(shown), under=True)))
        for pos, tile in shown:
            k = _SARCOPHAGUS_INDEX[pos]
            self.under[k] = tile
            owner = self.under_owner[k]
            assert owner is not None, "every sarcophagus tile is taken or discarded before the end reveal"
            if owner != DISCARDED:
                self.claimed[owner].append(tile)
                if tile.rank == NULL:
                    self.traps.append(owner)

    def _open(self, slots: list[int]) -> None:
        """The dealer's opening of these slots (a tie-break's, or the end audit's)."""
        values = self.values
        opened = tuple([(slot, values[slot]) for slot in slots])
        if self.log is not None:
            self.log.append((DEALER, Open(opened)))
        for slot, value in opened:
            self.slot_value[slot] = value

    def _discard(self) -> None:
        seat = self.traps[0]
        numbers = [tile for tile in self.claimed[seat] if tile.is_number]
        tile = numbers[int(self.rng.random() * len(numbers))]  # as random_policy draws among duties.discards
        if self.log is not None:
            self.log.append((self.players[seat], Discard(tile)))
        del self.traps[0]
        self.claimed[seat].remove(tile)

    # -- what the rules do on their own: play.Play's methods of the same names

    def _settle(self) -> None:
        self.changed = True
        while True:
            if self.reveal:
                return
            if self.tie is not None:
                tied = self._leaders(self.tie)
                if self._unopened_tied(self.tie, tied):
                    return
                pos, self.tie = self.tie, None
                self._resolve_tie(pos, tied)
                continue
            if self.traps:
                if self._spring_trap():
                    return
                continue
            if self.changed:
                claimable = self._first_claimable() if self.full else None
                if claimable is not None:
                    self._assess(claimable)
                    continue
                self.changed = False
            if not self.present:
                return
            if self._advance_turn():
                return

    def _advance_turn(self) -> bool:
        seat = self.turn
        if self.placed == 0:
            forced = forced_position(self.present)
            if self.hand[seat] or not any(self.hand):
                if not self.face_up >> forced & 1:
                    self.reveal = (forced,)
                    return True
                if self.hand[seat]:
                    return True
                self.turn, self.placed = (seat + 1) % len(self.hand), 0  # every coin played
                self._assess(forced)
                return False
        elif self.placed == 1 and self.hand[seat] and self.present & self.face_up & ~self.full:
            return True
        self.turn, self.placed = (seat + 1) % len(self.hand), 0
        return False

    def _leaders(self, pos: int) -> tuple[int, ...]:
        slot_seat = self.slot_seat
        return most_coins(tuple([slot_seat[slot] for slot in self.coins[pos]]))

    def _unopened_tied(self, pos: int, tied: tuple[int, ...]) -> list[int]:
        slot_value, slot_seat = self.slot_value, self.slot_seat
        return [slot for slot in self.coins[pos] if slot_value[slot] is None and slot_seat[slot] in tied]

    def _first_claimable(self) -> int | None:
        full = self.full
        while full:
            pos = (full & -full).bit_length() - 1
            if free_sides(pos, self.present, self.bottom) >= 2:
                return pos
            full &= full - 1
        return None

    def _assess(self, pos: int) -> None:
        if not self.coins[pos]:
            self._remove(pos, None)
            return
        slot_seat = self.slot_seat
        most = most_coins(tuple([slot_seat[slot] for slot in self.coins[pos]]))
        if len(most) == 1:
            self._remove(pos, most[0])
            return
        unopened = self._unopened_tied(pos, most)
        if unopened:  # the tie waits for the dealer's opening, the next act: made here at once
            self._open(unopened)
        self._resolve_tie(pos, most)

    def _resolve_tie(self, pos: int, tied: tuple[int, ...]) -> None:
        totals = dict.fromkeys(tied, 0)
        for slot in self.coins[pos]:
            seat = self.slot_seat[slot]
            if seat in totals:
                value = self.slot_value[slot]
                assert value is not None, "a tie-break waits until the tied coins are opened"
                totals[seat] += value
        best = max(totals.values())
        winners = [seat for seat, total in totals.items() if total == best]
        self._remove(pos, winners[0] if len(winners) == 1 else None)

    def _remove(self, pos: int, claimer: int | None) -> None:
        tile = self.tiles[pos]
        kept = ~(1 << pos)
        self.present &= kept
        self.full &= kept
        self.changed = True
        k = _SARCOPHAGUS_INDEX.get(pos)
        coins, self.coins[pos] = self.coins[pos], []
        slot_seat, slot_back, values, out, hand, spare = \
            self.slot_seat, self.slot_back, self.values, self.out, self.hand, self.spare
        back = len(slot_seat)
        # the claimer's coins on a sarcophagus tile are entombed with the tile beneath; the rest go back
        returning = coins if k is None else [slot for slot in coins if slot_seat[slot] != claimer]
        for slot in returning:
            seat = slot_seat[slot]
            slot_back[slot] = back
            out[seat].remove(slot)
            bit = 1 << values[slot]
            if hand[seat] & bit:
                spare[seat] |= bit
            else:
                hand[seat] |= bit
        if claimer is None:
            if k is not None:
                self.under_owner[k] = DISCARDED
            return
        assert tile is not None, "a claimed tile holds coins, so it is face up"
        self.claimed[claimer].append(tile)
        if k is not None:
            self.under_owner[k] = claimer
            self.entombed[k] = tuple([slot for slot in coins if slot_seat[slot] == claimer])
        if tile.rank == NULL:
            self.traps.append(claimer)

    def _spring_trap(self) -> bool:
        seat = self.traps[0]
        held = self.claimed[seat]
        if not any(t.is_god for t in held):
            numbers = [t for t in held if t.is_number]
            if len(numbers) > 1:
                return True
            if numbers:
                held.remove(numbers[0])
        del self.traps[0]
        return False
