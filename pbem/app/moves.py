"""The legal moves as the page offers them: for each act the engine lists (`legal_actions` with the
player's own knowledge), its notation, the board element it targets (a CSS selector into the replay's
drawing), what to call the choice on that element, and a sentence saying what will happen. The page
only shows these and sends back the notation of the one chosen; it knows no rule."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any


@dataclasses.dataclass(frozen=True)
class Choice:
    notation: str
    target: str | None
    """A CSS selector of the drawn element to click (None: a button beside the board)."""
    place: str
    """What the target is, in words (its label for screen readers)."""
    option: str
    """The choice on that target: a coin value, the cards, an action card."""
    says: str
    """What will happen, in a sentence."""

    def as_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


Describe = Callable[[Any, str, Any], Choice]


def choices(game_name: str, format_action: Callable[[Any], str], me: str, actions: list[Any]) -> list[Choice]:
    """Each legal action as the page offers it."""
    describe: Describe = _DESCRIBERS.get(game_name, _generic)
    return [describe(action, me, format_action) for action in actions]


def _q(text: str) -> str:
    """A value inside a CSS attribute selector (names and positions are plain words; quotes are refused)."""
    if any(c in text for c in "\"\\\n"):
        raise ValueError(f"unexpected character in {text!r}")
    return f'"{text}"'


def _generic(action: Any, me: str, format_action: Callable[[Any], str]) -> Choice:
    text = format_action(action)
    return Choice(text, None, "", text, f"Play {text}.")


# ---------------------------------------------------------------- Sarcophagus

def _sarcophagus(action: Any, me: str, format_action: Callable[[Any], str]) -> Choice:
    from engine.sarcophagus.actions import Discard, Place
    from engine.sarcophagus.geometry import pos_name

    text = format_action(action)
    if isinstance(action, Place) and action.pos is not None:
        pos = pos_name(action.pos)
        return Choice(text, f"#board g.spot[data-pos={_q(pos)}]", f"tile {pos}", f"coin {action.value}",
                      f"Place your coin of value {action.value} on tile {pos}, face down.")
    if isinstance(action, Discard):
        tile = str(action.tile)
        return Choice(text, f"#side .player[data-name={_q(me)}] .claimed .tile[data-tile={_q(tile)}]",
                      f"your tile {tile}", f"give up {tile}", f"Give up your {tile} to the trap.")
    return _generic(action, me, format_action)


# ---------------------------------------------------------------- Path of Pharaohs

def _path_of_pharaohs(action: Any, me: str, format_action: Callable[[Any], str]) -> Choice:
    from engine.path_of_pharaohs.actions import Build, Discard, Sandstorm, Stop, Thief, Zero
    from engine.path_of_pharaohs.cards import card_name, pos_name
    from engine.path_of_pharaohs.notation import format_terms

    text = format_action(action)
    if isinstance(action, Build):
        pos, cards = pos_name(action.pos), format_terms(action.terms, None)
        value = sum(v for _, v in action.terms)
        return Choice(text, f"#board .pyramid[data-name={_q(me)}] .position[data-pos={_q(pos)}]",
                      f"your position {pos}", cards,
                      f"Build your position {pos} with {cards} (value {value}).")
    if isinstance(action, Zero):
        pos = pos_name(action.pos)
        return Choice(text, f"#board .pyramid[data-name={_q(action.target)}] .position[data-pos={_q(pos)}]",
                      f"{action.target}'s position {pos}", "Zero card",
                      f"Play a Zero Block Value on {action.target}'s empty position {pos}: filling it will move 0.")
    if isinstance(action, Thief):
        return Choice(text, f"#side .player[data-name={_q(action.target)}]", f"player {action.target}", "Thief",
                      f"Play a Thief on {action.target}: two random cards of their hand come to you.")
    if isinstance(action, Sandstorm):
        return Choice(text, f"#side .player[data-name={_q(action.target)}]", f"player {action.target}", "Sandstorm",
                      f"Give {action.target} a Sandstorm: they skip their next turn.")
    if isinstance(action, Stop):
        return Choice(text, None, "", "Stop", "End your turn.")
    if isinstance(action, Discard):
        cards = " ".join(card_name(c) for c in action.cards)
        return Choice(text, None, "", f"discard {cards}", f"Discard {cards}, down to seven cards in hand.")
    return _generic(action, me, format_action)


_DESCRIBERS: dict[str, Describe] = {"sarcophagus": _sarcophagus, "path-of-pharaohs": _path_of_pharaohs}
