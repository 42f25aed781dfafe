"""Pure game rules: standard library only, no I/O. A game is a package plus one line in GAMES."""

import importlib
from collections.abc import Iterator, MutableMapping
from typing import TYPE_CHECKING

from .contract import AnyGame, UnknownGame


class Registry(MutableMapping[str, AnyGame]):
    """The games by name, each game's package imported when the game is first asked for (a command on a
    Sarcophagus game loads no other game's rules: some 7 % of `pbem show`). A game kept elsewhere
    joins by name like any other (pbem.presentation.games.plug_in)."""

    def __init__(self, packages: dict[str, str]):
        self._where = dict(packages)
        self._games: dict[str, AnyGame] = {}

    def __getitem__(self, name: str) -> AnyGame:
        if name not in self._games:
            self._games[name] = importlib.import_module(self._where[name]).GAME
        return self._games[name]

    def __setitem__(self, name: str, game: AnyGame) -> None:
        self._where[name] = type(game).__module__
        self._games[name] = game

    def __delitem__(self, name: str) -> None:
        del self._where[name]
        self._games.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        return iter(self._where)

    def __len__(self) -> int:
        return len(self._where)

    def __contains__(self, name: object) -> bool:
        return name in self._where


GAMES = Registry({"sarcophagus": "engine.sarcophagus", "path-of-pharaohs": "engine.path_of_pharaohs"})

if TYPE_CHECKING:  # mypy holds each game to the contract with its own types
    from collections.abc import Mapping

    from . import path_of_pharaohs, sarcophagus
    from .contract import Game
    from .path_of_pharaohs.actions import Action as PathAction
    from .path_of_pharaohs.knowledge import DealerKnowledge
    from .sarcophagus.actions import Action as SarcophagusAction

    _FIRST: Game[sarcophagus.Options, sarcophagus.State, SarcophagusAction, Mapping[int, int]] = sarcophagus.GAME
    _SECOND: Game[path_of_pharaohs.Options, path_of_pharaohs.State, PathAction,
                  Mapping[int, int] | DealerKnowledge] = path_of_pharaohs.GAME


def find_game(name: str) -> AnyGame:
    try:
        return GAMES[name.lower()]
    except KeyError:
        raise UnknownGame(f"unknown game {name!r} (known: {', '.join(sorted(GAMES))})") from None
