"""Sarcophagus rules (docs/rules/sarcophagus.md) as pure functions over the public State.

`apply` copies the state once, into the next State that a `Play` fills in: it performs the action,
then `settle`s: it runs every step the rules take on their own (reveals owed, claims and their
cascade, traps, passes, the all-coins-played assessment) until somebody owes an act. The next
duties are then read off the state.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Protocol, TypeVar, cast

from engine.contract import DEALER, Duty, IllegalAction, InvalidSetup, NotYourDuty
from engine.lazy import LazySequence

from .actions import Action, Discard, Open, Place, Reveal
from .deal import UNDER, deal_problem, shown_places
from .events import (
    AllCoinsPlayed,
    Claimed,
    Finished,
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
    coin_words,
)
from .geometry import ALL_MASK, APEX, NEIGHBOUR_MASKS, SARCOPHAGUS_POSITIONS, forced_position, free_sides, pos_name, positions_in
from .notation import format_action
from .pieces import NULL, SUITS, Tile
from .scoring import Outcome, score
from .state import DISCARDED, TWO_PLAYER_MODES, Options, Seat, State, Table

PlayerKnowledge = Mapping[int, int]
"""What a player privately knows: the value of each coin slot they placed."""


class TileKnowledge(Protocol):
    """What the dealer privately knows of the tiles: where each lies (driver.Layout, a search World,
    hidden.DealerKnowledge, which holds the coin values as well)."""

    @property
    def pyramid(self) -> Sequence[Tile]: ...
    @property
    def under(self) -> Sequence[Tile]: ...


Knowledge = PlayerKnowledge | TileKnowledge

_SARCOPHAGUS_INDEX = {pos: k for k, pos in enumerate(SARCOPHAGUS_POSITIONS)}
_ALL_VALUES = tuple(range(6))
T = TypeVar("T")


# ---------------------------------------------------------------- setup

def parse_options(raw: Mapping[str, str | bool]) -> Options:
    options = Options()
    for key, value in raw.items():
        text = str(value).lower()
        if key == "two_player":
            if text not in TWO_PLAYER_MODES:
                raise InvalidSetup(f"option two_player is one of {', '.join(TWO_PLAYER_MODES)}, not {value!r}")
            options = replace(options, two_player=text)
        elif key == "bottom_edge_free":
            if text not in ("true", "false"):
                raise InvalidSetup(f"option bottom_edge_free is true or false, not {value!r}")
            options = replace(options, bottom_edge_free=text == "true")
        else:
            raise InvalidSetup(f"unknown option {key!r} (options: two_player, bottom_edge_free)")
    return options


def make_table(options: Options, players: Sequence[str]) -> Table:
    return _table(options, tuple(players))


@functools.lru_cache(maxsize=64)
def _table(options: Options, players: tuple[str, ...]) -> Table:
    """Made once per options and players: a Table never changes, and a playout sets up many games."""
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
        hands=tuple(len(seat.coins) for seat in table.seats), out=((),) * len(table.seats),
        claimed=((),) * len(table.seats),
        turn=table.seats_of(first)[0], placed=0, reveal=(APEX,), tie=None, traps=(),
    )


# ---------------------------------------------------------------- reading the state

def leaders(s: State, pos: int) -> tuple[int, ...]:
    """The seats with the most coins on a tile, in seat order: one claims it, several are tied."""
    slot_seat = s.slot_seat
    return most_coins(tuple([slot_seat[slot] for slot in s.coins[pos]]))


@functools.lru_cache(maxsize=1024)
def most_coins(owners: tuple[int, ...]) -> tuple[int, ...]:
    """`leaders` of one tile's coin owners in placement order, worked out once: a tile holds at most
    four coins of four seats, so few orders ever occur, and a playout asks thousands of times."""
    distinct = sorted(set(owners))
    best = max(map(owners.count, distinct), default=0)
    return tuple(seat for seat in distinct if owners.count(seat) == best)


def unopened_tied(s: State, pos: int, tied: Sequence[int]) -> list[int]:
    """The unopened coins of the tied seats on a tile: its tie-break waits for them to be opened."""
    return [slot for slot in s.coins[pos] if s.slot_value[slot] is None and s.slot_seat[slot] in tied]


def _audit_due(s: State) -> bool:
    return not s.present and not s.traps and None not in s.under


def owed_openings(s: State, player: str) -> tuple[int, ...]:
    """The coin slots `player` must open now: theirs in a pending tie-break, or all at the end audit.
    For the dealer: every owed slot, of every owner (a referee holds every coin's opening)."""
    return _openings(s).get(player, ())


def opening(s: State, player: str, values: PlayerKnowledge) -> Open:
    """The opening `player` owes now (for the dealer: every owed coin), its values read from `values`."""
    slots = _owed_slots(s) if player == DEALER else owed_openings(s, player)
    return Open(tuple(zip(slots, [values[slot] for slot in slots])))


def _owed_slots(s: State) -> list[int]:
    """Every coin slot whose opening is owed now, in ascending order (a tile's coins are in the order
    they were placed): the tied coins of a pending tie-break, or every unopened coin at the end audit."""
    if s.tie is not None:
        return unopened_tied(s, s.tie, leaders(s, s.tie))
    if _audit_due(s):
        return [slot for slot, value in enumerate(s.slot_value) if value is None]
    return []


def _openings(s: State) -> dict[str, tuple[int, ...]]:
    """Every owner's owed openings, and every owed slot under DEALER, worked out once per state."""
    if s.cached_openings is not None:
        return s.cached_openings
    slots = _owed_slots(s)
    by_owner: dict[str, list[int]] = {}
    seats, slot_seat = s.table.seats, s.slot_seat
    for slot in slots:
        by_owner.setdefault(seats[slot_seat[slot]].player, []).append(slot)
    owed = {player: tuple(owned) for player, owned in by_owner.items()}
    if slots:
        owed[DEALER] = tuple(slots)
    s.cached_openings = owed
    return owed


def _sarcophagus_unrevealed(s: State) -> tuple[int, ...]:
    return tuple(pos for k, pos in enumerate(SARCOPHAGUS_POSITIONS) if s.under[k] is None)


def duties(s: State) -> tuple[Duty, ...]:
    """Who owes what now. Several parties can owe at once (openings for a tie-break)."""
    if s.cached_duties is None:
        s.cached_duties = _compute_duties(s)
    return s.cached_duties


def owed_kind(s: State) -> str | None:
    """What the rules wait for now: "reveal", "open", "discard" or "move", or None once the game is
    over. The one decision behind `duties`, which adds who owes it and why; a playout needs only this."""
    if s.reveal:
        return "reveal"
    if s.tie is not None:
        return "open"
    if s.traps:
        return "discard"
    if s.present:
        return "move"
    if None in s.under:
        return "reveal"
    return "open" if None in s.slot_value else None  # the end audit, until every coin is opened


def _compute_duties(s: State) -> tuple[Duty, ...]:
    what = owed_kind(s)
    if what == "move":
        seat = s.table.seats[s.turn]
        return _move_duties(seat.player, seat.suit_names if seat.name != seat.player else "",
                            forced_position(s.present) if s.placed == 0 else None)
    if what == "reveal":
        return _reveal_duties(s.reveal) if s.reveal else (Duty(DEALER, "reveal", "reveal the sarcophagus tiles"),)
    if what == "discard":
        return (Duty(s.table.seats[s.traps[0]].player, "discard", "discard a number tile to the trap"),)
    if what == "open":
        if s.tie is not None:
            return _first_opener(s, f"open your coins on {pos_name(s.tie)} for the tie-break")
        return _first_opener(s, "open every coin you placed, for the end audit")
    return ()


def _first_opener(s: State, detail: str) -> tuple[Duty, ...]:
    """Openings are owed one player at a time, in seat order: two players opening at once on their own
    copies of a mailed file would fork the game. (The dealer, holding every coin, may open all at once.)"""
    owed = _openings(s)
    return tuple(Duty(p, "open", detail) for p in s.table.players if p in owed)[:1]


@functools.lru_cache(maxsize=256)
def _reveal_duties(positions: tuple[int, ...]) -> tuple[Duty]:
    return (Duty(DEALER, "reveal", "turn up " + ", ".join(map(pos_name, positions))),)


@functools.lru_cache(maxsize=1024)
def _move_duties(player: str, suits: str, forced: int | None) -> tuple[Duty]:
    """The duties of a seat to move, made once: most states of a play owe one of these."""
    if forced is None:
        detail = "place your second coin on any face-up tile with room"
    else:
        detail = f"place a coin on {pos_name(forced)} (forced)"
    if suits:
        detail += f" with {suits}"
    return (Duty(player, "move", detail),)


def hand_values(s: State, seat: int, known: PlayerKnowledge) -> list[int]:
    """The coin values a seat holds, in ascending order, as its owner computes them from their own
    slot values."""
    hand = list(s.table.seats[seat].coins)
    for slot in s.out[seat]:
        hand.remove(known[slot])
    return hand


def placement_targets(s: State) -> tuple[int, ...]:
    """Where the seat to move may place: the forced tile with a turn's first coin, then any face-up tile
    with room."""
    if s.placed == 0:
        return (forced_position(s.present),)
    return positions_in(s.present & s.face_up & ~s.full)


def placement_values(s: State, known: PlayerKnowledge) -> list[int]:
    """The distinct coin values the seat to move may place, in ascending order."""
    hand = hand_values(s, s.turn, known)
    if len(s.table.seats[s.turn].suits) > 1:  # pooled suits: two coins may share a value
        return sorted(set(hand))
    return hand


def discards(s: State) -> list[Discard]:
    """The discards a trapped claimer may choose among: one of their number tiles."""
    return [Discard(t) for t in _number_tiles(s, s.traps[0])]


def _number_tiles(s: State, seat: int) -> list[Tile]:
    return [t for t in s.claimed[seat] if t.is_number]


def coin_name(s: State, slot: int) -> str:
    """A placed coin as people name it: "ben's 2nd coin" (its seat's count, never the slot number)."""
    seat = s.slot_seat[slot]
    return coin_words(s.table.seats[seat].name, s.slot_seat[:slot + 1].count(seat))


def _audit_seat(s: State, values: Sequence[int | None], seat: int) -> str | None:
    """With the values known so far, was every placed coin really in the seat's hand at the time?

    Walks the seat's coins in placement order; a coin that went back to the hand when `back` coins
    had been placed is in hand again for placement number `back` onwards."""
    initial = s.table.seats[seat].coins
    out = [0] * 6
    returns: list[tuple[int, int]] = []
    for k, (owner, value, back) in enumerate(zip(s.slot_seat, values, s.slot_back)):
        if owner != seat or value is None or value < 0:  # < 0: withheld for good (absence.WITHHELD)
            continue
        returns.sort(reverse=True)
        while returns and returns[-1][0] <= k:
            out[returns.pop()[1]] -= 1
        out[value] += 1
        if out[value] > initial.count(value):
            return (f"{coin_name(s, k)} opened as {value}, but {s.table.seats[seat].name} had no coin of that value "
                    "left in hand when it was placed")
        if back is not None:
            returns.append((back, value))
    return None


def audit_problem(s: State, opened: Sequence[tuple[int, int]]) -> tuple[str, str] | None:
    """Whether opening these (slot, value) pairs proves that a player placed a coin they did not hold:
    (the player, why), or None. What a verdict against a false coin rests on."""
    values = list(s.slot_value)
    for slot, value in opened:
        values[slot] = value
    for seat in sorted({s.slot_seat[slot] for slot, _ in opened}):
        problem = _audit_seat(s, values, seat)
        if problem:
            return s.table.seats[seat].player, problem
    return None


def _deal_problem(s: State, reveals: Sequence[tuple[int, Tile]], under: bool) -> str | None:
    """Is a reveal consistent with one piecepack dealt by the setup rules?"""
    placed = [(UNDER + _SARCOPHAGUS_INDEX[pos] if under else pos, tile) for pos, tile in reveals]
    return deal_problem(shown_places(s.tiles, s.under), placed)


# ---------------------------------------------------------------- legality

def _kind(action: Action) -> str:
    return {Place: "move", Reveal: "reveal", Open: "open", Discard: "discard"}[type(action)]


def check(s: State, actor: str, action: Action, knowledge: Knowledge | None = None) -> Action:
    """The action made complete (the forced position filled in), or IllegalAction saying why not.

    `knowledge` is what the actor privately knows (a player's slot values); without it the checks
    that need it (a coin of that value in hand) are left to the end audit."""
    text = _Text(action)
    owed = duties(s)
    mine = [d for d in owed if d.who == actor]
    if actor == DEALER and isinstance(action, Open) and any(d.what == "open" for d in owed):
        return _check_open(s, actor, action, text)  # the dealer may open for every owner at once
    if not any(d.what == _kind(action) for d in mine):
        if mine:
            raise NotYourDuty(text, f"{actor} owes a {mine[0].what} first ({mine[0].detail})")
        if not owed:
            raise NotYourDuty(text, "the game is over")
        reason = f"not {actor}'s turn" if _kind(action) == "move" else f"{actor} owes nothing of the kind"
        raise NotYourDuty(text, reason, tuple(sorted({d.who for d in owed})))
    if isinstance(action, Place):
        return _check_place(s, action, cast(PlayerKnowledge | None, knowledge), text)  # a player's
    if isinstance(action, Reveal):
        return _check_reveal(s, action, text)
    if isinstance(action, Open):
        return _check_open(s, actor, action, text)
    return _check_discard(s, action, text)


class _Text:
    """An action's notation, formatted only if an error message needs it."""

    def __init__(self, action: Action):
        self.action = action

    def __str__(self) -> str:
        return format_action(self.action)


def _check_place(s: State, action: Place, knowledge: PlayerKnowledge | None, text: _Text) -> Place:
    if s.placed == 0:
        pos = forced_position(s.present)
        if action.pos not in (None, pos):
            raise IllegalAction(text, f"the first coin of a turn goes on the forced tile {pos_name(pos)}")
    else:
        if action.pos is None:
            raise IllegalAction(text, "only the first coin of a turn is forced: say where this one goes, e.g. 4@3b")
        pos = action.pos
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


def _check_reveal(s: State, action: Reveal, text: _Text) -> Reveal:
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


def _check_open(s: State, actor: str, action: Open, text: _Text) -> Open:
    owed = owed_openings(s, actor)
    slots = [slot for slot, _ in action.values]
    if sorted(slots) != sorted(owed) or len(set(slots)) != len(slots):
        raise IllegalAction(text, f"{actor} must open exactly " + ", ".join(f"#{slot}" for slot in owed))
    if any(not 0 <= value <= 5 for _, value in action.values):
        raise IllegalAction(text, "a coin value is 0 to 5")
    problem = audit_problem(s, action.values)
    if problem:
        raise IllegalAction(text, problem[1])
    return Open(tuple(sorted(action.values)))


def _check_discard(s: State, action: Discard, text: _Text) -> Discard:
    numbers = _number_tiles(s, s.traps[0])
    if action.tile not in numbers:
        choices = ", ".join(map(str, numbers))
        raise IllegalAction(text, f"choose one of your number tiles: {choices}")
    return action


PLACES = tuple({v: Place(p, v) for v in (None, *range(6))} for p in range(21))
"""Every possible placement, made once: actions are immutable values, so they can be shared."""


class Placements(LazySequence[Place]):
    """Every (target, coin value) placement, made only when asked for: a turn may offer a hundred."""

    __slots__ = ("targets", "values", "width")

    def __init__(self, targets: Sequence[int], values: Sequence[int | None]):
        self.targets, self.values, self.width = targets, values, len(values)
        self.size = len(targets) * self.width

    def _item(self, i: int) -> Place:
        target, value = divmod(i, self.width)
        return PLACES[self.targets[target]][self.values[value]]


def legal_actions(s: State, actor: str, knowledge: Knowledge | None = None) -> Sequence[Action]:
    """Every legal act of `actor` now. Placements carry values only when `knowledge` says the hand;
    the dealer's reveals need the layout as `knowledge`; openings need the player's slot values."""
    out: list[Action] = []
    if actor == DEALER and isinstance(knowledge, Mapping) and owed_openings(s, DEALER):
        out.append(opening(s, DEALER, knowledge))  # the dealer, holding every coin, opens for all at once
    for duty in duties(s):
        if duty.who != actor:
            continue
        if duty.what == "move":
            if knowledge is None:
                return Placements(placement_targets(s), (None,))
            return Placements(placement_targets(s), placement_values(s, cast(PlayerKnowledge, knowledge)))
        elif duty.what == "discard":
            out += discards(s)
        elif duty.what == "open" and knowledge is not None:
            out.append(opening(s, actor, cast(PlayerKnowledge, knowledge)))  # a player's
        elif duty.what == "reveal" and knowledge is not None:
            out.append(reveal(s, cast(TileKnowledge, knowledge)))  # the dealer's
    return out


def reveal(s: State, tiles: TileKnowledge) -> Reveal:
    """The reveal the dealer owes now, its tiles read from where `tiles` says they lie."""
    if s.present:
        pyramid = tiles.pyramid
        return Reveal(tuple([(p, pyramid[p]) for p in s.reveal]))
    under = tiles.under
    return Reveal(tuple([(p, under[_SARCOPHAGUS_INDEX[p]]) for p in _sarcophagus_unrevealed(s)]), under=True)


# ---------------------------------------------------------------- applying

def apply(s: State, actor: str, action: Action) -> tuple[State, tuple[object, ...]]:
    """Apply one act of `actor` (checked first); returns the next state and what happened."""
    return apply_checked(s, actor, check(s, actor, action))


def apply_checked(s: State, actor: str, action: Action) -> tuple[State, tuple[object, ...]]:
    """`apply` for an action already known legal and complete (from `check` or `legal_actions`)."""
    play = Play(s)
    play.act(actor, action)
    after, events = play.s, play.events
    assert events is not None, "a Play reports unless told not to"
    result = outcome(after) if not after.present else None
    if result is not None:
        events.append(Finished(tuple(result.scores.items()), result.winners))
    return after, tuple(events)


def outcome(s: State) -> Outcome | None:
    """Scores and winners once the game is over and audited, else None."""
    if s.present or duties(s):
        return None
    return score(s.table, s.claimed, s.forfeits)


def _with(items: tuple[T, ...], i: int, value: T) -> tuple[T, ...]:
    """A copy of a tuple with one item replaced (through a list: a third of the time of slicing)."""
    changed = list(items)
    changed[i] = value
    return tuple(changed)


class Play:
    """Builds the next state in place: one copy of the fields, changed by the action and by the rules
    that follow on their own, then returned by `apply`. The new State is never seen half-built: it
    leaves `apply` only once settled. Fields stay tuples, rebuilt only where the action changes them.
    A playout (playout.play_out) carries one Play through a whole game, act after act."""

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
                k = _SARCOPHAGUS_INDEX[pos]
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
        k = _SARCOPHAGUS_INDEX.get(pos)
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
