"""The drawing of a game that has no presentation of its own yet: its view, as readable text in a
terminal and as a listing in the HTML replay. Plain, but complete, and it shows nothing beyond the
observer's view."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from pbem.presentation.choices import Choice, plain
from pbem.presentation.style import WIDTH

if TYPE_CHECKING:
    from engine.contract import AnyGame
    from pbem.presentation.style import Style

HIDDEN_ITEM = "hidden item"
HTML_STATIC = "generic"
"""Its CSS, SVG and script: pbem/presentation/static/generic.*"""
HTML_LEGEND: tuple[tuple[str, str], ...] = (("Board", "the game's view, as text."),)
HOW_TO_MOVE = "choose one of the moves listed, then Sign and send."
ABSENCE_BY_RULE = "its act is the one the game's rule gives from the hand"

_SKIPPED = ("players", "duties", "status")
"""Said elsewhere: the header names the players, the last line whose duty it is."""


def _compact(value: object) -> str:
    return json.dumps(value, separators=(", ", ": "), ensure_ascii=False)


def progress(shown: dict[str, Any]) -> float:
    return 1.0 if shown.get("status") == "finished" else 0.0


def notable(event: object) -> bool:
    return True


def typed(game: AnyGame, action: Any) -> str:
    return game.format_action(action)


def referee_opening(detail: str) -> str:
    return detail


def board_text(shown: dict[str, Any], style: Style) -> str:
    lines = []
    for key, value in shown.items():
        if key not in _SKIPPED:
            lines += textwrap.wrap(f"{key}: {_compact(value)}", WIDTH, subsequent_indent="    ") or [f"{key}:"]
    return "\n".join(lines)


def choices_text(game: AnyGame, state: Any, choices: Sequence[Any]) -> str:
    return "Choose one: " + " | ".join(game.format_action(a) for a in choices)


def entry_title(events: Sequence[object]) -> str | None:
    return None


def hidden_item_name(events: Sequence[object], key: str) -> str | None:
    return None


def html_choice(action: Any, me: str, notation: str) -> Choice:
    return plain(notation)


def read_layout(data: object, where: str) -> NoReturn:
    from pbem.errors import UsageError

    raise UsageError(f"layout {where}: this game has no layout files")


def html_meta(shown: dict[str, Any]) -> dict[str, Any]:
    return {}


def html_board(shown: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in shown.items() if key not in _SKIPPED}


def ranked(result: Any) -> list[tuple[str, str]]:
    """A finished game's players, the winners first then by score, each with " (wins)" or nothing."""
    order = sorted(result.scores, key=lambda p: (p not in result.winners, -result.scores[p]))
    return [(player, " (wins)" if player in result.winners else "") for player in order]


def score_lines(state: Any, result: Any) -> list[str]:
    return [f"{player}: {result.scores[player]}{won}" for player, won in ranked(result)]
