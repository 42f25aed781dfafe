"""Fame at the end: number tiles by rank, a bonus per suit, ties to the fewest tiles held."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .pieces import SUITS, Tile
from .state import Table

SUIT_BONUS = {0: 0, 1: 0, 2: 1, 3: 2, 4: 4}


@dataclass(frozen=True, slots=True)
class Outcome:
    scores: dict[str, int]
    held: dict[str, int]
    """Tiles each player holds (numbers, aces, nulls, sarcophagus tiles): the tie-break."""
    winners: tuple[str, ...]


def fame(tiles: Iterable[Tile]) -> int:
    """Sum of the number tiles' ranks plus the suit bonus. Aces and nulls score nothing."""
    total, per_suit = 0, [0] * len(SUITS)
    for tile in tiles:
        if tile.rank >= 2:  # is_number, without a property's call: a view scores every seat
            total += tile.rank
            per_suit[tile.suit] += 1
    return total + sum(SUIT_BONUS[n] for n in per_suit)  # no tile of a suit: SUIT_BONUS[0], 0


def score(table: Table, claimed: tuple[tuple[Tile, ...], ...], forfeits: tuple[str, ...] = ()) -> Outcome:
    """Each seat scores on its own; a player's seats add up (the `seats` two-player reading). Players
    who forfeit (recorded absent where it costs the game: absence.py) keep their score but cannot win."""
    scores = dict.fromkeys(table.players, 0)
    held = dict.fromkeys(table.players, 0)
    for seat, tiles in zip(table.seats, claimed):
        scores[seat.player] += fame(tiles)
        held[seat.player] += len(tiles)
    contenders = [p for p in table.players if p not in forfeits]
    if not contenders:
        return Outcome(scores, held, ())
    best = max(scores[p] for p in contenders)
    leaders = [p for p in contenders if scores[p] == best]
    fewest = min(held[p] for p in leaders)
    return Outcome(scores, held, tuple(p for p in leaders if held[p] == fewest))
