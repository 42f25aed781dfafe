"""The pieces of Path of Pharaohs and their names as players write them: cards, the six pyramid
positions, the path of 13 locations; and the counts of cards a hand takes and gives
(docs/rules/path-of-pharaohs.md)."""

from __future__ import annotations

ZERO, WILD, THIEF, SANDSTORM = 10, 11, 12, 13
"""Cards are small ints: 0-9 are block (value) cards; 10-13 the four action cards."""
ACTION_CARDS = (ZERO, WILD, THIEF, SANDSTORM)
CARD_KINDS = tuple(range(14))
_LETTERS = {ZERO: "Z", WILD: "W", THIEF: "T", SANDSTORM: "S"}
_BY_LETTER = {letter: card for card, letter in _LETTERS.items()}
ACTION_NAMES = {ZERO: "Zero Block Value", WILD: "Wild", THIEF: "Thief", SANDSTORM: "Sandstorm"}
BLOCK_COPIES = 6


def card_name(card: int) -> str:
    return _LETTERS.get(card) or str(card)


def parse_card(text: str) -> int:
    """'0'..'9', 'Z', 'W', 'T', 'S' (either case)."""
    if len(text) == 1:
        if text.isdigit():
            return int(text)
        card = _BY_LETTER.get(text.upper())
        if card is not None:
            return card
    raise ValueError(f"a card is 0-9, Z (Zero Block Value), W (Wild), T (Thief) or S (Sandstorm), not {text!r}")


def deck_counts(actions: tuple[int, int, int, int]) -> tuple[int, ...]:
    """How many copies of each card kind one deck holds: six of each value, then the action cards."""
    return (BLOCK_COPIES,) * 10 + tuple(actions)


def full_deck(actions: tuple[int, int, int, int]) -> list[int]:
    """Every card of the deck, in kind order (the dealer shuffles it)."""
    return [card for card, n in enumerate(deck_counts(actions)) for _ in range(n)]


FIRST_HAND = 5
"""Cards dealt to each player at the start."""
DRAW_COUNT = 3
"""Cards drawn at the end of a turn."""
HAND_LIMIT = 7
"""Cards a hand keeps after drawing: a mover holding more discards down to it."""
STEAL_COUNT = 2
"""Cards a Thief takes, at random (all of them from a smaller hand)."""


# ---------------------------------------------------------------- a player's pyramid

L1_LEFT, L1_MIDDLE, L1_RIGHT, L2_LEFT, L2_RIGHT, L3 = range(6)
POSITION_NAMES = ("1l", "1m", "1r", "2l", "2r", "3")
_BY_NAME = {name: pos for pos, name in enumerate(POSITION_NAMES)}
BASES = (L1_LEFT, L1_RIGHT)
"""Dealt face up from the deck, never played from hand."""
BRIDGES = {L2_LEFT: (L1_LEFT, L1_MIDDLE), L2_RIGHT: (L1_MIDDLE, L1_RIGHT), L3: (L2_LEFT, L2_RIGHT)}
"""The positions each upper position bridges."""
UPPER = (L2_LEFT, L2_RIGHT, L3)
POINTS = (0, 0, 0, 1, 1, 2)
"""Movement for filling each position (Figure 3, reconstructed)."""
COMPLETION_BONUS = 2
MAX_TERMS = 3


def pos_name(pos: int) -> str:
    return POSITION_NAMES[pos] if 0 <= pos < len(POSITION_NAMES) else f"position {pos}"


def parse_pos(text: str) -> int:
    pos = _BY_NAME.get(text.lower())
    if pos is None:
        raise ValueError(f"a pyramid position is one of {', '.join(POSITION_NAMES)}, not {text!r}")
    return pos


# ---------------------------------------------------------------- the path

ALEXANDRIA = 13
DOUBLE = frozenset({2, 4, 6, 8, 10})
"""Locations with two spaces, A and B; the others have one (A)."""
MUMMIES = (2, 4, 6, 8, 10)
"""The mummy stack, top first: the k-th mummy to wake closes MUMMIES[k]'s B space."""
SANDS_TO_WAKE = 3
A, B = 0, 1
BUMP_BACK = 3


def space_name(location: int, space: int | None) -> str:
    if location == 0:
        return "the start"
    if location in DOUBLE:
        return f"{location}{'AB'[space]}" if space is not None else str(location)
    return str(location)
