"""What one participant may see. The only place that decides it: the public state, plus the
observer's own hand when they pass their own knowledge (the dealer: the deck order)."""

from __future__ import annotations

import functools
from typing import Any

from engine.contract import DEALER

from .cards import MUMMIES, POSITION_NAMES, card_name
from .duties import duties
from .knowledge import DealerKnowledge, PlayerKnowledge
from .notation import format_terms
from .rules import outcome
from .state import Pyramid, State, Term


def view(s: State, observer: str | None = None,
         knowledge: PlayerKnowledge | DealerKnowledge | None = None) -> dict[str, Any]:
    """`knowledge` is what the observer privately knows: a player's slot -> card (only the slots in
    their own hand are shown), or the dealer's DealerKnowledge."""
    players = s.table.players
    result = outcome(s)
    shown: dict[str, Any] = {  # JSON values
        "status": "finished" if result else "playing",
        "players": list(players),
        "turn": s.mover if result is None else None,
        "duties": [{"who": d.who, "what": d.what, "detail": d.detail} for d in duties(s)],
        "markers": {p: {"location": loc, "space": None if sp is None else "AB"[sp]}
                    for p, loc, sp in zip(players, s.location, s.space)},
        "closed": [f"{loc}B" for loc in MUMMIES[:s.mummies]],
        "sands": s.sands,
        "mummies_left": len(MUMMIES) - s.mummies,
        "pyramids": {p: _pyramid(pyramid, zeros) for p, pyramid, zeros in zip(players, s.pyramids, s.zeros)},
        "sandstorms": [p for p, storm in zip(players, s.storms) if storm],
        "hands": {p: len(hand) for p, hand in zip(players, s.hands)},
        "deck": s.deck,
        "discards": [card_name(card) for card in s.discards],
    }
    if observer in players and knowledge is not None and not isinstance(knowledge, DealerKnowledge):
        hand = sorted(s.hands[players.index(observer)])
        # a card is "?" only where the knowledge given is of another moment (a replay drawn with the final hand)
        shown["my_hand"] = [{"slot": slot, "card": card_name(knowledge[slot]) if slot in knowledge else "?"}
                            for slot in hand]
    if observer == DEALER and isinstance(knowledge, DealerKnowledge):
        shown["deck_order"] = [card_name(card) for card in knowledge.deck]
    if result:
        shown["scores"] = result.scores
        shown["winners"] = list(result.winners)
        shown["ranking"] = [list(group) for group in result.ranking]
    return shown


def _cards(terms: tuple[Term, ...]) -> str:
    """A filled place's cards as written, made once per combination: every view writes the six places."""
    try:
        return _written(terms)
    except TypeError:  # terms in lists, not tuples (a state made by hand): written as they are
        return format_terms(terms, None)


@functools.lru_cache(maxsize=4096)
def _written(terms: tuple[Term, ...]) -> str:
    return format_terms(terms, None)


def _pyramid(pyramid: Pyramid, zeros: int) -> dict[str, dict[str, Any]]:
    return {
        name: {
            "value": None if filled is None else filled[0],
            "cards": None if filled is None else _cards(filled[1]),
            "zero": bool(zeros >> pos & 1),
        }
        for name, filled, pos in zip(POSITION_NAMES, pyramid, range(6))
    }
