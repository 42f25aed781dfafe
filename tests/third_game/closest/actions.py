"""Closest's acts and their notation: `seal 4` (the record's public form: `seal`), `reveal 7`, `open ann 4`."""

from __future__ import annotations

from dataclasses import dataclass

from engine.contract import NotationError

LOW, HIGH = 1, 9
"""A guess and the target are whole numbers from LOW to HIGH."""


@dataclass(frozen=True)
class Seal:
    """A player seals their guess: the value is their secret (None in the record's public form)."""

    value: int | None = None


@dataclass(frozen=True)
class Reveal:
    """The dealer turns up the target."""

    value: int


@dataclass(frozen=True)
class Open:
    """A player's sealed guess opened (by them, or by the referee who holds it)."""

    player: str
    value: int


Action = Seal | Reveal | Open


def public(action: Action) -> Action:
    return Seal() if isinstance(action, Seal) else action


def _number(word: str, text: str) -> int:
    if not word.isdigit() or not LOW <= int(word) <= HIGH:
        raise NotationError(f"{text!r}: {word!r} is not a number from {LOW} to {HIGH}")
    return int(word)


def parse_action(text: str) -> Action:
    words = text.split()
    if words == ["seal"]:
        return Seal()
    if len(words) == 2 and words[0] == "seal":
        return Seal(_number(words[1], text))
    if len(words) == 2 and words[0] == "reveal":
        return Reveal(_number(words[1], text))
    if len(words) == 3 and words[0] == "open":
        return Open(words[1], _number(words[2], text))
    raise NotationError(f"{text!r} is not an act of Closest: write e.g. seal 4, reveal 7, open ann 4")


def format_action(action: Action) -> str:
    if isinstance(action, Seal):
        return "seal" if action.value is None else f"seal {action.value}"
    if isinstance(action, Reveal):
        return f"reveal {action.value}"
    return f"open {action.player} {action.value}"
