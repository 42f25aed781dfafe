"""Actions are values. A card a player plays names the slot it came from (filled in by `check`
from the player's own knowledge when the text leaves it out) and shows the card: playing it makes
it public. The dealer's private deals and steals carry the cards only in their private form, the
one sealed to the receiver; `public` strips them for the record."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .state import Term


@dataclass(frozen=True, slots=True)
class Build:
    """Place one to three cards on the mover's own position `pos`, each with the value it counts."""

    pos: int
    terms: tuple[Term, ...]
    slots: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class Zero:
    """Play a Zero Block Value card on an opponent's empty upper position."""

    target: str
    pos: int
    slot: int | None = None


@dataclass(frozen=True, slots=True)
class Thief:
    """Discard a Thief: the dealer then moves two random cards of `target`'s hand to the mover."""

    target: str
    slot: int | None = None


@dataclass(frozen=True, slots=True)
class Sandstorm:
    """Give a Sandstorm to an opponent: they skip their next turn."""

    target: str
    slot: int | None = None


@dataclass(frozen=True, slots=True)
class Stop:
    """End the turn."""


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard cards face up, down to seven in hand, after drawing."""

    cards: tuple[int, ...]
    slots: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class Reveal:
    """The dealer turns the top card of the deck face up, for the base position owed."""

    card: int


@dataclass(frozen=True, slots=True)
class Deal:
    """The dealer deals the top cards of the deck privately to `player`, into new `slots`.
    `cards` is private to the dealer and that player (None in the public form)."""

    player: str
    slots: tuple[int, ...]
    cards: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class Shuffle:
    """The dealer shuffles the discard pile into a new deck (the new order is the dealer's secret)."""


@dataclass(frozen=True, slots=True)
class Steal:
    """The dealer moves the randomly chosen `slots` from the Thief's victim to the mover.
    `cards` is private to the dealer, the thief and the victim (None in the public form)."""

    slots: tuple[int, ...]
    cards: tuple[int, ...] | None = None


PlayerAction = Build | Zero | Thief | Sandstorm | Stop | Discard
DealerAction = Reveal | Deal | Shuffle | Steal
Action = PlayerAction | DealerAction


def public(action: Action) -> Action:
    """The form of an action that everyone may see."""
    if isinstance(action, Deal) and action.cards is not None:
        return Deal(action.player, action.slots)
    if isinstance(action, Steal) and action.cards is not None:
        return Steal(action.slots)
    return action


# Acts made at every move of every game, made cheaply. A frozen dataclass's __init__ sets each field
# through object.__setattr__, which costs about twice as much as setting its slot directly (measured:
# 5,400 against 3,200 instructions a Build); these make the same values (equal, hashed and shown alike).
_new = object.__new__
_set_build_pos, _set_build_terms, _set_build_slots = (vars(Build)[name].__set__ for name in ("pos", "terms", "slots"))
_set_deal_player, _set_deal_slots, _set_deal_cards = (vars(Deal)[name].__set__ for name in ("player", "slots", "cards"))


def _cheap_build(pos: int, terms: tuple[Term, ...], slots: tuple[int, ...]) -> Build:
    act: Build = _new(Build)
    _set_build_pos(act, pos)
    _set_build_terms(act, terms)
    _set_build_slots(act, slots)
    return act


def _cheap_deal(player: str, slots: tuple[int, ...], cards: tuple[int, ...] | None) -> Deal:
    act: Deal = _new(Deal)
    _set_deal_player(act, player)
    _set_deal_slots(act, slots)
    _set_deal_cards(act, cards)
    return act


def _compiled() -> bool:
    """Whether mypyc compiled these classes (benchmarks/compile_engine.py): a compiled class refuses
    object.__new__, and its own constructor is cheap."""
    try:
        _new(Build)
    except TypeError:
        return True
    return False


new_build: Callable[[int, tuple[Term, ...], tuple[int, ...]], Build] = Build if _compiled() else _cheap_build
"""Build(pos, terms, slots), made cheaply (above)."""
new_deal: Callable[[str, tuple[int, ...], tuple[int, ...] | None], Deal] = Deal if _compiled() else _cheap_deal
"""Deal(player, slots, cards), made cheaply (above)."""
