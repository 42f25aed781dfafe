"""How the setup deals the 24 tiles: the one definition of the deal constraint.

Two nulls and the four 5s lie in the sarcophagus region (the three sarcophagus tiles and the three
pyramid tiles above them); the other two nulls and the ranks 1 to 4 lie everywhere else. The driver
deals a whole layout with `deal_unseen`, a search deals the tiles it has not seen with it, and the
rules check a reveal with `deal_problem`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.contract import Randomness

from .geometry import SARCOPHAGUS_POSITIONS, pos_name
from .pieces import ALL_TILES, NULL, Tile

REGION_NULLS = 2
"""Nulls in the sarcophagus region; the other two lie elsewhere."""

UNDER = 21
"""Places are pyramid positions 0-20, then UNDER + k for the k-th sarcophagus tile."""
REGION = frozenset(SARCOPHAGUS_POSITIONS) | {UNDER, UNDER + 1, UNDER + 2}
_EVERY_TILE = frozenset(ALL_TILES)
_NULLS = tuple(t for t in ALL_TILES if t.rank == NULL)
_FIVES = tuple(t for t in ALL_TILES if t.rank == 5)
_OTHERS = tuple(t for t in ALL_TILES if 1 <= t.rank <= 4)


def place_name(place: int) -> str:
    if place >= UNDER:
        return f"the sarcophagus under {pos_name(SARCOPHAGUS_POSITIONS[place - UNDER])}"
    return pos_name(place)


def shown_places(pyramid: Sequence[Tile | None], under: Sequence[Tile | None]) -> list[tuple[int, Tile]]:
    """The tiles of a (partial) layout with their places."""
    return [(p, t) for p, t in enumerate(pyramid) if t is not None] + [
        (UNDER + k, t) for k, t in enumerate(under) if t is not None]


def deal_problem(shown: Iterable[tuple[int, Tile]], placed: Iterable[tuple[int, Tile]]) -> str | None:
    """Can the tiles lie at the places `placed` puts them, beside the tiles already `shown`? None if
    so, else why not."""
    at: dict[Tile, int] = {}
    nulls = {True: 0, False: 0}
    for place, tile in shown:
        at[tile] = place
        nulls[place in REGION] += tile.rank == NULL
    for place, tile in placed:
        if tile in at:
            return f"{tile} is already at {place_name(at[tile])}"
        at[tile] = place
        in_region = place in REGION
        if in_region and tile.rank not in (NULL, 5):
            return f"only nulls and 5s lie in or above the sarcophagus, not {tile}"
        if not in_region and tile.rank == 5:
            return f"a 5 lies only in or above the sarcophagus, not at {place_name(place)}"
        if tile.rank == NULL:
            nulls[in_region] += 1
            if nulls[in_region] > REGION_NULLS:
                return "the deal has two nulls in and above the sarcophagus and two elsewhere"
    return None


def deal_unseen(pyramid: Sequence[Tile | None], under: Sequence[Tile | None],
                rng: Randomness) -> tuple[tuple[Tile, ...], tuple[Tile, ...]]:
    """Every None in `pyramid` (21 positions) and `under` (3 sarcophagus tiles) dealt at random from
    the tiles not shown, as the setup deals. With nothing shown, this is the setup's deal: the nulls
    shuffled and two of them joined to the 5s for the region, then the region's tiles and the others
    each shuffled and laid out, pyramid positions in order first."""
    shown = set(pyramid).union(under)
    nulls = [t for t in _NULLS if t not in shown]
    rng.shuffle(nulls)
    in_region = [pyramid[p] for p in SARCOPHAGUS_POSITIONS] + list(under)
    wanted = REGION_NULLS - sum(1 for t in in_region if t is not None and t.rank == NULL)
    region = nulls[:wanted] + [t for t in _FIVES if t not in shown]
    rest = nulls[wanted:] + [t for t in _OTHERS if t not in shown]
    rng.shuffle(region)
    rng.shuffle(rest)
    laid = [tile if tile is not None else region.pop() if pos in REGION else rest.pop()
            for pos, tile in enumerate(pyramid)]
    left = iter(region)
    return tuple(laid), tuple(tile if tile is not None else next(left) for tile in under)


def layout_problem(pyramid: Sequence[Tile], under: Sequence[Tile]) -> str | None:
    """Is this a whole deal the setup could make?"""
    if len(pyramid) != 21 or len(under) != 3:
        return "it needs 21 pyramid tiles and 3 sarcophagus tiles"
    if set(pyramid).union(under) != _EVERY_TILE:  # 24 places, 24 distinct tiles: each once
        return "it must use each of the 24 piecepack tiles once"
    # Each tile once, so six tiles of the region that are all nulls and 5s, four of them 5s, are the
    # deal_problem check of every place in one pass (a random game deals a layout, and checks it).
    region = [pyramid[p] for p in SARCOPHAGUS_POSITIONS] + list(under)
    if not all(t.rank == NULL or t.rank == 5 for t in region) or sum(t.rank == 5 for t in region) != 4:
        return "the sarcophagus and the three tiles above it must be two nulls and the four 5s"
    return None
