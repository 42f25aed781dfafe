"""The app's one door into pbem: it calls only the public library API (`pbem.api`), and the rest of the
app calls only this module.

It keeps what a long-running server can keep and a command cannot: the verified game of each copy,
reused while the file on disk is unchanged (its size and modification time), each of my participants'
session on it (what their key opened stays opened), the keys unlocked once at start-up and the SMTP
password, held in memory only; and one writer at a time."""

from __future__ import annotations

import json
import os
import shlex
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.contract import TURN_DUTIES
from pbem import api
from pbem.api import (
    DEALER,
    Choice,
    Identity,
    MovedOn,
    NoPassphrase,
    PbemError,
    PublicKey,
    Replay,
    RuleError,
    Session,
    Status,
    UsageError,
    address_book,
    duty_text,
    game_names,
    game_title,
    games_folder,
    history,
    legend,
    next_line,
    page_choices,
    presentation,
    replay_asset,
    result_text,
    seen_now,
    unlock_key,
    unsent,
)

__all__ = [
    "DEALER",
    "TURN_DUTIES",
    "Choice",
    "Identity",
    "MovedOn",
    "NoPassphrase",
    "PbemError",
    "PublicKey",
    "Replay",
    "RuleError",
    "Session",
    "Status",
    "UsageError",
    "address_book",
    "duty_text",
    "game_names",
    "game_title",
    "games_folder",
    "history",
    "legend",
    "next_line",
    "page_choices",
    "presentation",
    "replay_asset",
    "result_text",
    "seen_now",
    "unlock_key",
    "unsent",
]


def players_span(game: str) -> str:
    """How many players a game takes, in words ("2 to 4"): what the new-game form offers it with."""
    from engine import find_game
    from engine.contract import players_span as span

    return span(find_game(game))


def my_games() -> Status:
    """Every game here, as `pbem status --json` gives it: mine first, whose duty and since when, who is late."""
    return api.status()


def my_key_names() -> list[str]:
    """The private keys of the key directory (a .pub alone is no key of mine)."""
    return [name for name, _ in api.list_keys() if (api.key_dir() / name).exists()]


def known_keys(status: Status) -> dict[str, str]:
    """Each participant's public key line as the genesis of a game here gives it (the last game wins)."""
    keys: dict[str, str] = {}
    for game in status.games:
        keys.update(game.keys)
    return keys


def configured_smtp(password: str | None = None) -> Any:
    """Where mail goes ($PBEM_SMTP, $PBEM_SMTP_USER, $PBEM_SMTP_SECURITY); a clear error before anything is
    signed when none is configured."""
    address = os.environ.get("PBEM_SMTP")
    if not address:
        raise UsageError("no mail server: start the app with PBEM_SMTP=HOST[:PORT] (and PBEM_SMTP_USER, "
                         "PBEM_SMTP_SECURITY) set")
    return api.smtp_server(address, os.environ.get("PBEM_SMTP_SECURITY", "starttls"), os.environ.get("PBEM_SMTP_USER"),
                           password)


def smtp_login_without_password() -> str | None:
    """The SMTP login, when it has one and PBEM_SMTP_PASSWORD does not give its password."""
    user = os.environ.get("PBEM_SMTP_USER")
    return user if user and os.environ.get("PBEM_SMTP") and "PBEM_SMTP_PASSWORD" not in os.environ else None


@dataclass
class LoadedGame:
    """A game file read into the app's memory: its file's stamp when read, the replay, a session per key."""

    path: Path
    stamp: tuple[int, int]
    game: Replay
    sessions: dict[str, Session] = field(default_factory=dict)


@dataclass
class Played:
    game: Replay
    events: list[object]
    written: int


