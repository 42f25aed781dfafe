"""How each game is drawn, found by the game's name: pbem's generic screens (the terminal board's
frame, the HTML replay's shell) ask this registry and know no game themselves.

A presentation module provides:
- `board_text(shown, style) -> str`: the board of one view (`game.view(...)`) for a terminal;
- `progress(shown) -> float`: how far the game has gone, 0 to 1 (the demo shows a few moments);
- `notable(event) -> bool`: whether the demo tells this event as the game goes;
- `choices_text(game, state, choices) -> str`: a player's legal choices (`game.legal_actions`) as the
  prompt shows them;
- `read_layout(data, where) -> (layout, first)`: a chosen deal from a layout file's JSON (`pbem new
  --layout`), or UsageError naming `where`;
- `html_board(shown) -> dict`: the part of one view the HTML replay draws, as JSON data;
- `html_meta(shown) -> dict`: what the drawing needs that never changes (seats, colours);
- `HTML_STYLE`, `HTML_DEFS`, `HTML_SCRIPT`: its CSS, SVG definitions, and a script defining
  `drawBoard(areas, board, meta)` that draws one `html_board` into `areas.board` (the main
  picture) and `areas.side` (beside the current entry's events: players, hands, scores).
"""

from __future__ import annotations

import importlib
from types import ModuleType

PRESENTATIONS = {
    "sarcophagus": "pbem.presentation.games.sarcophagus",
    "path-of-pharaohs": "pbem.presentation.games.path_of_pharaohs",
}


def presentation(game: str) -> ModuleType:
    """The game's own drawing, or the generic one (its view as text) for a game without one yet."""
    return importlib.import_module(PRESENTATIONS.get(game, "pbem.presentation.games.generic"))
