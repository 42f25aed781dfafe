"""The API's games on disk: making, playing, viewing and verifying games (re-exported by pbem.api)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.contract import DEALER
from pbem.api.playing import (
    TurnResult,
    create,
    owes,
    signer_for,
    take_turn,
)
from pbem.api.playing import replay_file as _replay_file
from pbem.crypto import Identity
from pbem.errors import UsageError
from pbem.presentation.games import presentation
from pbem.presentation.terminal import (
    next_duty,
    owed,
)
from pbem.protocol.replay import Replay
from pbem.protocol.seen import remember_quietly, sighting
from pbem.protocol.session import Session
from pbem.protocol.verify import Checked, VerifyReport
from pbem.protocol.verify import verify_files as _verify_files
from pbem.record.gamefile import armor
from pbem.record.models import GameFile, to_json
from pbem.transport import advice, lookup
from pbem.transport.status import late_line

if TYPE_CHECKING:

    from pbem.presentation.export import Exported


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


def part_done(game: Replay, name: str) -> bool:
    """Whether NAME's part is done for now, so that what they signed goes to the others in one mail: they
    owe no move or choice now (their turn is complete, or another party must act first, as a referee's
    reveal). A turn of several acts (a Sarcophagus turn's two coins) is done only with its last."""
    from engine.contract import TURN_DUTIES

    return owes(game, name, *TURN_DUTIES) is None


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
    from engine.contract import TURN_DUTIES

    game = session.rep
    if game.state is None or not owes(game, session.name, *TURN_DUTIES):
        return []
    return list(game.game.legal_actions(game.state, session.name, session.knowledge()))


def example_move(session: Session) -> str | None:
    """One move the session's player may make now, as a person types it (None when none is owed)."""
    game, moves = session.rep, legal_moves(session)
    return presentation(game.genesis.game).typed(game.game, moves[0]) if moves else None


def choices_text(session: Session) -> str:
    """The legal choices, as the game's own presentation words them for a prompt."""
    game = session.rep
    return presentation(game.genesis.game).choices_text(game.game, game.state, legal_moves(session))


def note_seen(game: Replay, where: Path | None = None) -> tuple[str | None, str | None]:
    """Record what was read in this machine's history of the game (and `where` it is). Returns a warning
    when this machine has seen a later or a different version, and one when the history cannot be written
    (a read-only home)."""
    return sighting(game).problem(game.seq, where), remember_quietly(game, where)


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
    """A game as named on the command line: a file (a game file or a saved mail), else a game known here by
    the start of its id (`25f0`: in the current folder, the folder of copies, or where this home last saw
    it; pbem/transport/lookup.py); UsageError when no game or several match."""
    return lookup.resolve(given, games)


def my_name(path: Path, given: str | None = None, key: str | None = None) -> str:
    """Who I am in this game: `given` (--as), else the one participant whose key this home holds."""
    if given:
        return given
    if key:
        raise UsageError("--key FILE needs --as NAME: the name you play under")
    return advice.only_name(load(path)[0], path)


def keys_here(game: Replay) -> list[str]:
    """The game's participants whose key this home holds, in roster order."""
    return advice.my_names(game)


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