@dataclass
class Library:
    """The games of this home, each verified once and kept while its file is unchanged; one writer at a time."""

    held: dict[str, LoadedGame] = field(default_factory=dict)
    lock: threading.RLock = field(default_factory=threading.RLock)
    """Held by every reader and writer of the games in memory: a page is never drawn from a half-applied move."""
    smtp_password: str | None = field(default=None, repr=False)
    """The SMTP login's password, when asked once at start or in the page (else PBEM_SMTP_PASSWORD)."""
    mails_seen: set[str] = field(default_factory=set)
    """The mails this run of the app has read (by where they are): Fetch mail counts only the others."""

    def game(self, game_id: str) -> tuple[Path, Replay]:
        """The verified game, from memory when its copy has not changed since."""
        path = (api.find_copy(game_id) or _listed(game_id)) if _plain_id(game_id) else None
        if path is None:
            raise UsageError(f"no game {game_id[:16]!r} in {games_folder()}")
        stamp = _stamp(path)
        held = self.held.get(game_id)
        if held is None or held.stamp != stamp or held.path != path:
            held = self.held[game_id] = LoadedGame(path, stamp, api.open_game(path))
        return held.path, held.game

    def session(self, game_id: str, name: str, identity: Identity) -> Session:
        """NAME's session on the game held (after `game`)."""
        held = self.held[game_id]
        session = held.sessions.get(name)
        if session is None or session.identity is not identity:
            session = held.sessions[name] = Session(held.game, name, identity)
        return session

    def forget(self, game_id: str) -> None:
        self.held.pop(game_id, None)

    def clear_sessions(self) -> None:
        for held in self.held.values():
            held.sessions.clear()

    def play(self, game_id: str, name: str, identity: Identity, head: str, notation: str | None) -> Played:
        """NAME's move `notation` (None: only what needs no decision) on the game as the page showed it at
        `head`; the copy written. MovedOn, or UsageError for a move not legal now: nothing written."""
        with self.lock:
            path, game = self.game(game_id)
            try:
                events, written = api.act(self.session(game_id, name, identity), path, head, notation)
            except BaseException:
                self.forget(game_id)  # the game in memory may hold what was not written
                raise
            self.held[game_id].stamp = _stamp(path)
            return Played(game, events, written)

    def can_send(self, game_id: str) -> None:
        """UsageError, before anything is signed, when what would be written could not be sent."""
        path, _ = self.game(game_id)
        if git_root(path) is None:
            configured_smtp(self.smtp_password)

    def send(self, game_id: str, name: str) -> str:
        """Mail what the others lack by SMTP; for a game file in a git repository, the commit to make."""
        with self.lock:
            path, game = self.game(game_id)
            root = git_root(path)
            if root is not None:
                return commit_hint(root, path, game, name)
            return api.mail_turn(game, name, path, server=configured_smtp(self.smtp_password))

    def inbox(self) -> tuple[Any, int]:
        """Read the mailbox ($PBEM_MAIL, else $MAIL, else ~/Maildir; an IMAP folder's new mail copied into
        its local Maildir first) into the copies. The report's `new` counts the mails not read before by
        this app (a mail applied on an earlier run, or already said, is not counted again)."""
        with self.lock:
            url = imap_url()
            report = api.read_mail([api.fetch_imap(url)]) if url else api.read_mail()
            for game_id in report.updated:
                self.forget(game_id)
            fresh = [where for where, outcome in report.outcomes.items()
                     if outcome.fate != api.Fate.KNOWN and where not in self.mails_seen]
            self.mails_seen.update(report.outcomes)
            return report, len(fresh)

    def start(self, game: str, me: str, identity: Identity, players: list[tuple[str, str]],
              referee: tuple[str, str] | None, options: list[str], deadline: str | None) -> Replay:
        with self.lock:
            started, _ = api.start_game(game, me, identity, players, referee, options, deadline)
            return started


def imap_url() -> str | None:
    """$PBEM_MAIL when it names an IMAP folder (imaps://USER@HOST/FOLDER): its new mail is copied into a
    local Maildir (PBEM_HOME/imap/...), which is then read like any other."""
    given = os.environ.get("PBEM_MAIL", "")
    return given if api.is_imap(given) else None


def mailbox() -> Path | None:
    """The local mailbox Fetch mail reads, as `pbem inbox` finds it ($PBEM_MAIL, else $MAIL, else ~/Maildir),
    or None (none yet, or an IMAP folder: its local copy is known once it is first fetched)."""
    if imap_url():
        return None
    for candidate in (os.environ.get("PBEM_MAIL"), os.environ.get("MAIL"), str(Path.home() / "Maildir")):
        if candidate and Path(candidate).expanduser().exists():
            return Path(candidate).expanduser()
    return None


