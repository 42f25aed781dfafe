"""judge.toml, validated on load: a typo or a missing setting is one clear error before anything runs.

    home = "/var/lib/pbem-judge"        # its memory: copies, what it has seen, marks, its log
    key = "/etc/pbem-judge/judge"       # the private key it signs with (unlocked by PBEM_PASSPHRASE if locked)
    address = "judge@example.org"       # its own mail address
    games = "copies"                    # optional: where the copies live (default: HOME/games-files)
    database = "judge.db"               # optional: its memory's database, a SQLite file (default: HOME/judge.db)
    # database = "postgresql://judge@db.example.org/pbem"   # or PostgreSQL, for several judges on one database

    [mailbox]                           # by mail: exactly one of maildir and imap
    maildir = "/var/mail/judge"
    # imap = "imaps://judge@example.org@imap.example.org/INBOX"   # password: PBEM_IMAP_PASSWORD or a prompt
    poll_seconds = 60                   # how often to look when IDLE is not there

    [smtp]
    server = "smtp.example.org:587"
    security = "starttls"               # or "tls"; "none" only to a relay on this machine
    user = "judge@example.org"          # optional; password: PBEM_SMTP_PASSWORD or a prompt

    [git]                               # the git hooks: the branch they referee, where the games are
    branch = "main"
    games = "games/"

    [contacts]                          # optional: addresses of participants (else learned from their mails)
    ann = "ann@example.org"

Relative paths are read from the folder of the config file.

A git hook reads this file on every push, most of which need no pydantic: a plainly valid file is read
here; any other goes to the strict model (config_model.py), which refuses it in its own words, or takes it.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any, NamedTuple

from pbem.errors import Unreadable, UsageError
from pbem.record.names import NAME_PATTERN
from pbem.record.reading import read_optional

MAX_CONFIG = 64 * 1024

PATH = r"^[^\x00]*$"
ADDRESS = r"^[^@\s<>]+@[^@\s<>]+$"
IMAP = r"^imaps?://"
BRANCH = r"^[A-Za-z0-9._/-]+$"
GAMES = r"^[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*/$"
SECURITY = ("starttls", "tls", "none")
"""The model's patterns and choices (config_model.py). Its patterns are pydantic's regexes, whose `$` is
the end of the text and whose \\s is no wider than Python's: matched here whole (re.fullmatch), a text
they take is never one the model refuses."""


class Smtp(NamedTuple):
    server: str
    security: str = "starttls"
    user: str | None = None


class Git(NamedTuple):
    """The git hooks' settings: the branch they referee, where the games are."""

    branch: str = "main"
    games: str = "games/"


class Config:
    """The validated settings, with every path made absolute."""

    def __init__(self, settings: dict[str, Any], base: Path):
        self.home = (base / settings["home"]).resolve()
        self.key = (base / settings["key"]).resolve()
        self.address: str = settings["address"]
        self.games = (base / settings["games"]).resolve() if settings["games"] else self.home / "games-files"
        given = settings["database"]
        self.database = given if given and given.startswith(("postgresql://", "postgres://")) else \
            str((base / given).resolve()) if given else str(self.home / "judge.db")
        """A PostgreSQL URL, or the path of a SQLite file."""
        box = settings["mailbox"]
        self._mailbox = box is not None
        self.maildir: Path | None = (base / box["maildir"]).resolve() if box and box["maildir"] else None
        self.imap: str | None = box["imap"] if box else None
        self.poll: float = box["poll_seconds"] if box else 60.0
        self._smtp: Smtp | None = settings["smtp"]
        self.git: Git = settings["git"]
        self.contacts: dict[str, str] = dict(settings["contacts"])

    @property
    def smtp(self) -> Smtp:
        if self._smtp is None:
            raise UsageError("the judge by mail needs an [smtp] section in its configuration")
        return self._smtp

    def check_mail(self) -> None:
        """The mail service needs a mailbox and an SMTP server (the git hooks need neither)."""
        if not self._mailbox:
            raise UsageError("the judge by mail needs a [mailbox] section (maildir or imap) in its configuration")
        self.smtp  # noqa: B018  (raises when it is missing)

    @property
    def spool(self) -> Path:
        """Where mail is read: the configured Maildir, or the copy of the IMAP folder in the home."""
        return self.maildir if self.maildir is not None else self.home / "spool"


