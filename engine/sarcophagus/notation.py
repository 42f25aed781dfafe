"""The short notation a person types in an email. Syntax only: legality is the rules' business.

    4@3b                       place a coin of value 4 on 3b
    4                          the turn's first coin, on the forced tile
    @3b                        a placement as the record shows it (value sealed)
    discard moon-4             give up a number tile to a trap
    reveal 2a=moon-4 2b=sun-null        the dealer turns pyramid tiles face up
    reveal sarcophagus 5c=moon-5 ...    the dealer reveals the sarcophagus tiles at the end
    open #3=4 #7=0             coin values made public (a tie-break, the end audit)

`format_action` is the exact inverse of `parse_action` on canonical text.
"""

from __future__ import annotations

from engine.contract import NotationError

from .actions import Action, Discard, Open, Place, Reveal
from .geometry import parse_pos, pos_name
from .pieces import parse_tile


def _value(text: str, whole: str) -> int:
    if len(text) == 1 and text in "012345":
        return int(text)
    raise NotationError(f"{whole!r}: a coin value is 0 to 5, not {text!r}")


def parse_action(text: str) -> Action:
    whole = text
    words = text.split()
    if not words:
        raise NotationError("empty move: write e.g. 4@3b, 4, discard moon-4")
    head = words[0].lower()
    try:
        if head == "discard":
            if len(words) != 2:
                raise NotationError(f"{whole!r}: name the one tile you give up, e.g. discard moon-4")
            return Discard(parse_tile(words[1]))
        if head == "reveal" and len(words) >= 2:
            under = words[1].lower() == "sarcophagus"
            pairs = words[2:] if under else words[1:]
            tiles = []
            for pair in pairs:
                pos, eq, tile = pair.partition("=")
                if not eq:
                    raise NotationError(f"{whole!r}: write each revealed tile as position=tile, e.g. 2a=sun-3")
                tiles.append((parse_pos(pos), parse_tile(tile)))
            if not tiles:
                raise NotationError(f"{whole!r}: nothing revealed")
            return Reveal(tuple(tiles), under)
        if head == "open" and len(words) >= 2:
            values = []
            for pair in words[1:]:
                slot, eq, value = pair.partition("=")
                if not (eq and slot.startswith("#") and slot[1:].isdigit()):
                    raise NotationError(f"{whole!r}: write each opened coin as #slot=value, e.g. #3=4")
                values.append((int(slot[1:]), _value(value, whole)))
            return Open(tuple(values))
        if len(words) == 1:
            value, at, pos = head.partition("@")
            if not at and "-" in head:
                raise NotationError(f"{whole!r} is a tile: to give it up to a trap, write discard {parse_tile(head)}")
            if not at:
                return Place(None, _value(value, whole))
            return Place(parse_pos(pos), _value(value, whole) if value else None)
    except NotationError:
        raise
    except ValueError as exc:
        raise NotationError(f"{whole!r}: {exc}") from None
    raise NotationError(
        f"{whole!r} is not a move: write e.g. 4@3b (coin 4 on row 3, second tile), 4 (forced tile), "
        "discard moon-4"
    )


def format_action(action: Action) -> str:
    if isinstance(action, Place):
        value = "" if action.value is None else str(action.value)
        return value if action.pos is None else f"{value}@{pos_name(action.pos)}"
    if isinstance(action, Discard):
        return f"discard {action.tile}"
    if isinstance(action, Reveal):
        pairs = " ".join(f"{pos_name(p)}={t}" for p, t in action.tiles)
        return f"reveal sarcophagus {pairs}" if action.under else f"reveal {pairs}"
    if isinstance(action, Open):
        return "open " + " ".join(f"#{slot}={value}" for slot, value in action.values)
    raise TypeError(f"not a Sarcophagus action: {action!r}")
