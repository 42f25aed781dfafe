"""What an actor privately knows, as the rules take it beside the public State: a player the value of
each coin they placed, the dealer where each tile lies."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from .pieces import Tile

PlayerKnowledge = Mapping[int, int]
"""What a player privately knows: the value of each coin slot they placed."""


class TileKnowledge(Protocol):
    """What the dealer privately knows of the tiles: where each lies (driver.Layout, a search World,
    hidden.DealerKnowledge, which holds the coin values as well)."""

    @property
    def pyramid(self) -> Sequence[Tile]: ...
    @property
    def under(self) -> Sequence[Tile]: ...


Knowledge = PlayerKnowledge | TileKnowledge
