"""Pure game rules: standard library only, no I/O. A game is a package plus one line in GAMES."""

from typing import TYPE_CHECKING

from .contract import Game, UnknownGame
from .sarcophagus import GAME as _SARCOPHAGUS

if TYPE_CHECKING:  # mypy holds the second game to the contract too, before pbem/ can host it
    from .path_of_pharaohs import GAME as _PATH_OF_PHARAOHS

    _SECOND: Game = _PATH_OF_PHARAOHS

GAMES: dict[str, Game] = {
    _SARCOPHAGUS.name: _SARCOPHAGUS,
}


def find_game(name: str) -> Game:
    try:
        return GAMES[name.lower()]
    except KeyError:
        raise UnknownGame(f"unknown game {name!r} (known: {', '.join(sorted(GAMES))})") from None
