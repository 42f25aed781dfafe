"""A saved mail read wherever a game file is read (`play`, `show`, `verify`, `log`, `html`...).

The mail `pbem mail` writes holds the whole game as an attachment (the first mail, or --attach) or the
new entries as an armored turn block. The attachment is the game; a turn block is applied to this
machine's copy of the game (the folder of local copies), as `pbem inbox` would, but the copy is not
changed by reading. A JSON file or an armored game block reads as before (pbem.record.gamefile)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

from pbem.errors import PbemError, RecordError
from pbem.record.gamefile import is_armored, parse, read_bytes
from pbem.record.models import GameFile

_HEADER = re.compile(rb"^(From |[A-Za-z][A-Za-z0-9-]*:[ \t])")


class Loaded(NamedTuple):
    record: GameFile
    armored: bool
    """Read from an armored block: written back the same way."""
    mail: Path | None
    """The saved mail it came from, or None for a game file (a mail is never written over)."""


def is_mail(data: bytes) -> bool:
    """A saved email (.eml, or one message of an mbox) rather than a game file: it starts with a header."""
    return not data.lstrip().startswith(b"{") and bool(_HEADER.match(data))


def read(path: Path, folder: Path | None = None) -> Loaded:
    """The record in a game file or a saved mail; a mail's turn block on top of the local copy."""
    data = read_bytes(path)
    if not is_mail(data) or is_armored(data):
        record, armored = parse(path, data)
        return Loaded(record, armored, None)
    from pbem.protocol.verify import verify  # a mail: its turns are applied to the local copy
    from pbem.transport import copies, turns
    from pbem.transport.mailbox import items
    from pbem.transport.store import Copies

    found = items(str(path), data)
    games = [f.item for f in found if isinstance(f.item, GameFile)]
    blocks = [f.item for f in found if isinstance(f.item, turns.TurnBlock)]
    damaged = [f.item for f in found if isinstance(f.item, PbemError)]
    store = Copies(copies.folder(folder))
    game_id = next((g.genesis.game_id for g in games), None) or next((t.game_id for t in blocks), None) or \
        game_of_mail(data)
    if damaged:
        local = store.get(game_id) if game_id else None
        raise RecordError(f"{path}: {damaged[0]}{resend_hint(game_id, sender_of_mail(data), local.seq if local else 0)}")
    if not games and not blocks:
        raise RecordError(f"{path} is a mail with no pbem game or turn in it")
    if games:
        rep = verify(max(games, key=lambda g: len(g.entries)))
    else:
        local = store.get(blocks[0].game_id)
        if local is None:
            raise RecordError(f"{path} holds a turn of game {blocks[0].game_id[:8]} (entries after "
                              f"{blocks[0].after}), and there is no copy of that game in {store.directory}: read the "
                              f"game's first mail with pbem inbox")
        rep = local
    for turn in sorted(blocks, key=lambda t: t.after):
        rep = turns.extend(rep, turn) or rep
    return Loaded(rep.record, False, path)


def resend_hint(game_id: str | None, sender: str | None, have: int) -> str:
    """How to ask for a mail again: the command its sender types (the game by its short id)."""
    from pbem.transport import copies

    if not game_id:
        return ": ask the sender to mail the turn again"
    who = sender or "SENDER"
    return (f": ask {sender or 'the sender'} to mail it again with "
            f"'pbem mail {copies.short_id(game_id)} --as {who} --since {have}'")


def _header(data: bytes, name: str) -> str | None:
    from email.parser import BytesHeaderParser

    value = BytesHeaderParser().parsebytes(data).get(name)
    return str(value).strip() if value else None


def game_of_mail(data: bytes) -> str | None:
    """The game a mail says it is about (X-Pbem-Game, as `pbem mail` writes it), if a well-formed id."""
    game_id = _header(data, "X-Pbem-Game")
    return game_id if game_id and re.fullmatch(r"[0-9a-f]{32}", game_id) else None


def sender_of_mail(data: bytes) -> str | None:
    """The sender's name in the game, as `pbem mail` writes it: From: NAME <address>."""
    from email.utils import parseaddr

    name = parseaddr(_header(data, "From") or "")[0]
    return name if re.fullmatch(r"[a-z][a-z0-9_-]{0,31}", name) else None