def load(path: Path) -> Config:
    try:
        text = read_optional(path, "a judge configuration", MAX_CONFIG)
        if text is None:
            raise UsageError(f"no judge configuration at {path}")
        data = tomllib.loads(text.decode("utf-8"))
    except Unreadable as exc:
        raise UsageError(str(exc)) from None
    except UnicodeDecodeError as exc:
        raise UsageError(f"cannot read {path}: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{path}: not valid TOML ({exc})") from None
    except RecursionError:  # tomllib recurses on nested arrays and tables
        raise UsageError(f"{path}: not valid TOML (nested too deep)") from None
    settings = plain(data)
    return Config(settings if settings is not None else modelled(data, path), path.parent.resolve())


def modelled(data: dict[str, Any], path: Path) -> dict[str, Any]:
    """The settings as the strict model reads them (UsageError, in its words, when it refuses them)."""
    from pydantic import ValidationError

    from pbem.judge.config_model import JudgeConfig

    try:
        model = JudgeConfig.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"]) or "the file"
        raise UsageError(f"{path}: {where}: {err['msg']}") from None
    box, smtp = model.mailbox, model.smtp
    return {"home": model.home, "key": model.key, "address": model.address, "games": model.games,
            "database": model.database, "git": Git(model.git.branch, model.git.games), "contacts": dict(model.contacts),
            "mailbox": None if box is None else {"maildir": box.maildir, "imap": box.imap, "poll_seconds": box.poll_seconds},
            "smtp": None if smtp is None else Smtp(smtp.server, smtp.security, smtp.user)}


def plain(data: dict[str, Any]) -> dict[str, Any] | None:
    """The settings of a plainly valid file, as the model gives them; None when anything is not plainly
    valid (a type, a pattern, a key it does not know): `modelled` has the last word on those."""
    if not (data.keys() <= {"home", "key", "address", "games", "database", "mailbox", "smtp", "git", "contacts"}
            and _path(data.get("home")) and _path(data.get("key")) and _matches(ADDRESS, data.get("address"))
            and all(data.get(name) is None or _path(data[name]) for name in ("games", "database"))):
        return None
    box, smtp, git = _mailbox(data.get("mailbox")), _smtp(data.get("smtp")), _git(data.get("git", {}))
    contacts = data.get("contacts", {})
    if box is False or smtp is False or git is None or type(contacts) is not dict or not all(
            _matches(NAME_PATTERN, name) and _matches(ADDRESS, address) for name, address in contacts.items()):
        return None
    return {"home": data["home"], "key": data["key"], "address": data["address"], "games": data.get("games"),
            "database": data.get("database"), "mailbox": box, "smtp": smtp, "git": git, "contacts": contacts}


def _matches(pattern: str, value: Any) -> bool:
    return type(value) is str and re.fullmatch(pattern, value) is not None


def _path(value: Any) -> bool:
    return _matches(PATH, value) and len(value) >= 1


def _mailbox(box: Any) -> dict[str, Any] | bool | None:
    """The [mailbox] table as the model gives it; None when there is none, False when not plainly valid."""
    if box is None:
        return None
    if type(box) is not dict or not box.keys() <= {"maildir", "imap", "poll_seconds"}:
        return False
    maildir, imap, poll = box.get("maildir"), box.get("imap"), box.get("poll_seconds", 60.0)
    if (maildir is None) == (imap is None) or not (maildir is None or _path(maildir)) or not (
            imap is None or (type(imap) is str and re.match(IMAP, imap))) or type(poll) not in (int, float) or not (
            0 < poll <= 86400):
        return False
    return {"maildir": maildir, "imap": imap, "poll_seconds": float(poll)}


def _smtp(smtp: Any) -> Smtp | bool | None:
    """The [smtp] table; None when there is none, False when not plainly valid."""
    if smtp is None:
        return None
    if type(smtp) is not dict or not smtp.keys() <= {"server", "security", "user"}:
        return False
    server, security, user = smtp.get("server"), smtp.get("security", "starttls"), smtp.get("user")
    if type(server) is not str or not server or type(security) is not str or security not in SECURITY or not (
            user is None or type(user) is str):
        return False
    return Smtp(server, security, user)


def _git(git: Any) -> Git | None:
    """The [git] table; None when not plainly valid."""
    if type(git) is not dict or not git.keys() <= {"branch", "games"}:
        return None
    branch, games = git.get("branch", "main"), git.get("games", "games/")
    return Git(branch, games) if _matches(BRANCH, branch) and _matches(GAMES, games) else None
