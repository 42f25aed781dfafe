"""Pure game rules: standard library only, no I/O. A game is a package plus one line in GAMES."""

from .contract import Game, UnknownGame
from .sarcophagus import GAME as _SARCOPHAGUS

GAMES: dict[str, Game] = {
    _SARCOPHAGUS.name: _SARCOPHAGUS,
}


def find_game(name: str) -> Game:
    try:
        return GAMES[name.lower()]
    except KeyError:
        raise UnknownGame(f"unknown game {name!r} (known: {', '.join(sorted(GAMES))})") from None
