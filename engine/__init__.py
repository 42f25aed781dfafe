"""Pure game rules: standard library only, no I/O. A game is a package plus one line in GAMES."""

from typing import TYPE_CHECKING

from .contract import AnyGame, UnknownGame
from .path_of_pharaohs import GAME as _PATH_OF_PHARAOHS
from .sarcophagus import GAME as _SARCOPHAGUS

GAMES: dict[str, AnyGame] = {game.name: game for game in (_SARCOPHAGUS, _PATH_OF_PHARAOHS)}

if TYPE_CHECKING:  # mypy holds each game to the contract with its own types
    from collections.abc import Mapping

    from . import path_of_pharaohs, sarcophagus
    from .contract import Game
    from .path_of_pharaohs.actions import Action as PathAction
    from .path_of_pharaohs.knowledge import DealerKnowledge
    from .sarcophagus.actions import Action as SarcophagusAction

    _FIRST: Game[sarcophagus.Options, sarcophagus.State, SarcophagusAction, Mapping[int, int]] = _SARCOPHAGUS
    _SECOND: Game[path_of_pharaohs.Options, path_of_pharaohs.State, PathAction,
                  Mapping[int, int] | DealerKnowledge] = path_of_pharaohs.GAME


def find_game(name: str) -> AnyGame:
    try:
        return GAMES[name.lower()]
    except KeyError:
        raise UnknownGame(f"unknown game {name!r} (known: {', '.join(sorted(GAMES))})") from None
