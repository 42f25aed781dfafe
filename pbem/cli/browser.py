"""`pbem app`: play in the browser. The app is a front end of its own (pbem.app); the command starts it
as its own program, since the front ends import none of each other."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Annotated

import typer

from pbem.cli import app


@app.command("app")
def app_command(no_browser: Annotated[bool, typer.Option("--no-browser", help="Only print the link to open "
                                                         "(it holds the app's secret: keep it to yourself).")] = False,
                ) -> None:
    """Play in your browser: your games, each board as you see it, every legal move a click, one button that
    signs, writes and sends your turn. A local server on 127.0.0.1 that only this browser may use; your keys
    stay here, a passphrase is asked once and kept in memory. Mail: $PBEM_SMTP, $PBEM_SMTP_USER,
    $PBEM_SMTP_SECURITY to send, $PBEM_MAIL (a Maildir) to read. Ctrl-C stops it."""
    command = [sys.executable, "-m", "pbem.app"] + (["--no-browser"] if no_browser else [])
    sys.stdout.flush()
    if os.name == "posix":
        os.execv(sys.executable, command)  # the app in this process's place: Ctrl-C and its exit status are its own
    raise typer.Exit(subprocess.call(command))
