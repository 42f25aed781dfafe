"""The API's keys, and what a front end that stays open needs (pbem app, pbem judge): games found by id,
pages' views, acts with a key held in memory (re-exported by pbem.api)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine import find_game
from engine.contract import UnknownGame
from pbem.api.playing import (
    act_in_session,
    create_signed,
)
from pbem.crypto import Identity, PublicKey
from pbem.crypto.keyring import (
    create_key,
)
from pbem.presentation.choices import Choice
from pbem.presentation.games import presentation
from pbem.protocol.replay import Replay
from pbem.protocol.session import Session
from pbem.transport import copies

if TYPE_CHECKING:
    from pbem.protocol.checkpoints import Checkpoint
from pbem.api.games import legal_moves
from pbem.api.mail import games_folder


def checkpoint(game: Replay) -> Checkpoint | None:
    """A verified game kept as it stands, to go on from in a later process (pbem.protocol.checkpoints: only
    from where the caller's own secrets are kept, as the judge's database)."""
    from pbem.protocol.checkpoints import make

    return make(game)


def resume_checkpoint(point: Checkpoint) -> bool:
    """Go on from a checkpoint: the game it holds verified counts as verified in this process (for exactly
    the record it was made from). False when it cannot serve (made by other code): replay as usual."""
    from pbem.protocol.checkpoints import resume

    return checkpoint_held(point.key) or resume(point)


def checkpoint_held(key: bytes) -> bool:
    """Whether this process holds the verified game of a checkpoint's key already."""
    from pbem.protocol.checkpoints import held

    return held(key)


def new_key(name: str, passphrase: bytes | None) -> tuple[Path, Identity]:
    """A new ssh-ed25519 key pair in the key directory (no passphrase: for bots and CI)."""
    return create_key(name, passphrase)


def find_copy(game_id: str, games: Path | None = None) -> Path | None:
    """The local copy of a game, by its id (GAME-SHORTID.json in the folder of copies), or None."""
    from pbem.transport.store import Copies  # only this needs it

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
    """What the game's drawing shows, term by term (the replay page's legend), and how to pick a move."""
    drawing = presentation(game)
    return drawing.HTML_LEGEND + (("Your move", drawing.HOW_TO_MOVE),)


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