def imap_session(url: str) -> Any:
    """A logged-in IMAP session on the folder of `url` for `wait` (IDLE) and `fetch_into` its local Maildir;
    None without PBEM_IMAP_PASSWORD (the app asks for no password of its own on a terminal for IMAP)."""
    if "PBEM_IMAP_PASSWORD" not in os.environ:
        return None
    return api.imap_connect(api.imap_mailbox(url))


def mailbox_stamp(box: Path | None) -> tuple[int, ...]:
    """What changes when a mail is delivered: a Maildir's new/ and cur/ (their times and sizes), an mbox's
    size and time. Cheap enough to ask several times a second (no inotify needed)."""
    if box is None:
        return ()
    stamp: list[int] = []
    for part in ((box / "new", box / "cur") if (box / "new").is_dir() else (box,)):
        try:
            info = part.stat()
        except OSError:
            stamp += [-1, -1]
            continue
        stamp += [info.st_mtime_ns, info.st_size if part.is_file() else len(os.listdir(part))]
    return tuple(stamp)


def last_turn(rep: Replay) -> tuple[str | None, list[str]]:
    """Who made the last turn and the elements of the drawing its moves were played on (a tile, a position,
    a player): the page marks them. Entries that need no decision (a reveal, a deal) are passed over."""
    drawing = presentation(rep.genesis.game)
    author: str | None = None
    targets: list[str] = []
    for entry in reversed(rep.entries):
        if author is not None and entry.author != author:
            break
        try:
            choice = drawing.html_choice(rep.game.parse_action(entry.action), entry.author, entry.action)
        except Exception:  # noqa: BLE001 (an entry the drawing has no place for: a join, a deal, an opening)
            continue
        if choice["target"] is None and author is None and entry.action != "stop":
            continue
        author = entry.author
        if choice["target"] and choice["target"] not in targets:
            targets.append(choice["target"])
    return author, targets


def score_lines(rep: Replay) -> list[str]:
    """A finished game's scores, each player's in the game's words (its presentation's `score_lines`)."""
    result = rep.outcome()
    if result is None:
        return [str(rep.verdict)] if rep.verdict else []
    return presentation(rep.genesis.game).score_lines(rep.state, result)


def looked_path() -> Path:
    """Where this home keeps the entry of each game its player last saw in the app (what changed since)."""
    return api.key_dir().parent / "app-looked.json"


def read_looked() -> dict[str, int]:
    try:
        data = json.loads(looked_path().read_text())
    except (OSError, ValueError):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, int)} if isinstance(data, dict) else {}


def write_looked(looked: dict[str, int]) -> None:
    path = looked_path()
    if path.parent.is_dir():
        api.write_file(path, json.dumps(looked, sort_keys=True).encode())


def git_root(path: Path) -> Path | None:
    """The git work tree a game file is in (a game played by git, docs/git.md), or None."""
    for folder in path.resolve().parents:
        if (folder / ".git").exists():
            return folder
    return None


def commit_hint(root: Path, path: Path, game: Replay, name: str) -> str:
    """What sends a turn of a game played by git: the commands to commit and push the file."""
    where, file = shlex.quote(str(root)), shlex.quote(str(path.resolve().relative_to(root)))
    message = shlex.quote(f"{game.genesis.game} {game.genesis.game_id[:8]} #{game.seq}: {name}")
    return (f"The game is in the git repository {root}: commit and push it: git -C {where} add {file} && "
            f"git -C {where} commit -m {message} && git -C {where} push")


def _listed(game_id: str) -> Path | None:
    """A game file of the folder named otherwise than the copies are (a git repository's games/NAME.json)."""
    return next((Path(g.path) for g in api.status().games if g.game_id == game_id), None)


def _stamp(path: Path) -> tuple[int, int]:
    info = path.stat()
    return info.st_size, info.st_mtime_ns


def _plain_id(game_id: str) -> bool:
    return 8 <= len(game_id) <= 128 and all(c in "0123456789abcdef" for c in game_id)
