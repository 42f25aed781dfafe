"""`pbem inbox`: every pbem turn, game block and attached game file in a Maildir, an mbox or .eml files,
applied to the local copies, verified, with forks and equivocation flagged.

Mails may arrive in any order: whole files go first, then turns in the order of the entry they
extend, again and again while one makes room for another. Reading the same mail twice changes
nothing: a mail applied in full is not parsed again (an index beside the copies says which), and a
turn whose entries are all known is skipped. A rival history is never applied; it is kept
beside the copies (forks/) so `pbem verify COPY RIVAL` can show who signed what.
"""

from __future__ import annotations

import hashlib
import json
import mailbox
import os
from dataclasses import dataclass, field
from email import policy
from email.parser import BytesParser
from pathlib import Path

from pbem.crypto.keyring import list_keys
from pbem.errors import Divergence, Equivocation, PbemError, UsageError
from pbem.protocol.replay import Replay
from pbem.protocol.seen import remember
from pbem.protocol.verify import compare
from pbem.record.gamefile import read_bytes, save
from pbem.record.models import GameFile, from_json, payload_hash
from pbem.transport import armor, copies, turns
from pbem.transport.status import Since, note, replay_noting, summary

MAX_MAIL = 64 * 1024 * 1024


@dataclass(eq=False)
class Found:
    where: str
    item: turns.TurnBlock | GameFile | PbemError
    refused: bool = False
    """A fork or a bad entry: the mail is read again next time, and reported again."""


@dataclass
class Report:
    mails: int = 0
    updated: dict[str, tuple[Path, int, int]] = field(default_factory=dict)
    """game_id -> (copy, first new entry, last entry)"""
    known: int = 0
    problems: list[str] = field(default_factory=list)
    forks: list[str] = field(default_factory=list)


# ---------------------------------------------------------------- reading mail

def default_mailbox() -> Path:
    """$PBEM_MAIL, else $MAIL (the system's mbox or Maildir), else ~/Maildir if it exists."""
    for candidate in (os.environ.get("PBEM_MAIL"), os.environ.get("MAIL"), str(Path.home() / "Maildir")):
        if candidate and Path(candidate).expanduser().exists():
            return Path(candidate).expanduser()
    raise UsageError("say where your mail is: pbem inbox ~/Maildir (a Maildir, an mbox or .eml files), or set "
                     "PBEM_MAIL")


def _messages(path: Path) -> list[tuple[str, bytes]]:
    """(where, raw bytes) of every mail at a path: a Maildir, a folder of .eml files, an mbox, one file."""
    if path.is_dir() and any((path / sub).is_dir() for sub in ("cur", "new")):
        maildir = mailbox.Maildir(path, factory=None, create=False)
        return [(f"{path}/{key}", maildir.get_bytes(key)) for key in sorted(maildir.keys())]
    if path.is_dir():
        return [(str(p), read_bytes(p)) for p in sorted(path.iterdir()) if p.is_file() and p.suffix == ".eml"]
    data = _read(path)
    if data.startswith(b"From "):
        mbox = mailbox.mbox(path, factory=None, create=False)
        return [(f"{path}#{i + 1}", mbox.get_bytes(key)) for i, key in enumerate(mbox.keys())]
    return [(str(path), data)]


def _read(path: Path) -> bytes:
    try:
        if path.stat().st_size > MAX_MAIL:
            raise UsageError(f"{path} is over {MAX_MAIL // 2**20} MB: not a mailbox pbem reads")
        return path.read_bytes()
    except FileNotFoundError:
        raise UsageError(f"no such mailbox or file: {path}") from None


def _in_text(where: str, text: str) -> list[Found]:
    found = [Found(where, t) for t in turns.find_blocks(text)]
    for data in armor.find(text, "GAME"):
        try:
            found.append(Found(where, data if isinstance(data, PbemError) else from_json(data)))
        except PbemError as exc:
            found.append(Found(where, exc))
    return found


