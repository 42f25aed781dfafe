"""A game named by the start of its id (`pbem play 25f0`): found among the game files this machine knows.

Looked for, in this order: the game files of the current folder, the folder of local copies, and the file
where this home last read or wrote each game it has seen (PBEM_HOME/games, pbem/protocol/seen.py). One
game may be in several of them: its newest version is taken (the most entries; on a tie, the file this
home used last, then a copy, then the current folder's). Two games whose ids start alike are an error
that lists both; no game, one that lists the games known here."""

from __future__ import annotations

import re
from pathlib import Path

from engine.frozen import Frozen
from pbem.errors import PbemError, UsageError
from pbem.protocol.seen import seen_where
from pbem.record.canonical import parse_json
from pbem.record.gamefile import read_bytes
from pbem.transport.copies import all_copies, folder

PREFIX = re.compile(r"[0-9a-f]{4,32}")
"""What may be an id's start: fewer than 4 characters is surely a file's name."""
_LISTED = 10
"""Candidates named in an error at most."""


class Candidate(Frozen):
    """A game file as read cheaply (not verified): enough to choose among candidates and name them."""

    path: Path
    game_id: str
    game: str
    players: tuple[str, ...]
    entries: int

    def described(self) -> str:
        return f"{self.game_id[:8]} ({self.game}: {', '.join(self.players)}; {self.entries} entries) in {self.path}"


def resolve(given: Path, directory: Path | None = None) -> Path:
    """A game named on the command line: a file that exists, else the one game known here whose id starts
    with what was typed. UsageError, listing what was found, when no game or several match."""
    text = str(given)
    if given.exists() or not PREFIX.fullmatch(text):
        return given
    copies = folder(directory)
    games, seen = _known(text, copies)
    if len(games) == 1:
        return games[0].path
    if games:
        raise UsageError(f"{text}: {len(games)} games have an id starting with {text}: {_listed(games)}. Type more "
                         "of the id")
    lost = [game_id[:8] for game_id in seen]
    gone = f"; this home saw {', '.join(lost)} but no longer finds its file" if lost else ""
    others = _known("", copies)[0]
    known = f". Games known here: {_listed(others)}" if others else ""
    raise UsageError(f"{text}: no such file, and no game known here has an id starting with {text} (looked in the "
                     f"current folder, in {copies} and where this home last read or wrote each game{gone}){known}")


def _known(prefix: str, copies: Path) -> tuple[list[Candidate], dict[str, str | None]]:
    """The games whose id starts with `prefix`, each in its newest version found, in order of their ids; and
    the games this home saw with that start whose file is not found."""
    seen = seen_where(prefix)
    places = ([(p, 3) for p in sorted(Path().glob("*.json"))] + [(p, 2) for p in all_copies(copies)] +
              [(Path(where), 1) for where in seen.values() if where])
    games: dict[str, tuple[Candidate, int]] = {}
    read: set[Path] = set()
    for path, rank in places:
        if path.absolute() in read:  # the same file by another name: named as first found
            continue
        read.add(path.absolute())
        found = _read(path)
        if found is None or not found.game_id.startswith(prefix):
            continue
        best = games.get(found.game_id)
        if best is None or (found.entries, -rank) > (best[0].entries, -best[1]):
            games[found.game_id] = (found, rank)
    lost = {game_id: where for game_id, where in seen.items() if game_id not in games}
    return [found for _, (found, _) in sorted(games.items())], lost


def _listed(games: list[Candidate]) -> str:
    more = f"; and {len(games) - _LISTED} more" if len(games) > _LISTED else ""
    return "; ".join(found.described() for found in games[:_LISTED]) + more


def _read(path: Path) -> Candidate | None:
    """A game file's id, game, players and entry count, or None if it is not a readable game file."""
    try:
        data = parse_json(read_bytes(path))
        genesis = data["genesis"]
        players = tuple(str(p["name"]) for p in genesis["players"])
        return Candidate(path, str(genesis["game_id"]), str(genesis["game"]), players, len(data.get("entries") or []))
    except (PbemError, ValueError, KeyError, TypeError, AttributeError):
        return None
