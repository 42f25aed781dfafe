"""How Closest is shown (docs/adding-a-game.md, part 3): the Protocol of pbem/presentation/games/__init__.py,
in a few lines. Its page uses the generic drawing's files (HTML_STATIC = "generic"), which list its view."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pbem.presentation.choices import Choice, plain
from pbem.presentation.games import generic

from third_game.closest.rules import Opened, Sealed

if TYPE_CHECKING:
    from engine.contract import AnyGame
    from pbem.presentation.style import Style

HIDDEN_ITEM = "guess"
HTML_STATIC = "generic"
HTML_LEGEND: tuple[tuple[str, str], ...] = (("Board", "the target and each player's guess: sealed, or opened."),)
HOW_TO_MOVE = "choose your guess, then Sign and send."
ABSENCE_BY_RULE = "its guess is void"

read_layout = generic.read_layout
html_meta = generic.html_meta
html_board = generic.html_board
typed = generic.typed
score_lines = generic.score_lines


def board_text(shown: dict[str, Any], style: Style) -> str:
    guesses = ", ".join(f"{p} {g}" for p, g in shown["guesses"].items())
    yours = f" (yours: {shown['yours']})" if "yours" in shown else ""
    return f"Target: {shown['target']}. Guesses: {guesses}{yours}."


def progress(shown: dict[str, Any]) -> float:
    guesses: list[object] = list(shown["guesses"].values())
    sealed = sum(g != "to seal" for g in guesses) / len(guesses)
    return sealed / 2 + (0.5 if shown["target"] != "hidden" else 0.0)


def notable(event: object) -> bool:
    return isinstance(event, Opened)


def choices_text(game: AnyGame, state: Any, choices: Sequence[Any]) -> str:
    return "Seal a guess: " + " | ".join(game.format_action(a) for a in choices)


def referee_opening(detail: str) -> str:
    return "open the players' sealed guesses"


def entry_title(events: Sequence[object]) -> str | None:
    return None


def hidden_item_name(events: Sequence[object], key: str) -> str | None:
    sealed = next((e for e in events if isinstance(e, Sealed)), None)
    return f"{sealed.player}'s guess" if sealed else None


def html_choice(action: Any, me: str, notation: str) -> Choice:
    return plain(notation)
