"""The piecepack pieces Sarcophagus uses, and their names as players write them."""

from __future__ import annotations

from typing import NamedTuple

SUITS = ("sun", "moon", "crown", "arms")
NULL, ACE = 0, 1
RANK_NAMES = {0: "null", 1: "ace", 2: "2", 3: "3", 4: "4", 5: "5"}
_RANK_ALIASES = {"null": 0, "0": 0, "n": 0, "ace": 1, "1": 1, "a": 1, "2": 2, "3": 3, "4": 4, "5": 5}


class Tile(NamedTuple):
    """A tile: suit index into SUITS and rank 0 (null, a trap) .. 5. Ace (1) is a god."""

    suit: int
    rank: int

    @property
    def is_number(self) -> bool:
        """2 to 5: worth fame, and what a trap takes."""
        return self.rank >= 2

    @property
    def is_god(self) -> bool:
        """An ace: protects from every later trap."""
        return self.rank == ACE

    def __str__(self) -> str:
        return _NAMES.get(self) or f"{SUITS[self.suit]}-{RANK_NAMES[self.rank]}"


ALL_TILES = tuple(Tile(s, r) for s in range(4) for r in range(6))
_NAMES = {tile: f"{SUITS[tile.suit]}-{RANK_NAMES[tile.rank]}" for tile in ALL_TILES}
"""Each tile's name, made once: a view names every tile face up and every tile claimed."""


def parse_tile(text: str) -> Tile:
    """`sun-3`, `moon-null`, `crown-ace` (case-insensitive; `0` and `1` also read as null and ace)."""
    suit_text, sep, rank_text = text.strip().lower().partition("-")
    if not sep or suit_text not in SUITS or rank_text not in _RANK_ALIASES:
        raise ValueError(f"not a tile: {text!r} (write it as suit-rank, e.g. sun-3, moon-null, crown-ace)")
    return Tile(SUITS.index(suit_text), _RANK_ALIASES[rank_text])
