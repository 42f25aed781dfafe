"""A legal act as a clickable page offers it (pbem app): the element of the game's drawing to click (a
CSS selector into what its `drawBoard` draws), what that element is, the option chosen on it, and a
sentence saying what will happen. Each game's presentation says this of its own acts (`html_choice`);
the page only shows these, and the notation of the one chosen goes back to be checked and signed."""

from __future__ import annotations

from typing import TypedDict


class Choice(TypedDict):
    notation: str
    target: str | None
    """A CSS selector of the drawn element to click; None: a button beside the board."""
    place: str
    """What the target is, in words (its label for screen readers)."""
    option: str
    """The choice on that target: a coin value, the cards, an action card."""
    says: str
    """What will happen, in a sentence."""


def css_string(text: str) -> str:
    """A name or position as a quoted value in an attribute selector (they are plain words; quotes refused)."""
    if any(c in text for c in "\"\\\n"):
        raise ValueError(f"unexpected character in {text!r}")
    return f'"{text}"'


def plain(notation: str) -> Choice:
    """An act with no element of its own on the board: a button with its notation."""
    return Choice(notation=notation, target=None, place="", option=notation, says=f"Play {notation}.")
