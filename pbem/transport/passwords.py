"""How pbem asks for a mail server's password (IMAP's and SMTP's alike): from its environment variable,
else a prompt on a terminal; never from the command line, never stored."""

from __future__ import annotations

import getpass
import os
import sys

from pbem.errors import UsageError


def asked(variable: str, prompt: str, needed: str) -> str:
    """The password in `variable`, else typed at `prompt` on a terminal; UsageError naming what is `needed`."""
    if variable in os.environ:
        return os.environ[variable]
    if sys.stdin is not None and sys.stdin.isatty():
        return getpass.getpass(prompt)
    raise UsageError(f"{needed} is needed: set {variable} or run on a terminal")
