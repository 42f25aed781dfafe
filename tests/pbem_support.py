"""Shared helpers for the trust-layer tests: real keys, whole games played through sessions."""

from __future__ import annotations

import random
from functools import lru_cache

from pbem.bots import play_out
from pbem.crypto import Identity
from pbem.protocol import Replay, Session, new_game

NAMES = ["ann", "ben", "cat", "dan", "ref"]


@lru_cache(maxsize=None)
def identity(name: str) -> Identity:
    return Identity.from_seed(bytes([NAMES.index(name) + 1]) * 32, comment=name)


def sessions_for(rep: Replay) -> dict[str, Session]:
    return {name: Session(rep, name, identity(name)) for name in rep.roster}


def played_game(mode: str = "table", players=("ann", "ben", "cat"), seed: int = 1, finish: bool = True,
                **kwargs) -> Replay:
    referee = ("ref", identity("ref").public) if mode == "referee" else None
    creator = "ref" if referee else players[0]
    rep = new_game("sarcophagus", kwargs.pop("options", {}), [(n, identity(n).public) for n in players], creator,
                   identity(creator), referee, **kwargs)
    if finish:
        play_out(sessions_for(rep), "greedy", random.Random(seed))
    return rep
