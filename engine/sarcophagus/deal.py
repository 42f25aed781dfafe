"""How the setup deals the 24 tiles: the one definition of the deal constraint.

Two nulls and the four 5s lie in the sarcophagus region (the three sarcophagus tiles and the three
pyramid tiles above them); the other two nulls and the ranks 1 to 4 lie everywhere else. The driver
deals a whole layout with `deal_unseen`, a search deals the tiles it has not seen with it, and the
rules check a reveal with `deal_problem`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from .geometry import SARCOPHAGUS_POSITIONS, pos_name
from .pieces import ALL_TILES, NULL, Tile

REGION_NULLS = 2
"""Nulls in the sarcophagus region; the other two lie elsewhere."""


Spot = tuple[str, bool, Tile]
"""Where a tile lies: its place in words, whether that is in the sarcophagus region, the tile."""


def deal_problem(shown: Iterable[Spot], placed: Iterable[Spot]) -> str | None:
    """Can the tiles lie where `placed` puts them, beside the tiles already `shown`? None if so,
    else why not."""
    at: dict[Tile, str] = {}
    nulls = {True: 0, False: 0}
    for where, in_region, tile in shown:
        at[tile] = where
        nulls[in_region] += tile.rank == NULL
    for where, in_region, tile in placed:
        if tile in at:
            return f"{tile} is already at {at[tile]}"
        at[tile] = where
        if in_region and tile.rank not in (NULL, 5):
            return f"only nulls and 5s lie in or above the sarcophagus, not {tile}"
        if not in_region and tile.rank == 5:
            return f"a 5 lies only in or above the sarcophagus, not at {where}"
        if tile.rank == NULL:
            nulls[in_region] += 1
            if nulls[in_region] > REGION_NULLS:
                return "the deal has two nulls in and above the sarcophagus and two elsewhere"
    return None


def spots(pyramid: Sequence[Tile | None], under: Sequence[Tile | None]) -> list[Spot]:
    """The tiles of a (partial) layout where they lie, in words."""
    found = [(pos_name(p), p in SARCOPHAGUS_POSITIONS, t) for p, t in enumerate(pyramid) if t is not None]
    return found + [(f"the sarcophagus under {pos_name(p)}", True, t)
                    for p, t in zip(SARCOPHAGUS_POSITIONS, under) if t is not None]


def deal_unseen(pyramid: Sequence[Tile | None], under: Sequence[Tile | None],
                rng: random.Random) -> tuple[tuple[Tile, ...], tuple[Tile, ...]]:
    """Every None in `pyramid` (21 positions) and `under` (3 sarcophagus tiles) dealt at random from
    the tiles not shown, as the setup deals. With nothing shown, this is the setup's deal: the nulls
    shuffled and two of them joined to the 5s for the region, then the region's tiles and the others
    each shuffled and laid out, pyramid positions in order first."""
    shown = {t for t in pyramid if t is not None} | {t for t in under if t is not None}
    region_shown = [pyramid[p] for p in SARCOPHAGUS_POSITIONS] + list(under)
    unseen = [t for t in ALL_TILES if t not in shown]
    nulls = [t for t in unseen if t.rank == NULL]
    rng.shuffle(nulls)
    wanted = REGION_NULLS - sum(1 for t in region_shown if t is not None and t.rank == NULL)
    region = nulls[:wanted] + [t for t in unseen if t.rank == 5]
    rest = nulls[wanted:] + [t for t in unseen if 1 <= t.rank <= 4]
    rng.shuffle(region)
    rng.shuffle(rest)
    laid = [tile if tile is not None else region.pop() if pos in SARCOPHAGUS_POSITIONS else rest.pop()
            for pos, tile in enumerate(pyramid)]
    left = iter(region)
    return tuple(laid), tuple(tile if tile is not None else next(left) for tile in under)


def layout_problem(pyramid: Sequence[Tile], under: Sequence[Tile]) -> str | None:
    """Is this a whole deal the setup could make?"""
    if len(pyramid) != 21 or len(under) != 3:
        return "it needs 21 pyramid tiles and 3 sarcophagus tiles"
    if sorted(list(pyramid) + list(under)) != sorted(ALL_TILES):
        return "it must use each of the 24 piecepack tiles once"
    if deal_problem((), spots(pyramid, under)):
        return "the sarcophagus and the three tiles above it must be two nulls and the four 5s"
    return None
