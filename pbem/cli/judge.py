"""`pbem judge`: the judge's command group, parsing and printing only (the service is pbem.judge).

    pbem judge run CONFIG [--once]       the judge by mail, until stopped (or one pass, for cron)
    pbem judge status CONFIG             the games it holds
    pbem judge hooks REPO CONFIG         install the git hooks in a bare repository
    pbem judge pre-receive CONFIG        (run by git) refuse a push that rolls back, forks or deletes
    pbem judge post-receive CONFIG       (run by git) the referee's duties, committed
    pbem judge ci KEY [REPO]             hosted CI: check the whole history, then the referee's duties
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from pbem.cli import _handled

judge_app = typer.Typer(no_args_is_help=True, help="The judge: an unattended referee by mail or in git "
                                                   "(docs/judge.md).")
ConfigArg = Annotated[Path, typer.Argument(help="The judge's configuration (judge.toml).")]


@judge_app.command("run")
@_handled
def run(config: ConfigArg,
        once: Annotated[bool, typer.Option("--once", help="One pass, then exit (for cron).")] = False) -> None:
    """Read mail, apply the turns, do every referee duty, mail what was signed; one log line per action."""
    from pbem.judge import config as settings
    from pbem.judge.service import Judge

    judge = Judge(settings.load(config))
    judge.once() if once else judge.run()


@judge_app.command("status")
@_handled
def status(config: ConfigArg) -> None:
    """One line per game the judge holds: players, entries, who owes what, what was mailed."""
    from pbem.judge import config as settings
    from pbem.judge.status import lines

    for line in lines(settings.load(config)):
        typer.echo(line)


@judge_app.command("hooks")
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


@judge_app.command("pre-receive")
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


@judge_app.command("post-receive")
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


@judge_app.command("ci")
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
