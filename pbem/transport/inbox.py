"""`pbem inbox`: every pbem turn, game block and attached game file in a Maildir, an mbox or .eml files,
applied to the local copies, verified, with forks and equivocation flagged.

Mails may arrive in any order: whole files go first, then turns in the order of the entry they
extend, again and again while one makes room for another. Reading the same mail twice changes
nothing: a mail applied in full is not parsed again (an index beside the copies says which), and a
turn whose entries are all known is skipped. A rival history is never applied; it is kept
beside the copies (forks/) so `pbem verify COPY RIVAL` can show who signed what."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, replace
from pathlib import Path

from pbem.crypto.keyring import list_keys
from pbem.errors import Divergence, Equivocation, PbemError
from pbem.protocol.replay import Replay
from pbem.protocol.verify import compare, verify
from pbem.record.canonical import parse_json
from pbem.record.models import GameFile
from pbem.record.reading import read_optional
from pbem.transport import copies, strangers, turns
from pbem.transport.mailbox import MailItem, RefusedBefore, items, mailbox_messages
from pbem.transport.outcomes import Fate, MailOutcome, PartFate, combined
from pbem.transport.saved import game_of_mail, resend_hint, sender_of_mail
from pbem.transport.store import Copies


@dataclass
class Report:
    mails: int = 0
    updated: dict[str, tuple[Path, int, int]] = field(default_factory=dict)
    """game_id -> (copy, first new entry, last entry)"""
    games: dict[str, Replay] = field(default_factory=dict)
    """game_id -> the copy written, as verified on the way (for a caller that goes on with it: the judge)"""
    known: int = 0
    problems: list[str] = field(default_factory=list)
    forks: list[str] = field(default_factory=list)
    set_aside: int = 0
    """Mails refused on an earlier run, not read again (`again` reads them)."""
    outcomes: dict[str, MailOutcome] = field(default_factory=dict)
    """Each mail read, by where it is: what became of it."""


def _note(report: Report, store: Copies, before: int, rep: Replay, verified_here: bool = False) -> None:
    path = store.put(rep, verified_here)
    first = report.updated.get(rep.genesis.game_id, (path, before + 1, 0))[1]
    report.updated[rep.genesis.game_id] = (path, first, rep.seq)
    report.games[rep.genesis.game_id] = rep


def _mine(rep: Replay) -> bool:
    """Whether one of my keys (in the key directory) is a participant: only such games are kept."""
    mine = [key for _, key in list_keys()]
    return any(theirs.same_key(key) for theirs in rep.roster.values() for key in mine)


def _apply_file(report: Report, store: Copies, found: MailItem, record: GameFile) -> None:
    where = found.where
    held = store.record(record.genesis.game_id)
    game_id = record.genesis.game_id
    if held is not None and held.genesis == record.genesis and held.entries[:len(record.entries)] == record.entries:
        copies.mark_shared(game_id, len(record.entries))
        report.known += 1
        found.fate = PartFate(Fate.KNOWN, game_id)
        return
    try:
        new = verify(record)
    except PbemError as exc:
        _refuse(report, found, game_id, f"refused the attached game: {exc}")
        return
    local = store.get(game_id)
    if local is None and not _mine(new):
        if strangers.first_time(game_id):  # said once; then set aside quietly (counted in the last line)
            report.problems.append(f"{where}: {strangers.not_mine(new)}")
        else:
            report.set_aside += 1
        found.refused = True
        found.fate = PartFate(Fate.NOT_MINE, game_id, "a game without any of this home's keys in it: not kept")
        return
    if local is None:
        copies.mark_shared(game_id, new.seq)
        _note(report, store, 0, new, verified_here=True)
        found.fate = PartFate(Fate.APPLIED, game_id)
        return
    try:
        compare(local.record, new.record)
    except (Divergence, Equivocation) as exc:  # the mark stays: the others have not had our entries
        _fork(report, store, found, game_id, exc, record)
        return
    copies.mark_shared(game_id, new.seq)
    if new.seq > local.seq:
        _note(report, store, local.seq, new, verified_here=True)
        found.fate = PartFate(Fate.APPLIED, game_id)
    else:
        report.known += 1
        found.fate = PartFate(Fate.KNOWN, game_id)


def _refuse(report: Report, found: MailItem, game_id: str, reason: str) -> None:
    report.problems.append(f"{found.where}: {reason}")
    found.refused = True
    found.fate = PartFate(Fate.REFUSED, game_id, reason)


def _fork(report: Report, store: Copies, found: MailItem, game_id: str, exc: PbemError, rival: GameFile) -> None:
    """A rival history: kept as evidence, said every time the mail is read (its fate says it without the
    paths of this machine, which its sender cannot use)."""
    kept = store.keep_rival(rival)
    evidence = (f"kept the rival copy: pbem verify {store.path(game_id)} {kept}" if kept is not None else
                f"not kept: {copies.MAX_RIVALS} rival copies of this game are kept already")
    report.forks.append(f"{found.where}: {exc} ({evidence})")
    found.refused = True
    found.fate = PartFate(Fate.FORKED, game_id, str(exc))


def _apply_turn(report: Report, store: Copies, found: MailItem, turn: turns.TurnBlock) -> bool:
    """Apply one turn; False when it must wait for an earlier one (or for the game's file)."""
    game_id = turn.game_id
    held = store.record(game_id)
    if held is not None and turns.is_known(held, turn):
        copies.mark_shared(game_id, turn.last)
        report.known += 1
        found.fate = PartFate(Fate.KNOWN, game_id)
        return True
    local = store.get(game_id)
    if local is None:
        found.fate = PartFate(Fate.NOT_HOSTED, game_id, "a turn of a game there is no copy of here")
        return False
    try:
        new = store.extend(turn)
    except turns.MissingEntries:
        found.fate = PartFate(Fate.WAITING, game_id, f"a turn after entry {turn.after} waits: the copy here stops at "
                              f"entry {local.seq}", turn.after)
        return False
    except turns.UnverifiedFork:
        rival = GameFile.model_construct(genesis=local.genesis, entries=list(local.entries[:turn.after]) + list(turn.entries))
        try:  # evidence only if it is what it claims: every entry of the rival history signed and valid
            compare(local.record, verify(rival).record)
        except (Divergence, Equivocation) as exc:
            _fork(report, store, found, game_id, exc, rival)
        except PbemError as exc:
            _refuse(report, found, game_id, f"refused a turn: {exc}")
        else:
            report.known += 1
            found.fate = PartFate(Fate.KNOWN, game_id)
        return True
    except (Divergence, Equivocation) as exc:
        _fork(report, store, found, game_id, exc,
              GameFile.model_construct(genesis=local.genesis, entries=list(local.entries[:turn.after]) + list(turn.entries)))
        return True
    except PbemError as exc:
        _refuse(report, found, game_id, f"refused a turn: {exc}")
        return True
    copies.mark_shared(game_id, turn.last)
    if new is None:
        report.known += 1
        found.fate = PartFate(Fate.KNOWN, game_id)
    else:
        _note(report, store, local.seq, new)
        found.fate = PartFate(Fate.APPLIED, game_id)
    return True


def _index_path(directory: Path) -> Path:
    """Kept beside the copies it speaks of, so it goes when they go."""
    return directory / ".inbox-read"


MAX_INDEX = 64 * 1024 * 1024


@dataclass
class Index:
    """What earlier runs settled, so that no mail is parsed twice: `done`, mails (by SHA-256) applied in
    full to the copies; `bad`, mails refused for what they are (damaged, unreadable: by SHA-256, or by
    where they are when they could not be read at all), each with the reason said once."""

    done: set[str] = field(default_factory=set)
    bad: dict[str, str] = field(default_factory=dict)

    def data(self) -> bytes:
        value: dict[str, object] = {"done": sorted(self.done)}
        if self.bad:
            value["bad"] = dict(sorted(self.bad.items()))
        return json.dumps(value).encode()


def applied(directory: Path) -> set[str]:
    """The mails (by SHA-256) whose content is all in the copies in `directory`."""
    return _read_index(directory)


def _read_index(directory: Path) -> set[str]:
    """Mails (by SHA-256) already applied in full to the copies in `directory`: not parsed again."""
    return _load_index(directory).done


def _load_index(directory: Path) -> Index:
    """The index beside the copies; an empty one when it is missing or damaged (mails are then read again,
    which changes nothing)."""
    try:
        value = parse_json(read_optional(_index_path(directory), "an inbox index", MAX_INDEX) or b"{}")
        bad = value.get("bad", {})
        return Index({str(d) for d in value.get("done", [])},
                     {str(k): str(v) for k, v in bad.items()} if isinstance(bad, dict) else {})
    except (PbemError, ValueError, TypeError, AttributeError):
        return Index()


def _with_hint(found: MailItem, data: bytes, store: Copies) -> MailItem:
    """A damaged block in a mail of a known game says how to ask its sender for it again."""
    if not isinstance(found.item, PbemError) or "damaged" not in str(found.item):
        return found
    game_id = game_of_mail(data)
    local = store.get(game_id) if game_id else None
    hint = resend_hint(game_id, sender_of_mail(data), local.seq if local else 0)
    return MailItem(found.where, PbemError(f"{found.item}{hint}"))


def read(paths: list[Path], directory: Path, again: bool = False) -> Report:
    """Read every mail at the paths and bring the local copies up to date. Mails applied in full
    before are skipped (their content is in the copies already), and so are mails refused before for
    what they are (said once, then counted in `set_aside`), unless `again`. A mail that cannot be read
    or parsed is reported, and the others are still read."""
    report = Report()
    index = Index() if again else _load_index(directory)
    seen = Index(set(index.done), dict(index.bad))
    mails: list[tuple[str, bytes]] = []
    for path in paths:
        try:
            messages = mailbox_messages(path, index.bad)
        except PbemError as exc:  # a mailbox that is a pipe, a device, too large: the others are read
            report.problems.append(str(exc))
            continue
        for where, data in messages:
            report.mails += 1
            if isinstance(data, RefusedBefore):
                report.set_aside += 1
                continue
            if isinstance(data, PbemError):  # it names the file itself
                report.problems.append(str(data))
                report.outcomes[where] = MailOutcome(where, Fate.REFUSED, reason=_unnamed(str(data), where))
                seen.bad[where] = str(data)
                continue
            digest = hashlib.sha256(data).hexdigest()
            if digest in index.done:
                report.outcomes[where] = MailOutcome(where, Fate.KNOWN)
            elif digest in index.bad:
                report.set_aside += 1
            else:
                mails.append((where, data))
    by_mail = _apply(report, Copies(directory), mails)
    for digest, parts in by_mail.items():
        if any(f.fate is None or f.fate.fate in (Fate.WAITING, Fate.NOT_HOSTED, Fate.NOT_MINE) or f.refused for f in parts):
            continue  # read again next time: a turn may apply then; a fork is said every time
        errors = [f.item for f in parts if isinstance(f.item, PbemError)]
        if errors:
            seen.bad[digest] = str(errors[0])
        else:
            seen.done.add(digest)
    if seen != index and directory.is_dir():
        copies.write_note(_index_path(directory), Index(index.done | seen.done, {**index.bad, **seen.bad}).data())
    return report


@dataclass
class ParsedMail:
    """A mail's pbem blocks and attachments, parsed once: what it names can be looked at (the games whose
    locks a judge takes) before anything is applied."""

    where: str
    data: bytes
    found: list[MailItem]

    @property
    def games(self) -> list[str]:
        return list(dict.fromkeys(f.item.game_id if isinstance(f.item, turns.TurnBlock) else f.item.genesis.game_id
                                  for f in self.found if not isinstance(f.item, PbemError)))


def parse(where: str, data: bytes) -> ParsedMail:
    return ParsedMail(where, data, items(where, data))


def read_mails(mails: list[ParsedMail], directory: Path) -> Report:
    """Apply mails already read and parsed to the copies, with no index and no status notes: for a reader
    that keeps its own record of what it has read and holds (the judge's store)."""
    report = Report(mails=len(mails))
    _apply(report, Copies(directory, status_notes=False), [(m.where, m.data) for m in mails], [m.found for m in mails])
    return report


def _unnamed(reason: str, where: str) -> str:
    """A reason as its sender reads it: without the place this machine keeps the mail."""
    return reason.replace(f"{where}: ", "").replace(where, "your mail")


def _apply(report: Report, store: Copies, mails: list[tuple[str, bytes]],
           parsed: list[list[MailItem]] | None = None) -> dict[str, list[MailItem]]:
    """Apply the mails' games and turns (whole files first, then turns in the order of the entry they extend,
    again while one makes room for another); each mail's outcome in the report. Returns the parts of each
    mail, by its SHA-256."""
    found: list[MailItem] = []
    by_mail: dict[str, list[MailItem]] = {}
    wheres: dict[str, str] = {}
    for i, (where, data) in enumerate(mails):
        digest = hashlib.sha256(data).hexdigest()
        by_mail[digest] = [_with_hint(f, data, store) for f in (parsed[i] if parsed else items(where, data))]
        wheres[digest] = where
        found += by_mail[digest]
    for f in found:
        if isinstance(f.item, PbemError):
            report.problems.append(f"{f.where}: {f.item}")
            f.fate = PartFate(Fate.REFUSED, reason=str(f.item))
        elif isinstance(f.item, GameFile):
            _apply_file(report, store, f, f.item)
    waiting = sorted(((f, f.item) for f in found if isinstance(f.item, turns.TurnBlock)), key=lambda pair: pair[1].after)
    while waiting:
        left = [(f, turn) for f, turn in waiting if not _apply_turn(report, store, f, turn)]
        if len(left) == len(waiting):
            break
        waiting = left
    for f, turn in waiting:
        local = store.get(turn.game_id)
        have = f"the copy here stops at entry {local.seq}" if local else "there is no copy of this game here"
        report.problems.append(f"{f.where}: a turn after entry {turn.after} waits: {have} (a mail is missing, "
                               "or ask for the whole file)")
    for digest, parts in by_mail.items():
        where = wheres[digest]
        report.outcomes[where] = combined(where, [replace(f.fate, reason=_unnamed(f"{f.where}: {f.fate.reason}", where))
                                                  for f in parts if f.fate is not None])
    return by_mail


__all__ = ["ParsedMail", "Report", "items", "parse", "read", "read_mails"]

