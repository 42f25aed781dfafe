"""What the dealer hides in a Sarcophagus game: 24 tile places, each committed at setup.

Keys name the places in commitments and openings: `1a`..`6f` for pyramid tiles, `under-5c`,
`under-6c`, `under-6d` for the sarcophagus. Coin slots are `#N`."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.sarcophagus.driver import Layout, deal, layout_from_names
from engine.sarcophagus.geometry import SARCOPHAGUS_POSITIONS, pos_name

from .canonical import canonical
from .crypto import sha256
from .shuffle import SeededRandom

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


def joint_deal(genesis_hash: str, seed: str, contributions: Sequence[str], players: Sequence[str]) -> tuple[Layout, str]:
    """The layout and the first player of a joint deal: the game's own deal rules, driven by the
    specified shuffle (pbem.shuffle) keyed by the dealer's seed and every participant's contribution."""
    key = sha256(canonical({"domain": "pbem/deal/v1", "game": genesis_hash, "seed": seed,
                            "contributions": list(contributions)}))
    rng = SeededRandom(key)
    layout = deal(rng)
    return layout, rng.choice(list(players))


def tile_salt(seed: str, key: str) -> str:
    """A joint deal's salt for one tile place: derived from the secret seed, so the dealer keeps nothing
    else and the end audit can recompute every commitment from the opened seed."""
    return sha256(canonical({"domain": "pbem/tile-salt/v1", "seed": seed, "slot": key})).hex()


def layout_tiles(layout: Layout) -> dict[str, str]:
    """Every tile key to its tile's name."""
    tiles = {key: str(t) for key, t in zip(PYRAMID_KEYS, layout.pyramid)}
    tiles.update({key: str(t) for key, t in zip(UNDER_KEYS, layout.under)})
    return tiles


def layout_from_tiles(tiles: dict[str, str]) -> Layout:
    return layout_from_names({k: tiles[k] for k in PYRAMID_KEYS},
                             {k.removeprefix("under-"): tiles[k] for k in UNDER_KEYS})


__all__ = ["TILE_KEYS", "coin_key", "coin_slot", "joint_deal", "layout_from_tiles", "layout_tiles",
           "random_layout", "tile_key", "tile_salt"]
