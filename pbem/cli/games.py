"""Making and looking at games: `pbem new`, `show`, `html`, `log`, `verify` and `export`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pbem.cli.common import AsName, GameFileArg, KeyOption, handled, warn
from pbem.errors import UsageError

if TYPE_CHECKING:
    from pbem import api

app = typer.Typer()


@app.command("new")
@handled
def new(game: Annotated[str, typer.Argument(help="The game, by name (a name pbem does not know lists those it "
                                                    "does).")],
        out: Annotated[Path, typer.Option("-o", "--output", help="The game file to write.")],
        name: AsName,
        player: Annotated[list[str], typer.Option("--player", help="NAME=PUBKEY, in seat order; PUBKEY is a "
                                                  "key line, a .pub file or a key name. Repeat per player.")],
        referee: Annotated[str | None, typer.Option(help="NAME=PUBKEY of a referee: referee mode.")] = None,
        option: Annotated[list[str], typer.Option("--option", help="KEY=VALUE, one of the game's options (an unknown key is "
                                                  "answered with the game's list).")] = [],  # noqa: B006 (typer copies it)
        layout: Annotated[Path | None, typer.Option(help="A fixed deal (JSON), for tests, tutorials and duplicate "
                                                    "tournaments; the record says the deal was chosen by you.")] = None,
        key: KeyOption = None,
        force: Annotated[bool, typer.Option(help="Replace an existing output file.")] = False,
        late_after: Annotated[str | None, typer.Option("--late-after", help="Mark a party late once they have "
                                                       "owed a duty this long, e.g. 72h or 3d: 'pbem status' and "
                                                       "'show' name who is late; nothing more (an absence that "
                                                       "can be recorded: --deadlines).")] = None,
        deadlines: Annotated[str | None, typer.Option(help="A deadline policy every join agrees to, after which "
                                                      "an absent party can be recorded (pbem absent): 'default' "
                                                      "(the game's) or hours per duty, e.g. turn=48,grace=24 "
                                                      "(turn, open, referee, grace, remind).")] = None,
        deadline: Annotated[str | None, typer.Option("--deadline", hidden=True,
                                                     help="The old name of --late-after.")] = None,
        ) -> None:
    """Start a game: write the signed invitation (players, keys, options, the dealer's commitment to the
    deal). Each other participant joins with their first pbem play; the deal comes from everyone."""
    from pbem import api  # loaded when a command runs, so --help and option errors stay fast

    if deadline is not None:  # renamed: one letter from --deadlines, which does something else
        if late_after is not None:
            raise UsageError("--deadline is the old name of --late-after: give only --late-after")
        warn("--deadline is now --late-after (it only marks who is late; --deadlines sets a policy after which "
             "an absence may be recorded); the old name will go")
        late_after = deadline
    rep, events = api.new_game(game, out, name, player, referee, option, layout, key, force, late_after, deadlines)
    mode = f"referee mode (referee {rep.referee})" if rep.referee else "table mode"
    first = f"{rep.first} moves first" if rep.first else "the first player is drawn when everyone has joined"
    typer.echo(f"Created {out}: {rep.game.title}, {', '.join(rep.players)}; {mode}; {rep.deal_text}; {first}.")
    for event in events:
        typer.echo(f"  {event}")
    typer.echo(api.next_line(rep))


def _opened(path: Path) -> api.Replay:
    """A game file read and verified, with a warning when this machine has seen a later or another version."""
    from pbem import api  # loaded when a command runs, so --help and option errors stay fast

    path = api.game_path(path)
    rep = api.open_game(path)
    problem, unwritable = api.note_seen(rep, path)
    warn(problem, path)
    warn(unwritable)
    return rep


@app.command("show")
@handled
def show(path: GameFileArg,
         name: Annotated[str | None, typer.Option("--as", help="Show your own secrets too: what only you may see.")] = None,
         as_json: Annotated[bool, typer.Option("--json", help="One JSON object instead of the board.")] = False,
         key: KeyOption = None) -> None:
    """Draw the board, hands, claims and whose duty it is (verifying the file first)."""
    from pbem import api  # loaded when a command runs, so --help and option errors stay fast

    rep = _opened(path)
    shown = api.view(rep, name, key)
    if as_json:
        typer.echo(json.dumps(api.json_view(rep, shown), indent=2))
    elif rep.state is None:
        typer.echo(api.pregame_text(rep))
    else:
        typer.echo(api.board(rep, shown))
    if as_json:
        return
    mine = api.keys_here(rep) if name is None else []
    if len(mine) == 1:  # the player at this machine may expect their own coins and cards: say they are not shown
        typer.echo(f"Public view (what everyone sees): pbem show {path} --as {mine[0]} adds what only {mine[0]} sees.")
    for text in api.deadline_lines(rep):
        typer.echo(text)
    unsent = api.unsent_line(rep, str(path))
    if unsent:
        typer.echo(unsent[0].upper() + unsent[1:])
    command = api.next_command(rep, str(path))
    if command:
        typer.echo(command)


@app.command("html")
@handled
def html_page(path: GameFileArg,
              out: Annotated[Path | None, typer.Option("-o", "--output", help="The page to write (default: "
                                                          "the game file's name with .html).")] = None,
              name: Annotated[str | None, typer.Option("--as", help="Add what NAME may see: their own "
                                                          "secrets.")] = None,
              key: KeyOption = None) -> None:
    """Write the game as one web page that replays it entry by entry (no network, opens from disk)."""
    from pbem import api  # loaded when a command runs, so --help and option errors stay fast

    path = api.game_path(path)
    rep = _opened(path)
    target = out or path.with_suffix(".html")
    if target.resolve() == path.resolve():
        raise UsageError(f"{target} is the game file itself: name another page with -o")
    text = api.html_page(rep, name, key)
    api.write_file(target, text.encode(), mode=0o600 if name else 0o644)  # a player's page holds their secrets
    typer.echo(f"Wrote {target} ({len(text.encode()) // 1024} KB, {rep.seq + 1} positions, "
               f"{'as ' + name + ' sees it' if name else 'public information only'}).")


@app.command("log")
@handled
def log(path: GameFileArg) -> None:
    """The game as readable movetext: a header, then every entry and what it caused."""
    from pbem import api  # loaded when a command runs, so --help and option errors stay fast

    typer.echo(api.log_text(_opened(path)))


@app.command("verify")
@handled
def verify_files(paths: Annotated[list[Path], typer.Argument(help="Game files; copies of one game are also "
                                                              "checked against each other.")]) -> None:
    """Check every signature and every rule from the first entry on; for a finished game, the audit.
    Every file is checked and reported; the exit code is 1 if any failed, or forked."""
    from pbem import api  # loaded when a command runs, so --help and option errors stay fast


    def valid(checked: api.Checked) -> None:
        rep = checked.game
        status = "finished" if rep.over else "in progress"
        chosen = f" ({rep.deal_text}: not shuffled jointly)" if rep.genesis.deal == "chosen" else ""
        entries = f"{rep.seq} entr{'y' if rep.seq == 1 else 'ies'}"
        typer.echo(f"{checked.path}: valid, {status}, {entries}. {api.next_line(rep)}{chosen}")
        for absence in rep.absences:  # each re-checked: the duty, its start, the signers, the signed times
            policy = rep.genesis.deadlines
            typer.echo(f"  absence: {absence}; signed at {absence.time}, the deadline was {absence.deadline}, "
                       f"{policy.grace_hours if policy else 0} h of grace (the signed times agree with the policy)")
            if absence.by_seed and not rep.verdict:  # chosen by rule from a hand nobody else sees: the seed proves it
                rule = api.presentation(rep.genesis.game).ABSENCE_BY_RULE
                typer.echo(f"    {rule}, by the dealer's opened seed" if rep.seed else
                           f"    that {rule} is checked when the dealer's seed opens (the end audit)")

    report = api.verify_files([api.game_path(p) for p in paths], on_valid=valid,
                              on_failure=lambda text: typer.echo(f"Error: {text}", err=True),
                              on_warning=warn)
    if report.failures:
        raise typer.Exit(1)


@app.command("export")
@handled
def export(path: GameFileArg,
           directory: Annotated[Path, typer.Argument(help="Where to write the files (made if missing).")],
           entry: Annotated[int | None, typer.Option("--entry", help="Which entry: 0 is the genesis; "
                                                         "default the last.")] = None) -> None:
    """Write one entry as files that ssh-keygen and age check without pbem, and print the commands."""
    from pbem import api  # loaded when a command runs, so --help and option errors stay fast

    for item in api.export_entry(api.game_path(path), entry, directory):
        typer.echo(f"{', '.join(map(str, item.files))}: {item.what}")
        if item.command:
            typer.echo(f"  {item.command}")