def items(where: str, data: bytes) -> list[Found]:
    """Every pbem block and attached game in one mail, each part decoded (quoted-printable, base64)."""
    if data.lstrip().startswith(b"{"):  # a bare game file given among the mails
        try:
            return [Found(where, from_json(data))]
        except PbemError as exc:
            return [Found(where, exc)]
    message = BytesParser(policy=policy.compat32).parsebytes(data)
    found: list[Found] = []
    for part in message.walk():
        if part.is_multipart():
            continue
        payload = part.get_payload(decode=True)  # a leaf part's bytes, None if it has none
        content = payload if isinstance(payload, bytes) else b""
        name = part.get_filename() or ""
        if part.get_content_type() == "application/json" or name.endswith(".json"):
            try:
                found.append(Found(f"{where} ({name or 'attachment'})", from_json(content)))
            except PbemError as exc:
                found.append(Found(f"{where} ({name or 'attachment'})", exc))
            continue
        if part.get_content_maintype() == "text" or not name:
            charset = part.get_content_charset() or "utf-8"
            try:
                text = content.decode(charset, errors="replace")
            except LookupError:  # an unknown charset name
                text = content.decode("utf-8", errors="replace")
            found += _in_text(where, text)
    return found


# ---------------------------------------------------------------- applying

class Copies:
    """The local copies, each read, verified and summarized for `pbem status` at most once per run."""

    def __init__(self, directory: Path):
        self.directory = directory
        self._paths: dict[str, Path | None] = {}
        self._records: dict[str, GameFile] = {}
        self._reps: dict[str, tuple[Replay, Since]] = {}

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
            from pbem.record.gamefile import load

            self._records[game_id] = load(path)[0]
        return self._records.get(game_id)

    def get(self, game_id: str) -> Replay | None:
        """The copy, verified."""
        if game_id not in self._reps and self.record(game_id) is not None:
            self._reps[game_id] = replay_noting(self._records[game_id])
        return self._reps[game_id][0] if game_id in self._reps else None

    def extend(self, turn: turns.TurnBlock) -> Replay | None:
        """Apply a turn to the copy (see turns.extend); the copy is not written."""
        local = self.get(turn.game_id)
        if local is None:
            return None
        since = self._reps[turn.game_id][1].copy()
        new = turns.extend(local, turn, since.step)
        if new is not None:
            self._reps[turn.game_id] = (new, since) if turn.after == local.seq else replay_noting(new.record)
        return new

    def path(self, game_id: str) -> Path:
        """Where the copy of a game held here is."""
        path = self.find(game_id)
        assert path is not None, "only a game with a copy here has a path"
        return path

    def put(self, rep: Replay, since: Since | None = None) -> Path:
        """Write the copy, and what status shows of it when its duties were followed (`since`)."""
        game_id = rep.genesis.game_id
        if since is not None:
            self._reps[game_id] = (rep, since)
        path = self.find(game_id)
        if path is None:
            self.directory.mkdir(parents=True, exist_ok=True)
            path = self._paths[game_id] = copies.path_for(self.directory, rep.genesis)
        save(path, rep.record)
        remember(rep)
        self._records[game_id] = rep.record
        held = self._reps.get(game_id)
        if held is not None and held[0] is rep:
            note(path, summary(rep, held[1], str(path)))
        return path

    def keep_rival(self, record: GameFile) -> Path:
        """Save a history that forks from the copy, as evidence."""
        folder = self.directory / "forks"
        folder.mkdir(parents=True, exist_ok=True)
        last = payload_hash(record.entries[-1]) if record.entries else payload_hash(record.genesis)
        path = folder / f"{record.genesis.game}-{copies.short_id(record.genesis.game_id)}-{last[:12]}.json"
        save(path, record)
        return path


def _note(report: Report, store: Copies, before: int, rep: Replay, since: Since | None = None) -> None:
    path = store.put(rep, since)
    first = report.updated.get(rep.genesis.game_id, (path, before + 1, 0))[1]
    report.updated[rep.genesis.game_id] = (path, first, rep.seq)


def _mine(rep: Replay) -> bool:
    """Whether one of my keys (in the key directory) is a participant: only such games are kept."""
    mine = [key for _, key in list_keys()]
    return any(theirs.same_key(key) for theirs in rep.roster.values() for key in mine)


