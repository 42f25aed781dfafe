"""The public state of one play of Path of Pharaohs. Nothing secret is in it: the deck is a count,
a hand is a tuple of opaque card slots (what a slot holds is None until the card is played).
Plain data treated as immutable: the rules never change a State, they build the next one."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.contract import Duty

from .cards import ZERO, deck_counts

Term = tuple[int, int]
"""One card on a pyramid position: (card, signed value it counts). A value card counts +card or
-card; a Wild (cards.WILD) counts the value its player chose, fixed when placed."""
Filled = tuple[int, tuple[Term, ...]]
"""A filled position: (the value it holds, the cards on it). An empty position is None."""
Pyramid = tuple[Filled | None, ...]
"""A player's six positions (cards.POSITION_NAMES)."""

# phases of the game, in the order a turn goes through them
SETUP = "setup"      # the dealer deals the bases and the first hands
START = "start"      # a turn begins: empty bases are dealt again
PLAY = "play"        # the mover places cards and plays action cards
DRAW = "draw"        # the turn has ended: the dealer deals the mover 3 cards
DISCARD = "discard"  # the mover discards down to seven
OVER = "over"


@dataclass(frozen=True, slots=True)
class Options:
    """The readings a table chooses at `new`: how many of each action card (Zero Block Value,
    Wild, Thief, Sandstorm) the deck holds."""

    actions: tuple[int, int, int, int] = (5, 5, 5, 5)

    @property
    def counts(self) -> tuple[int, ...]:
        return deck_counts(self.actions)

    @property
    def deck_size(self) -> int:
        return 60 + sum(self.actions)


@dataclass(frozen=True, slots=True)
class Table:
    """What does not change during one play: the players in seat order and the options."""

    players: tuple[str, ...]
    options: Options


@dataclass(slots=True, eq=False)
class State:
    """Treated as immutable, not frozen (a frozen __init__ is slow): the rules never change a State once
    `apply` has returned it; `apply` fills in a fresh `copy` and returns it settled. `cached_duties`
    memoizes duties.duties, filled in the first time it is asked of a returned state (a copy starts
    without it); equality ignores it."""

    table: Table
    deck: int
    """Cards left in the deck (their order is the dealer's secret)."""
    discards: tuple[int, ...]
    """The discard pile, face up, bottom first."""
    slot_card: tuple[int | None, ...]
    """Every card ever dealt privately is a slot, numbered in order of dealing; its card once public."""
    hands: tuple[tuple[int, ...], ...]
    """Each player's slots in hand."""
    pyramids: tuple[Pyramid, ...]
    zeros: tuple[int, ...]
    """Bit mask, per player, of the positions holding a Zero Block Value card."""
    location: tuple[int, ...]
    space: tuple[int | None, ...]
    """cards.A or cards.B on a location; None at the start, or for the mover once it has moved."""
    sands: int
    mummies: int
    """How many mummies have woken (they close MUMMIES[:mummies]'s B spaces)."""
    storms: tuple[bool, ...]
    """A Sandstorm lies in front of the player."""
    turn: int
    phase: str
    owed_bases: tuple[tuple[int, int], ...] = ()
    """(player, position) base cards the dealer must turn up, first one first."""
    owed_deal: tuple[tuple[int, int], ...] = ()
    """(player, count) cards the dealer must deal privately, first one first."""
    victim: int | None = None
    """A Thief has been played on this player: the dealer owes the steal."""
    built: bool = False
    """The mover has placed a card on their pyramid this turn."""
    drew: bool = False
    idle: int = 0
    """Turns in a row in which nobody placed a card or drew one."""
    winners: tuple[int, ...] = ()
    cached_duties: tuple[Duty, ...] | None = field(default=None, repr=False)
    """duties.duties, worked out once per state."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and all(
            getattr(self, name) == getattr(other, name) for name in _COMPARED)

    @property
    def mover(self) -> str:
        return self.table.players[self.turn]

    def copy(self) -> State:
        """A fresh State with the same fields, for the rules to fill in (never the caches)."""
        return State(self.table, self.deck, self.discards, self.slot_card, self.hands, self.pyramids,
                     self.zeros, self.location, self.space, self.sands, self.mummies, self.storms,
                     self.turn, self.phase, self.owed_bases, self.owed_deal, self.victim, self.built,
                     self.drew, self.idle, self.winners)


_COMPARED = [name for name in State.__dataclass_fields__ if not name.startswith("cached_")]


def cards_on(pyramid: Pyramid, zeros: int) -> list[int]:
    """Every card lying on a pyramid, positions in order, then its Zero Block Value cards."""
    cards = [card for filled in pyramid if filled is not None for card, _ in filled[1]]
    return cards + [ZERO] * zeros.bit_count()
