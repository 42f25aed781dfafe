"""The live app: a thread that watches the mailbox and the folder of copies, reads what arrives as Fetch mail
does, and publishes the change to the pages open (server.py streams it as server-sent events).

A Maildir is watched by the times and sizes of its new/ and cur/ (a stat of two folders four times a
second: no inotify needed, and the same on every system); an mbox by its size and time. An IMAP folder
(PBEM_MAIL=imaps://..., with PBEM_IMAP_PASSWORD) is watched by IDLE on its own connection: when the
server says a mail arrived, it is copied into the local Maildir, which the first watch then sees. A
game file changed by another program (`pbem play`, a `git pull`) is published too."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

from pbem.app import library
from pbem.app.library import PbemError, RuleError
from pbem.app.state import AppState, read_mail

POLL = 0.25
"""Seconds between two looks at the mailbox and the copies: a mail shows on the pages well within 2 s."""


def _copies_stamp() -> dict[str, tuple[int, int]]:
    """Each game file of the folder of copies: its size and time."""
    stamps: dict[str, tuple[int, int]] = {}
    try:
        for path in library.games_folder().glob("*.json"):
            info = path.stat()
            stamps[str(path)] = (info.st_size, info.st_mtime_ns)
    except OSError:
        pass
    return stamps


class Watcher:
    """The watching threads of one run of the app; `stop` ends them."""

    def __init__(self, state: AppState, poll: float = POLL):
        self.state, self.poll = state, poll
        self.stopping = threading.Event()
        self.arrived = threading.Event()
        """Set by the IMAP thread when the server says a mail arrived."""
        self.threads = [threading.Thread(target=self.watch, name="pbem-app-watch", daemon=True)]
        url = library.imap_url()
        if url:
            self.threads.append(threading.Thread(target=self.idle, args=(url,), name="pbem-app-imap", daemon=True))

    def start(self) -> None:
        for thread in self.threads:
            thread.start()

    def stop(self) -> None:
        self.stopping.set()

    def watch(self) -> None:
        box = library.mailbox()
        mail, copies = library.mailbox_stamp(box), _copies_stamp()
        while not self.stopping.wait(self.poll):
            try:
                box = library.mailbox() or box
                now = library.mailbox_stamp(box)
                if now != mail or self.arrived.is_set():
                    self.arrived.clear()
                    mail = now
                    read_mail(self.state, live=True)
                    copies = _copies_stamp()
                    continue
                files = _copies_stamp()
                if files != copies:
                    self.moved(files, copies)
                    copies = files
            except (PbemError, RuleError, OSError) as exc:
                if self.stopping.is_set():
                    return
                print(f"pbem app: watching the mail: {exc}", file=sys.stderr, flush=True)
                self.stopping.wait(5)

    def moved(self, files: dict[str, tuple[int, int]], before: dict[str, tuple[int, int]]) -> None:
        """Game files another program changed (pbem play, git pull): published to the pages."""
        changed: dict[str, str] = {}
        with self.state.games.lock:
            for game in library.my_games().games:
                if files.get(str(Path(game.path))) != before.get(str(Path(game.path))):
                    try:
                        changed[game.game_id] = self.state.games.game(game.game_id)[1].head
                    except (PbemError, RuleError):
                        continue
        if changed:
            self.state.live.publish({"games": changed, "text": "", "live": True})

    def idle(self, url: str) -> None:
        """IMAP: fetch now, then wait on IDLE, and fetch on every arrival; reconnect after a failure."""
        while not self.stopping.is_set():
            try:
                session = library.imap_session(url)
                if session is None:
                    print("pbem app: set PBEM_IMAP_PASSWORD for new mail to show at once (IMAP IDLE); until "
                          "then, Fetch mail", file=sys.stderr, flush=True)
                    return
                with session:
                    self.arrived.set()
                    while not self.stopping.is_set():
                        if session.wait(20):
                            self.arrived.set()
            except (PbemError, OSError) as exc:
                if self.stopping.is_set():
                    return  # the app stopped while the thread waited: what the server did then is no news
                print(f"pbem app: IMAP: {exc}", file=sys.stderr, flush=True)
                self.stopping.wait(30)
