"""Mail of a game this home plays no part in (none of its keys in the game): `pbem inbox` keeps no copy of
it, says so once with words its reader can act on, and sets later mails of that game aside quietly
(their number is in the inbox's last line), instead of an error on every run.

Which games were said is a note in PBEM_HOME/mail/not-mine.json (lost without harm: the game is then said
once more)."""

from __future__ import annotations

import json
from pathlib import Path

from pbem.crypto.keyring import home, list_keys
from pbem.errors import PbemError
from pbem.protocol.replay import Replay
from pbem.record.canonical import parse_json
from pbem.record.reading import read_optional
from pbem.transport.copies import short_id, write_note

_MAX = 4 * 1024 * 1024


def _note_path() -> Path:
    return home() / "mail" / "not-mine.json"


def _said() -> list[str]:
    try:
        value = parse_json(read_optional(_note_path(), "a note", _MAX) or b"[]")
    except (PbemError, ValueError):
        return []
    return [str(v) for v in value] if isinstance(value, list) else []


def first_time(game_id: str) -> bool:
    """Whether this game's not being ours is to be said now (the first time), noting that it was."""
    said = _said()
    if game_id in said:
        return False
    write_note(_note_path(), json.dumps(sorted([*said, game_id])).encode() + b"\n")
    return True


def not_mine(rep: Replay) -> str:
    """Why a game is not kept, as its reader can act on it: who is in it, and, when it names one of this
    home's key names with another key, that key and this home's."""
    people = list(rep.roster)
    game = f"a game of {', '.join(people[:-1])} and {people[-1]}" if len(people) > 1 else f"a game of {people[0]}"
    game += f" ({rep.genesis.game} {short_id(rep.genesis.game_id)}, made by {rep.genesis.author})"
    mine = dict(list_keys())
    named = [name for name in people if name in mine]
    if named:
        name = named[0]
        why = (f"names {name} with another key than this home's {name} ({rep.roster[name].fingerprint()} in the game, "
               f"{mine[name].fingerprint()} here): ask {rep.genesis.author} which key they invited {name} with")
    else:
        why = "in which none of this home's keys plays"
    return f"{game} {why}. Not kept; its mails are set aside quietly from now on."
