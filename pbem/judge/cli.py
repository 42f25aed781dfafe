"""The judge's command line (`pbem judge ...`, which runs `python -m pbem.judge ...`): parsing and
printing only, over the service (service.py), the git hooks (git.py) and status (status.py).

    pbem judge run CONFIG [--once]       the judge by mail, until stopped (or one pass, for cron)
    pbem judge status CONFIG             the games it holds
    pbem judge hooks REPO CONFIG         install the git hooks in a bare repository
    pbem judge pre-receive CONFIG        (run by git) refuse a push that rolls back, forks or deletes
    pbem judge post-receive CONFIG       (run by git) the referee's duties, committed
    pbem judge ci KEY [REPO]             hosted CI: check the whole history, then the referee's duties

Each command imports what it runs inside itself: git runs the hooks on every push, and one command
should not pay for loading another's modules (the mail service, IMAP, the web of the git checks).
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, ParamSpec, TypeVar

import typer

from pbem.errors import error_text

app = typer.Typer(name="pbem judge", no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
                  help="The judge: an unattended referee by mail or in git (docs/judge.md).")
P = ParamSpec("P")
R = TypeVar("R")


def _handled(func: Callable[P, R]) -> Callable[P, R]:
    """A domain error or a file that cannot be read: one `Error: ...` line and exit status 1."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except Exception as exc:
            text = error_text(exc)
            if text is None:
                raise
            typer.echo(f"Error: {text}", err=True)
            raise typer.Exit(1) from None

    return wrapper
ConfigArg = Annotated[Path, typer.Argument(help="The judge's configuration (judge.toml).")]


@app.command("run")
@_handled
def run(config: ConfigArg,
        once: Annotated[bool, typer.Option("--once", help="One pass, then exit (for cron).")] = False) -> None:
    """Read mail, apply the turns, do every referee duty, mail what was signed; one log line per action."""
    from pbem.judge import config as settings
    from pbem.judge.service import Judge

    judge = Judge(settings.load(config))
    judge.once() if once else judge.run()


@app.command("status")
@_handled
def status(config: ConfigArg) -> None:
    """One line per game the judge holds: players, entries, who owes what, what was mailed."""
    from pbem.judge import config as settings
    from pbem.judge.status import lines

    for line in lines(settings.load(config)):
        typer.echo(line)


@app.command("hooks")
@_handled
def hooks(repo: Annotated[Path, typer.Argument(help="A bare git repository.")], config: ConfigArg) -> None:
    """Install the pre-receive and post-receive hooks that make the judge referee this repository."""
    from pbem.judge.git import install_hooks

    for hook in install_hooks(repo, config.resolve()):
        typer.echo(f"Wrote {hook}")


def _updates() -> list[tuple[str, str, str]]:
    """git's lines on a hook's input: OLD NEW REF."""
    found = []
    for line in sys.stdin.read().splitlines():
        parts = line.split()
        if len(parts) == 3:
            found.append((parts[0], parts[1], parts[2]))
    return found


@app.command("pre-receive")
@_handled
def pre_receive(config: ConfigArg) -> None:
    """(Run by git.) Refuse a push that deletes, rolls back, forks or invalidates a game file."""
    from pbem.judge import config as settings
    from pbem.judge.git import pre_receive as check

    loaded = settings.load(config)
    os.environ["PBEM_HOME"] = str(loaded.home)
    problems = check(Path(os.environ.get("GIT_DIR", ".")), _updates(), loaded.git.games)
    for problem in problems:
        typer.echo(f"Error: {problem}", err=True)
    if problems:
        raise typer.Exit(1)


@app.command("post-receive")
@_handled
def post_receive(config: ConfigArg) -> None:
    """(Run by git.) Record what was pushed; sign the referee's duties and commit them on the branch."""
    from pbem.judge import config as settings
    from pbem.judge.git import post_receive as referee

    loaded = settings.load(config)
    os.environ["PBEM_HOME"] = str(loaded.home)
    log: list[str] = []
    made = referee(Path(os.environ.get("GIT_DIR", ".")), _updates(), loaded.key, f"refs/heads/{loaded.git.branch}",
                   loaded.git.games, log)
    for line in log + ([f"judge: committed {made[:12]}: pull to see it"] if made else []):
        typer.echo(line, err=True)


@app.command("ci")
@_handled
def ci(key: Annotated[Path, typer.Argument(help="The judge's private key file (from a CI secret).")],
       repo: Annotated[Path, typer.Argument(help="The checkout, with its whole history.")] = Path("."),
       games: Annotated[str, typer.Option(help="The folder of game files in the repository.")] = "games/") -> None:
    """Hosted CI: refuse a game file behind or forked from any version in the history, then do the
    referee's duties in the work tree (the workflow commits and pushes them)."""
    from pbem.judge.git import ci_referee

    log: list[str] = []
    written = ci_referee(repo, key.resolve(), games, log)
    for line in log:
        typer.echo(line)
    typer.echo(f"Wrote {len(written)} game file{'s' * (len(written) != 1)}.")
