"""Sarcophagus rules (docs/rules/sarcophagus.md) as pure functions over the public State.

`apply` copies the state into a mutable `_Play`, performs the action, then `_settle`s: it runs every
step the rules take on their own (reveals owed, claims and their cascade, traps, passes, the
all-coins-played assessment) until somebody owes an act. The next duties are then read off the state.
"""

from __future__ import annotations

from collections import Counter
from typing import Mapping, Sequence

from engine.contract import DEALER, Duty, IllegalAction, InvalidSetup, NotYourDuty

from .actions import Action, Discard, Open, Place, Reveal
from .events import (AllCoinsPlayed, Claimed, Finished, Opened, Passed, Placed, PyramidEmpty,
                     Revealed, SarcophagusTaken, TieBreak, TileDiscarded, Trap, TrapDiscard)
from .geometry import (ALL_MASK, APEX, NEIGHBOUR_MASKS, POSITIONS, SARCOPHAGUS_POSITIONS, forced_position,
                       free_sides, pos_name)
from .notation import format_action
from .pieces import ACE, NULL, SUITS, Tile
from .scoring import Outcome, score
from .state import DISCARDED, TWO_PLAYER_MODES, Options, Seat, State, Table

PlayerKnowledge = Mapping[int, int]
"""What a player privately knows: the value of each coin slot they placed."""

_SARCOPHAGUS_INDEX = {pos: k for k, pos in enumerate(SARCOPHAGUS_POSITIONS)}
_ALL_VALUES = tuple(range(6))


# ---------------------------------------------------------------- setup

def parse_options(raw: Mapping[str, str | bool]) -> Options:
    options = {}
    for key, value in raw.items():
        text = str(value).lower()
        if key == "two_player":
            if text not in TWO_PLAYER_MODES:
                raise InvalidSetup(f"option two_player is one of {', '.join(TWO_PLAYER_MODES)}, not {value!r}")
            options[key] = text
        elif key == "bottom_edge_free":
            if text not in ("true", "false"):
                raise InvalidSetup(f"option bottom_edge_free is true or false, not {value!r}")
            options[key] = text == "true"
        else:
            raise InvalidSetup(f"unknown option {key!r} (options: two_player, bottom_edge_free)")
    return Options(**options)


def make_table(options: Options, players: Sequence[str]) -> Table:
    players = tuple(players)
    if not 2 <= len(players) <= 4:
        raise InvalidSetup(f"Sarcophagus is for 2 to 4 players, not {len(players)}")
    if len(set(players)) != len(players) or DEALER in players or not all(players):
        raise InvalidSetup(f"player names must be distinct, non-empty and not {DEALER!r}")
    if len(players) > 2:
        seats = tuple(Seat(p, p, (i,), _ALL_VALUES) for i, p in enumerate(players))
    elif options.two_player == "pooled":
        seats = tuple(Seat(p, p, (i, i + 2), tuple(sorted(_ALL_VALUES * 2))) for i, p in enumerate(players))
    else:
        seats = tuple(Seat(f"{players[s % 2]}/{SUITS[s]}", players[s % 2], (s,), _ALL_VALUES) for s in range(4))
    return Table(players, options, seats)


def setup(options: Options, players: Sequence[str], first: str) -> State:
    """A new play: all tiles face down; the dealer's first duty is to turn up the apex."""
    table = make_table(options, players)
    if first not in table.players:
        raise InvalidSetup(f"the first player {first!r} is not among the players")
    return State(
        table=table, present=ALL_MASK, face_up=0, tiles=(None,) * 21, coins=((),) * 21,
        under=(None,) * 3, under_owner=(None,) * 3, slot_seat=(), slot_value=(), slot_back=(),
        hands=tuple(len(seat.coins) for seat in table.seats), claimed=((),) * len(table.seats),
        turn=table.seats_of(first)[0], placed=0, reveal=(APEX,), tie=None, traps=(),
    )


# ---------------------------------------------------------------- reading the state

