"""What `pbem app` shows of Path of Pharaohs beside its board: each legal act as a choice on the drawing,
in the rules' words (a Wild counting 6, not the notation's W6), and a finished game's scores in words."""

from __future__ import annotations

import re
from typing import Any

from engine.path_of_pharaohs.cards import card_name
from pbem.presentation.choices import Choice, css_string, plain
from pbem.presentation.games import generic


def _wilds_named(text: str) -> str:
    """A Wild as the rules name it ("a Wild counting 6"), not the notation's W6."""
    return re.sub(r"W(\d)", lambda m: f"Wild counting {m.group(1)}", text).replace("+", " + ").replace("-Wild", " - Wild")


def html_choice(action: Any, me: str, notation: str) -> Choice:
    """A build: ME's position in their pyramid; a Zero: the opponent's position; a Thief or a Sandstorm:
    the opponent; Stop and a discard: buttons beside the board."""
    from engine.path_of_pharaohs.actions import Build, Discard, Sandstorm, Stop, Thief, Zero
    from engine.path_of_pharaohs.cards import pos_name
    from engine.path_of_pharaohs.notation import format_terms

    def position(owner: str, pos: str) -> str:
        return f"#board .pyramid[data-name={css_string(owner)}] .position[data-pos={css_string(pos)}]"

    if isinstance(action, Build):
        pos, cards = pos_name(action.pos), format_terms(action.terms, None)
        cards = _wilds_named(cards) if "W" in cards else cards
        return Choice(notation=notation, target=position(me, pos), place=f"your position {pos}", option=cards,
                      says=f"Build your position {pos} with {cards} (value {sum(v for _, v in action.terms)}).")
    if isinstance(action, Zero):
        pos = pos_name(action.pos)
        return Choice(notation=notation, target=position(action.target, pos), place=f"{action.target}'s position {pos}",
                      option="Zero card", says=f"Play a Zero Block Value on {action.target}'s empty position {pos}: "
                                               "filling it will move 0.")
    if isinstance(action, (Thief, Sandstorm)):
        thief = isinstance(action, Thief)
        return Choice(notation=notation, target=f"#side .player[data-name={css_string(action.target)}]",
                      place=f"player {action.target}", option="Thief" if thief else "Sandstorm",
                      says=f"Play a Thief on {action.target}: two random cards of their hand come to you." if thief
                      else f"Give {action.target} a Sandstorm: they skip their next turn.")
    if isinstance(action, Stop):
        return Choice(notation=notation, target=None, place="", option="Stop", says="End your turn.")
    if isinstance(action, Discard):
        cards = " ".join(card_name(c) for c in action.cards)
        return Choice(notation=notation, target=None, place="", option=f"discard {cards}",
                      says=f"Discard {cards}, down to seven cards in hand.")
    return plain(notation)


def score_lines(state: Any, result: Any) -> list[str]:
    """Each player's location, the winners first, and how the race ended."""
    how = {"alexandria": "a marker reached Alexandria (13)",
           "stalled": "a full round passed without a card played"}.get(getattr(result, "how", ""), "")
    return [f"{player}: location {result.scores[player]}{won}" for player, won in generic.ranked(result)] + \
        ([f"The race ended because {how}."] if how else [])
