"""Games by mail: `pbem mail`, `inbox` and `status`."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pbem.cli.common import GameFileArg, GamesOption, MyName, handled
from pbem.errors import UsageError

if TYPE_CHECKING:
    from pbem import api

app = typer.Typer()


def mail_and_say(rep: api.Replay, name: str, out: Path | None, send: bool, attach: bool, since: int | None,
                 smtp: str | None, user: str | None, security: str, games: Path | None = None,
                 path: Path | None = None) -> None:
    """Mail what the others lack, to a file or (`send`) by SMTP, and say what was done."""
    from pbem import api  # loaded when a command runs, so --help and option errors stay fast

    if send and not smtp:
        raise UsageError("--send needs a server: --smtp HOST[:PORT] or $PBEM_SMTP")
    server = api.smtp_server(smtp, security, user) if send and smtp else None
    typer.echo(api.mail_turn(rep, name, path, since, attach, out, server, games))


@app.command("mail")
@handled
def mail_command(
        path: GameFileArg, name: MyName = None,
        out: Annotated[Path | None, typer.Option("-o", "--output", help="The .eml to write (default: "
                                                    "GAME-ID-ENTRY.eml here).")] = None,
        send: Annotated[bool, typer.Option("--send", help="Send by SMTP instead of writing a file.")] = False,
        attach: Annotated[bool, typer.Option("--attach", help="Attach the whole game file too.")] = False,
        since: Annotated[int | None, typer.Option(help="Mail the entries after this one (default: after the "
                                                     "last entry mailed or received).")] = None,
        smtp: Annotated[str | None, typer.Option(envvar="PBEM_SMTP", help="SMTP server HOST[:PORT].")] = None,
        smtp_user: Annotated[str | None, typer.Option(envvar="PBEM_SMTP_USER", help="SMTP login; the password "
                                                         "comes from $PBEM_SMTP_PASSWORD or a prompt.")] = None,
        smtp_security: Annotated[str, typer.Option(envvar="PBEM_SMTP_SECURITY", help="starttls (port 587), tls "
                                                   "(465) or none (localhost only).")] = "starttls",
        games: GamesOption = None) -> None:
    """Mail the entries the other parties lack: To who owes next, Cc the rest, one thread per game."""
    from pbem import api  # loaded when a command runs, so --help and option errors stay fast

    path = api.game_path(path, games)
    rep = api.open_game(path)
    name = api.my_name(path, name, record=rep.record)  # the file read once
    mail_and_say(rep, name, out, send, attach, since, smtp, smtp_user, smtp_security, games, path)


@app.command("inbox")
@handled
def inbox_command(
        paths: Annotated[list[str] | None, typer.Argument(help="Maildir folders, mbox files, .eml files or "
                                                             "folders of them, or IMAP mailboxes "
                                                             "(imaps://USER@HOST/FOLDER; password: "
                                                             "$PBEM_IMAP_PASSWORD or a prompt) (default: "
                                                             "$PBEM_MAIL, else $MAIL, else ~/Maildir).")] = None,
        games: GamesOption = None,
        again: Annotated[bool, typer.Option("--again", help="Read every mail again, also those applied "
                                            "before (after restoring or deleting a copy).")] = False) -> None:
    """Apply every pbem turn and game found in mail to the local copies; say what you owe now."""
    from pbem import api  # loaded when a command runs, so --help and option errors stay fast

    given = paths or ([os.environ["PBEM_MAIL"]] if api.is_imap(os.environ.get("PBEM_MAIL", "")) else [])
    boxes = [api.fetch_imap(p) if api.is_imap(p) else Path(p) for p in given]  # IMAP: new mail copied here first
    report = api.read_mail(boxes or None, games, again)
    for path, first, last in report.updated.values():
        span = "the invitation" if last == 0 else f"entry {last}" if first >= last else f"entries {first}-{last}"
        typer.echo(f"Updated {path}: {span}.")
    for problem in report.problems:
        typer.echo(f"Error: {problem}", err=True)
    for fork in report.forks:
        typer.echo(f"Error: FORK: {fork}", err=True)
    news = f"{len(report.updated)} game{'s' * (len(report.updated) != 1)} updated" if report.updated else "nothing new"
    aside = (f" ({report.set_aside} set aside, as said before: --again reads {'it' if report.set_aside == 1 else 'them'} "
             "again)" if report.set_aside else "")
    typer.echo(f"Read {report.mails} mail{'s' * (report.mails != 1)}: {news}{aside}.")
    status = api.status(games)
    owed = [g for g in status.games if g.i_owe]
    for game in owed:
        typer.echo(api.line(game, status.now))
        me = next(d.party for d in game.duties if d.mine)
        typer.echo(f"    pbem play {api.short_id(game.game_id)} --as {me}{api.send_flag()}")  # as the line names it
    if not owed:
        typer.echo("You owe nothing now.")
    if report.problems or report.forks:
        raise typer.Exit(1)


@app.command("status")
@handled
def status_command(
        games: GamesOption = None,
        as_json: Annotated[bool, typer.Option("--json", help="One JSON object (schemas/status.schema.json).")] = False,
        at: Annotated[int | None, typer.Option(help="Judge lateness at this time (Unix seconds) instead of "
                                                  "now.")] = None) -> None:
    """Every game here, one line each, mine first. Exit status 1 when I owe something, else 0."""
    from pbem import api  # loaded when a command runs, so --help and option errors stay fast

    status = api.status(games, at)
    if as_json:
        typer.echo(status.model_dump_json(indent=2))
    else:
        if not status.games:
            typer.echo(f"No games in {api.games_folder(games)}.")
        for game in status.games:
            typer.echo(api.line(game, status.now))
        for problem in status.problems:
            typer.echo(f"Error: {problem}", err=True)
    if status.i_owe:
        raise typer.Exit(1)
