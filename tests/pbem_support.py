"""Shared helpers for the trust-layer tests: real keys, whole games played through sessions."""

from __future__ import annotations

import random
from functools import cache

from engine.sarcophagus.hidden import layout_tiles
from pbem.crypto import Identity
from pbem.protocol.bots import play_out
from pbem.protocol.genesis import new_game
from pbem.protocol.replay import Replay
from pbem.protocol.session import Session

NAMES = ["ann", "ben", "cat", "dan", "ref"]


@cache
def identity(name: str) -> Identity:
    return Identity.from_seed(bytes([NAMES.index(name) + 1]) * 32, comment=name)


def sessions_for(rep: Replay) -> dict[str, Session]:
    return {name: Session(rep, name, identity(name)) for name in rep.roster}


def played_game(mode: str = "table", players=("ann", "ben", "cat"), seed: int = 1, finish: bool = True,
                started: bool = True, **kwargs) -> Replay:
    """A game in `mode`: played to the end (`finish`), or up to its first move (`started`), or just made."""
    referee = ("ref", identity("ref").public) if mode == "referee" else None
    creator = "ref" if referee else players[0]
    if kwargs.get("layout") is not None:
        kwargs["layout"] = layout_tiles(kwargs["layout"])
    rep = new_game("sarcophagus", kwargs.pop("options", {}), [(n, identity(n).public) for n in players], creator,
                   identity(creator), referee, **kwargs)
    if finish:
        play_out(sessions_for(rep), "greedy", random.Random(seed))
    elif started:
        start_play(rep)
    return rep


def start_play(rep: Replay) -> dict[str, Session]:
    """Everyone joins, the dealer deals and turns up the apex: up to the first move."""
    sessions = sessions_for(rep)
    dealer = rep.referee or rep.players[0]
    while rep.duties()[0].what != "move":
        duty = rep.duties()[0]
        sessions[duty.who if duty.who in sessions else dealer].automatic()
    return sessions
