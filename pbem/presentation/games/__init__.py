"""How each game is shown, found by the game's name: pbem's generic screens (the terminal board's frame,
the HTML replay's shell, the prompt, the demo) ask `presentation(name)` and know no game themselves. A
game's presentation is the module named after it here (path-of-pharaohs: path_of_pharaohs/, a package) that
satisfies `Presentation` (a game kept outside pbem/ brings its own: `plug_in`); a game without one is shown
by `generic`, its view as text."""

from __future__ import annotations

import functools
import importlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, cast

from pbem.presentation.games import generic

if TYPE_CHECKING:
    from engine.contract import AnyGame, Outcome
    from pbem.presentation.choices import Choice
    from pbem.presentation.style import Style

View = dict[str, Any]
"""One view (`game.view(...)`), JSON values."""


class Presentation(Protocol):
    """What pbem asks of a game's presentation module."""

    HIDDEN_ITEM: str
    """What the game's hidden items are called ("coin", "card"), in export's and the log's words."""
    HTML_LEGEND: tuple[tuple[str, str], ...]
    """What the drawing's marks mean, as (term, meaning): the legend of the HTML replay and of the app's
    board. The drawing's script may draw a sample beside a term (`legendSample(term, meta)`)."""
    HOW_TO_MOVE: str
    """How a player picks a move on the app's board (the app's legend adds it as "Your move")."""
    ABSENCE_BY_RULE: str
    """What an absence's act shows when the game's rule chose it from a hand nobody else sees ("its cards are
    the lowest of the hand"): `pbem verify` says it is proven by the dealer's opened seed, or will be then."""
    HTML_STATIC: str
    """The stem of its files in pbem/presentation/static/: STEM.css (its style), STEM.svg (SVG definitions)
    and STEM.js (a script defining `drawBoard(areas, board, meta)` that draws one `html_board` into
    `areas.board`, the main picture, and `areas.side`, beside the entry's events)."""

    def board_text(self, shown: View, style: Style) -> str:
        """The board of one view for a terminal."""

    def progress(self, shown: View) -> float:
        """How far the game has gone, 0 to 1 (the demo shows a few moments)."""

    def notable(self, event: object) -> bool:
        """Whether the demo tells this event as the game goes."""

    def choices_text(self, game: AnyGame, state: Any, choices: Sequence[Any]) -> str:
        """A player's legal choices (`game.legal_actions`) as the prompt shows them."""

    def typed(self, game: AnyGame, action: Any) -> str:
        """One legal act as a person types it: the shortest notation the rules read as that act (what the
        program fills in from the player's own knowledge left out)."""

    def read_layout(self, data: object, where: str) -> tuple[dict[str, str], Any]:
        """A chosen deal from a layout file's JSON (`pbem new --layout`), or UsageError naming `where`."""

    def referee_opening(self, detail: str) -> str:
        """An opening duty's words when the referee opens for the players (it holds every opening)."""

    def entry_title(self, events: Sequence[object]) -> str | None:
        """An entry's heading in words ("ben placed a coin on 1a"), from its events; None when its first
        event says it as it is."""

    def html_board(self, shown: View) -> dict[str, Any]:
        """The part of one view the HTML replay draws, as JSON data."""

    def html_meta(self, shown: View) -> dict[str, Any]:
        """What the drawing needs that never changes (seats, colours)."""

    def hidden_item_name(self, events: Sequence[object], key: str) -> str | None:
        """What people call the hidden item sealed under `key` ("#3"), from the events of the entry that
        sealed it ("ann's 2nd coin", "a card dealt to ann": never a number that could read as its value; no
        events when the record does not replay that far), or None for `HIDDEN_ITEM key`."""

    def html_choice(self, action: Any, me: str, notation: str) -> Choice:
        """One of ME's legal acts as the app offers it: the element of the drawing it targets, what to
        call the option on it, and what will happen (pbem/presentation/choices.py)."""

    def score_lines(self, state: Any, result: Outcome) -> list[str]:
        """A finished game's scores as the app shows them, a line each, the winners first (`generic.ranked`):
        what each is made of, in the game's words (fame by suit; a location), and how the game ended."""


_PLUGGED_IN: dict[str, Presentation] = {}
"""The presentations of games kept outside engine/ and pbem/, by the game's name (`plug_in`)."""


def plug_in(game: AnyGame, shown: Presentation) -> None:
    """A game kept outside engine/ and pbem/ (a plug-in; the tests' third game, tests/third_game/) joins
    at run time: its rules in the registry (engine.GAMES), where the line there puts a game of engine/,
    and its presentation where `presentation` finds it by the game's name. Nothing else to edit."""
    from engine import GAMES

    if game.name in GAMES:
        raise ValueError(f"a game named {game.name!r} is registered already")
    GAMES[game.name] = game
    _PLUGGED_IN[game.name] = shown
    presentation.cache_clear()


def unplug(name: str) -> None:
    """The game `plug_in` registered leaves the registry again (a test's game, once the test is done), and
    this process forgets the replays it kept (pbem.protocol.remembered): none of them plays it on."""
    from engine import GAMES
    from pbem.protocol import remembered

    if name in _PLUGGED_IN:
        del GAMES[name], _PLUGGED_IN[name]
        presentation.cache_clear()
        remembered.forget()


def module_name(game: str) -> str:
    """Where a game's presentation lives: pbem/presentation/games/<name with _ for ->.py."""
    return f"pbem.presentation.games.{game.replace('-', '_')}"


@functools.cache
def presentation(game: str) -> Presentation:
    """The game's own presentation, found by its name (no registry to edit), or the generic one (its view
    as text) for a game without one yet. tests/protocol/test_every_game.py holds every game's module to the
    Protocol; mypy holds the two below to it statically."""
    if game in _PLUGGED_IN:
        return _PLUGGED_IN[game]
    try:
        found: Presentation = cast(Presentation, importlib.import_module(module_name(game)))
    except ModuleNotFoundError as exc:
        if exc.name != module_name(game):
            raise
        return generic
    return found


if TYPE_CHECKING:  # mypy holds the games' presentations to the Protocol
    from pbem.presentation.games import path_of_pharaohs, sarcophagus

    _SARCOPHAGUS: Presentation = sarcophagus
    _PATH_OF_PHARAOHS: Presentation = path_of_pharaohs
