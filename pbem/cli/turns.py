"""Acting on a game: `pbem play` (with its prompt), `referee`, and `armor` / `dearmor` for mail bodies."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pbem.cli.common import (
    AsName,
    BotOption,
    GameFileArg,
    IterationsOption,
    KeyOption,
    MyName,
    SeedOption,
    ThinkOption,
    handled,
    warn,
)
from pbem.cli.mail import mail_and_say
from pbem.errors import PbemError, UsageError

if TYPE_CHECKING:
    from pbem import api

app = typer.Typer()

PARTLY_DONE = 3
"""`pbem play`'s exit status when it wrote something but more is owed that this run could not do."""


def _prompt_turn(session: api.Session) -> list[object]:
    """Ask on the terminal for each move or choice owed, showing the board and the legal choices."""
    from engine.contract import TURN_DUTIES, RuleError  # the engine loads when a command runs, not for --help
    from pbem import api  # loaded when a command runs, so --help and option errors stay fast

    rep = session.rep
    events: list[object] = []
    while api.owes(rep, session.name, *TURN_DUTIES):
        typer.echo(api.board(rep, rep.game.view(rep.state, session.name, session.knowledge())))
        typer.echo(api.choices_text(session))
        text = typer.prompt("Your move (empty to stop)", default="", show_default=False).strip()
        if not text:
            break
        try:
            events += session.act(api.parse_move(rep, session.name, text))
            events += session.automatic()
        except (PbemError, RuleError) as exc:
            typer.echo(f"Error: {exc}", err=True)
    return events


def _report(turn: api.TurnResult, path: Path) -> None:
    from pbem import api  # loaded when a command runs, so --help and option errors stay fast

    for event in turn.events:
        typer.echo(f"  {event}")
    if turn.written:
        rep, written = turn.rep, turn.written
        span = f"entry {rep.seq}" if written == 1 else f"entries {rep.seq - written + 1}-{rep.seq}"
        typer.echo(f"Wrote {path} ({span}).")
    typer.echo(api.next_line(turn.rep))


def _still_owed(turn: api.TurnResult, path: Path, name: str, named: str, flag: str = "") -> str | None:
    """What NAME asked for or owes that this run did not do, and how to go on (the game `named` as the user
    did, when it is the file written; `flag` the mail option to carry on with); None when all is done."""
    from engine.contract import TURN_DUTIES  # the engine loads when a command runs, not for --help
    from pbem import api  # loaded when a command runs, so --help and option errors stay fast

    rep = turn.rep
    if turn.left:
        waiting = api.next_duty(rep)
        assert waiting is not None, "moves are left only while someone else owes an act"
        holders, what, detail = waiting
        who = " and ".join(f"the referee {h}" if h == rep.referee else h for h in holders)
        return (f"Not played yet: {' '.join(turn.left)}: {who} must act first ({what}: {detail}). Send them "
                f"{path}, then run pbem play again.")
    owed = api.owes(rep, name, *TURN_DUTIES)
    if owed is None:
        return None
    example = api.example_move(turn.session)
    return (f"{name} owes a {owed.what} now ({owed.detail}): give it on the command line, e.g. "
            f"'pbem play {named} --as {name} {example}{flag}', or run pbem play on a terminal to be asked, or add "
            f"--bot {rep.game.bots[0]}")


@app.command("play", epilog="Exit status: 0 done: NAME owes nothing more now (or left the prompt without a "
                            "move); 1 an error, nothing written; 3 "
                            "what could be done is written, but more is owed: moves that must wait for another "
                            "participant (the referee's reveal, a tie-break opening), or a move not given (the "
                            "second act of a turn of several). The last line says what to do. With --mail or "
                            "--send, the mail goes once NAME's part is done (the turn complete, or another party "
                            "must act first): one mail a turn.")
