"""judge.toml's strict pydantic model: the authority on what a configuration may hold, and the words of
every error in one (config.py reads a plainly valid file without it, and asks it about any other)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from pbem.judge.config import ADDRESS, BRANCH, GAMES, IMAP, PATH
from pbem.record.names import NAME_PATTERN

PathText = Annotated[str, Field(min_length=1, pattern=PATH)]
"""A path as written in the file: no NUL, which no file name holds (and os refuses with a ValueError)."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class MailboxConfig(_Strict):
    maildir: PathText | None = None
    imap: Annotated[str, Field(pattern=IMAP)] | None = None
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
    branch: Annotated[str, Field(pattern=BRANCH)] = "main"
    games: Annotated[str, Field(pattern=GAMES)] = "games/"


class JudgeConfig(_Strict):
    home: PathText
    key: PathText
    address: Annotated[str, Field(pattern=ADDRESS)]
    games: PathText | None = None
    database: PathText | None = None
    mailbox: MailboxConfig | None = None
    smtp: SmtpConfig | None = None
    git: GitConfig = GitConfig()
    contacts: dict[Annotated[str, Field(pattern=NAME_PATTERN)], Annotated[str, Field(pattern=ADDRESS)]] = {}
