"""The tests' third game, Closest, in the three parts docs/adding-a-game.md names: its engine package
(`closest/`), its registry entry (`plugged_in`: the game kept outside engine/ joins the registry at run
time, where a game of engine/ has its line in engine.GAMES) and its presentation (`presentation.py`).
Nothing in pbem/ or engine/ names it: tests/protocol/test_every_game.py plays it as it plays the others."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from pbem.presentation.games import plug_in, unplug

from third_game import presentation
from third_game.closest import GAME

PLAYERS = ("ann", "ben", "cat")


@contextmanager
def plugged_in() -> Iterator[str]:
    """Closest registered while the block runs (its name), and gone after: other tests never see it."""
    plug_in(GAME, presentation)
    try:
        yield GAME.name
    finally:
        unplug(GAME.name)