def tied_seats(s: State, pos: int) -> tuple[int, ...]:
    """Seats sharing the most coins on a tile, when more than one does."""
    counts = Counter(s.slot_seat[slot] for slot in s.coins[pos])
    if not counts:
        return ()
    best = max(counts.values())
    tied = tuple(sorted(seat for seat, n in counts.items() if n == best))
    return tied if len(tied) > 1 else ()


def _audit_due(s: State) -> bool:
    return not s.present and not s.traps and None not in s.under


def owed_openings(s: State, player: str) -> tuple[int, ...]:
    """The coin slots `player` must open now: theirs in a pending tie-break, or all at the end audit."""
    seats = s.table.seats_of(player)
    if s.tie is not None:
        tied = tied_seats(s, s.tie)
        return tuple(slot for slot in s.coins[s.tie]
                     if s.slot_seat[slot] in tied and s.slot_seat[slot] in seats and s.slot_value[slot] is None)
    if _audit_due(s):
        return tuple(slot for slot, seat in enumerate(s.slot_seat) if seat in seats and s.slot_value[slot] is None)
    return ()


def _sarcophagus_unrevealed(s: State) -> tuple[int, ...]:
    return tuple(pos for k, pos in enumerate(SARCOPHAGUS_POSITIONS) if s.under[k] is None)


def duties(s: State) -> tuple[Duty, ...]:
    if s.reveal:
        return (Duty(DEALER, "reveal", "turn up " + ", ".join(map(pos_name, s.reveal))),)
    if s.tie is not None:
        where = pos_name(s.tie)
        return tuple(Duty(p, "open", f"open your coins on {where} for the tie-break")
                     for p in s.table.players if owed_openings(s, p))
    if s.traps:
        return (Duty(s.table.seats[s.traps[0]].player, "discard", "discard a number tile to the trap"),)
    if not s.present:
        if _sarcophagus_unrevealed(s):
            return (Duty(DEALER, "reveal", "reveal the sarcophagus tiles"),)
        return tuple(Duty(p, "open", "open every coin you placed, for the end audit")
                     for p in s.table.players if owed_openings(s, p))
    seat = s.table.seats[s.turn]
    if s.placed == 0:
        detail = f"place a coin on {pos_name(forced_position(s.present))} (forced)"
    else:
        detail = "place your second coin on any face-up tile with room"
    if seat.name != seat.player:
        detail += f" with {seat.suit_names}"
    return (Duty(seat.player, "move", detail),)


def hand_values(s: State, seat: int, known: PlayerKnowledge) -> list[int]:
    """The coin values a seat holds, as its owner computes them from their own slot values."""
    hand = Counter(s.table.seats[seat].coins)
    for slot, (owner, back) in enumerate(zip(s.slot_seat, s.slot_back)):
        if owner == seat and back is None:
            hand[known[slot]] -= 1
    return sorted(hand.elements())


def _targets(s: State) -> list[int]:
    """Positions that can take a placement now."""
    if s.placed == 0:
        return [forced_position(s.present)]
    return [p for p in range(21) if s.present >> p & 1 and s.face_up >> p & 1 and len(s.coins[p]) < 4]


def _number_tiles(s: State, seat: int) -> list[Tile]:
    return [t for t in s.claimed[seat] if t.rank >= 2]


def _audit_seat(s: State, values: Sequence[int | None], seat: int) -> str | None:
    """With the values known so far, was every placed coin really in the seat's hand at the time?"""
    initial = Counter(s.table.seats[seat].coins)
    mine = [slot for slot, owner in enumerate(s.slot_seat) if owner == seat]
    for k in mine:
        if values[k] is None:
            continue
        out = Counter(values[j] for j in mine
                      if j < k and values[j] is not None and (s.slot_back[j] is None or s.slot_back[j] > k))
        out[values[k]] += 1
        if out[values[k]] > initial[values[k]]:
            name = s.table.seats[seat].name
            return (f"coin #{k} opened as {values[k]}, but {name} had no coin of that value left in hand "
                    f"when it was placed")
    return None


