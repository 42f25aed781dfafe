"""The app's one door into the pbem library: every call the app makes to read games, sign acts, send
mail or read the inbox goes through here, so that moving to `pbem.api` is an edit of this module alone.

It keeps what a long-running server can keep and a command cannot: the verified replay of each copy,
reused while the file on disk is unchanged (its size and modification time), and the keys unlocked
once at start-up, held in memory only."""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.crypto import Identity, PublicKey
from pbem.crypto.keyring import key_path, list_keys, load_identity
from pbem.errors import NoPassphrase, PbemError, UsageError
from pbem.playing import replay_file
from pbem.presentation.games import presentation
from pbem.presentation.html import drawn, frames
from pbem.presentation.terminal import next_line, result_text
from pbem.protocol.replay import Replay
from pbem.protocol.session import Session
from pbem.record.status import GameSummary as Game
from pbem.record.status import Status
from pbem.transport import copies
from pbem.transport.inbox import Copies, Report, default_mailbox
from pbem.transport.inbox import read as read_inbox
from pbem.transport.mail import Server, mail_turn
from pbem.transport.status import collect, duty_text

__all__ = ["Game", "Identity", "NoPassphrase", "PbemError", "PublicKey", "Replay", "Report", "Session", "Status",
           "UsageError", "asset", "drawn", "duty_text", "frames", "next_line", "presentation", "result_text"]


def asset(game: str, suffix: str) -> str:
    """A game's drawing as files: ".js", ".css" or ".svg"."""
    from pbem.api import replay_asset

    return replay_asset(game, suffix)


def game_names() -> list[str]:
    """The games with a drawing of their own (their script and style are served as files)."""
    from pbem.presentation.games import PRESENTATIONS

    return list(PRESENTATIONS)


def presentation_title(game: str) -> str:
    from engine import find_game

    try:
        return find_game(game).title
    except Exception:  # noqa: BLE001 (an unknown game keeps its name)
        return game


def games_folder() -> Path:
    """The folder of local copies (PBEM_GAMES, else PBEM_HOME/games-files), as `pbem status` reads it."""
    return copies.folder(None)


def my_games() -> Status:
    """Every game here, as `pbem status --json` gives it: mine first, whose duty and since when, who is late."""
    return collect(copies.all_copies(games_folder()))


def unsent(game_id: str, seq: int) -> int:
    """How many entries of a game were written here but have not gone out by mail."""
    shared = copies.shared(game_id)
    return seq - shared if shared is not None and shared < seq else 0


# ---------------------------------------------------------------- keys

def my_key_names() -> list[str]:
    return [name for name, _ in list_keys() if key_path(name).exists()]


def unlock(name: str, passphrase: bytes | None = None) -> Identity:
    """A key of the key directory, opened: without a passphrase if it has none (or PBEM_PASSPHRASE is
    set), else with the one given. NoPassphrase when one is needed and not given."""
    try:
        return load_identity(name)
    except NoPassphrase:
        if not passphrase:
            raise
    return Identity.from_openssh(key_path(name).read_bytes(), passphrase, name=f"key {name}", comment=name)


# ---------------------------------------------------------------- a new game

def address_book() -> dict[str, str]:
    from pbem.transport.contacts import load

    return load()


def known_keys(status: Status) -> dict[str, str]:
    """Each participant's public key line as the genesis of a game here gives it (the last game wins)."""
    keys: dict[str, str] = {}
    for game in status.games:
        keys.update(game.keys)
    return keys


def create_game(game: str, me: str, identity: Identity, players: list[tuple[str, str]], referee: tuple[str, str] | None,
                options: list[str], deadline: str | None) -> Replay:
    """`pbem new` with the key in memory: the invitation signed by ME (a player with `identity`, or the
    referee), kept as my copy; the others' keys are key lines. Nothing is written on any error."""
    from pbem.playing import one_key_per_seat, parse_options
    from pbem.protocol.genesis import new_game
    from pbem.transport.status import parse_deadline

    def key(name: str, line: str) -> PublicKey:
        return identity.public if name == me else PublicKey.parse(line)

    roster = [(name, key(name, line)) for name, line in players]
    ref = (referee[0], key(*referee)) if referee else None
    if me not in [name for name, _ in roster] + ([ref[0]] if ref else []):
        raise UsageError(f"you ({me}) must be one of the players or the referee")
    one_key_per_seat(roster + ([ref] if ref else []))
    hours = parse_deadline(deadline) if deadline else None
    rep = new_game(game, parse_options(options), roster, me, identity, ref, None, None, hours)
    Session(rep, me, identity).automatic()
    Copies(games_folder()).put(rep)
    return rep


# ---------------------------------------------------------------- games

@dataclass
class Held:
    path: Path
    stamp: tuple[int, int]
    rep: Replay
    sessions: dict[str, Session] = field(default_factory=dict)
    """Each of my participants' session on this replay: what their key opened stays opened."""


