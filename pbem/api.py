"""The public library API: everything a front end does (the CLI, the judge, the app), in one module.

    from pbem import api

    game = api.open_game(Path("game.json"))          # read and verify from the first entry
    print(api.next_line(game))                       # "Next: ben (move: ...)"
    turn = api.play(Path("game.json"), "ben", ["3@1a"])
    print(turn.events, turn.written)

A game is a `Replay` (the record replayed and checked); a move is its notation, as a person types it.
Errors are `pbem.errors.PbemError` or `engine.contract.RuleError`, each with a message for a person.
docs/library.md walks through a whole game. Heavier parts (mail, the HTML page, export, the searches)
are imported by the functions that use them, so a front end's start-up stays fast.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine import find_game
from engine.contract import DEALER, Duty, RuleError, UnknownGame
from pbem.crypto import Identity, PublicKey
from pbem.crypto.keyring import (
    PASSPHRASE_ENV,
    add_key,
    create_key,
    key_dir,
    list_keys,
    load_identity,
    passphrase_given,
    read_public,
    unlock_key,
)
from pbem.errors import MovedOn, NoPassphrase, PbemError, UsageError
from pbem.playing import (
    DemoStep,
    TurnResult,
    act_in_session,
    create,
    create_signed,
    demo,
    owes,
    parse_move,
    parse_policy,
    signer_for,
    take_turn,
)
from pbem.playing import replay_file as _replay_file
from pbem.presentation.choices import Choice
from pbem.presentation.games import Presentation, presentation
from pbem.presentation.terminal import (
    Style,
    board,
    log_text,
    next_duty,
    next_line,
    owed,
    pregame_text,
    result_text,
    terminal_style,
)
from pbem.protocol.replay import Replay
from pbem.protocol.seen import Sighting, history_path, remember, remember_quietly, sighting
from pbem.protocol.session import Session
from pbem.protocol.verify import Checked, VerifyReport, verify
from pbem.protocol.verify import verify_files as _verify_files
from pbem.record.files import write_atomic
from pbem.record.gamefile import armor
from pbem.record.models import GameFile, from_json, payload_hash, to_json
from pbem.record.status import Status
from pbem.transport import advice, contacts, copies
from pbem.transport.status import collect, duty_text, late_line, line

if TYPE_CHECKING:
    from email.message import EmailMessage

    from pbem.presentation.export import Exported
    from pbem.record.deadlines import Clock
    from pbem.transport.imap import Connection as ImapConnection
    from pbem.transport.imap import Mailbox as ImapMailbox
    from pbem.transport.inbox import Report as InboxReport
    from pbem.transport.mail import Server


__all__ = [
    "DEALER",
    "PASSPHRASE_ENV",
    "Checked",
    "Choice",
    "DemoStep",
    "Duty",
    "GameFile",
    "Identity",
    "MovedOn",
    "NoPassphrase",
    "PbemError",
    "Presentation",
    "PublicKey",
    "Replay",
    "RuleError",
    "Session",
    "Sighting",
    "Status",
    "Style",
    "TurnResult",
    "UsageError",
    "VerifyReport",
    "absent",
    "act",
    "add_contact",
    "add_key",
    "address_book",
    "applied_mails",
    "armored",
    "board",
    "book_path",
    "check_address",
    "choices_text",
    "collect",
    "compose_mail",
    "copies_in",
    "create_key",
    "deadline_lines",
    "demo",
    "duty_clocks",
    "duty_text",
    "export_entry",
    "fetch_imap",
    "find_copy",
    "game_names",
    "game_path",
    "game_title",
    "games_folder",
    "hash_chain",
    "history",
    "history_path",
    "html_page",
    "imap_connect",
    "imap_mailbox",
    "is_imap",
    "is_name",
    "json_view",
    "key_dir",
    "late_line",
    "legal_moves",
    "legend",
    "line",
    "list_keys",
    "load",
    "load_identity",
    "log_text",
    "mail_games",
    "mail_turn",
    "mailed_up_to",
    "mark_mailed",
    "my_name",
    "new_game",
    "new_key",
    "next_command",
    "next_duty",
    "next_line",
    "note_seen",
    "open_game",
    "owes",
    "page_choices",
    "parse_json",
    "parse_move",
    "parse_policy",
    "passphrase_given",
    "play",
    "pregame_text",
    "presentation",
    "read_file",
    "read_mail",
    "read_public",
    "read_record",
    "referee",
    "remember",
    "replay_asset",
    "result_text",
    "seen_now",
    "send_flag",
    "send_mail",
    "sends_by_default",
    "short_id",
    "sighting",
    "signer_for",
    "smtp_server",
    "start_game",
    "status",
    "terminal_style",
    "to_json",
    "unlock_key",
    "unsent",
    "unsent_line",
    "verify_files",
    "verify_record",
    "view",
    "viewer",
    "write_file"
]


# ---------------------------------------------------------------- games on disk

def load(path: Path) -> tuple[GameFile, bool]:
    """The record in a game file (JSON or armored) or a saved mail (its attachment, or its turn block on
    this machine's copy), not yet verified; and whether it was armored."""
    from pbem.transport.saved import read

    loaded = read(path)
    return loaded.record, loaded.armored


def open_game(path: Path) -> Replay:
    """A game file (JSON, or an armored block, even inside a saved email) read and verified."""
    return _replay_file(path)[0]


def armored(path: Path) -> str:
    """The game as an armored text block for a mail body."""
    return armor(to_json(load(path)[0]))


def new_game(game: str, out: Path, creator: str, players: list[str], referee: str | None = None,
             options: list[str] | None = None, layout: Path | None = None, key: str | None = None,
             force: bool = False, deadline: str | None = None, deadlines: str | None = None,
             ) -> tuple[Replay, list[object]]:
    """Write a game's signed invitation. `players` and `referee` are NAME=PUBKEY (a key line, a .pub file,
    a key name) or a bare key name; `options` KEY=VALUE; `deadline` e.g. 72h (who is late, shown only);
    `deadlines` a deadline policy every join agrees to, after which absences can be recorded: `default`
    or e.g. `turn=48,grace=24` (docs/deadlines.md). Returns the game and the events of the creator's
    automatic acts."""
    return create(game, out, creator, players, referee, options or [], layout, key, force, deadline, deadlines)


def deadline_lines(game: Replay, at: int | None = None) -> list[str]:
    """A game's deadlines at `at` (default now), as `show` prints them: each duty on a clock (due in,
    reminder due, late, may be recorded absent) and every absence recorded. Empty without a deadline."""
    if game.genesis.deadlines is None and not game.genesis.deadline_hours:
        return []
    return late_line(game.record, at).split("\n")


def play(path: Path, name: str, actions: list[str] | None = None, key: str | None = None, bot: str | None = None,
         out: Path | None = None, ask: Callable[[Session], list[object]] | None = None, think: float = 1.0,
         seed: int | None = None, iterations: int | None = None, message: str | None = None) -> TurnResult:
    """Do what NAME owes: their join, the given moves (notation), openings and table-mode deals; a bot's
    choice (`bot`: greedy, random, mcts) or `ask` when no moves are given. Writes the file (in place, or
    `out`) when anything was signed. `message`: a note to the table, signed into the first entry written."""
    return take_turn(path, name, actions or [], key, bot, out, ask, think=think, seed=seed, iterations=iterations,
                     message=message)


def referee(path: Path, name: str, key: str | None = None, out: Path | None = None) -> TurnResult:
    """The referee's duties: its join, the deal, reveals, deals, reshuffles, a Thief's pick, openings,
    the audit, and a verdict on any secret its player did not hold."""
    return take_turn(path, name, [], key, out=out, referee_only=True)


def viewer(game: Replay, name: str | None, key: str | None = None) -> tuple[str | None, Any, Identity | None]:
    """Who looks and what they know, for `view()`: nobody (public), a player with their own secrets, or a
    referee (the dealer's view: it reads every hidden item); and the key that reads them."""
    if not name:
        return None, None, None
    identity = signer_for(game, name, key)
    session = Session(game, name, identity)
    return (DEALER if session.is_referee else name), session.knowledge(), identity


def view(game: Replay, name: str | None = None, key: str | None = None) -> dict[str, Any]:
    """What NAME may see (nobody's secrets when None): the game's own view, plus who made the game, the
    deal, a verdict, and the duties while the game has not begun or has ended by a verdict."""
    observer, knowledge, _ = viewer(game, name, key)
    shown: dict[str, Any]
    if game.state is None:
        shown = {"status": "joining" if game.awaiting_join else "dealing"}
    else:
        shown = game.game.view(game.state, observer, knowledge)
    shown.update(created_by=game.genesis.author, deal=game.deal_text)
    if game.verdict:
        shown.update(status="forfeit", verdict={"against": game.verdict.against, "reason": game.verdict.reason,
                                                "entry": game.verdict.seq, "by": game.verdict.by})
    if game.state is None or game.verdict:
        shown["duties"] = [{"who": d.who, "what": d.what, "detail": d.detail} for d in game.duties()]
    return shown


def json_view(game: Replay, shown: dict[str, Any]) -> dict[str, Any]:
    """`show --json`: the game's identity and length, then the view, with what is owed from the one list
    the text reads too (`duties`, each holder by name: the referee, or at a table any player's program)
    and `next`, the first of them as the text says it."""
    duties = [{"who": who, "what": what, "detail": detail} for who, what, detail in owed(game)]
    upcoming = next_duty(game)
    following = {"who": upcoming[0], "what": upcoming[1], "detail": upcoming[2]} if upcoming else None
    return {"game": game.genesis.game, "game_id": game.genesis.game_id, "mode": game.mode, "referee": game.referee,
            "entries": game.seq, **shown, "duties": duties, "next": following}


def legal_moves(session: Session) -> list[Any]:
    """The moves and choices the session's player may make now, from the rules (empty when none is owed)."""
    game = session.rep
    if game.state is None or not owes(game, session.name, "move", "discard"):
        return []
    return list(game.game.legal_actions(game.state, session.name, session.knowledge()))


def choices_text(session: Session) -> str:
    """The legal choices, as the game's own presentation words them for a prompt."""
    game = session.rep
    return presentation(game.genesis.game).choices_text(game.game, game.state, legal_moves(session))


def note_seen(game: Replay, where: Path | None = None) -> tuple[str | None, str | None]:
    """Record what was read in this machine's history of the game (and `where` it is). Returns a warning
    when this machine has seen a later or a different version, and one when the history cannot be written
    (a read-only home)."""
    return sighting(game).problem(game.seq), remember_quietly(game, where)


def html_page(game: Replay, name: str | None = None, key: str | None = None) -> str:
    """The game as one web page that replays it entry by entry; with NAME, what NAME may see."""
    from pbem.presentation.html import page  # the page's drawing code: only this command needs it

    observer, knowledge, identity = viewer(game, name, key)
    return page(game, observer, knowledge, viewer=name, key=identity)


def replay_asset(game: str, suffix: str) -> str:
    """The HTML drawing of a game: its script (".js"), style (".css") or SVG definitions (".svg"), as the
    replay page embeds them and the app serves them."""
    from pbem.presentation.html import static  # the page's files: only pages need them

    return static(presentation(game).HTML_STATIC + suffix)


def export_entry(path: Path, entry: int | None, directory: Path) -> list[Exported]:
    """One entry (0 is the genesis; default the last) as files that ssh-keygen and age check without pbem."""
    from pbem.presentation.export import export_entry as export  # only `pbem export` needs it

    record, _ = load(path)
    return export(record, len(record.entries) if entry is None else entry, directory)


def game_path(given: Path, games: Path | None = None) -> Path:
    """A game as named on the command line: a file (a game file or a saved mail), else a game in the folder
    of local copies by the start of its id (`25f0`); UsageError when no game or several match."""
    return copies.resolve(given, games)


def my_name(path: Path, given: str | None = None, key: str | None = None) -> str:
    """Who I am in this game: `given` (--as), else the one participant whose key this home holds."""
    if given:
        return given
    if key:
        raise UsageError("--key FILE needs --as NAME: the name you play under")
    return advice.only_name(load(path)[0], path)


def next_command(game: Replay, path: str) -> str | None:
    """What the person at this machine types next for this game (`path` as they name it), or whom it
    waits for: the last line of `show`."""
    owed_now = next_duty(game)
    return advice.next_command(game, path, owed_now[0] if owed_now else [])


def unsent_line(game: Replay, path: str) -> str | None:
    """"Written here, not sent: ..." with the command that sends it, when this machine holds entries
    that the others have not had by mail."""
    return advice.unsent_line(game, path)


def send_flag() -> str:
    """What a suggested `pbem play` adds to reach the others: "" (sending is the default), " --send"
    (a server is configured) or " --mail"."""
    return advice.send_flag()


def sends_by_default() -> bool:
    """PBEM_SEND=1 with PBEM_SMTP set: `pbem play` sends what it writes unless told --no-send."""
    return advice.sends_by_default()


def verify_files(paths: list[Path], on_valid: Callable[[Checked], None] | None = None,
                 on_failure: Callable[[str], None] | None = None,
                 on_warning: Callable[[str], None] | None = None) -> VerifyReport:
    """Check every file (a game file or a saved mail); copies of one game are also checked against each
    other (a fork between two files is said once). The callbacks hear each result as it is found."""
    return _verify_files(paths, on_valid, on_failure, on_warning, read=lambda path: load(path)[0])


# ---------------------------------------------------------------- mail and local copies

def write_file(path: Path, data: bytes, mode: int | None = None) -> None:
    """Write a whole file or nothing (a temporary file, fsync, rename): never half a file."""
    write_atomic(path, data, mode)


def games_folder(given: Path | None = None) -> Path:
    """The folder of local game copies: `given`, else $PBEM_GAMES, else PBEM_HOME/games-files."""
    return copies.folder(given)


def status(games: Path | None = None, at: int | None = None) -> Status:
    """Every game in the folder of local copies, mine first, judged late or not at time `at` (default now)."""
    return collect(copies.all_copies(games_folder(games)), at)


def read_mail(paths: list[Path] | None = None, games: Path | None = None, again: bool = False) -> InboxReport:
    """Apply every pbem turn and game found in mailboxes (Maildir, mbox, .eml; default $PBEM_MAIL, $MAIL,
    ~/Maildir) to the local copies. `again` reads mails applied before too."""
    from pbem.transport.inbox import default_mailbox, read  # mail parsing: only the inbox needs it

    return read(paths or [default_mailbox()], games_folder(games), again)


def smtp_server(address: str, security: str = "starttls", user: str | None = None,
                password: str | None = None) -> Server:
    """Where `mail_turn` sends: HOST[:PORT], starttls, tls or none (localhost only), and the login; its
    password when a front end holds it (else PBEM_SMTP_PASSWORD or a prompt when sending)."""
    from pbem.transport.mail import Server  # smtplib and email: only mail needs them

    return Server(address, security, user, password)


def mail_turn(game: Replay, name: str, path: Path | None = None, since: int | None = None, attach: bool = False,
              out: Path | None = None, server: Server | None = None, games: Path | None = None) -> str:
    """Mail what the other parties lack (To who owes next, Cc the rest, one thread per game): to `server` by
    SMTP, else to an .eml file (`out`). Returns the line that says what was done."""
    from pbem.transport.mail import mail_turn as send_turn  # smtplib and email: only mail needs them

    return send_turn(game, name, games_folder(games), path, since, attach, out, server)


def compose_mail(game: Replay, name: str, after: int | None, attach: bool = False,
                 book: dict[str, str] | None = None) -> EmailMessage:
    """The turn mail itself: the entries after `after` as a turn block (None: the whole game). The
    addresses come from `book` (name -> address), else from the address book."""
    from pbem.transport.mail import compose  # smtplib and email: only mail needs them

    return compose(game, name, after, attach, book)


def send_mail(msg: EmailMessage, server: Server) -> None:
    """Hand a mail to an SMTP server (PbemError with the server's reason if it is refused)."""
    from pbem.transport.mail import send  # smtplib: only mail needs it

    send(msg, server.address, server.security, server.user)


def mail_games(where: str, data: bytes) -> list[str] | None:
    """The games a mail carries turns or files of (a damaged block counts as an unnamed game: ""), or
    None when it holds nothing of pbem."""
    from pbem.transport import turns
    from pbem.transport.inbox import items

    found = items(where, data)
    if not found:
        return None
    return list(dict.fromkeys(f.item.game_id if isinstance(f.item, turns.TurnBlock) else
                              f.item.genesis.game_id if isinstance(f.item, GameFile) else "" for f in found))


def applied_mails(games: Path | None = None) -> set[str]:
    """The SHA-256 of every mail whose content is all in the copies (read_mail skips those)."""
    from pbem.transport.inbox import applied

    return applied(games_folder(games))


def copies_in(games: Path | None = None) -> list[Path]:
    """Every game copy in the folder."""
    return [p for p in copies.all_copies(games_folder(games)) if copies.game_id_of(p)]


def short_id(game_id: str) -> str:
    return copies.short_id(game_id)


def mailed_up_to(game_id: str) -> int | None:
    """The last entry every party has had by mail (sent or received here), or None."""
    return copies.shared(game_id)


def mark_mailed(game_id: str, seq: int) -> None:
    """Every party has had the entries up to `seq` (the mark never moves back)."""
    copies.mark_shared(game_id, seq)


def read_record(data: bytes) -> GameFile:
    """A game file's record, validated but not verified (RecordError if it is not one)."""
    return from_json(data)


def hash_chain(record: GameFile) -> list[str]:
    """The hash of the genesis and of every entry, as replay computes them; nothing verified."""
    return [payload_hash(record.genesis)] + [payload_hash(e) for e in record.entries]


def verify_record(record: GameFile) -> Replay:
    """The record replayed and checked from its first entry (a VerifyError says what is wrong)."""
    return verify(record)


def read_file(path: Path, what: str, limit: int) -> bytes:
    """A regular file's bytes, at most `limit` (the one gate every file pbem reads goes through): an
    Unreadable error naming the file and `what` it was to be otherwise."""
    from pbem.record.reading import read_file as gate

    return gate(path, what, limit)


def parse_json(data: bytes) -> Any:
    """JSON parsed strictly and in bounded depth (pbem's own notes, an address book)."""
    from pbem.record.canonical import parse_json as parse

    return parse(data)


def is_name(text: str) -> bool:
    """Whether a text is a usable participant, key or contact name."""
    from pbem.record.names import is_name as valid

    return valid(text)


def imap_mailbox(url: str, cafile: str | None = None) -> ImapMailbox:
    """An IMAP folder from imaps://USER@HOST[:PORT][/FOLDER] (imap:// for STARTTLS)."""
    from pbem.transport.imap import parse_url

    return parse_url(url, cafile)


def imap_connect(box: ImapMailbox, password: str | None = None) -> ImapConnection:
    """A logged-in session (`fetch_into` a Maildir, `wait` for new mail); the password from
    PBEM_IMAP_PASSWORD or a prompt when not given."""
    from pbem.transport.imap import Connection
    from pbem.transport.imap import password as ask

    return Connection(box, password if password is not None else ask(box))


def duty_clocks(game: Replay) -> dict[str, tuple[str, int, Clock]]:
    """In a game with a deadline policy: each party on a clock now, with the duty's kind, the entry it
    has been owed since, and its clock (deadline, reminders, when an absence may be recorded)."""
    from pbem.protocol.absence import duty_clock, owing

    found = {}
    for party, duty in owing(game).items():
        times = duty_clock(game, party)
        if times is not None:
            found[party] = (duty.what, game.began.get(party, game.seq), times)
    return found


def absent(path: Path, party: str, name: str, key: str | None = None,
           at: int | None = None) -> tuple[Replay, list[object]]:
    """NAME records PARTY absent from the duty they answer for, once its deadline and grace have passed
    by the signed times; the game's rule then applies. Writes the file. `at`: the time to sign at."""
    from pbem.protocol.seen import check_not_stale

    game, armored_file = _replay_file(path)
    check_not_stale(game)
    session = Session(game, name, signer_for(game, name, key))
    events = session.record_absence(party, at)
    events += session.automatic()
    from pbem.record.gamefile import save

    save(path, game.record, armored_file)
    remember(game)
    return game, events


def is_imap(text: str) -> bool:
    """Whether a mailbox given by name is an IMAP URL (imaps:// or imap://) rather than a path."""
    return text.startswith(("imaps://", "imap://"))


def fetch_imap(url: str) -> Path:
    """Copy what is new in an IMAP folder into its local Maildir (PBEM_HOME/imap/...), which read_mail reads."""
    from pbem.transport.imap import fetch_to_spool

    return fetch_to_spool(url)


def address_book() -> dict[str, str]:
    return contacts.load()


def book_path() -> Path:
    return contacts.book_path()


def add_contact(name: str, address: str) -> None:
    contacts.add(name, address)


def check_address(address: str) -> str:
    return contacts.check_address(address)


# ---------------------------------------------------------------- keys

def new_key(name: str, passphrase: bytes | None) -> tuple[Path, Identity]:
    """A new ssh-ed25519 key pair in the key directory (no passphrase: for bots and CI)."""
    return create_key(name, passphrase)


# ---------------------------------------------------------------- a front end that stays open (pbem app)

def find_copy(game_id: str, games: Path | None = None) -> Path | None:
    """The local copy of a game, by its id (GAME-SHORTID.json in the folder of copies), or None."""
    from pbem.transport.inbox import Copies  # the inbox's store: only this needs it

    return Copies(games_folder(games)).find(game_id)


def unsent(game_id: str, seq: int) -> int:
    """How many entries of a game, up to `seq`, were written here but have not gone out by mail."""
    shared = copies.shared(game_id)
    return seq - shared if shared is not None and shared < seq else 0


def game_names() -> list[str]:
    """Every game pbem plays, by name (sarcophagus, path-of-pharaohs)."""
    from engine import GAMES

    return list(GAMES)


def game_title(name: str) -> str:
    try:
        return find_game(name).title
    except UnknownGame:
        return name


def seen_now(game: Replay, session: Session | None) -> dict[str, Any]:
    """The game's view as the session's participant sees it now (None: public information only)."""
    from pbem.presentation.html import seen_now as view_now  # the page's drawing: only pages need it

    return view_now(game, session)


def history(game: Replay, session: Session | None) -> list[dict[str, Any]]:
    """Every position of the game as the replay page draws it, as the session's participant knew it then."""
    from pbem.presentation.html import history as frames  # the page's drawing: only pages need it

    return frames(game, session)


def page_choices(session: Session) -> list[Choice]:
    """The session's legal moves (`legal_moves`) as a clickable page offers them: each one's notation, the
    element of the game's drawing it targets, its option and what it will do (the game's presentation)."""
    game = session.rep
    shown = presentation(game.genesis.game)
    return [shown.html_choice(action, session.name, game.game.format_action(action)) for action in legal_moves(session)]


def legend(game: str) -> tuple[tuple[str, str], ...]:
    """What the game's drawing shows, term by term."""
    return presentation(game).HTML_LEGEND


def act(session: Session, path: Path, head: str, notation: str | None) -> tuple[list[object], int]:
    """With a key in memory: one legal move by its notation (None: only what needs no decision) on the game
    as it stood at `head`, then what needs no decision; the file written. MovedOn if the game has moved
    on, UsageError if the move is not legal: nothing written. Returns the events and entries written."""
    return act_in_session(session, path, head, notation)


def start_game(game: str, creator: str, identity: Identity, players: list[tuple[str, str]],
               referee: tuple[str, str] | None = None, options: list[str] | None = None, deadline: str | None = None,
               games: Path | None = None) -> tuple[Replay, Path]:
    """A new game's invitation signed with a key in memory, kept as the creator's copy in the folder of
    copies; the others' keys as key lines (the creator's own may be empty). Mail it with `mail_turn`."""
    def key(name: str, line: str) -> PublicKey:
        return identity.public if name == creator and not line else PublicKey.parse(line)

    return create_signed(game, creator, identity, [(n, key(n, line)) for n, line in players],
                         (referee[0], key(*referee)) if referee else None, options or [], deadline, games_folder(games))
