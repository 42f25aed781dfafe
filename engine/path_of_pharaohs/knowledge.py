"""What an actor privately knows, as the rules take it beside the public State: a player's cards in
hand, or the dealer's deck order and every card dealt. Handing one party's knowledge to the other's act
is a programming error (TypeError), never a participant's."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

PlayerKnowledge = Mapping[int, int]
"""What a player privately knows: the card each slot in their hand holds (other slots ignored)."""


@dataclass(frozen=True, slots=True)
class DealerKnowledge:
    """What the dealer privately knows: the deck order (top first) and the card of every slot dealt."""

    deck: Sequence[int]
    cards: Mapping[int, int]


Knowledge = PlayerKnowledge | DealerKnowledge
"""What an actor privately knows: a player's hand, or the dealer's deck and dealt cards."""

NOT_A_PLAYERS = "a player's act goes with a player's knowledge, not the dealer's"
NOT_THE_DEALERS = "the dealer's act goes with the dealer's knowledge (DealerKnowledge)"


def players_knowledge(knowledge: Knowledge | None) -> PlayerKnowledge | None:
    """`knowledge` as a player's, or TypeError if it is the dealer's."""
    if isinstance(knowledge, DealerKnowledge):
        raise TypeError(NOT_A_PLAYERS)
    return knowledge


def dealers_knowledge(knowledge: Knowledge | None) -> DealerKnowledge | None:
    """`knowledge` as the dealer's, or TypeError if it is a player's."""
    if knowledge is not None and not isinstance(knowledge, DealerKnowledge):
        raise TypeError(NOT_THE_DEALERS)
    return knowledge