def _deal_problem(s: State, reveals: Sequence[tuple[int, Tile]], under: bool) -> str | None:
    """Is a reveal consistent with one piecepack dealt by the setup rules?"""
    seen = {t: pos_name(p) for p, t in enumerate(s.tiles) if t is not None}
    seen.update({t: f"the sarcophagus under {pos_name(p)}" for p, t in zip(SARCOPHAGUS_POSITIONS, s.under) if t})
    region_nulls = sum(1 for p in SARCOPHAGUS_POSITIONS for t in (s.tiles[p],) if t and t.rank == NULL)
    region_nulls += sum(1 for t in s.under if t and t.rank == NULL)
    other_nulls = sum(1 for p, t in enumerate(s.tiles) if t and t.rank == NULL and p not in _SARCOPHAGUS_INDEX)
    for pos, tile in reveals:
        if tile in seen:
            return f"{tile} is already at {seen[tile]}"
        seen[tile] = pos_name(pos)
        in_region = under or pos in _SARCOPHAGUS_INDEX
        if in_region and tile.rank not in (NULL, 5):
            return f"only nulls and 5s lie in or above the sarcophagus, not {tile}"
        if not in_region and tile.rank == 5:
            return f"a 5 lies only in or above the sarcophagus, not at {pos_name(pos)}"
        if tile.rank == NULL:
            region_nulls += in_region
            other_nulls += not in_region
            if region_nulls > 2 or other_nulls > 2:
                return "the deal has two nulls in and above the sarcophagus and two elsewhere"
    return None


# ---------------------------------------------------------------- legality

def _kind(action: Action) -> str:
    return {Place: "move", Reveal: "reveal", Open: "open", Discard: "discard"}[type(action)]


def check(s: State, actor: str, action: Action, knowledge=None) -> Action:
    """The action made complete (the forced position filled in), or IllegalAction saying why not.

    `knowledge` is what the actor privately knows (a player's slot values); without it the checks
    that need it (a coin of that value in hand) are left to the end audit."""
    text = format_action(action)
    owed = duties(s)
    mine = [d for d in owed if d.who == actor]
    if not any(d.what == _kind(action) for d in mine):
        if mine:
            raise NotYourDuty(text, f"{actor} must {mine[0].detail} first")
        if not owed:
            raise NotYourDuty(text, "the game is over")
        waiting = " and ".join(sorted({d.who for d in owed}))
        reason = f"not {actor}'s turn" if _kind(action) == "move" else f"{actor} owes nothing of the kind"
        raise NotYourDuty(text, f"{reason}: waiting for {waiting}")
    if isinstance(action, Place):
        return _check_place(s, action, knowledge, text)
    if isinstance(action, Reveal):
        return _check_reveal(s, action, text)
    if isinstance(action, Open):
        return _check_open(s, actor, action, text)
    return _check_discard(s, action, text)


def _check_place(s: State, action: Place, knowledge, text: str) -> Place:
    forced = forced_position(s.present)
    if s.placed == 0:
        pos = forced if action.pos is None else action.pos
        if pos != forced:
            raise IllegalAction(text, f"the first coin of a turn goes on the forced tile {pos_name(forced)}")
    else:
        pos = action.pos
        if pos is None:
            raise IllegalAction(text, "only the first coin of a turn is forced: say where this one goes, e.g. 4@3b")
        if not s.present >> pos & 1:
            raise IllegalAction(text, f"{pos_name(pos)} has left the pyramid")
        if not s.face_up >> pos & 1:
            raise IllegalAction(text, f"{pos_name(pos)} is face down")
        if len(s.coins[pos]) >= 4:
            raise IllegalAction(text, f"{pos_name(pos)} is full (4 coins)")
    if action.value is not None and knowledge is not None:
        hand = hand_values(s, s.turn, knowledge)
        if action.value not in hand:
            held = ", ".join(map(str, hand)) or "nothing"
            raise IllegalAction(text, f"no coin of value {action.value} in your hand (you hold {held})")
    return Place(pos, action.value)


