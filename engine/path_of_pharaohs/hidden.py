"""Path of Pharaohs's hidden information, as the trust layer carries it (engine.contract.Secrets).

- The deck is the dealer's stock: every card of it, shuffled by the deal; a reshuffle makes the
  discard pile a fresh stock.
- A base card is the stock's top card shown face up (`shows`).
- A card dealt to a hand is the stock's top card dealt privately under the key `#N`, N its slot (in
  dealing order, as the notation writes it: `5#12`). Playing, giving or discarding it opens it.
- A Thief's steal is chance's pick among the victim's slots (`chance`); the stolen cards are passed
  privately to the thief (`gives`).
Players commit to nothing of their own choosing, so there is nothing for `audit_problem` to find: a
card played is opened against the dealer's commitment in the entry that plays it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.contract import DEALER, Dealt, Randomness, Secrets, Value

from .actions import Action, Build, Deal, Discard, Reveal, Sandstorm, Shuffle, Steal, Thief, Zero
from .cards import SANDSTORM, THIEF, ZERO, card_name, full_deck, parse_card
from .duties import duties
from .knowledge import DealerKnowledge, PlayerKnowledge
from .state import Options, State

_DEALER_ACTIONS = (Reveal, Deal, Shuffle, Steal)


def slot_key(slot: int) -> str:
    return f"#{slot}"


def deal(options: Options, players: Sequence[str], rng: Randomness) -> Dealt:
    """The whole deck shuffled (top first), then the first player, both from `rng`."""
    deck = full_deck(options.actions)
    rng.shuffle(deck)
    return Dealt({}, tuple(card_name(card) for card in deck), rng.choice(list(players)))


def actor(state: State, action: Action) -> str:
    """The dealer's acts are the dealer's; every other is the duty holder's (one party owes at a time)."""
    if isinstance(action, _DEALER_ACTIONS):
        return DEALER
    owed = duties(state)
    return owed[0].who if owed and owed[0].who != DEALER else ""


def _played(slots: tuple[int, ...] | None, cards: tuple[int, ...]) -> tuple[tuple[str, Value], ...]:
    return tuple((slot_key(slot), card_name(card)) for slot, card in zip(slots or (), cards))


def secrets(state: State, actor: str, action: Action) -> Secrets:
    if isinstance(action, Build):
        return Secrets(opens=_played(action.slots, tuple(card for card, _ in action.terms)))
    if isinstance(action, Discard):
        return Secrets(opens=_played(action.slots, action.cards))
    if isinstance(action, (Zero, Thief, Sandstorm)):
        card = {Zero: ZERO, Thief: THIEF, Sandstorm: SANDSTORM}[type(action)]
        return Secrets(opens=_played(None if action.slot is None else (action.slot,), (card,)))
    if isinstance(action, Reveal):
        return Secrets(shows=(card_name(action.card),))
    if isinstance(action, Deal):
        return Secrets(draws=tuple((slot_key(slot), action.player) for slot in action.slots))
    if isinstance(action, Shuffle):
        return Secrets(restock=tuple(card_name(card) for card in state.discards))
    if isinstance(action, Steal):
        return Secrets(gives=tuple((slot_key(slot), state.mover) for slot in action.slots), chance=True)
    return Secrets()


def knowledge(state: State, actor: str, known: Mapping[str, Value],
              stock: Sequence[Value]) -> PlayerKnowledge | DealerKnowledge:
    """A player's cards by slot; the dealer's deck order and every dealt card."""
    cards = {int(key[1:]): parse_card(str(value)) for key, value in known.items() if key.startswith("#")}
    if actor == DEALER:
        return DealerKnowledge([parse_card(str(card)) for card in stock], cards)
    return cards


def audit_problem(state: State, opened: Sequence[tuple[str, Value]]) -> tuple[str, str] | None:
    return None