def _apply_file(report: Report, store: Copies, found: Found, record: GameFile) -> None:
    where = found.where
    held = store.record(record.genesis.game_id)
    if held is not None and held.genesis == record.genesis and held.entries[:len(record.entries)] == record.entries:
        copies.mark_shared(record.genesis.game_id, len(record.entries))
        report.known += 1
        return
    try:
        new, since = replay_noting(record)
    except PbemError as exc:
        report.problems.append(f"{where}: refused the attached game: {exc}")
        found.refused = True
        return
    local = store.get(record.genesis.game_id)
    if local is None and not _mine(new):
        report.problems.append(f"{where}: a game without any of your keys in it ({', '.join(new.roster)}): "
                               "not kept")
        found.refused = True
        return
    copies.mark_shared(record.genesis.game_id, new.seq)
    if local is None:
        _note(report, store, 0, new, since)
        return
    try:
        compare(local.record, new.record)
    except (Divergence, Equivocation) as exc:
        rival = store.keep_rival(record)
        report.forks.append(f"{where}: {exc} (kept the rival copy: pbem verify {store.path(local.genesis.game_id)} "
                            f"{rival})")
        found.refused = True
        return
    if new.seq > local.seq:
        _note(report, store, local.seq, new, since)
    else:
        report.known += 1


def _apply_turn(report: Report, store: Copies, found: Found, turn: turns.TurnBlock) -> bool:
    """Apply one turn; False when it must wait for an earlier one (or for the game's file)."""
    where = found.where
    held = store.record(turn.game_id)
    if held is not None and turns.is_known(held, turn):
        copies.mark_shared(turn.game_id, turn.last)
        report.known += 1
        return True
    local = store.get(turn.game_id)
    if local is None:
        return False
    try:
        new = store.extend(turn)
    except turns.MissingEntries:
        return False
    except (Divergence, Equivocation) as exc:
        rival = store.keep_rival(GameFile.model_construct(genesis=local.genesis,
                                                          entries=list(local.entries[:turn.after]) + list(turn.entries)))
        report.forks.append(f"{where}: {exc} (kept the rival copy: pbem verify {store.path(turn.game_id)} {rival})")
        found.refused = True
        return True
    except PbemError as exc:
        report.problems.append(f"{where}: refused a turn: {exc}")
        found.refused = True
        return True
    copies.mark_shared(turn.game_id, turn.last)
    if new is None:
        report.known += 1
    else:
        _note(report, store, local.seq, new)
    return True


def _index_path(directory: Path) -> Path:
    """Kept beside the copies it speaks of, so it goes when they go."""
    return directory / ".inbox-read"


def _read_index(directory: Path) -> set[str]:
    """Mails (by SHA-256) already applied in full to the copies in `directory`: not parsed again."""
    try:
        return set(json.loads(_index_path(directory).read_text())["done"])
    except (OSError, ValueError, KeyError, TypeError):
        return set()


def read(paths: list[Path], directory: Path, again: bool = False) -> Report:
    """Read every mail at the paths and bring the local copies up to date. Mails applied in full
    before are skipped (their content is in the copies already) unless `again`."""
    store, report = Copies(directory), Report()
    done = set() if again else _read_index(directory)
    found: list[Found] = []
    by_mail: dict[str, list[Found]] = {}
    for path in paths:
        for where, data in _messages(path):
            report.mails += 1
            digest = hashlib.sha256(data).hexdigest()
            if digest in done:
                continue
            by_mail[digest] = items(where, data)
            found += by_mail[digest]
    for f in found:
        if isinstance(f.item, PbemError):
            report.problems.append(f"{f.where}: {f.item}")
        elif isinstance(f.item, GameFile):
            _apply_file(report, store, f, f.item)
    waiting = sorted(((f, f.item) for f in found if isinstance(f.item, turns.TurnBlock)), key=lambda pair: pair[1].after)
    while waiting:
        left = [(f, turn) for f, turn in waiting if not _apply_turn(report, store, f, turn)]
        if len(left) == len(waiting):
            break
        waiting = left
    unapplied = [f for f, _ in waiting]
    settled = {digest for digest, parts in by_mail.items()
               if all(not isinstance(f.item, PbemError) and f not in unapplied and not f.refused for f in parts)}
    if settled - done and directory.is_dir():
        copies.write_note(_index_path(directory), json.dumps({"done": sorted(done | settled)}).encode())
    for f, turn in waiting:
        local = store.get(turn.game_id)
        have = f"the copy here stops at entry {local.seq}" if local else "there is no copy of this game here"
        report.problems.append(f"{f.where}: a turn after entry {turn.after} waits: {have} (a mail is missing, "
                               "or ask for the whole file)")
    return report


__all__ = ["Report", "items", "read"]