def _check_reveal(s: State, action: Reveal, text: str) -> Reveal:
    wanted = _sarcophagus_unrevealed(s) if not s.present else s.reveal
    if action.under != (not s.present):
        what = "the sarcophagus tiles" if not s.present else "pyramid tiles, not the sarcophagus"
        raise IllegalAction(text, f"the dealer must reveal {what} now")
    positions = [p for p, _ in action.tiles]
    if sorted(positions) != sorted(wanted) or len(set(positions)) != len(positions):
        raise IllegalAction(text, "the dealer must reveal exactly " + ", ".join(map(pos_name, wanted)))
    problem = _deal_problem(s, action.tiles, action.under)
    if problem:
        raise IllegalAction(text, problem)
    return Reveal(tuple(sorted(action.tiles)), action.under)


def _check_open(s: State, actor: str, action: Open, text: str) -> Open:
    owed = owed_openings(s, actor)
    slots = [slot for slot, _ in action.values]
    if sorted(slots) != sorted(owed) or len(set(slots)) != len(slots):
        raise IllegalAction(text, f"{actor} must open exactly " + ", ".join(f"#{slot}" for slot in owed))
    if any(not 0 <= value <= 5 for _, value in action.values):
        raise IllegalAction(text, "a coin value is 0 to 5")
    values = list(s.slot_value)
    for slot, value in action.values:
        values[slot] = value
    for seat in s.table.seats_of(actor):
        problem = _audit_seat(s, values, seat)
        if problem:
            raise IllegalAction(text, problem)
    return Open(tuple(sorted(action.values)))


def _check_discard(s: State, action: Discard, text: str) -> Discard:
    numbers = _number_tiles(s, s.traps[0])
    if action.tile not in numbers:
        choices = ", ".join(map(str, numbers))
        raise IllegalAction(text, f"choose one of your number tiles: {choices}")
    return action


def legal_actions(s: State, actor: str, knowledge=None) -> list[Action]:
    """Every legal act of `actor` now. Placements carry values only when `knowledge` says the hand;
    the dealer's reveals need the layout as `knowledge`; openings need the player's slot values."""
    out: list[Action] = []
    for duty in duties(s):
        if duty.who != actor:
            continue
        if duty.what == "move":
            values = sorted(set(hand_values(s, s.turn, knowledge))) if knowledge is not None else [None]
            out += [Place(p, v) for p in _targets(s) for v in values]
        elif duty.what == "discard":
            out += [Discard(t) for t in _number_tiles(s, s.traps[0])]
        elif duty.what == "open" and knowledge is not None:
            out.append(Open(tuple((slot, knowledge[slot]) for slot in owed_openings(s, actor))))
        elif duty.what == "reveal" and knowledge is not None:
            if s.present:
                out.append(Reveal(tuple((p, knowledge.pyramid[p]) for p in s.reveal)))
            else:
                out.append(Reveal(tuple((p, knowledge.under[_SARCOPHAGUS_INDEX[p]])
                                        for p in _sarcophagus_unrevealed(s)), under=True))
    return out


# ---------------------------------------------------------------- applying

def apply(s: State, actor: str, action: Action) -> tuple[State, tuple]:
    """Apply one act of `actor` (checked first); returns the next state and what happened."""
    action = check(s, actor, action)
    play = _Play(s)
    if isinstance(action, Place):
        play.place(action.pos)
    elif isinstance(action, Reveal):
        play.reveal_tiles(action)
    elif isinstance(action, Open):
        play.open(actor, action.values)
    else:
        play.discard(action.tile)
    play.settle()
    after = play.freeze()
    if not after.present and not duties(after):
        result = outcome(after)
        play.events.append(Finished(tuple(result.scores.items()), result.winners))
    return after, tuple(play.events)


def outcome(s: State) -> Outcome | None:
    """Scores and winners once the game is over and audited, else None."""
    if s.present or duties(s):
        return None
    return score(s.table, s.claimed)


