"""Where each mail the judge receives stands, so that no mail can stop it and a pass costs only the new mail.

- `new/` (the Maildir's): not read yet, or waiting for an earlier turn of its game (the store names
  those, with the game and entry each waits for; they are read again only when that game moves on,
  never on every pass).
- `cur/`: read and done with (applied, known, refused, nothing of pbem), as a mail program marks a mail
  read. Nothing is deleted.
- `unhosted/` beside new/ and cur/ (mail programs read only those): turns of games the judge does not
  host, set aside at once by game id and never parsed again, unless that game's invitation arrives after
  them (mail is not always delivered in order). In the mailbox, not in one judge's home: of several
  judges reading one mailbox, whichever applies the invitation reads them again.
- home/`quarantine/`: mails whose reading raised an error nobody foresaw, or during which the judge
  stopped `MAX_TRIES` times, each beside a `.why` file for the operator.

A mail is claimed in the store (store.py: `take`) before anything that depends on its content runs: a
mail that kills the judge is tried at most `MAX_TRIES` times, then quarantined, so a crash loop cannot
happen; a judge killed by accident reads the mail again; and of several judges reading one mailbox, one
reads each mail.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from pbem.judge import library
from pbem.judge.store import Store

SEEN_FLAG = ":2,S"
MAX_TRIES = 3
_GAME_ID = re.compile(r"^[0-9a-f]{32}$")


class Spool:
    def __init__(self, maildir: Path, home: Path, store: Store):
        self.new, self.cur = maildir / "new", maildir / "cur"
        self.unhosted, self.quarantined = maildir / "unhosted", home / "quarantine"
        for folder in (maildir / "tmp", self.new, self.cur, self.unhosted, self.quarantined):
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        self.store = store
        _move_in(home / "unhosted", self.unhosted)  # where a judge kept them before judges shared a mailbox

    # ------------------------------------------------------------ what is there to read

    def unread(self) -> list[Path]:
        """The mails in new/ to read, oldest first (Maildir names start with the delivery time), the waiting
        ones left out; a folder there is no mail (a pipe or a device is read through the gate, which refuses
        it)."""
        waiting = self.store.waiting()
        names = [n for n in os.listdir(self.new) if not n.startswith(".") and n not in waiting]
        return sorted(p for p in (self.new / n for n in names) if not p.is_dir())

    def looked_at(self) -> set[str]:
        return set(os.listdir(self.new))

    def take(self, path: Path, now: float) -> int | None:
        """Claim the mail before its content is read: how many times it has been (this time included), 0
        when it was settled already (a judge stopped before moving it), None when another judge has it."""
        return self.store.take(path.name, now)

    # ------------------------------------------------------------ where a mail goes

    def set_aside(self, path: Path) -> None:
        """Out of new/ into cur/, as a mail program marks a mail read: kept, not read again."""
        _move(path, self.cur / (path.name.split(":")[0] + SEEN_FLAG))

    def park(self, path: Path, game_id: str) -> None:
        """A turn of a game not hosted here: aside by its game id, not read again unless the game comes."""
        if not _GAME_ID.match(game_id):
            self.set_aside(path)
            return
        _move(path, self.unhosted / f"{game_id}.{path.name.split(':')[0]}")

    def unpark(self, game_id: str) -> list[str]:
        """Back into new/: the turns that came before their game's invitation. Returns their names."""
        names = []
        for path in sorted(self.unhosted.glob(f"{game_id}.*")):
            names.append(path.name.split(".", 1)[1])
            _move(path, self.new / names[-1])
        return names

    def quarantine(self, path: Path, reason: str) -> Path:
        """Aside for the operator, with the reason beside it. Returns where it went."""
        target = self.quarantined / path.name.split(":")[0]
        library.write_file(target.with_name(target.name + ".why"), (reason + "\n").encode(), mode=0o600)
        _move(path, target)
        return target


def _move(path: Path, target: Path) -> None:
    try:
        os.replace(path, target)
    except FileNotFoundError:
        pass  # moved already (another reader of the Maildir, or a run before a crash)


def _move_in(old: Path, new: Path) -> None:
    if old.is_dir() and old != new:
        for path in old.iterdir():
            _move(path, new / path.name)
        try:
            old.rmdir()
        except OSError:
            pass  # something else was put there: left for the operator
