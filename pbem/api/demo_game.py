"""The demo: a whole game among computer players through the same files and functions as people use
(`pbem demo`; examples/make_examples.py uses it too)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from engine.contract import DEALER
from pbem.api.new_games import new_game, players_fit
from pbem.api.turns import play
from pbem.errors import UsageError
from pbem.protocol.replay import Replay


@dataclass
class DemoStep:
    """One run of `play` in the demo: the game after it, and what happened."""

    game: Replay
    events: list[object]


DEMO_PLAYERS = 3
"""The demo's table when `--players` is not given, or the count nearest it that the game takes."""


def demo(game_name: str | None = None, players: int | None = None, directory: Path | None = None, referee_mode: bool = False,
         bot: str | None = None, think: float = 1.0, seed: int | None = None,
         iterations: int | None = None) -> tuple[Path, Iterator[DemoStep]]:
    """A whole game among computer players through the same files and functions as people use: the game
    file's path, and the steps as they are played (the caller reads them; verify the file after). The game
    by its name, or the registry's first; its bot by name, or the game's first; `players` as many as the game
    takes (its `min_players` to `max_players`), by default DEMO_PLAYERS or the nearest it takes."""
    from engine import GAMES, find_game
    from engine.contract import UnknownGame
    from pbem.crypto.keyring import create_key
    from pbem.protocol.bots import policy_for  # the searches: only bots need them

    try:
        chosen = find_game(game_name or next(iter(GAMES)))
    except UnknownGame as exc:
        raise UsageError(str(exc)) from None
    bot = bot or chosen.bots[0]
    policy_for(chosen, bot)  # a bot the game lacks is an error before any file is made
    count = min(max(DEMO_PLAYERS, chosen.min_players), chosen.max_players) if players is None else players
    players_fit(chosen.name, count)
    base = directory or Path(tempfile.mkdtemp(prefix="pbem-demo-"))
    base.mkdir(parents=True, exist_ok=True)
    os.environ["PBEM_HOME"] = str(base / "home")
    names = (["ann", "ben", "cat", "dan", "eve", "fay"] + [f"player{n}" for n in range(7, count + 1)])[:count]
    for person in names + (["ref"] if referee_mode else []):
        if not (base / "home" / "keys" / person).exists():  # a second demo in one folder reuses the keys
            create_key(person, None)
    path = base / "game.json"
    creator = "ref" if referee_mode else names[0]
    game, _ = new_game(chosen.name, path, creator, names, "ref" if referee_mode else None, force=True)

    def steps() -> Iterator[DemoStep]:
        current, turns = game, 0
        while current.duties():
            who = current.duties()[0].who
            if who == DEALER:
                who = current.dealer_signer or names[0]
            turn = play(path, who, bot=bot, think=think, iterations=iterations,
                        seed=None if seed is None else seed + turns)
            turns += 1
            current = turn.rep
            yield DemoStep(current, turn.events)

    return path, steps()
