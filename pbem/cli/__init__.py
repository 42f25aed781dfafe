"""The `pbem` command: a thin layer over the library. Domain errors become one `Error: ...` line and
exit code 1 in one place (`_handled`); heavy modules are imported inside the commands that use them."""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Annotated, Any, ParamSpec, TypeVar

# pbem uses no pydantic plugins; looking for them scans every installed package at start-up (~15 ms).
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")

import typer  # noqa: E402

if TYPE_CHECKING:
    from pbem.crypto import Identity
    from pbem.playing import Turn
    from pbem.protocol.replay import Replay
    from pbem.protocol.session import Session

app = typer.Typer(
    name="pbem", no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
    help="Play board games with hidden information by email or git, with signed, verifiable game files.",
)
key_app = typer.Typer(no_args_is_help=True, help="Make and show your identity keys (ssh-ed25519).")
app.add_typer(key_app, name="key")
contact_app = typer.Typer(no_args_is_help=True, help="The address book: each participant's mail address.")
app.add_typer(contact_app, name="contact")

AsName = Annotated[str, typer.Option("--as", help="Your name in the game (and your key's name).")]
KeyOption = Annotated[str | None, typer.Option("--key", help="Key file to use instead of the one named --as "
                                                              "(e.g. ~/.ssh/id_ed25519).")]
GameFileArg = Annotated[Path, typer.Argument(help="The game file (JSON, or an email holding an armored game).")]


def _gameplay() -> ModuleType:
    """The library the commands stand on, imported when a command runs (start-up stays fast)."""
    from pbem import playing as gameplay

    return gameplay


P = ParamSpec("P")
R = TypeVar("R")


