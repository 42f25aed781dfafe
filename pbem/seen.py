"""The latest version of each game this machine has seen, kept in PBEM_HOME/games/GAME_ID.json.

`pbem play` refuses to build on a file older than one already seen (someone sent an old copy, or two
people answered the same version): building on it would fork the game."""

from __future__ import annotations

import json
from pathlib import Path

from .errors import StaleFile
from .files import write_atomic
from .keys import home
from .protocol import Replay


def _path(game_id: str) -> Path:
    return home() / "games" / f"{game_id}.json"


def check_not_stale(rep: Replay) -> None:
    """StaleFile if this machine has seen a later version of the game, or a different history."""
    path = _path(rep.genesis.game_id)
    try:
        seen = json.loads(path.read_text())
        hashes = [str(h) for h in seen["hashes"]]
    except (OSError, ValueError, KeyError, TypeError):
        return
    common = min(len(hashes), len(rep.hashes)) - 1
    if hashes[common] != rep.hashes[common]:
        fork = next(seq for seq in range(common + 1) if hashes[seq] != rep.hashes[seq])
        raise StaleFile(f"this file's entry {fork} differs from the one already seen here: the game has forked "
                        "(compare both files with 'pbem verify OLD NEW')")
    if len(hashes) > len(rep.hashes):
        raise StaleFile(f"this file stops at entry {rep.seq}, but entry {len(hashes) - 1} of this game was already "
                        "seen here: use the newer file")


def remember(rep: Replay) -> None:
    """Record the history of the game as last written here (every entry's hash, genesis first)."""
    path = _path(rep.genesis.game_id)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    write_atomic(path, json.dumps({"seq": rep.seq, "hashes": rep.hashes}).encode() + b"\n")
