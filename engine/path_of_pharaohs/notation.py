"""The short notation a person types in an email. Syntax only: legality is the rules' business.

    5@2l                  place a 5 on your level-2 left position
    7-1@2r  5+2-1@3       several cards on one position, each counted plus or minus
    W6@2l   7-W1@3        a Wild, with the value it counts
    0@1m                  the level-1 middle
    Z@ben:2r              a Zero Block Value on ben's level-2 right position
    T@ben                 a Thief on ben's hand
    S@ben                 a Sandstorm given to ben
    stop                  end your turn
    discard 5 T           discard down to seven
    reveal 7              the dealer turns up a base card
    deal ann #12 #13 #14  the dealer deals cards privately (its private form: deal ann #12=5 #13=T ...)
    shuffle               the dealer shuffles the discard pile into a new deck
    steal #4 #9           the dealer moves the randomly chosen cards to the thief (private: steal #4=5 #9=W)

A card played from hand may name its slot, as the record does: `5#12+3#17@2l`, `T#4@ben`,
`discard 5#3 T#11`. Card letters and positions are read in either case; player names as written.
`format_action` is the exact inverse of `parse_action` on canonical text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from engine.contract import NotationError

from .actions import Action, Build, Deal, Discard, Reveal, Sandstorm, Shuffle, Steal, Stop, Thief, Zero
from .cards import SANDSTORM, THIEF, WILD, ZERO, card_name, parse_card, parse_pos, pos_name
from .state import Term

_TERM = re.compile(r"([+-]?)(W\d|\d)(?:#(\d+))?", re.IGNORECASE)
_TERMS = re.compile(r"(?:[+-]?(?:W\d|\d)(?:#\d+)?)+", re.IGNORECASE)
_CARD_SLOT = re.compile(r"([0-9A-Za-z])(?:#(\d+))?")
_SLOT = re.compile(r"#(\d+)(?:=(\w))?")
_EXAMPLES = "write e.g. 5@2l, 7-1@2r, W6@3, Z@ben:2r, T@ben, S@ben, stop, discard 5 T"


def parse_action(text: str) -> Action:
    words = text.split()
    if not words:
        raise NotationError(f"empty move: {_EXAMPLES}")
    head = words[0].lower()
    try:
        if len(words) == 1 and head in ("stop", "shuffle"):
            return Stop() if head == "stop" else Shuffle()
        if head == "reveal" and len(words) == 2:
            return Reveal(parse_card(words[1]))
        if head == "discard" and len(words) >= 2:
            cards, slots = _cards_with_slots(words[1:], text)
            return Discard(cards, slots)
        if head == "deal" and len(words) >= 3:
            dealt, private = _slot_list(words[2:], text)
            return Deal(words[1], dealt, private)
        if head == "steal" and len(words) >= 2:
            taken, private = _slot_list(words[1:], text)
            return Steal(taken, private)
        if len(words) == 1 and "@" in head:
            return _parse_play(words[0], text)
    except NotationError:
        raise
    except ValueError as exc:
        raise NotationError(f"{text!r}: {exc}") from None
    raise NotationError(f"{text!r} is not a move: {_EXAMPLES}")


def _parse_play(word: str, whole: str) -> Action:
    cards, _, target = word.partition("@")
    if not target:
        raise NotationError(f"{whole!r}: say where the cards go after @, e.g. 5@2l or T@ben")
    match = _CARD_SLOT.fullmatch(cards)
    if match and match.group(1).upper() in "ZTS":
        card, slot = parse_card(match.group(1)), _slot(match.group(2))
        if card == ZERO:
            player, colon, pos = target.partition(":")
            if not (colon and player):
                raise NotationError(f"{whole!r}: a Zero Block Value names a player and position, e.g. Z@ben:2r")
            return Zero(player, parse_pos(pos), slot)
        if ":" in target:
            raise NotationError(f"{whole!r}: a {'Thief' if card == THIEF else 'Sandstorm'} names a player only")
        return Thief(target, slot) if card == THIEF else Sandstorm(target, slot)
    if not _TERMS.fullmatch(cards) or cards[0] == "+":
        raise NotationError(f"{whole!r}: write the cards as e.g. 5, 3+3, 7-1 or W6 before the @")
    terms, slots = [], []
    for sign, card_text, slot in _TERM.findall(cards):
        if card_text[0] in "wW":
            card, value = WILD, int(card_text[1])
        else:
            card = value = int(card_text)
        if sign == "-":
            if value == 0:
                raise NotationError(f"{whole!r}: a card counting 0 has no sign")
            value = -value
        terms.append((card, value))
        slots.append(slot)
    if any(slots) and not all(slots):
        raise NotationError(f"{whole!r}: name the slot of every card or of none")
    return Build(parse_pos(target), tuple(terms), tuple(map(int, slots)) if all(slots) else None)


def _slot(text: str | None) -> int | None:
    return None if text is None else int(text)


def _cards_with_slots(words: list[str], whole: str) -> tuple[tuple[int, ...], tuple[int, ...] | None]:
    cards, slots = [], []
    for word in words:
        match = _CARD_SLOT.fullmatch(word)
        if not match:
            raise NotationError(f"{whole!r}: write each card as e.g. 5 or T, optionally with its slot, 5#12")
        cards.append(parse_card(match.group(1)))
        slots.append(_slot(match.group(2)))
    named = [slot for slot in slots if slot is not None]
    if named and len(named) != len(slots):
        raise NotationError(f"{whole!r}: name the slot of every card or of none")
    return tuple(cards), tuple(named) if named else None


def _slot_list(words: list[str], whole: str) -> tuple[tuple[int, ...], tuple[int, ...] | None]:
    slots, cards = [], []
    for word in words:
        match = _SLOT.fullmatch(word)
        if not match:
            raise NotationError(f"{whole!r}: write each card as its slot, #12, or privately #12=5")
        slots.append(int(match.group(1)))
        cards.append(None if match.group(2) is None else parse_card(match.group(2)))
    given = [card for card in cards if card is not None]
    if given and len(given) != len(cards):
        raise NotationError(f"{whole!r}: give the card of every slot or of none")
    return tuple(slots), tuple(given) if given else None


def format_terms(terms: Sequence[Term], slots: Sequence[int] | None) -> str:
    out = []
    for i, (card, value) in enumerate(terms):
        sign = "-" if value < 0 else "+" if i else ""
        text = f"W{abs(value)}" if card == WILD else str(card)
        out.append(sign + text + ("" if slots is None else f"#{slots[i]}"))
    return "".join(out)


def _with_slot(card: int, slot: int | None) -> str:
    return card_name(card) + ("" if slot is None else f"#{slot}")


def _slot_words(slots: Sequence[int], cards: Sequence[int] | None) -> str:
    if cards is None:
        return " ".join(f"#{slot}" for slot in slots)
    return " ".join(f"#{slot}={card_name(card)}" for slot, card in zip(slots, cards))


def format_action(action: Action) -> str:
    if isinstance(action, Build):
        return f"{format_terms(action.terms, action.slots)}@{pos_name(action.pos)}"
    if isinstance(action, Zero):
        return f"{_with_slot(ZERO, action.slot)}@{action.target}:{pos_name(action.pos)}"
    if isinstance(action, Thief):
        return f"{_with_slot(THIEF, action.slot)}@{action.target}"
    if isinstance(action, Sandstorm):
        return f"{_with_slot(SANDSTORM, action.slot)}@{action.target}"
    if isinstance(action, Stop):
        return "stop"
    if isinstance(action, Shuffle):
        return "shuffle"
    if isinstance(action, Discard):
        slots = action.slots or (None,) * len(action.cards)
        return "discard " + " ".join(_with_slot(c, s) for c, s in zip(action.cards, slots))
    if isinstance(action, Reveal):
        return f"reveal {card_name(action.card)}"
    if isinstance(action, Deal):
        return f"deal {action.player} {_slot_words(action.slots, action.cards)}"
    if isinstance(action, Steal):
        return f"steal {_slot_words(action.slots, action.cards)}"
    raise TypeError(f"not a Path of Pharaohs action: {action!r}")
