"""`pbem judge ...`: the judge is a front end of its own (pbem.judge, docs/judge.md); the command starts it
as its own program with the same arguments, since the front ends import none of each other."""

from __future__ import annotations

import os
import subprocess
import sys

import typer

from pbem.cli import app


@app.command("judge", add_help_option=False,  # --help goes to the judge: each of its commands has its own
             context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def judge_command(ctx: typer.Context) -> None:
    """The judge, an unattended referee by mail or in git (docs/judge.md).

    pbem judge run CONFIG [--once]: read mail, apply the turns, do every referee duty, mail what was signed.
    pbem judge status CONFIG: the games it holds. pbem judge hooks REPO CONFIG: make it referee a bare git
    repository (its pre-receive and post-receive hooks). pbem judge ci KEY [REPO]: on hosted CI, check the
    whole history, then do the referee's duties. Each has its own help: pbem judge run --help."""
    if not ctx.args or ctx.args[0] in ("--help", "-h"):
        typer.echo(ctx.get_help())  # the judge's commands, listed here; each command's own help is the judge's
        raise typer.Exit(0)
    command = [sys.executable, "-m", "pbem.judge", *ctx.args]
    sys.stdout.flush()
    if os.name == "posix":
        os.execv(sys.executable, command)  # the judge in this process's place: signals and exit status its own
    raise typer.Exit(subprocess.call(command))
