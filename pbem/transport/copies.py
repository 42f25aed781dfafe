"""Local copies of the games this machine plays by mail, and how far each has been shared.

Copies live in one folder (`--games DIR`, else $PBEM_GAMES, else PBEM_HOME/games-files), one file per
game named GAME-SHORTID.json. `pbem inbox` writes them, `pbem mail` and `pbem status` read them, and
`pbem play` works on them like on any game file. The shared mark (PBEM_HOME/mail/GAME_ID.json) is the
last entry every party has seen in a mail: the next mail carries the entries after it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from pbem.crypto.keyring import home
from pbem.errors import PbemError
from pbem.record.canonical import parse_json
from pbem.record.gamefile import read_bytes
from pbem.record.models import Genesis
from pbem.record.reading import read_file

GAMES_ENV = "PBEM_GAMES"


def folder(given: Path | None = None) -> Path:
    if given is not None:
        return given
    return Path(os.environ[GAMES_ENV]) if os.environ.get(GAMES_ENV) else home() / "games-files"


def short_id(game_id: str) -> str:
    return game_id[:8]


MAX_RIVALS = 16
"""Rival histories of one game kept as evidence, at most."""


def path_for(directory: Path, genesis: Genesis) -> Path:
    """Where this game's copy lives: GAME-SHORTID.json, or GAME-FULLID.json if two short ids collide."""
    short = directory / f"{genesis.game}-{short_id(genesis.game_id)}.json"
    if not short.exists() or game_id_of(short) in (genesis.game_id, None):
        return short
    return directory / f"{genesis.game}-{genesis.game_id}.json"


def game_id_of(path: Path) -> str | None:
    """The game id in a file, read cheaply (no verification), or None if unreadable."""
    try:
        game_id = parse_json(read_bytes(path))["genesis"]["game_id"]
        return game_id if isinstance(game_id, str) else None
    except (PbemError, ValueError, KeyError, TypeError):
        return None


def all_copies(directory: Path) -> list[Path]:
    return sorted(p for p in directory.glob("*.json") if not p.name.startswith(".")) if directory.is_dir() else []


def _mark_path(game_id: str) -> Path:
    return home() / "mail" / f"{game_id}.json"


def shared(game_id: str) -> int | None:
    """The last entry every party has had by mail, or None when no mail of this game was seen."""
    try:
        return int(parse_json(read_file(_mark_path(game_id), "a mark", 64 * 1024))["shared"])
    except (PbemError, ValueError, KeyError, TypeError):
        return None


def mark_shared(game_id: str, seq: int) -> None:
    """Move the shared mark forward (never back: an old mail read again changes nothing)."""
    current = shared(game_id)
    if current is not None and current >= seq:
        return
    write_note(_mark_path(game_id), json.dumps({"shared": seq}).encode() + b"\n")


def set_shared(game_id: str, seq: int | None) -> None:
    """Set the shared mark outright (None: no mail of this game seen), from a record kept elsewhere."""
    if seq is None:
        _mark_path(game_id).unlink(missing_ok=True)
    else:
        write_note(_mark_path(game_id), json.dumps({"shared": seq}).encode() + b"\n")


def write_note(path: Path, data: bytes) -> None:
    """Replace a small file that may be lost without harm (a mark, a cache): whole or not at all, but
    not forced to disk, which costs more than everything else `pbem inbox` does."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)