@dataclass
class Library:
    """The games of this home, each verified once and kept while its file is unchanged; one writer at a time."""

    held: dict[str, Held] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    smtp_password: str | None = field(default=None, repr=False)
    """The SMTP login's password, when asked once at start or in the page (else PBEM_SMTP_PASSWORD)."""

    def path_of(self, game_id: str) -> Path:
        path = Copies(games_folder()).find(game_id) if _plain_id(game_id) else None
        if path is None:
            raise UsageError(f"no game {game_id[:16]!r} in {games_folder()}")
        return path

    def game(self, game_id: str) -> tuple[Path, Replay]:
        """The verified game, from memory when its copy has not changed since."""
        path = self.path_of(game_id)
        stamp = _stamp(path)
        held = self.held.get(game_id)
        if held is None or held.stamp != stamp or held.path != path:
            rep, _ = replay_file(path)
            held = self.held[game_id] = Held(path, stamp, rep)
        return held.path, held.rep

    def session(self, game_id: str, name: str, identity: Identity) -> Session:
        """NAME's session on the game held (made after `game`)."""
        held = self.held[game_id]
        session = held.sessions.get(name)
        if session is None or session.identity is not identity:
            session = held.sessions[name] = Session(held.rep, name, identity)
        return session

    def forget(self, game_id: str) -> None:
        self.held.pop(game_id, None)

    def clear_sessions(self) -> None:
        for held in self.held.values():
            held.sessions.clear()

    def play(self, game_id: str, name: str, identity: Identity, head: str, text: str | None) -> Played:
        """Do NAME's move `text` (None: only what needs no decision) on the game as it stands at `head`,
        then what needs no decision after it; write the copy. Refused, and nothing written, when the
        game has moved on from `head` or the move is not one of the legal ones."""
        from pbem.protocol.seen import check_not_stale, remember
        from pbem.record.gamefile import save

        with self.lock:
            path, rep = self.game(game_id)
            if rep.head != head:
                raise MovedOn("the game has moved on: this page showed an older position. Nothing was written; "
                              "look again and choose anew.")
            try:
                check_not_stale(rep)
                session = self.session(game_id, name, identity)
                before = rep.seq
                events: list[object] = []
                if text is not None:
                    action = legal_by_notation(rep, session).get(text)
                    if action is None:
                        raise UsageError(f"{text!r} is not a legal move for {name} now")
                    events += session.act(action)
                events += session.automatic()
                if rep.seq > before:
                    save(path, rep.record)
                    remember(rep)
            except BaseException:
                self.forget(game_id)  # the replay in memory may hold what was not written
                raise
            self.held[game_id].stamp = _stamp(path)
            return Played(rep, events, rep.seq - before)

    def send(self, game_id: str, name: str) -> str:
        """Mail what the others lack by SMTP ($PBEM_SMTP, $PBEM_SMTP_USER, $PBEM_SMTP_SECURITY)."""
        with self.lock:
            path, rep = self.game(game_id)
            return mail_turn(rep, name, games_folder(), path, None, False, None, smtp_server(self.smtp_password))

    def inbox(self) -> Report:
        """Read the mailbox ($PBEM_MAIL, else $MAIL, else ~/Maildir) into the copies."""
        with self.lock:
            report = read_inbox([default_mailbox()], games_folder())
            for game_id in report.updated:
                self.forget(game_id)
            return report


class MovedOn(UsageError):
    """A move chosen on a page that showed an older position than the file now holds."""


@dataclass
class Played:
    rep: Replay
    events: list[object]
    written: int


def smtp_server(password: str | None = None) -> Server:
    """Where mail goes; a clear error before anything is signed when none is configured."""
    address = os.environ.get("PBEM_SMTP")
    if not address:
        raise UsageError("no mail server: start the app with PBEM_SMTP=HOST[:PORT] (and PBEM_SMTP_USER, "
                         "PBEM_SMTP_SECURITY) set")
    return Server(address, os.environ.get("PBEM_SMTP_SECURITY", "starttls"), os.environ.get("PBEM_SMTP_USER"), password)


def smtp_login_without_password() -> str | None:
    """The SMTP login, when it has one and PBEM_SMTP_PASSWORD does not give its password."""
    from pbem.transport.mail import PASSWORD_ENV

    user = os.environ.get("PBEM_SMTP_USER")
    return user if user and os.environ.get("PBEM_SMTP") and PASSWORD_ENV not in os.environ else None


def legal_actions(rep: Replay, session: Session) -> list[Any]:
    """What the engine says this participant may do now, with what they know."""
    if rep.state is None:
        return []
    return list(rep.game.legal_actions(rep.state, session.name, session.knowledge()))


def legal_by_notation(rep: Replay, session: Session) -> dict[str, Any]:
    return {rep.game.format_action(action): action for action in legal_actions(rep, session)}


def _stamp(path: Path) -> tuple[int, int]:
    info = path.stat()
    return info.st_size, info.st_mtime_ns


def _plain_id(game_id: str) -> bool:
    return 8 <= len(game_id) <= 128 and all(c in "0123456789abcdef" for c in game_id)
