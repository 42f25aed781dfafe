"""`pbem demo`: computer players play a whole game through the same files and functions, then verify it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pbem.cli.common import IterationsOption, SeedOption, ThinkOption, handled

app = typer.Typer()


@app.command("demo")
@handled
def demo(players: Annotated[int | None, typer.Option(help="How many computer players (default 3, or as near as the "
                                                           "game takes; another count is answered with the "
                                                           "game's).")] = None,
         game_name: Annotated[str | None, typer.Option("--game", help="The game to play (default: the first pbem "
                                                                      "knows; a name it does not know lists them "
                                                                      "all).")] = None,
         directory: Annotated[Path | None, typer.Option("--dir", help="Where to put the files "
                                                           "(default: a new temporary directory).")] = None,
         referee_mode: Annotated[bool, typer.Option("--referee", help="Add a referee bot (referee mode).")] = False,
         quiet: Annotated[bool, typer.Option(help="Print only the result.")] = False,
         bot: Annotated[str | None, typer.Option(help="The computer players, by name (default: the game's "
                                                      "first; an unknown name lists the game's).")] = None,
         think: ThinkOption = 1.0, seed: SeedOption = None, iterations: IterationsOption = None) -> None:
    """Play a whole game among computer players through the same files and commands, then verify it."""
    from pbem import api  # loaded when a command runs, so --help and option errors stay fast

    game, steps = api.demo(game_name, players, directory, referee_mode, bot, think, seed, iterations)
    rep = api.open_game(game)
    if not quiet:
        with_referee = " with a referee bot" if referee_mode else ""
        typer.echo(f"Demo: {', '.join(rep.players)} play {rep.game.title}{with_referee} in {game}")
    drawing = api.presentation(rep.genesis.game)
    moments = [1 / 3, 2 / 3]  # how far into the game to show the board
    turns = 0
    for step in steps:
        rep, turns = step.game, turns + 1
        if not quiet and rep.state is not None:
            for event in step.events:
                if drawing.notable(event):
                    typer.echo(f"  {event}")
            shown = rep.game.view(rep.state, None)
            if moments and drawing.progress(shown) >= moments[0] and rep.duties():
                moments = [m for m in moments if drawing.progress(shown) < m]
                typer.echo("\n" + api.board(rep, shown) + "\n")
    if not quiet:
        typer.echo("\n" + api.board(rep, rep.game.view(rep.state, None)) + "\n")
    verified = api.open_game(game)
    typer.echo(f"Finished after {rep.seq} signed entries ({turns} runs of 'pbem play'): {api.result_text(verified)}")
    typer.echo(f"Verified: every signature, every rule, the end audit. Files: {game.parent}")
    typer.echo(f"Look at it:  pbem html {game}   |   pbem log {game}   |   pbem verify {game}")
