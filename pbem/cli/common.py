"""What every command group shares: the error handler (the one place a domain error becomes one
`Error: ...` line and an exit code, never a traceback) and the options several commands take."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, ParamSpec, TypeVar

import typer

from pbem.errors import error_text

P = ParamSpec("P")
R = TypeVar("R")


FAILED = 1
"""The exit code of every error of pbem's (the engine's, a file not read or written): scripts and the golden
transcripts rely on it; the line says the reason (pbem.errors names a participant's errors by class)."""
INTERRUPTED = 130
"""Ctrl-C, or the end of input at a prompt: nothing was written."""


def failure(exc: BaseException) -> tuple[int, str] | None:
    """The one mapping from an error to a command's exit code and its `Error: ...` line; None for an error
    that is a bug, whose traceback is shown."""
    if isinstance(exc, (KeyboardInterrupt, typer.Abort)):  # Abort: Ctrl-C or end of input at a prompt
        return INTERRUPTED, "\nError: interrupted; nothing was written"  # off the prompt's line
    text = error_text(exc)
    return None if text is None else (FAILED, f"Error: {text}")


def handled(func: Callable[P, R]) -> Callable[P, R]:
    """The one place where errors become `Error: ...` and an exit code (`failure`); never a traceback."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except (KeyboardInterrupt, Exception) as exc:
            ending = failure(exc)
            if ending is None:
                raise
            typer.echo(ending[1], err=True)
            raise typer.Exit(ending[0]) from None

    return wrapper


def warn(text: str | None, where: Path | None = None) -> None:
    """One `Warning: ...` line on stderr, when there is something to say."""
    if text:
        typer.echo(f"Warning: {where}: {text}" if where else f"Warning: {text}", err=True)


AsName = Annotated[str, typer.Option("--as", help="Your name in the game (and your key's name).")]
KeyOption = Annotated[str | None, typer.Option("--key", help="Key file to use instead of the one named --as "
                                                              "(e.g. ~/.ssh/id_ed25519).")]
GameFileArg = Annotated[Path, typer.Argument(help="The game file (JSON or armored), a saved mail of it (.eml), or a "
                                                 "game in the folder of local copies by the start of its id "
                                                 "(e.g. 25f0).")]
MyName = Annotated[str | None, typer.Option("--as", help="Your name in the game (and your key's name); may be left "
                                                         "out when this home holds the key of only one of its "
                                                         "participants.")]
GamesOption = Annotated[Path | None, typer.Option("--games", help="The folder of local game copies "
                                                     "(default: $PBEM_GAMES, else PBEM_HOME/games-files).")]
BotOption = Annotated[str | None, typer.Option(
    help="Let one of the game's computer players choose, by name (each game has its own; an unknown name lists "
         "the game's). It knows only what you know.")]
ThinkOption = Annotated[float, typer.Option(min=0.01, help="Seconds a bot that searches thinks about each move.")]
SeedOption = Annotated[int | None, typer.Option(help="Seed of the bot's random choices, to repeat them.")]
IterationsOption = Annotated[int | None, typer.Option(
    min=1, help="Search iterations a move for a bot that searches instead of --think (the same with --seed on any "
                "machine).")]
