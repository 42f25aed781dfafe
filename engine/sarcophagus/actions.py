"""Actions are values. A player's placement may carry its private coin value; the public form,
the one that goes into the record, never does (`public`)."""

from __future__ import annotations

from dataclasses import dataclass

from .pieces import Tile


@dataclass(frozen=True, slots=True)
class Place:
    """Place a coin. `pos` None means the forced tile (the turn's first coin); `value` is private."""

    pos: int | None
    value: int | None = None


@dataclass(frozen=True, slots=True)
class Reveal:
    """The dealer turns tiles face up: pyramid positions, or (`under`) the sarcophagus tiles at the end."""

    tiles: tuple[tuple[int, Tile], ...]
    under: bool = False


@dataclass(frozen=True, slots=True)
class Open:
    """An owner makes committed coin values public: `(slot, value)` pairs."""

    values: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class Discard:
    """A trapped claimer gives up one of their number tiles."""

    tile: Tile


Action = Place | Reveal | Open | Discard


def public(action: Action) -> Action:
    """The form of an action that everyone may see."""
    if isinstance(action, Place) and action.value is not None:
        return Place(action.pos)
    return action
