"""Where each mail the judge receives stands, so that no mail can stop it and a pass costs only the new mail.

- `new/` (the Maildir's): not read yet, or waiting for an earlier turn of its game (`waiting.json` in
  the judge's home names those, with the game and entry each waits for; they are read again only when
  that game moves on, never on every pass).
- `cur/`: read and done with (applied, known, refused, nothing of pbem), as a mail program marks a mail
  read. Nothing is deleted.
- home/`unhosted/`: turns of games the judge does not host, set aside at once by game id and never parsed
  again, unless that game's invitation arrives after them (mail is not always delivered in order).
- home/`quarantine/`: mails whose reading raised an error nobody foresaw, or during which the judge
  stopped `MAX_TRIES` times, each beside a `.why` file for the operator.

A mail is marked as taken (home/`taking`, written with fsync) before anything that depends on its content
runs: a mail that kills the judge is tried at most `MAX_TRIES` times, then quarantined. A crash loop cannot
happen, and a judge killed by accident (a restart, a power cut) reads the mail again.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from pbem.judge import library

SEEN_FLAG = ":2,S"
MAX_TRIES = 3
MAX_NOTES = 16 * 1024 * 1024
_GAME_ID = re.compile(r"^[0-9a-f]{32}$")


class Spool:
    def __init__(self, maildir: Path, home: Path):
        self.new, self.cur = maildir / "new", maildir / "cur"
        self.unhosted, self.quarantined = home / "unhosted", home / "quarantine"
        for folder in (maildir / "tmp", self.new, self.cur, self.unhosted, self.quarantined):
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        self.journal = home / "taking"
        self.waiting_path = home / "waiting.json"
        self.waiting: dict[str, tuple[str, int]] = self._load_waiting()

    # ------------------------------------------------------------ what is there to read

    def unread(self) -> list[Path]:
        """The mails in new/ to read, oldest first (Maildir names start with the delivery time), the waiting
        ones left out; a folder there is no mail (a pipe or a device is read through the gate, which refuses
        it)."""
        names = [n for n in os.listdir(self.new) if not n.startswith(".") and n not in self.waiting]
        return sorted(p for p in (self.new / n for n in names) if not p.is_dir())

    def looked_at(self) -> set[str]:
        return set(os.listdir(self.new))

    # ------------------------------------------------------------ taking one mail

    def take(self, path: Path) -> int:
        """Mark the mail as being read, before its content is; returns how many times it has been (this
        time included)."""
        tries = 1
        try:
            name, _, count = library.read_file(self.journal, "the judge's note of the mail it reads",
                                               4096).decode().partition("\n")
            if name == path.name and count.strip().isdigit():
                tries = int(count) + 1
        except (library.PbemError, UnicodeDecodeError, ValueError):
            pass
        library.write_file(self.journal, f"{path.name}\n{tries}\n".encode(), mode=0o600)
        return tries

    def done(self) -> None:
        try:
            self.journal.unlink()
        except FileNotFoundError:
            pass

    # ------------------------------------------------------------ where a mail goes

    def set_aside(self, path: Path) -> None:
        """Out of new/ into cur/, as a mail program marks a mail read: kept, not read again."""
        self.waiting.pop(path.name, None)
        _move(path, self.cur / (path.name.split(":")[0] + SEEN_FLAG))

    def wait(self, path: Path, game_id: str, after: int) -> bool:
        """Leave the mail in new/ until the game has entry `after`; False if it was waiting already."""
        known = self.waiting.get(path.name) == (game_id, after)
        self.waiting[path.name] = (game_id, after)
        if not known:
            self._save_waiting()
        return not known

    def ready(self, game_id: str, seq: int) -> list[str]:
        """The waiting mails of a game that now has entry `seq`: they are read again."""
        names = sorted(n for n, (g, after) in self.waiting.items() if g == game_id and after <= seq)
        for name in names:
            del self.waiting[name]
        if names:
            self._save_waiting()
        return names

    def park(self, path: Path, game_id: str) -> None:
        """A turn of a game not hosted here: aside by its game id, not read again unless the game comes."""
        if not _GAME_ID.match(game_id):
            self.set_aside(path)
            return
        self.waiting.pop(path.name, None)
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
        self.waiting.pop(path.name, None)
        target = self.quarantined / path.name.split(":")[0]
        library.write_file(target.with_name(target.name + ".why"), (reason + "\n").encode(), mode=0o600)
        _move(path, target)
        return target

    # ------------------------------------------------------------ the waiting list

    def _load_waiting(self) -> dict[str, tuple[str, int]]:
        try:
            data = library.parse_json(library.read_file(self.waiting_path, "the judge's waiting mails", MAX_NOTES))
            present = set(os.listdir(self.new))
            return {str(name): (str(game), int(after)) for name, (game, after) in data.items() if name in present}
        except (library.PbemError, ValueError, TypeError, AttributeError):
            return {}  # lost: every mail in new/ is read once more, which changes nothing

    def _save_waiting(self) -> None:
        present = set(os.listdir(self.new))
        self.waiting = {n: w for n, w in self.waiting.items() if n in present}
        library.write_file(self.waiting_path, json.dumps(self.waiting, sort_keys=True).encode(), mode=0o600)


def _move(path: Path, target: Path) -> None:
    try:
        os.replace(path, target)
    except FileNotFoundError:
        pass  # moved already (another reader of the Maildir, or a run before a crash)
