"""What this machine has seen of each game: the chain of entry hashes (genesis first) of the longest
version read or written here, in PBEM_HOME/games/GAME_ID.json.

Every command that reads a game compares the file with that history, then records it. `play` and
`referee` refuse to build on a file older than the history or forked from it (building on it would
fork the game); `show`, `log` and `verify` say so on one line (`verify` fails on a fork). The history
only grows: reading an older copy never erases what was seen. A history file that cannot be read is
an error, never a silent reset: losing it would let an old or forked copy through unnoticed."""

from __future__ import annotations

import json
import re
from pathlib import Path

from engine.frozen import Frozen
from pbem.crypto.keyring import home
from pbem.errors import HistoryDamaged, RecordError, StaleFile, Unreadable
from pbem.protocol.replay import Replay
from pbem.record.canonical import parse_json
from pbem.record.files import write_atomic
from pbem.record.reading import read_optional

_HASH = re.compile(r"^[0-9a-f]{64}$")


def history_path(game_id: str) -> Path:
    return home() / "games" / f"{game_id}.json"


class Sighting(Frozen):
    """How a file stands against the history: `new` (nothing seen), `current` (the same version or a
    later one), `older` (a genuine earlier version), `forked` (it departs at entry `fork_at`)."""

    kind: str
    seen_seq: int = -1
    fork_at: int | None = None
    seen_in: str | None = None
    """Where the latest version was read or written, when known."""

    def problem(self, file_seq: int, path: Path | None = None) -> str | None:
        """The one sentence a user reads, or None when the file is the latest seen. `path`: the file read, so
        that a newer version seen at that same path (since replaced by an older copy) is not named as the
        file to use."""
        if self.kind == "older":
            return (f"this file stops at entry {file_seq}, but entry {self.seen_seq} of this game was already "
                    f"seen here{self._newer(path)}")
        if self.kind == "forked":
            return (f"this file's entry {self.fork_at} differs from the one already seen here: the game has forked "
                    "(compare both files with 'pbem verify OLD NEW')")
        return None

    def _newer(self, path: Path | None) -> str:
        """Where the newer version is, or what to do when it is gone or the file was rolled back in place."""
        if not self.seen_in:
            return ": use the newer file, or fetch it again (git pull, or pbem inbox)"
        seen = Path(self.seen_in)
        if path is not None and seen.absolute() == Path(path).absolute():
            if _in_git(seen):
                return (f", in this same file: it has been replaced by an older version (a git checkout or a commit "
                        f"that rolls it back). Pull the newer one (git pull), or find the commit with entry "
                        f"{self.seen_seq}")
            return (", in this same file: it has been replaced by an older copy. Restore the newer one (from your "
                    "mail: pbem inbox --again; or from a backup)")
        if not seen.exists():
            return f": it was in {seen}, which is gone; fetch it again (git pull, or pbem inbox --again)"
        return f": use the newer file: {seen}"


def _in_git(path: Path) -> bool:
    """Whether a file lies in a git work tree (a folder above it holds .git)."""
    return any((folder / ".git").exists() for folder in Path(path).absolute().parents)


def _read(path: Path) -> list[str] | None:
    """The hashes recorded at `path`; None if there is no history; HistoryDamaged if it is unreadable."""
    found = _read_all(path)
    return found[0] if found else None


def _read_all(path: Path) -> tuple[list[str], str | None] | None:
    """The hashes recorded at `path` and where that version was (if known); None if there is no history."""
    try:
        text = read_optional(path, "a history file", 64 * 1024 * 1024)
    except Unreadable as exc:
        raise _damaged(path, str(exc)) from None
    if text is None:
        return None
    try:
        data = parse_json(text)
    except RecordError:
        raise _damaged(path, "not JSON") from None
    hashes = data.get("hashes") if isinstance(data, dict) else None
    if not isinstance(hashes, list) or not hashes or not all(isinstance(h, str) and _HASH.match(h) for h in hashes):
        raise _damaged(path, '"hashes" must be a non-empty list of entry hashes')
    where = data.get("path")
    return hashes, where if isinstance(where, str) else None


def _damaged(path: Path, why: str) -> HistoryDamaged:
    return HistoryDamaged(f"the history file {path} is damaged ({why}): delete it to reset what this machine "
                          "remembers of the game (older or forked copies then go unnoticed until it is rebuilt)")


def sighting(rep: Replay) -> Sighting:
    """Compare the replayed file with the history of its game, without recording anything."""
    found = _read_all(history_path(rep.genesis.game_id))
    if found is None:
        return Sighting("new")
    seen, where = found
    for seq, (ours, theirs) in enumerate(zip(rep.hashes, seen)):
        if ours != theirs:
            return Sighting("forked", len(seen) - 1, seq, where)
    return Sighting("older" if len(seen) > len(rep.hashes) else "current", len(seen) - 1, None, where)


def remember(rep: Replay, where: Path | None = None) -> Sighting:
    """Record the file's history if it is the latest version seen, and `where` it is (so that a later
    look at an older copy can name the newer one); an older or forked file leaves the history as it was.
    Returns how the file stood."""
    found = sighting(rep)
    if found.kind in ("new", "current") and found.seen_seq < len(rep.hashes) - 1:
        path = history_path(rep.genesis.game_id)
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        data: dict[str, object] = {"seq": rep.seq, "hashes": rep.hashes}
        if where is not None:
            data["path"] = str(Path(where).absolute())
        write_atomic(path, json.dumps(data).encode() + b"\n")
    return found


def replace_history(game_id: str, hashes: list[str], where: Path | None = None) -> None:
    """Set what this home has seen of a game outright, from a record kept elsewhere that is the authority
    (the judge's database): an entry written here but never kept there is forgotten, which `remember`
    never does."""
    path = history_path(game_id)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    data: dict[str, object] = {"seq": len(hashes) - 1, "hashes": hashes}
    if where is not None:
        data["path"] = str(Path(where).absolute())
    write_atomic(path, json.dumps(data).encode() + b"\n")


def check_not_stale(rep: Replay, path: Path | None = None) -> None:
    """For commands that build on the file (read from `path`): StaleFile if it is older than the history or
    forked from it."""
    problem = sighting(rep).problem(rep.seq, path)
    if problem:
        raise StaleFile(problem)


def seen_where(prefix: str) -> dict[str, str | None]:
    """Every game this machine has seen whose id starts with `prefix`, and where its latest version was read
    or written, when known (a history that cannot be read: where unknown)."""
    found: dict[str, str | None] = {}
    folder = home() / "games"
    for path in sorted(folder.glob(f"{prefix}*.json")) if folder.is_dir() else ():
        try:
            history = _read_all(path)
        except HistoryDamaged:
            history = None
        found[path.stem] = history[1] if history else None
    return found


def remember_quietly(game: Replay, where: Path | None = None) -> str | None:
    """Looking at a game must work where nothing can be written (a read-only home, a CI sandbox): say so."""
    try:
        remember(game, where)
    except OSError as exc:
        return f"cannot record this version in {history_path(game.genesis.game_id)}: {exc.strerror or exc}"
    return None
