"""The pyramid: 21 positions in rows 1 (apex) to 6 (base), each row offset by half a tile.

Positions are indexes 0..20 internally (row by row, left to right) and `1a`..`6f` for people.
Tile (r,c) touches (r-1,c-1) and (r-1,c) above, (r,c-1) and (r,c+1) beside, (r+1,c) and (r+1,c+1)
below. Sets of positions are bit masks, so free sides are a handful of AND operations.
"""

from __future__ import annotations

from collections.abc import Iterable

ROWS = 6
POSITIONS = tuple((r, c) for r in range(1, ROWS + 1) for c in range(1, r + 1))
INDEX = {rc: i for i, rc in enumerate(POSITIONS)}
ALL_MASK = (1 << len(POSITIONS)) - 1
COLUMN_LETTERS = "abcdef"

SARCOPHAGUS_POSITIONS = (INDEX[(5, 3)], INDEX[(6, 3)], INDEX[(6, 4)])
"""The three pyramid positions with a sarcophagus tile beneath them."""
SARCOPHAGUS_INDEX = {pos: k for k, pos in enumerate(SARCOPHAGUS_POSITIONS)}
"""Each of those positions' index among them: the sarcophagus tile beneath it (State.under, under_owner)."""
APEX = 0


POS_NAMES = tuple(f"{r}{COLUMN_LETTERS[c - 1]}" for r, c in POSITIONS)
"""Each position's name, made once: a view names every position on the board (`pos_name`)."""
_BY_NAME = {name: index for index, name in enumerate(POS_NAMES)}


def pos_name(index: int) -> str:
    return POS_NAMES[index]


def parse_pos(text: str) -> int:
    """`3b` is row 3, second tile from the left."""
    t = text.strip().lower()
    if t in _BY_NAME:
        return _BY_NAME[t]
    if len(t) == 2 and t[0].isdigit() and t[1] in COLUMN_LETTERS:
        rc = (int(t[0]), COLUMN_LETTERS.index(t[1]) + 1)
        if rc in INDEX:
            return INDEX[rc]
    raise ValueError(f"not a position: {text!r} (rows 1-6, then a letter from the left: 1a, 3b, 6f)")


def _mask(cells: Iterable[tuple[int, int]]) -> int:
    m = 0
    for rc in cells:
        if rc in INDEX:
            m |= 1 << INDEX[rc]
    return m


def _sides(r: int, c: int) -> tuple[int, int, int, int]:
    """Masks of the tiles touching the top, left, right and bottom side of (r,c)."""
    return (
        _mask([(r - 1, c - 1), (r - 1, c)]),
        _mask([(r, c - 1)]),
        _mask([(r, c + 1)]),
        _mask([(r + 1, c), (r + 1, c + 1)]),
    )


SIDE_MASKS = tuple(_sides(r, c) for r, c in POSITIONS)
NEIGHBOUR_MASKS = tuple(top | left | right | bottom for top, left, right, bottom in SIDE_MASKS)
NEIGHBOURS = tuple(tuple(i for i in range(len(POSITIONS)) if m >> i & 1) for m in NEIGHBOUR_MASKS)


def _chunk_positions(chunk: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(chunk * 7 + i for i in range(7) if m >> i & 1) for m in range(128))


POSITION_CHUNKS = tuple(_chunk_positions(k) for k in range(3))
"""The positions of each 7-bit chunk of a mask (bits 0-6, 7-13, 14-20), by its value."""


def positions_in(mask: int) -> tuple[int, ...]:
    """The positions of a mask, in order: three table lookups, seven bits each, instead of a bit loop."""
    low, mid, high = POSITION_CHUNKS
    return low[mask & 127] + mid[mask >> 7 & 127] + high[mask >> 14]


def free_sides(index: int, present: int, bottom_edge_free: bool = True) -> int:
    """How many of the tile's four sides no remaining tile touches (edges of the pyramid are free)."""
    top, left, right, bottom = SIDE_MASKS[index]
    free = (not top & present) + (not left & present) + (not right & present)
    if POSITIONS[index][0] == ROWS:
        return free + bottom_edge_free
    return free + (not bottom & present)


def forced_position(present: int) -> int:
    """The leftmost tile of the highest row that still holds a tile (whenever a seat moves, one does)."""
    if not present:
        raise ValueError("the pyramid is empty: no tile is forced")
    return (present & -present).bit_length() - 1