@handled
def play(path: GameFileArg, name: MyName = None,
         actions: Annotated[list[str] | None, typer.Argument(help="Your moves, in the game's notation "
                                                                "(as pbem log writes them; a word alone answers "
                                                                "the duty owed, read after the duty's kind). None: a "
                                                                "prompt on a terminal.")] = None,
         key: KeyOption = None,
         bot: BotOption = None,
         think: ThinkOption = 1.0,
         seed: SeedOption = None,
         iterations: IterationsOption = None,
         out: Annotated[Path | None, typer.Option("-o", "--output", help="Write here instead of in place.")] = None,
         mail: Annotated[bool, typer.Option("--mail", help="Then write the turn as an email (.eml) for the others."
                                            )] = False,
         send: Annotated[bool | None, typer.Option("--send/--no-send", show_default=False, help="Then send the "
                                                   "turn by SMTP ($PBEM_SMTP, $PBEM_SMTP_USER, $PBEM_SMTP_SECURITY); "
                                                   "the default with PBEM_SEND=1 and $PBEM_SMTP set.")] = None,
         message: Annotated[str | None, typer.Option("--message", "-m", help="A note to the table, signed into "
                                                     "your turn's first entry (shown by pbem log).")] = None,
         ) -> None:
    """Do what NAME owes now: their join, the given moves (or a prompt), plus openings and table-mode deals
    and reveals.
    Moves that must wait for another participant (in referee mode, a reveal) are left for the next run."""
    from engine.contract import TURN_DUTIES  # the engine loads when a command runs, not for --help
    from pbem import api  # loaded when a command runs, so --help and option errors stay fast

    typed, path = path, api.game_path(path)
    interactive = sys.stdin.isatty()
    turn = api.play(path, name, actions, key, bot, out, ask=_prompt_turn if interactive else None, think=think,
                    seed=seed, iterations=iterations, message=message)  # the file read and verified once
    name = turn.session.name
    dest = turn.path or out or path
    named = str(typed) if dest == path else str(dest)  # a game named by its id's start: the same words again
    by_default = api.sends_by_default()
    send = by_default if send is None else send
    flag = " --send" if send and not by_default else " --mail" if mail and not send else ""
    stopped = interactive and not actions and not bot and not turn.written  # left the prompt without a move
    owed = None if stopped else _still_owed(turn, dest, name, named, flag)
    if owed and not turn.written:
        raise UsageError(owed)
    if not turn.written:
        still = api.owes(turn.rep, name, *TURN_DUTIES)
        typer.echo(f"Nothing written: {name} still owes a {still.what} ({still.detail})." if still else
                   f"Nothing written: {name} owes nothing now.")
    _report(turn, dest)
    done = api.part_done(turn.rep, name)
    if turn.written and (mail or send) and done:
        mail_and_say(turn.rep, name, None, send, False, None, os.environ.get("PBEM_SMTP"),
                  os.environ.get("PBEM_SMTP_USER"), os.environ.get("PBEM_SMTP_SECURITY", "starttls"), path=dest)
    elif turn.written and (mail or send):  # one mail a turn: the rest of it goes in the same mail
        typer.echo(f"Not {'sent' if send else 'mailed'} yet: {name}'s turn is not complete; the others get all of "
                   "it in one mail once it is.")
    elif turn.written and done:
        warn(api.unsent_line(turn.rep, named))
    _offer_absences(turn.rep, dest, name, key, interactive)
    if owed:
        typer.echo(owed)
        raise typer.Exit(PARTLY_DONE)


def _offer_absences(rep: api.Replay, path: Path, name: str, key: str | None, interactive: bool) -> None:
    """A duty `play` offers once a deadline and its grace have passed: recording an absent party, for one
    entitled to (asked on a terminal; otherwise the command that does it)."""
    import shlex

    from pbem import api  # loaded when a command runs, so --help and option errors stay fast

    for party, what, since in api.absences_offered(rep, name):
        typer.echo(f"{party} may be recorded absent now ({what} owed since entry {since}, past its deadline and "
                   f"grace): pbem absent {shlex.quote(str(path))} {party} --as {name}")
        if interactive and typer.confirm(f"Record {party} absent now?", default=False):
            rep, events = api.absent(path, party, name, key)
            for event in events:
                typer.echo(f"  {event}")
            typer.echo(f"Wrote {path} (entry {rep.seq}).")
            typer.echo(api.next_line(rep))
            return


