"""What a front end that stays open needs (pbem app, pbem judge): games found by id, checkpoints, the
games pbem plays, pages' choices and legends (pbem.api)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from pbem.api.games import legal_moves

if TYPE_CHECKING:
    from pbem.presentation.choices import Choice
    from pbem.protocol.checkpoints import Checkpoint
    from pbem.protocol.session import Session


def resume_checkpoint(point: Checkpoint) -> bool:
    """Go on from a checkpoint: the game it holds verified counts as verified in this process (for exactly
    the record it was made from). False when it cannot serve (made by other code): replay as usual."""
    from pbem.protocol.checkpoints import held, resume

    return held(point.key) or resume(point)


def find_copy(game_id: str, games: Path | None = None) -> Path | None:
    """The local copy of a game, by its id (GAME-SHORTID.json in the folder of copies), or None."""
    from pbem.transport.copies import folder
    from pbem.transport.store import Copies  # only this needs it

    return Copies(folder(games)).find(game_id)


def unsent(game_id: str, seq: int) -> int:
    """How many entries of a game, up to `seq`, were written here but have not gone out by mail."""
    from pbem.transport import copies

    shared = copies.shared(game_id)
    return seq - shared if shared is not None and shared < seq else 0


def game_names() -> list[str]:
    """Every game pbem plays, by name (sarcophagus, path-of-pharaohs)."""
    from engine import GAMES

    return list(GAMES)


def game_title(name: str) -> str:
    """A game's title (Sarcophagus, Path of Pharaohs); an unknown name as it is."""
    from engine import find_game
    from engine.contract import UnknownGame

    try:
        return find_game(name).title
    except UnknownGame:
        return name


def page_choices(session: Session) -> list[Choice]:
    """The session's legal moves (`legal_moves`) as a clickable page offers them: each one's notation, the
    element of the game's drawing it targets, its option and what it will do (the game's presentation)."""
    from pbem.presentation.games import presentation

    game = session.rep
    shown = presentation(game.genesis.game)
    return [shown.html_choice(action, session.name, game.game.format_action(action)) for action in legal_moves(session)]


def legend(game: str) -> tuple[tuple[str, str], ...]:
    """What the game's drawing shows, term by term (the replay page's legend), and how to pick a move."""
    from pbem.presentation.games import presentation

    drawing = presentation(game)
    return drawing.HTML_LEGEND + (("Your move", drawing.HOW_TO_MOVE),)
