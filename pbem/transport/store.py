"""The local copies as one store: each game's copy found by its id, read, verified and summarized for
`pbem status` at most once per run, written with what was seen of it. The inbox applies mail to it; a
saved mail, `pbem mail` and the API read through it."""

from __future__ import annotations

from pathlib import Path

from pbem.protocol.replay import Replay
from pbem.protocol.seen import remember
from pbem.protocol.verify import verify
from pbem.record.gamefile import load, save
from pbem.record.models import GameFile, payload_hash
from pbem.transport import copies, turns
from pbem.transport.status import note, summary


class Copies:
    """The local copies, each read, verified and summarized for `pbem status` at most once per run."""

    def __init__(self, directory: Path, status_notes: bool = True):
        self.directory = directory
        self.status_notes = status_notes
        """Whether a copy written notes what `pbem status` shows of it (status.note): not for a reader that
        lists its games from a store of its own (the judge), for whom it was a rewrite of a file that grows
        with the number of games, on every turn."""
        self._paths: dict[str, Path | None] = {}
        self._records: dict[str, GameFile] = {}
        self._reps: dict[str, Replay] = {}

    def find(self, game_id: str) -> Path | None:
        """The copy of a game: named GAME-SHORTID.json (or GAME-FULLID.json), its id checked."""
        if game_id not in self._paths:
            names = [f"*-{copies.short_id(game_id)}.json", f"*-{game_id}.json"]
            found = [p for name in names for p in sorted(self.directory.glob(name)) if copies.game_id_of(p) == game_id]
            self._paths[game_id] = found[0] if found else None
        return self._paths[game_id]

    def record(self, game_id: str) -> GameFile | None:
        """The copy as read, not yet verified: enough to see that a mail brings nothing new."""
        path = self.find(game_id)
        if game_id not in self._records and path is not None:
            self._records[game_id] = load(path)[0]
        return self._records.get(game_id)

    def get(self, game_id: str) -> Replay | None:
        """The copy, verified."""
        if game_id not in self._reps and self.record(game_id) is not None:
            self._reps[game_id] = verify(self._records[game_id])
        return self._reps.get(game_id)

    def extend(self, turn: turns.TurnBlock) -> Replay | None:
        """Apply a turn to the copy (see turns.extend); the copy is not written."""
        local = self.get(turn.game_id)
        if local is None:
            return None
        new = turns.extend(local, turn)
        if new is not None:
            self._reps[turn.game_id] = new
        return new

    def path(self, game_id: str) -> Path:
        """Where the copy of a game held here is."""
        path = self.find(game_id)
        assert path is not None, "only a game with a copy here has a path"
        return path

    def put(self, rep: Replay, verified_here: bool = False) -> Path:
        """Write the copy, and what status shows of it when this store verified it (`get`, `extend`) or the
        caller did (`verified_here`)."""
        game_id = rep.genesis.game_id
        if verified_here:
            self._reps[game_id] = rep
        path = self.find(game_id)
        if path is None:
            self.directory.mkdir(parents=True, exist_ok=True)
            path = self._paths[game_id] = copies.path_for(self.directory, rep.genesis)
        save(path, rep.record)
        remember(rep, path)
        self._records[game_id] = rep.record
        if self.status_notes and self._reps.get(game_id) is rep:
            note(path, summary(rep, str(path)))
        return path

    def keep_rival(self, record: GameFile) -> Path | None:
        """Save a history that forks from the copy, as evidence (verified: signed by those it names); None
        when MAX_RIVALS of this game are kept already (a participant who forks again and again fills no disk)."""
        folder = self.directory / "forks"
        folder.mkdir(parents=True, exist_ok=True)
        last = payload_hash(record.entries[-1]) if record.entries else payload_hash(record.genesis)
        stem = f"{record.genesis.game}-{copies.short_id(record.genesis.game_id)}"
        path = folder / f"{stem}-{last[:12]}.json"
        if not path.exists() and len(list(folder.glob(f"{stem}-*.json"))) >= copies.MAX_RIVALS:
            return None
        save(path, record)
        return path