@app.command("referee")
@handled
def referee(path: GameFileArg, name: MyName = None, key: KeyOption = None,
            out: Annotated[Path | None, typer.Option("-o", "--output", help="Write here instead.")] = None) -> None:
    """The referee's duties in referee mode: its join, the deal, every dealer's act owed (reveals, deals,
    reshuffles, a Thief's pick), openings for tie-breaks, the end audit, and a verdict on any secret its
    player did not hold."""
    from pbem import api  # loaded when a command runs, so --help and option errors stay fast

    path = api.game_path(path)
    turn = api.referee(path, api.my_name(path, name, key), key, out)
    if not turn.written:
        typer.echo("Nothing written: the referee owes nothing now.")
    _report(turn, turn.path or out or path)


MailOption = Annotated[bool, typer.Option("--mail", help="Then write it as an email (.eml) for the others.")]
SendOption = Annotated[bool | None, typer.Option("--send/--no-send", show_default=False, help="Then send it by SMTP "
                                                 "($PBEM_SMTP, $PBEM_SMTP_USER, $PBEM_SMTP_SECURITY); the default "
                                                 "with PBEM_SEND=1 and $PBEM_SMTP set.")]


@app.command("absent", epilog="With --mail or --send, the mail goes to whoever must act next (the next to sign "
                              "the absence, when others must sign it too), once NAME owes nothing more now; when "
                              "the absence hands NAME a turn, it goes with that turn (pbem play ... --send).")
@handled
def absent(path: GameFileArg,
           party: Annotated[str, typer.Argument(help="Who is absent: a player, or the referee.")],
           name: AsName, key: KeyOption = None, mail: MailOption = False, send: SendOption = None) -> None:
    """Record PARTY absent from the duty they owe, once its deadline and grace have passed (a game made
    with --deadlines). Who may: the referee for a player; every player for the referee; at a table,
    every other player in seat order (two players: the opponent). The game's rule then applies
    (docs/deadlines.md)."""
    from engine.contract import TURN_DUTIES  # the engine loads when a command runs, not for --help
    from pbem import api  # loaded when a command runs, so --help and option errors stay fast

    typed, path = path, api.game_path(path)
    rep, events = api.absent(path, party, name, key)
    for event in events:
        typer.echo(f"  {event}")
    typer.echo(f"Wrote {path} (entry {rep.seq}).")
    typer.echo(api.next_line(rep))
    send = api.sends_by_default() if send is None else send
    if (mail or send) and api.part_done(rep, name):
        mail_and_say(rep, name, None, send, False, None, os.environ.get("PBEM_SMTP"), os.environ.get("PBEM_SMTP_USER"),
                  os.environ.get("PBEM_SMTP_SECURITY", "starttls"), path=path)
    elif mail or send:
        owed = api.owes(rep, name, *TURN_DUTIES)
        assert owed is not None, "a part not done is a move or a choice owed"
        typer.echo(f"Not {'sent' if send else 'mailed'} yet: {name} owes a {owed.what} now ({owed.detail}); the "
                   f"absence goes in one mail with it: pbem play {typed} --as {name} ...{' --send' if send else ' --mail'}")
    else:
        warn(api.unsent_line(rep, str(typed)))


def _emit(text: str, out: Path | None) -> None:
    from pbem import api  # loaded when a command runs, so --help and option errors stay fast

    if out is None:
        typer.echo(text, nl=False)
    else:
        api.write_file(out, text.encode())
        typer.echo(f"Wrote {out}.")


@app.command("armor")
@handled
def armor_file(path: GameFileArg,
               out: Annotated[Path | None, typer.Option("-o", "--output", help="Write it here instead "
                                                           "of printing it.")] = None) -> None:
    """Print the game as an armored text block, to paste into an email body (the reverse: dearmor)."""
    from pbem import api  # loaded when a command runs, so --help and option errors stay fast

    _emit(api.armored(api.game_path(path)), out)


@app.command("dearmor")
@handled
def dearmor_file(path: GameFileArg,
                 out: Annotated[Path | None, typer.Option("-o", "--output", help="Write it here instead "
                                                             "of printing it.")] = None) -> None:
    """Print the game as plain JSON: the reverse of armor (reads a saved email too)."""
    from pbem import api  # loaded when a command runs, so --help and option errors stay fast

    _emit(api.to_json(api.load(api.game_path(path))), out)