def _handled(func: Callable[P, R]) -> Callable[P, R]:
    """The one place where errors become `Error: ...` and an exit code; never a traceback."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        from engine.contract import RuleError
        from pbem.errors import PbemError

        try:
            return func(*args, **kwargs)
        except (PbemError, RuleError) as exc:
            typer.echo(f"Error: {exc}", err=True)
            raise typer.Exit(1) from None
        except OSError as exc:
            where = f": {exc.filename}" if exc.filename else ""
            typer.echo(f"Error: {exc.strerror or exc}{where}", err=True)
            raise typer.Exit(1) from None
        except (KeyboardInterrupt, typer.Abort):  # Abort: Ctrl-C or end of input at a prompt
            typer.echo("\nError: interrupted; nothing was written", err=True)  # off the prompt's line
            raise typer.Exit(130) from None

    return wrapper


# ---------------------------------------------------------------- keys

def _new_passphrase(name: str) -> bytes:
    from pbem.crypto.keyring import PASSPHRASE_ENV, passphrase_given
    from pbem.errors import NoPassphrase

    given = passphrase_given()
    if given is not None:
        return given.encode()
    if not sys.stdin.isatty():
        raise NoPassphrase(f"a passphrase for key {name} is needed: set {PASSPHRASE_ENV}, run on a terminal, "
                           "or use --no-passphrase")
    text: str = typer.prompt(f"Passphrase for the new key {name}", hide_input=True, confirmation_prompt=True)
    return text.encode()


EmailOption = Annotated[str | None, typer.Option("--email", help="Your mail address, put in the address "
                                                                       "book for pbem mail (pbem contact).")]


def _check_email(email: str | None) -> None:
    """A bad address is refused before any key is written."""
    if email is not None:
        from pbem.transport.contacts import check_address

        check_address(email)


def _add_contact(name: str, email: str | None) -> None:
    if email is not None:
        from pbem.transport.contacts import add

        add(name, email)
        typer.echo(f"{name} <{email.strip()}> is in the address book.")


@key_app.command("new")
@_handled
def key_new(name: Annotated[str, typer.Argument(help="Your name, as the other players will see it.")],
            no_passphrase: Annotated[bool, typer.Option("--no-passphrase", help="Leave the key unprotected "
                                                        "(for bots and CI).")] = False,
            email: EmailOption = None) -> None:
    """Create a key pair in the key directory; prints the public key line to send to the others."""
    from pbem.crypto.keyring import create_key

    _check_email(email)
    passphrase = None if no_passphrase else _new_passphrase(name)
    path, identity = create_key(name, passphrase)
    typer.echo(f"Created key {name} at {path}" + ("" if passphrase else " (no passphrase)"))
    _add_contact(name, email)
    typer.echo("Your public key (send this line to the other players):")
    typer.echo(identity.public.line())


@key_app.command("add")
@_handled
def key_add(name: Annotated[str, typer.Argument(help="Your name in games.")],
            source: Annotated[Path, typer.Option("--from", help="Your private key file, e.g. ~/.ssh/id_ed25519.")],
            email: EmailOption = None) -> None:
    """Use a key you already have under NAME, so that --as NAME finds it without --key (it is linked,
    not copied)."""
    from pbem.crypto.keyring import add_key

    _check_email(email)
    path, line = add_key(name, source)
    typer.echo(f"Added key {name}: {path} -> {path.resolve()}")
    _add_contact(name, email)
    typer.echo("Your public key (send this line to the other players):")
    typer.echo(line)


@key_app.command("list")
@_handled
def key_list() -> None:
    """List the keys in the key directory."""
    from pbem.crypto.keyring import key_dir, list_keys

    found = list_keys()
    if not found:
        typer.echo(f"No keys in {key_dir()}. Create one with: pbem key new NAME")
    for name, public in found:
        typer.echo(f"{name:<16} {public.fingerprint()}")


@key_app.command("show")
@_handled
def key_show(name: Annotated[str, typer.Argument(help="A key name (or a key file).")]) -> None:
    """Print a public key line, to send to the other players."""
    from pbem.crypto.keyring import read_public

    typer.echo(read_public(name).line())


# ---------------------------------------------------------------- a new game

@app.command("new")
@_handled
def new(game: Annotated[str, typer.Argument(help="The game: sarcophagus or path-of-pharaohs.")],
        out: Annotated[Path, typer.Option("-o", "--output", help="The game file to write.")],
        name: AsName,
        player: Annotated[list[str], typer.Option("--player", help="NAME=PUBKEY, in seat order; PUBKEY is a "
                                                  "key line, a .pub file or a key name. Repeat per player.")],
        referee: Annotated[str | None, typer.Option(help="NAME=PUBKEY of a referee: referee mode.")] = None,
        option: Annotated[list[str], typer.Option("--option", help="KEY=VALUE, e.g. two_player=seats.")] = [],  # noqa: B006 (typer copies it)
        layout: Annotated[Path | None, typer.Option(help="A fixed deal (JSON), for tests, tutorials and duplicate "
                                                    "tournaments; the record says the deal was chosen by you.")] = None,
        key: KeyOption = None,
        force: Annotated[bool, typer.Option(help="Replace an existing output file.")] = False,
        deadline: Annotated[str | None, typer.Option(help="Time each party has for a duty, e.g. 72h or 3d; "
                                                        "'pbem status' and 'show' name who is late.")] = None,
        ) -> None:
    """Start a game: write the signed invitation (players, keys, options, the dealer's commitment to the
    deal). Each other participant joins with their first pbem play; the deal comes from everyone."""
    from pbem.presentation.terminal import next_line

    rep, events = _gameplay().create(game, out, name, player, referee, option, layout, key, force, deadline)
    mode = f"referee mode (referee {rep.referee})" if rep.referee else "table mode"
    first = f"{rep.first} moves first" if rep.first else "the first player is drawn when everyone has joined"
    typer.echo(f"Created {out}: {rep.game.title}, {', '.join(rep.players)}; {mode}; {rep.deal_text}; {first}.")
    for event in events:
        typer.echo(f"  {event}")
    typer.echo(next_line(rep))


# ---------------------------------------------------------------- looking

def _viewer(rep: Replay, name: str | None, key: str | None) -> tuple[str | None, Any, Identity | None]:
    """The observer and knowledge for `view()`: nobody's (public), a player's own secrets, or a referee's
    (the dealer's view: the referee reads every hidden item); and the key that reads them."""
    from engine.contract import DEALER
    from pbem.protocol.session import Session

    if not name:
        return None, None, None
    identity = _gameplay().signer_for(rep, name, key)
    session = Session(rep, name, identity)
    return (DEALER if session.is_referee else name), session.knowledge(), identity


@app.command("show")
@_handled
def show(path: GameFileArg,
         name: Annotated[str | None, typer.Option("--as", help="Show your own secrets too (your coins, your hand).")] = None,
         as_json: Annotated[bool, typer.Option("--json", help="One JSON object instead of the board.")] = False,
         key: KeyOption = None) -> None:
    """Draw the board, hands, claims and whose duty it is (verifying the file first)."""
    from pbem.presentation.terminal import board, pregame_text

    rep, _ = _gameplay().replay_file(path)
    _note_seen(rep, path)
    observer, knowledge, _ = _viewer(rep, name, key)
    shown: dict[str, Any]
    if rep.state is None:
        shown = {"status": "joining" if rep.awaiting_join else "dealing"}
    else:
        shown = rep.game.view(rep.state, observer, knowledge)
    shown.update(created_by=rep.genesis.author, deal=rep.deal_text)
    if rep.verdict:
        shown.update(status="forfeit", verdict={"against": rep.verdict.against, "reason": rep.verdict.reason,
                                                "entry": rep.verdict.seq, "by": rep.verdict.by})
    if rep.state is None or rep.verdict:
        shown["duties"] = [{"who": d.who, "what": d.what, "detail": d.detail} for d in rep.duties()]
    if as_json:
        typer.echo(json.dumps(_json_view(rep, shown), indent=2))
    elif rep.state is None:
        typer.echo(pregame_text(rep))
    else:
        typer.echo(board(rep, shown))
    if rep.genesis.deadline_hours and not as_json:
        from pbem.transport.status import late_line

        typer.echo(late_line(rep.record))


def _json_view(rep: Replay, shown: dict[str, Any]) -> dict[str, Any]:
    """`show --json`: the game's identity and length, then the view, with the referee called by name
    (in table mode the dealer stays "dealer": any player's program deals) and `next` as the text says it."""
    from engine.contract import DEALER
    from pbem.presentation.terminal import next_duty

    name = {DEALER: rep.referee} if rep.referee else {}
    duties = [{**duty, "who": name.get(duty["who"], duty["who"])} for duty in shown["duties"]]
    owed = next_duty(rep)
    upcoming = {"who": owed[0], "what": owed[1], "detail": owed[2]} if owed else None
    return {"game": rep.genesis.game, "game_id": rep.genesis.game_id, "mode": rep.mode, "referee": rep.referee,
            "entries": rep.seq, **shown, "duties": duties, "next": upcoming}


@app.command("html")
@_handled
def html_page(path: GameFileArg,
              out: Annotated[Path | None, typer.Option("-o", "--output", help="The page to write (default: "
                                                          "the game file's name with .html).")] = None,
              name: Annotated[str | None, typer.Option("--as", help="Add what NAME may see: their own "
                                                          "secrets.")] = None,
              key: KeyOption = None) -> None:
    """Write the game as one web page that replays it entry by entry (no network, opens from disk)."""
    from pbem.errors import UsageError
    from pbem.presentation.html import page
    from pbem.record.files import write_atomic

    rep, _ = _gameplay().replay_file(path)
    _note_seen(rep, path)
    observer, knowledge, identity = _viewer(rep, name, key)
    target = out or path.with_suffix(".html")
    if target.resolve() == path.resolve():
        raise UsageError(f"{target} is the game file itself: name another page with -o")
    text = page(rep, observer, knowledge, viewer=name, key=identity)
    write_atomic(target, text.encode(), mode=0o600 if name else 0o644)  # a player's page holds their secrets
    typer.echo(f"Wrote {target} ({len(text.encode()) // 1024} KB, {rep.seq + 1} positions, "
               f"{'as ' + name + ' sees it' if name else 'public information only'}).")


def _note_seen(rep: Replay, path: Path) -> None:
    """Record what was read; one warning line if this machine has seen a later or a different version."""
    from pbem.protocol.seen import sighting

    problem = sighting(rep).problem(rep.seq)
    if problem:
        typer.echo(f"Warning: {path}: {problem}", err=True)
    _remember_if_possible(rep)


def _remember_if_possible(rep: Replay) -> None:
    """Looking at a game must work where nothing can be written (a read-only home, a CI sandbox): say so."""
    from pbem.protocol.seen import history_path, remember

    try:
        remember(rep)
    except OSError as exc:
        typer.echo(f"Warning: cannot record this version in {history_path(rep.genesis.game_id)}: "
                   f"{exc.strerror or exc}", err=True)


@app.command("log")
@_handled
def log(path: GameFileArg) -> None:
    """The game as readable movetext: a header, then every entry and what it caused."""
    from pbem.presentation.terminal import log_text

    rep, _ = _gameplay().replay_file(path)
    _note_seen(rep, path)
    typer.echo(log_text(rep))


@app.command("verify")
@_handled
def verify_files(paths: Annotated[list[Path], typer.Argument(help="Game files; copies of one game are also "
                                                              "checked against each other.")]) -> None:
    """Check every signature and every rule from the first entry on; for a finished game, the audit.
    Every file is checked and reported; the exit code is 1 if any failed, or forked."""
    from pbem.errors import PbemError, RecordError
    from pbem.presentation.terminal import next_line
    from pbem.protocol.seen import sighting
    from pbem.protocol.verify import compare, verify
    from pbem.record.gamefile import load

    failures = 0

    def fail(message: str) -> None:
        nonlocal failures
        failures += 1
        typer.echo(f"Error: {message}", err=True)

    checked = []
    for path in paths:
        try:
            record, _ = load(path)
            rep = verify(record)
        except RecordError as exc:  # already names the file
            fail(str(exc))
            continue
        except PbemError as exc:
            fail(f"{path}: {exc}")
            continue
        found = sighting(rep)  # against the history as it was before this run
        status = "finished" if rep.over else "in progress"
        chosen = f" ({rep.deal_text}: not shuffled jointly)" if rep.genesis.deal == "chosen" else ""
        typer.echo(f"{path}: valid, {status}, {rep.seq} entr{'y' if rep.seq == 1 else 'ies'}. {next_line(rep)}{chosen}")
        checked.append((path, rep, found))
    in_forked_pair = set()
    for i, (first_path, first, _) in enumerate(checked):
        for second_path, second, _ in checked[i + 1:]:
            if first.genesis.game_id == second.genesis.game_id:
                try:
                    compare(first.record, second.record)
                except PbemError as exc:
                    fail(f"{first_path} and {second_path}: {exc}")
                    in_forked_pair |= {first_path, second_path}
    for path, rep, found in checked:
        problem = found.problem(rep.seq)
        if found.kind == "forked" and path not in in_forked_pair:  # a fork between two files is said once
            fail(f"{path}: {problem}")
        elif problem and found.kind != "forked":
            typer.echo(f"Warning: {path}: {problem}", err=True)
        _remember_if_possible(rep)
    if failures:
        raise typer.Exit(1)


@app.command("export")
@_handled
def export(path: GameFileArg,
           directory: Annotated[Path, typer.Argument(help="Where to write the files (made if missing).")],
           entry: Annotated[int | None, typer.Option("--entry", help="Which entry: 0 is the genesis; "
                                                         "default the last.")] = None) -> None:
    """Write one entry as files that ssh-keygen and age check without pbem, and print the commands."""
    from pbem.presentation.export import export_entry
    from pbem.record.gamefile import load

    record, _ = load(path)
    for item in export_entry(record, len(record.entries) if entry is None else entry, directory):
        typer.echo(f"{', '.join(map(str, item.files))}: {item.what}")
        if item.command:
            typer.echo(f"  {item.command}")


# ---------------------------------------------------------------- acting

def _prompt_turn(session: Session) -> list[object]:
    """Ask on the terminal for each move or choice owed, showing the board and the legal choices."""
    from engine.contract import RuleError
    from pbem.errors import PbemError
    from pbem.presentation.terminal import board

    rep = session.rep
    events: list[object] = []
    while _gameplay().owes(rep, session.name, "move", "discard"):
        typer.echo(board(rep, rep.game.view(rep.state, session.name, session.knowledge())))
        typer.echo(_choices_text(rep, session))
        text = typer.prompt("Your move (empty to stop)", default="", show_default=False).strip()
        if not text:
            break
        try:
            events += session.act(_gameplay().parse_move(rep, session.name, text))
            events += session.automatic()
        except (PbemError, RuleError) as exc:
            typer.echo(f"Error: {exc}", err=True)
    return events


def _choices_text(rep: Replay, session: Session) -> str:
    """The legal choices, as the game's own module (pbem/games/) words them."""
    from pbem.presentation.games import presentation

    choices = list(rep.game.legal_actions(rep.state, session.name, session.knowledge()))
    text: str = presentation(rep.genesis.game).choices_text(rep.game, rep.state, choices)
    return text


def _report(turn: Turn, path: Path) -> None:
    from pbem.presentation.terminal import next_line

    for event in turn.events:
        typer.echo(f"  {event}")
    if turn.written:
        rep, written = turn.rep, turn.written
        span = f"entry {rep.seq}" if written == 1 else f"entries {rep.seq - written + 1}-{rep.seq}"
        typer.echo(f"Wrote {path} ({span}).")
    typer.echo(next_line(turn.rep))


BotOption = Annotated[str | None, typer.Option(
    help="Let a computer player choose: greedy, random or mcts (a search that knows only what you know).")]
ThinkOption = Annotated[float, typer.Option(min=0.01, help="Seconds the mcts bot thinks about each move.")]
SeedOption = Annotated[int | None, typer.Option(help="Seed of the bot's random choices, to repeat them.")]
IterationsOption = Annotated[int | None, typer.Option(
    min=1, help="Search iterations a move for the mcts bot instead of --think (the same with --seed on any machine).")]


PARTLY_DONE = 3
"""`pbem play`'s exit status when it wrote something but more is owed that this run could not do."""


def _still_owed(turn: Turn, path: Path, name: str) -> str | None:
    """What NAME asked for or owes that this run did not do, and how to go on; None when all is done."""
    from pbem.presentation.terminal import next_duty

    rep = turn.rep
    if turn.left:
        waiting = next_duty(rep)
        assert waiting is not None, "moves are left only while someone else owes an act"
        holders, what, detail = waiting
        who = " and ".join(f"the referee {h}" if h == rep.referee else h for h in holders)
        return (f"Not played yet: {' '.join(turn.left)}: {who} must act first ({what}: {detail}). Send them "
                f"{path}, then run pbem play again.")
    owed = _gameplay().owes(rep, name, "move", "discard")
    if owed is None:
        return None
    example = rep.game.format_action(rep.game.legal_actions(rep.state, name, turn.session.knowledge())[0])
    return (f"{name} owes a {owed.what} now ({owed.detail}): give it on the command line, e.g. "
            f"'pbem play {path} --as {name} {example}', or run pbem play on a terminal to be asked, or add "
            "--bot greedy")


@app.command("play", epilog="Exit status: 0 done; 1 an error, nothing written; 3 what could be done is "
                            "written, but more is owed: moves that must wait for another participant (the "
                            "referee's reveal, a tie-break opening), or a move not given. The last line says "
                            "what to do.")
@_handled
def play(path: GameFileArg, name: AsName,
         actions: Annotated[list[str] | None, typer.Argument(help="Your moves, e.g. 4 then 2@3b; "
                                                                "discard moon-4. None: a prompt on a terminal.")] = None,
         key: KeyOption = None,
         bot: BotOption = None,
         think: ThinkOption = 1.0,
         seed: SeedOption = None,
         iterations: IterationsOption = None,
         out: Annotated[Path | None, typer.Option("-o", "--output", help="Write here instead of in place.")] = None,
         mail: Annotated[bool, typer.Option("--mail", help="Then write the turn as an email (.eml) for the others."
                                            )] = False,
         send: Annotated[bool, typer.Option("--send", help="Then send the turn by SMTP ($PBEM_SMTP, "
                                            "$PBEM_SMTP_USER, $PBEM_SMTP_SECURITY).")] = False,
         ) -> None:
    """Do what NAME owes now: their join, the given moves (or a prompt), plus openings and table-mode deals
    and reveals.
    Moves that must wait for another participant (in referee mode, a reveal) are left for the next run."""
    from pbem.errors import UsageError

    interactive = sys.stdin.isatty()
    turn = _gameplay().take_turn(path, name, actions or [], key, bot, out, ask=_prompt_turn if interactive else None,
                           think=think, seed=seed, iterations=iterations)
    dest = out or path
    owed = None if (actions or bot or interactive) and not turn.left else _still_owed(turn, dest, name)
    if owed and not turn.written:
        raise UsageError(owed)
    if not turn.written:
        still = _gameplay().owes(turn.rep, name, "move", "discard")
        typer.echo(f"Nothing written: {name} still owes a {still.what} ({still.detail})." if still else
                   f"Nothing written: {name} owes nothing now.")
    _report(turn, dest)
    if turn.written and (mail or send):
        _mail_turn(turn.rep, name, None, send, False, None, os.environ.get("PBEM_SMTP"),
                   os.environ.get("PBEM_SMTP_USER"), os.environ.get("PBEM_SMTP_SECURITY", "starttls"), path=dest)
    if owed:
        typer.echo(owed)
        raise typer.Exit(PARTLY_DONE)


@app.command("referee")
@_handled
def referee(path: GameFileArg, name: AsName, key: KeyOption = None,
            out: Annotated[Path | None, typer.Option("-o", "--output", help="Write here instead.")] = None) -> None:
    """The referee's duties in referee mode: its join, the deal, every dealer's act owed (reveals, deals,
    reshuffles, a Thief's pick), openings for tie-breaks, the end audit, and a verdict on any secret its
    player did not hold."""
    turn = _gameplay().take_turn(path, name, [], key, out=out, referee_only=True)
    if not turn.written:
        typer.echo("Nothing written: the referee owes nothing now.")
    _report(turn, out or path)


@app.command("armor")
@_handled
def armor_file(path: GameFileArg,
               out: Annotated[Path | None, typer.Option("-o", "--output", help="Write it here instead "
                                                           "of printing it.")] = None) -> None:
    """Print the game as an armored text block, to paste into an email body (the reverse: dearmor)."""
    from pbem.record.gamefile import armor, load
    from pbem.record.models import to_json

    record, _ = load(path)
    _emit(armor(to_json(record)), out)


@app.command("dearmor")
@_handled
def dearmor_file(path: GameFileArg,
                 out: Annotated[Path | None, typer.Option("-o", "--output", help="Write it here instead "
                                                             "of printing it.")] = None) -> None:
    """Print the game as plain JSON: the reverse of armor (reads a saved email too)."""
    from pbem.record.gamefile import load
    from pbem.record.models import to_json

    record, _ = load(path)
    _emit(to_json(record), out)


def _emit(text: str, out: Path | None) -> None:
    from pbem.record.files import write_atomic

    if out is None:
        typer.echo(text, nl=False)
    else:
        write_atomic(out, text.encode())
        typer.echo(f"Wrote {out}.")


# ---------------------------------------------------------------- mail

@contact_app.command("add")
@_handled
def contact_add(name: Annotated[str, typer.Argument(help="The participant's name in games (yours too).")],
                address: Annotated[str, typer.Argument(help="Their mail address, e.g. bob@example.org.")]) -> None:
    """Add or change a participant's mail address."""
    from pbem.transport.contacts import add, book_path

    add(name, address)
    typer.echo(f"{name} <{address.strip()}> is in the address book ({book_path()}).")


@contact_app.command("list")
@_handled
def contact_list() -> None:
    """List the address book."""
    from pbem.transport.contacts import book_path, load

    book = load()
    if not book:
        typer.echo(f"The address book is empty ({book_path()}). Add with: pbem contact add NAME ADDRESS")
    for name, address in sorted(book.items()):
        typer.echo(f"{name:<16} {address}")


GamesOption = Annotated[Path | None, typer.Option("--games", help="The folder of local game copies "
                                                     "(default: $PBEM_GAMES, else PBEM_HOME/games-files).")]


def _mail_turn(rep: Replay, name: str, out: Path | None, send: bool, attach: bool, since: int | None,
               smtp: str | None, user: str | None, security: str, games: Path | None = None,
               path: Path | None = None) -> None:
    from pbem.errors import UsageError
    from pbem.transport import copies
    from pbem.transport.mail import Server, mail_turn

    if send and not smtp:
        raise UsageError("--send needs a server: --smtp HOST[:PORT] or $PBEM_SMTP")
    server = Server(smtp, security, user) if send and smtp else None
    typer.echo(mail_turn(rep, name, copies.folder(games), path, since, attach, out, server))


@app.command("mail")
@_handled
def mail_command(
        path: GameFileArg, name: AsName,
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
    rep, _ = _gameplay().replay_file(path)
    _mail_turn(rep, name, out, send, attach, since, smtp, smtp_user, smtp_security, games, path)


@app.command("inbox")
@_handled
def inbox_command(
        paths: Annotated[list[Path] | None, typer.Argument(help="Maildir folders, mbox files, .eml files or "
                                                              "folders of them (default: $PBEM_MAIL, else "
                                                              "$MAIL, else ~/Maildir).")] = None,
        games: GamesOption = None,
        again: Annotated[bool, typer.Option("--again", help="Read every mail again, also those applied "
                                            "before (after restoring or deleting a copy).")] = False) -> None:
    """Apply every pbem turn and game found in mail to the local copies; say what you owe now."""
    from pbem.transport import copies
    from pbem.transport.inbox import default_mailbox, read
    from pbem.transport.status import collect, line

    directory = copies.folder(games)
    report = read(paths or [default_mailbox()], directory, again)
    for path, first, last in report.updated.values():
        span = "the invitation" if last == 0 else f"entry {last}" if first >= last else f"entries {first}-{last}"
        typer.echo(f"Updated {path}: {span}.")
    for problem in report.problems:
        typer.echo(f"Error: {problem}", err=True)
    for fork in report.forks:
        typer.echo(f"Error: FORK: {fork}", err=True)
    news = f"{len(report.updated)} game{'s' * (len(report.updated) != 1)} updated" if report.updated else "nothing new"
    typer.echo(f"Read {report.mails} mail{'s' * (report.mails != 1)}: {news}.")
    status = collect(copies.all_copies(directory))
    owed = [g for g in status.games if g.i_owe]
    for game in owed:
        typer.echo(line(game, status.now))
        me = next(d.party for d in game.duties if d.mine)
        typer.echo(f"    pbem play {game.path} --as {me} --mail")
    if not owed:
        typer.echo("You owe nothing now.")
    if report.problems or report.forks:
        raise typer.Exit(1)


@app.command("status")
@_handled
def status_command(
        games: GamesOption = None,
        as_json: Annotated[bool, typer.Option("--json", help="One JSON object (schemas/status.schema.json).")] = False,
        at: Annotated[int | None, typer.Option(help="Judge lateness at this time (Unix seconds) instead of "
                                                  "now.")] = None) -> None:
    """Every game here, one line each, mine first. Exit status 1 when I owe something, else 0."""
    from pbem.transport import copies
    from pbem.transport.status import collect, line

    directory = copies.folder(games)
    status = collect(copies.all_copies(directory), at)
    if as_json:
        typer.echo(status.model_dump_json(indent=2))
    else:
        if not status.games:
            typer.echo(f"No games in {directory}.")
        for game in status.games:
            typer.echo(line(game, status.now))
        for problem in status.problems:
            typer.echo(f"Error: {problem}", err=True)
    if status.i_owe:
        raise typer.Exit(1)


# ---------------------------------------------------------------- the demo

@app.command("demo")
@_handled
def demo(players: Annotated[int, typer.Option(min=2, max=6, help="How many computer players (as many as the game "
                                                                  "takes: Sarcophagus 2-4, Path of Pharaohs 3-6).")] = 3,
         game_name: Annotated[str, typer.Option("--game", help="The game to play: sarcophagus or "
                                                               "path-of-pharaohs.")] = "sarcophagus",
         directory: Annotated[Path | None, typer.Option("--dir", help="Where to put the files "
                                                           "(default: a new temporary directory).")] = None,
         referee_mode: Annotated[bool, typer.Option("--referee", help="Add a referee bot (referee mode).")] = False,
         quiet: Annotated[bool, typer.Option(help="Print only the result.")] = False,
         bot: Annotated[str, typer.Option(help="The computer players: greedy, random or mcts.")] = "greedy",
         think: ThinkOption = 1.0, seed: SeedOption = None, iterations: IterationsOption = None) -> None:
    """Play a whole game among computer players through the same files and commands, then verify it."""
    import tempfile

    from engine import find_game
    from engine.contract import DEALER, UnknownGame
    from pbem.crypto.keyring import create_key
    from pbem.errors import UsageError
    from pbem.presentation.games import presentation
    from pbem.presentation.terminal import board, result_text
    from pbem.protocol.bots import policy_for

    try:
        chosen = find_game(game_name)
    except UnknownGame as exc:
        raise UsageError(str(exc)) from None
    policy_for(chosen, bot)  # a bot the game lacks is an error before any file is made
    base = directory or Path(tempfile.mkdtemp(prefix="pbem-demo-"))
    base.mkdir(parents=True, exist_ok=True)
    os.environ["PBEM_HOME"] = str(base / "home")
    names = ["ann", "ben", "cat", "dan", "eve", "fay"][:players]
    for person in names + (["ref"] if referee_mode else []):
        if not (base / "home" / "keys" / person).exists():  # a second demo in one folder reuses the keys
            create_key(person, None)
    game = base / "game.json"
    rep, _ = _gameplay().create(chosen.name, game, "ref" if referee_mode else names[0], names,
                                "ref" if referee_mode else None, [], None, None, force=True)
    if not quiet:
        typer.echo(f"Demo: {', '.join(names)} play {chosen.title}{' with a referee bot' if referee_mode else ''}"
                   f" in {game}")
    drawing = presentation(rep.genesis.game)
    moments = [1 / 3, 2 / 3]  # how far into the game to show the board
    turns = 0
    while rep.duties():
        who = rep.duties()[0].who
        if who == DEALER:
            who = rep.dealer_signer or names[0]
        rep, events = _gameplay().take_turn(game, who, [], bot=bot, think=think, iterations=iterations,
                                seed=None if seed is None else seed + turns)[:2]
        turns += 1
        if not quiet and rep.state is not None:
            for event in events:
                if drawing.notable(event):
                    typer.echo(f"  {event}")
            shown = rep.game.view(rep.state, None)
            if moments and drawing.progress(shown) >= moments[0] and rep.duties():
                moments = [m for m in moments if drawing.progress(shown) < m]
                typer.echo("\n" + board(rep, shown) + "\n")
    if not quiet:
        typer.echo("\n" + board(rep, rep.game.view(rep.state, None)) + "\n")
    verified, _ = _gameplay().replay_file(game)
    typer.echo(f"Finished after {rep.seq} signed entries ({turns} runs of 'pbem play'): {result_text(verified)}")
    typer.echo(f"Verified: every signature, every rule, the end audit. Files: {base}")
    typer.echo(f"Look at it:  pbem html {game}   |   pbem log {game}   |   pbem verify {game}")


from pbem.cli import browser  # noqa: E402, F401  (registers `pbem app`)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