class _Play:
    """A state being changed by one action. Lives only inside `apply`."""

    def __init__(self, s: State):
        self.table = s.table
        self.seats = s.table.seats
        self.present = s.present
        self.face_up = s.face_up
        self.tiles = list(s.tiles)
        self.coins = list(s.coins)
        self.under = list(s.under)
        self.under_owner = list(s.under_owner)
        self.slot_seat = list(s.slot_seat)
        self.slot_value = list(s.slot_value)
        self.slot_back = list(s.slot_back)
        self.hands = list(s.hands)
        self.claimed = list(s.claimed)
        self.turn = s.turn
        self.placed = s.placed
        self.reveal = s.reveal
        self.tie = s.tie
        self.traps = list(s.traps)
        self.events: list = []

    def freeze(self) -> State:
        return State(
            table=self.table, present=self.present, face_up=self.face_up, tiles=tuple(self.tiles),
            coins=tuple(self.coins), under=tuple(self.under), under_owner=tuple(self.under_owner),
            slot_seat=tuple(self.slot_seat), slot_value=tuple(self.slot_value),
            slot_back=tuple(self.slot_back), hands=tuple(self.hands), claimed=tuple(self.claimed),
            turn=self.turn, placed=self.placed, reveal=self.reveal, tie=self.tie, traps=tuple(self.traps),
        )

    # -- the acts

    def place(self, pos: int) -> None:
        slot = len(self.slot_seat)
        self.slot_seat.append(self.turn)
        self.slot_value.append(None)
        self.slot_back.append(None)
        self.coins[pos] += (slot,)
        self.hands[self.turn] -= 1
        self.placed += 1
        self.events.append(Placed(self.seats[self.turn].name, pos, slot))
        face_down = NEIGHBOUR_MASKS[pos] & self.present & ~self.face_up
        if face_down:
            self.reveal = tuple(p for p in range(21) if face_down >> p & 1)

    def reveal_tiles(self, action: Reveal) -> None:
        for pos, tile in action.tiles:
            self.events.append(Revealed(pos, tile, action.under))
            if action.under:
                k = _SARCOPHAGUS_INDEX[pos]
                self.under[k] = tile
                owner = self.under_owner[k]
                if owner != DISCARDED:
                    self.claimed[owner] += (tile,)
                    if tile.rank == NULL:
                        self.traps.append(owner)
            else:
                self.tiles[pos] = tile
                self.face_up |= 1 << pos
        self.reveal = ()

    def open(self, player: str, values: tuple[tuple[int, int], ...]) -> None:
        for slot, value in values:
            self.slot_value[slot] = value
        self.events.append(Opened(player, values))

    def discard(self, tile: Tile) -> None:
        seat = self.traps.pop(0)
        self._lose(seat, tile)

    # -- what the rules do on their own

    def settle(self) -> None:
        """Run the rules forward until someone owes an act."""
        while True:
            if self.reveal:
                return
            if self.tie is not None:
                if self._tie_waiting(self.tie):
                    return
                pos, self.tie = self.tie, None
                self._resolve_tie(pos)
                continue
            if self.traps:
                if self._spring_trap():
                    return
                continue
            pos = self._first_claimable()
            if pos is not None:
                self._assess(pos)
                continue
            if not self.present:
                return
            if self._advance_turn():
                return

    def _advance_turn(self) -> bool:
        """Pass, end the turn or assess the forced tile; True when the seat to move owes a move."""
        seat = self.turn
        if self.placed == 0:
            forced = forced_position(self.present)
            if self.hands[seat] or not any(self.hands):
                if not self.face_up >> forced & 1:
                    self.reveal = (forced,)
                    return True
                if self.hands[seat]:
                    return True
                self.events.append(AllCoinsPlayed(forced))
                self._next_seat()
                self._assess(forced)
                return False
            self.events.append(Passed(self.seats[seat].name))
        elif self.placed == 1 and self.hands[seat] and self._has_target():
            return True
        self._next_seat()
        return False

    def _next_seat(self) -> None:
        self.turn = (self.turn + 1) % len(self.seats)
        self.placed = 0

    def _has_target(self) -> bool:
        open_tiles = self.present & self.face_up
        return any(open_tiles >> p & 1 and len(self.coins[p]) < 4 for p in range(21))

    def _first_claimable(self) -> int | None:
        """Top row first, then left to right: position order."""
        bottom = self.table.options.bottom_edge_free
        for pos in range(21):
            if len(self.coins[pos]) == 4 and free_sides(pos, self.present, bottom) >= 2:
                return pos
        return None

    def _counts(self, pos: int) -> Counter:
        return Counter(self.slot_seat[slot] for slot in self.coins[pos])

    def _tied(self, pos: int) -> list[int]:
        counts = self._counts(pos)
        best = max(counts.values())
        return sorted(seat for seat, n in counts.items() if n == best)

    def _assess(self, pos: int) -> None:
        if not self.coins[pos]:
            self._remove(pos, None)
            return
        tied = self._tied(pos)
        if len(tied) == 1:
            self._remove(pos, tied[0])
        elif self._tie_waiting(pos):
            self.tie = pos
        else:
            self._resolve_tie(pos)

    def _tie_waiting(self, pos: int) -> bool:
        tied = self._tied(pos)
        return any(self.slot_value[slot] is None for slot in self.coins[pos] if self.slot_seat[slot] in tied)

    def _resolve_tie(self, pos: int) -> None:
        tied = self._tied(pos)
        totals = {seat: 0 for seat in tied}
        for slot in self.coins[pos]:
            if self.slot_seat[slot] in totals:
                totals[self.slot_seat[slot]] += self.slot_value[slot]
        self.events.append(TieBreak(pos, tuple((self.seats[seat].name, t) for seat, t in totals.items())))
        best = max(totals.values())
        winners = [seat for seat, t in totals.items() if t == best]
        self._remove(pos, winners[0] if len(winners) == 1 else None)

    def _remove(self, pos: int, claimer: int | None) -> None:
        """The tile leaves the pyramid, claimed or discarded; coins go back or into the sarcophagus."""
        tile = self.tiles[pos]
        self.present &= ~(1 << pos)
        k = _SARCOPHAGUS_INDEX.get(pos)
        entombed = 0
        back = len(self.slot_seat)
        for slot in self.coins[pos]:
            seat = self.slot_seat[slot]
            if k is not None and seat == claimer:
                entombed += 1
            else:
                self.slot_back[slot] = back
                self.hands[seat] += 1
        self.coins[pos] = ()
        if claimer is None:
            self.events.append(TileDiscarded(pos, tile))
            if k is not None:
                self.under_owner[k] = DISCARDED
                self.events.append(TileDiscarded(pos, None, under=True))
        else:
            name = self.seats[claimer].name
            self.claimed[claimer] += (tile,)
            self.events.append(Claimed(name, pos, tile))
            if k is not None:
                self.under_owner[k] = claimer
                self.events.append(SarcophagusTaken(name, pos, entombed))
            if tile.rank == NULL:
                self.traps.append(claimer)
        if not self.present:
            self.events.append(PyramidEmpty())

    def _spring_trap(self) -> bool:
        """Resolve the first sprung trap on its own if nobody has a choice; True if the claimer does."""
        seat = self.traps[0]
        name = self.seats[seat].name
        held = self.claimed[seat]
        if any(t.rank == ACE for t in held):
            self.events.append(Trap(name, "protected"))
        else:
            numbers = [t for t in held if t.rank >= 2]
            if len(numbers) > 1:
                self.events.append(Trap(name, "discard"))
                return True
            if not numbers:
                self.events.append(Trap(name, "harmless"))
            else:
                self.events.append(Trap(name, "discard"))
                self._lose(seat, numbers[0])
        self.traps.pop(0)
        return False

    def _lose(self, seat: int, tile: Tile) -> None:
        held = list(self.claimed[seat])
        held.remove(tile)
        self.claimed[seat] = tuple(held)
        self.events.append(TrapDiscard(self.seats[seat].name, tile))
