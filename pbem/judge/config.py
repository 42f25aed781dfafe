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
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from pbem.errors import Unreadable, UsageError
from pbem.record.names import NAME_PATTERN
from pbem.record.reading import read_optional

MAX_CONFIG = 64 * 1024


PathText = Annotated[str, Field(min_length=1, pattern=r"^[^\x00]*$")]
"""A path as written in the file: no NUL, which no file name holds (and os refuses with a ValueError)."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class MailboxConfig(_Strict):
    maildir: PathText | None = None
    imap: Annotated[str, Field(pattern=r"^imaps?://")] | None = None
    poll_seconds: Annotated[float, Field(gt=0, le=86400)] = 60.0

    @model_validator(mode="after")
    def _one_source(self) -> MailboxConfig:
        if (self.maildir is None) == (self.imap is None):
            raise ValueError("give exactly one of maildir and imap")
        return self


class SmtpConfig(_Strict):
    server: Annotated[str, Field(min_length=1)]
    security: Literal["starttls", "tls", "none"] = "starttls"
    user: str | None = None


class GitConfig(_Strict):
    branch: Annotated[str, Field(pattern=r"^[A-Za-z0-9._/-]+$")] = "main"
    games: Annotated[str, Field(pattern=r"^[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*/$")] = "games/"


class JudgeConfig(_Strict):
    home: PathText
    key: PathText
    address: Annotated[str, Field(pattern=r"^[^@\s<>]+@[^@\s<>]+$")]
    games: PathText | None = None
    database: PathText | None = None
    mailbox: MailboxConfig | None = None
    smtp: SmtpConfig | None = None
    git: GitConfig = GitConfig()
    contacts: dict[Annotated[str, Field(pattern=NAME_PATTERN)],
                   Annotated[str, Field(pattern=r"^[^@\s<>]+@[^@\s<>]+$")]] = {}


class Config:
    """The validated settings, with every path made absolute."""

    def __init__(self, model: JudgeConfig, base: Path):
        self.model = model
        self.home = (base / model.home).resolve()
        self.key = (base / model.key).resolve()
        self.address = model.address
        self.games = (base / model.games).resolve() if model.games else self.home / "games-files"
        given = model.database
        self.database = given if given and given.startswith(("postgresql://", "postgres://")) else \
            str((base / given).resolve()) if given else str(self.home / "judge.db")
        """A PostgreSQL URL, or the path of a SQLite file."""
        box = model.mailbox
        self.maildir = (base / box.maildir).resolve() if box and box.maildir else None
        self.imap = box.imap if box else None
        self.poll = box.poll_seconds if box else 60.0
        self._smtp = model.smtp
        self.git = model.git
        self.contacts = dict(model.contacts)

    @property
    def smtp(self) -> SmtpConfig:
        if self._smtp is None:
            raise UsageError("the judge by mail needs an [smtp] section in its configuration")
        return self._smtp

    def check_mail(self) -> None:
        """The mail service needs a mailbox and an SMTP server (the git hooks need neither)."""
        if self.model.mailbox is None:
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
    try:
        model = JudgeConfig.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"]) or "the file"
        raise UsageError(f"{path}: {where}: {err['msg']}") from None
    return Config(model, path.parent.resolve())
