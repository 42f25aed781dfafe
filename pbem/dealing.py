"""What the dealer hides in a Sarcophagus game: 24 tile places, each committed at setup.

Keys name the places in commitments and openings: `1a`..`6f` for pyramid tiles, `under-5c`,
`under-6c`, `under-6d` for the sarcophagus. Coin slots are `#N`."""

from __future__ import annotations

import random

from engine.sarcophagus.driver import Layout, deal, layout_from_names
from engine.sarcophagus.geometry import SARCOPHAGUS_POSITIONS, pos_name

PYRAMID_KEYS = tuple(pos_name(p) for p in range(21))
UNDER_KEYS = tuple(f"under-{pos_name(p)}" for p in SARCOPHAGUS_POSITIONS)
TILE_KEYS = PYRAMID_KEYS + UNDER_KEYS


def tile_key(pos: int, under: bool) -> str:
    return f"under-{pos_name(pos)}" if under else pos_name(pos)


def coin_key(slot: int) -> str:
    return f"#{slot}"


def coin_slot(key: str) -> int:
    return int(key[1:])


def random_layout() -> Layout:
    return deal(random.SystemRandom())


def layout_tiles(layout: Layout) -> dict[str, str]:
    """Every tile key to its tile's name."""
    tiles = {key: str(t) for key, t in zip(PYRAMID_KEYS, layout.pyramid)}
    tiles.update({key: str(t) for key, t in zip(UNDER_KEYS, layout.under)})
    return tiles


def layout_from_tiles(tiles: dict[str, str]) -> Layout:
    return layout_from_names({k: tiles[k] for k in PYRAMID_KEYS},
                             {k.removeprefix("under-"): tiles[k] for k in UNDER_KEYS})


__all__ = ["TILE_KEYS", "coin_key", "coin_slot", "layout_from_tiles", "layout_tiles", "random_layout",
           "tile_key"]
