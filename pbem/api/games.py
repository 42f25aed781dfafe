"""The API's games on disk: reading, verifying and viewing games, and what to do next (pbem.api). Heavier
parts (the HTML page, export, the searches) are imported by the functions that use them."""

from __future__ import annotations

import difflib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.errors import UsageError

if TYPE_CHECKING:
    from engine.contract import Duty
    from pbem.crypto import Identity
    from pbem.presentation.export import Exported
    from pbem.protocol.replay import Replay
    from pbem.protocol.session import Session
    from pbem.protocol.verify import Checked, VerifyReport
    from pbem.record.models import GameFile


def load(path: Path) -> GameFile:
    """The record in a game file (JSON or armored) or a saved mail (its attachment, or its turn block on
    this machine's copy), not yet verified."""
    from pbem.transport.saved import read

    return read(path).record


def open_game(path: Path) -> Replay:
    """A game file (JSON, or an armored block, even inside a saved email) read and verified."""
    from pbem.protocol.verify import verify

    return verify(load(path))


def armored(path: Path) -> str:
    """The game as an armored text block for a mail body."""
    from pbem.record.gamefile import armor
    from pbem.record.models import to_json

    return armor(to_json(load(path)))


def identity_for(name: str, key: str | None) -> Identity:
    """The private key NAME signs with: the key file given, else NAME's key in the key directory."""
    from pbem.crypto.keyring import load_identity

    return load_identity(key or name)


def signer_for(game: Replay, name: str, key: str | None) -> Identity:
    """NAME's key, once NAME is known to be in the game: a typo is named before any key is looked for."""
    if name not in game.roster:
        raise UsageError(f"--as {name}: not in this game{did_you_mean(name, list(game.roster))} (participants: "
                         f"{', '.join(game.roster)})")
    return identity_for(name, key)


def did_you_mean(name: str, names: list[str]) -> str:
    close = difflib.get_close_matches(name, names, n=1)
    return f": did you mean {close[0]}?" if close else ""


def my_name(path: Path, given: str | None = None, key: str | None = None, record: GameFile | None = None) -> str:
    """Who I am in this game: `given` (--as), else the one participant whose key this home holds (in
    `record`, the game as read from `path` already, else read now)."""
    if given:
        return given
    if key:
        raise UsageError("--key FILE needs --as NAME: the name you play under")
    from pbem.transport.advice import only_name

    return only_name(record or load(path), path)


def owes(game: Replay, name: str, *kinds: str) -> Duty | None:
    """The first duty of one of these kinds that NAME owes now, or None."""
    return next((d for d in game.duties() if d.who == name and d.what in kinds), None)


def part_done(game: Replay, name: str) -> bool:
    """Whether NAME's part is done for now, so that what they signed goes to the others in one mail: they
    owe no move or choice now (their turn is complete, or another party must act first, as a referee's
    reveal). A turn of several acts (a Sarcophagus turn's two coins) is done only with its last."""
    from engine.contract import TURN_DUTIES

    return owes(game, name, *TURN_DUTIES) is None


def deadline_lines(game: Replay, at: int | None = None) -> list[str]:
    """A game's deadlines at `at` (default now), as `show` prints them: each duty on a clock (due in,
    reminder due, late, may be recorded absent) and every absence recorded. Empty without a deadline."""
    if game.genesis.deadlines is None and not game.genesis.deadline_hours:
        return []
    from pbem.transport.status import late_line

    return late_line(game.record, at).split("\n")


def _viewer(game: Replay, name: str | None, key: str | None = None) -> tuple[str | None, Any, Identity | None]:
    """Who looks and what they know, for `view()`: nobody (public), a player with their own secrets, or a
    referee (the dealer's view: it reads every hidden item); and the key that reads them."""
    from engine.contract import DEALER
    from pbem.protocol.session import Session

    if not name:
        return None, None, None
    identity = signer_for(game, name, key)
    session = Session(game, name, identity)
    return (DEALER if session.is_referee else name), session.knowledge(), identity


def view(game: Replay, name: str | None = None, key: str | None = None) -> dict[str, Any]:
    """What NAME may see (nobody's secrets when None): the game's own view, plus who made the game, the
    deal, a verdict, and the duties while the game has not begun or has ended by a verdict."""
    observer, knowledge, _ = _viewer(game, name, key)
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
    from pbem.presentation.terminal import next_duty, owed

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
    from pbem.presentation.games import presentation

    game, moves = session.rep, legal_moves(session)
    return presentation(game.genesis.game).typed(game.game, moves[0]) if moves else None


def choices_text(session: Session) -> str:
    """The legal choices, as the game's own presentation words them for a prompt."""
    from pbem.presentation.games import presentation

    game = session.rep
    return presentation(game.genesis.game).choices_text(game.game, game.state, legal_moves(session))


def note_seen(game: Replay, where: Path | None = None) -> tuple[str | None, str | None]:
    """Record what was read in this machine's history of the game (and `where` it is). Returns a warning
    when this machine has seen a later or a different version, and one when the history cannot be written
    (a read-only home)."""
    from pbem.protocol.seen import remember_quietly, sighting

    return sighting(game).problem(game.seq, where), remember_quietly(game, where)


def html_page(game: Replay, name: str | None = None, key: str | None = None) -> str:
    """The game as one web page that replays it entry by entry; with NAME, what NAME may see."""
    from pbem.presentation.html import page  # the page's drawing code: only this command needs it

    observer, knowledge, identity = _viewer(game, name, key)
    return page(game, observer, knowledge, viewer=name, key=identity)


def replay_asset(game: str, suffix: str) -> str:
    """The HTML drawing of a game: its script (".js"), style (".css") or SVG definitions (".svg"), as the
    replay page embeds them and the app serves them."""
    from pbem.presentation.games import presentation
    from pbem.presentation.html import static  # the page's files: only pages need them

    return static(presentation(game).HTML_STATIC + suffix)


def export_entry(path: Path, entry: int | None, directory: Path) -> list[Exported]:
    """One entry (0 is the genesis; default the last) as files that ssh-keygen and age check without pbem."""
    from pbem.presentation.export import export_entry as export  # only `pbem export` needs it

    record = load(path)
    return export(record, len(record.entries) if entry is None else entry, directory)


def next_command(game: Replay, path: str) -> str | None:
    """What the person at this machine types next for this game (`path` as they name it), or whom it
    waits for: the last line of `show`."""
    from pbem.presentation.terminal import next_duty
    from pbem.transport import advice

    owed_now = next_duty(game)
    return advice.next_command(game, path, owed_now[0] if owed_now else [])


def verify_files(paths: list[Path], on_valid: Callable[[Checked], None] | None = None,
                 on_failure: Callable[[str], None] | None = None,
                 on_warning: Callable[[str], None] | None = None) -> VerifyReport:
    """Check every file (a game file or a saved mail); copies of one game are also checked against each
    other (a fork between two files is said once). The callbacks hear each result as it is found."""
    from pbem.protocol.verify import verify_files as check

    return check(paths, on_valid, on_failure, on_warning, read=load)
