"""The public state of one play of Sarcophagus. Nothing secret is in it: a face-down tile is None,
an unopened coin value is None. Plain data treated as immutable; the rules are functions over it."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.contract import Duty

from .pieces import SUITS, Tile

TWO_PLAYER_MODES = ("pooled", "seats")
DISCARDED = -1
"""`under_owner` of a sarcophagus tile discarded unseen with the tile above it."""


@dataclass(frozen=True, slots=True)
class Options:
    """The readings a table chooses at `new` (see docs/rules/sarcophagus.md)."""

    two_player: str = "pooled"
    bottom_edge_free: bool = True


@dataclass(frozen=True, slots=True)
class Seat:
    """Who holds coins, takes turns and claims tiles: a player, or one suit of a player (`seats`)."""

    name: str
    player: str
    suits: tuple[int, ...]
    coins: tuple[int, ...]

    @property
    def suit_names(self) -> str:
        return "+".join(SUITS[s] for s in self.suits)


@dataclass(frozen=True, slots=True)
class Table:
    """What does not change during one play: the players, the options, the seats in turn order."""

    players: tuple[str, ...]
    options: Options
    seats: tuple[Seat, ...]
    _seats_of: dict[str, tuple[int, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        index = {p: tuple(i for i, seat in enumerate(self.seats) if seat.player == p) for p in self.players}
        object.__setattr__(self, "_seats_of", index)

    def seats_of(self, player: str) -> tuple[int, ...]:
        return self._seats_of.get(player, ())


@dataclass(slots=True, eq=False, init=False)
class State:
    """Treated as immutable, not frozen: the rules never change a State once `apply` has returned it;
    they build the next one (`apply` fills in a fresh copy and returns it settled). A plain slotted
    dataclass rather than a frozen one because a frozen __init__ costs a third of a playout.

    The `cached_` fields are the one exception, and do not contradict it: each memoizes a function of
    the other fields, filled in the first time the rules are asked it of a returned state (the copy
    `apply` fills in starts without them, and nothing asks them of it before it is settled). Equality
    ignores them.

    The __init__ is written out (the dataclass makes the rest): the one dataclasses generates is exec'd
    Python that mypyc cannot compile, and a playout builds a State at every act. Pure Python runs both
    alike; the optional compiled build (benchmarks/compile_engine.py) plays a fifth faster with this."""

    table: Table
    present: int
    """Bit mask of the pyramid positions that still hold a tile."""
    face_up: int
    tiles: tuple[Tile | None, ...]
    """Revealed identity of each pyramid tile (kept after it leaves the pyramid)."""
    coins: tuple[tuple[int, ...], ...]
    """Coin slots on each position."""
    under: tuple[Tile | None, ...]
    """Revealed identity of the three sarcophagus tiles."""
    under_owner: tuple[int | None, ...]
    """Seat that took each sarcophagus tile, DISCARDED, or None while it is still buried."""
    slot_seat: tuple[int, ...]
    """Every coin ever placed is a slot, numbered in order of placement: its seat..."""
    slot_value: tuple[int | None, ...]
    """...its value once opened..."""
    slot_back: tuple[int | None, ...]
    """...and how many coins had been placed when it went back to the hand (None: still out)."""
    hands: tuple[int, ...]
    out: tuple[tuple[int, ...], ...]
    """Each seat's coin slots not in its hand: on a tile or in the sarcophagus."""
    claimed: tuple[tuple[Tile, ...], ...]
    """Tiles each seat holds, face up (sarcophagus tiles join at the end reveal)."""
    turn: int
    placed: int
    """Coins the seat to move has placed this turn."""
    reveal: tuple[int, ...]
    """Pyramid positions the dealer must turn face up before anything else happens."""
    tie: int | None
    """A position whose tie-break waits for openings."""
    traps: tuple[int, ...]
    """Seats whose sprung traps are still to be resolved, first one first."""

    full: int = 0
    """Bit mask of the positions holding 4 coins (derived from `coins`, kept for speed)."""
    entombed: tuple[tuple[int, ...], ...] = ((), (), ())
    """The coin slots the taker of each sarcophagus tile left on it (out of hand for good)."""
    forfeits: tuple[str, ...] = ()
    """Players recorded absent where it costs them the game (the end audit, three turns in a row:
    absence.py): they cannot win."""
    cached_duties: tuple[Duty, ...] | None = field(default=None, repr=False)
    """duties.duties, worked out once per state."""
    cached_openings: dict[str, tuple[int, ...]] | None = field(default=None, repr=False)
    """duties._openings (every owner's owed openings), worked out once per state."""

    def __init__(self, table: Table, present: int, face_up: int, tiles: tuple[Tile | None, ...],
                 coins: tuple[tuple[int, ...], ...], under: tuple[Tile | None, ...],
                 under_owner: tuple[int | None, ...], slot_seat: tuple[int, ...], slot_value: tuple[int | None, ...],
                 slot_back: tuple[int | None, ...], hands: tuple[int, ...], out: tuple[tuple[int, ...], ...],
                 claimed: tuple[tuple[Tile, ...], ...], turn: int, placed: int, reveal: tuple[int, ...],
                 tie: int | None, traps: tuple[int, ...], full: int = 0,
                 entombed: tuple[tuple[int, ...], ...] = ((), (), ()), forfeits: tuple[str, ...] = (),
                 cached_duties: tuple[Duty, ...] | None = None,
                 cached_openings: dict[str, tuple[int, ...]] | None = None) -> None:
        self.table = table
        self.present = present
        self.face_up = face_up
        self.tiles = tiles
        self.coins = coins
        self.under = under
        self.under_owner = under_owner
        self.slot_seat = slot_seat
        self.slot_value = slot_value
        self.slot_back = slot_back
        self.hands = hands
        self.out = out
        self.claimed = claimed
        self.turn = turn
        self.placed = placed
        self.reveal = reveal
        self.tie = tie
        self.traps = traps
        self.full = full
        self.entombed = entombed
        self.forfeits = forfeits
        self.cached_duties = cached_duties
        self.cached_openings = cached_openings

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and all(
            getattr(self, name) == getattr(other, name) for name in _COMPARED)


_COMPARED = [name for name in State.__dataclass_fields__ if not name.startswith("cached_")]
