"""Whether an act is legal now, and its complete, canonical form (`check`): the slots it plays filled
in from what the actor knows, its terms in order. Without knowledge it accepts what only the trust
layer can prove (that a slot holds the card played, that the dealer dealt the deck's top cards)."""

from __future__ import annotations

from engine.contract import DEALER, IllegalAction, NotYourDuty

from .actions import Action, Build, Deal, Discard, Reveal, Sandstorm, Shuffle, Steal, Stop, Thief, Zero
from .board import fillable, public_counts, to_bridge
from .cards import (
    BASES,
    CARD_KINDS,
    HAND_LIMIT,
    L1_MIDDLE,
    MAX_TERMS,
    SANDSTORM,
    STEAL_COUNT,
    THIEF,
    UPPER,
    WILD,
    ZERO,
    card_name,
    pos_name,
)
from .duties import duties
from .knowledge import DealerKnowledge, Knowledge, PlayerKnowledge, dealers_knowledge, players_knowledge
from .notation import format_action
from .state import SETUP, Pyramid, State, Term

_KINDS = {Build: "move", Zero: "move", Thief: "move", Sandstorm: "move", Stop: "move", Discard: "discard",
          Reveal: "reveal", Deal: "deal", Shuffle: "shuffle", Steal: "steal"}
"""The duty each kind of act answers."""


class _Text:
    """An action's notation, formatted only if an error message needs it."""

    __slots__ = ("action",)

    def __init__(self, action: Action):
        self.action = action

    def __str__(self) -> str:
        return format_action(self.action)


def check(s: State, actor: str, action: Action, knowledge: Knowledge | None = None) -> Action:
    """The action made complete and canonical (slots filled in from `knowledge`, terms in order),
    or IllegalAction saying why not. `knowledge` is what the actor privately knows (PlayerKnowledge
    or DealerKnowledge); without it, what only the trust layer can prove (that a slot holds the card
    played, that the dealer dealt the deck's top cards) is left to it."""
    text = _Text(action)
    owed = duties(s)
    kind = _KINDS.get(type(action))
    if kind is None:
        raise IllegalAction(text, "not a Path of Pharaohs action")
    if not owed:
        raise NotYourDuty(text, "the game is over")
    duty = owed[0]
    if duty.who != actor:
        if duty.who == DEALER and actor == s.mover and s.phase != SETUP:
            reason = f"the dealer must {duty.detail} first"
        else:
            reason = f"not {actor}'s turn" if kind == "move" else f"{actor} owes nothing of the kind"
        raise NotYourDuty(text, reason, (duty.who,))
    if duty.what != kind:
        raise NotYourDuty(text, f"{actor} must {duty.detail} first")
    if isinstance(action, Discard):
        need = len(s.hands[s.turn]) - HAND_LIMIT
        if len(action.cards) != need:
            raise IllegalAction(text, f"discard exactly {need} card{'s' * (need != 1)}, down to seven")
        return Discard(action.cards, _slots_for(s, action.cards, action.slots, players_knowledge(knowledge), text))
    if isinstance(action, (Reveal, Deal, Shuffle, Steal)):
        return _check_dealer(s, action, dealers_knowledge(knowledge), text)
    return _check_move(s, action, players_knowledge(knowledge), text)


def _check_move(s: State, action: Build | Zero | Thief | Sandstorm | Stop, knowledge: PlayerKnowledge | None,
                text: _Text) -> Action:
    if isinstance(action, Stop):
        return action
    if isinstance(action, Build):
        problem = build_problem(s.pyramids[s.turn], action.pos, action.terms)
        if problem:
            raise IllegalAction(text, problem)
        terms, slots = action.terms, action.slots
        if len(terms) > 1:
            order = sorted(range(len(terms)), key=lambda i: (-terms[i][1], terms[i][0]))
            terms = tuple(terms[i] for i in order)
            slots = None if slots is None else tuple(slots[i] for i in order)
        cards = tuple(card for card, _ in terms)
        return Build(action.pos, terms, _slots_for(s, cards, slots, knowledge, text))
    target = _opponent(s, action.target, text)
    if isinstance(action, Zero):
        pyramid = s.pyramids[target]
        if action.pos not in UPPER:
            raise IllegalAction(text, "a Zero Block Value goes on a level-2 or level-3 position")
        if not fillable(pyramid, action.pos):
            why = "is filled" if pyramid[action.pos] is not None else "cannot be filled yet"
            raise IllegalAction(text, f"{action.target}'s {pos_name(action.pos)} {why}")
        if s.zeros[target] >> action.pos & 1:
            raise IllegalAction(text, f"{action.target}'s {pos_name(action.pos)} already holds a Zero Block Value")
        return Zero(action.target, action.pos, _slot_for(s, ZERO, action.slot, knowledge, text))
    if isinstance(action, Thief):
        if not s.hands[target]:
            raise IllegalAction(text, f"{action.target} holds no cards")
        return Thief(action.target, _slot_for(s, THIEF, action.slot, knowledge, text))
    if s.storms[target]:
        raise IllegalAction(text, f"a Sandstorm already lies in front of {action.target}")
    return Sandstorm(action.target, _slot_for(s, SANDSTORM, action.slot, knowledge, text))


def _opponent(s: State, name: str, text: _Text) -> int:
    players = s.table.players
    if name not in players:
        raise IllegalAction(text, f"{name!r} is not a player (players: {', '.join(players)})")
    if name == s.mover:
        raise IllegalAction(text, "an action card is played on an opponent, not on yourself")
    return players.index(name)


def build_problem(pyramid: Pyramid, pos: int, terms: tuple[Term, ...]) -> str | None:
    """Why these cards cannot go on this position of this pyramid (None if they can)."""
    if pos not in range(6):
        return "no such position"
    where = pos_name(pos)
    if pos in BASES:
        return f"the base {where} is dealt from the deck, never played from hand"
    if pyramid[pos] is not None:
        return f"{where} is already filled"
    if not fillable(pyramid, pos):
        return f"{where} needs both positions it bridges filled first"
    if not 1 <= len(terms) <= (1 if pos == L1_MIDDLE else MAX_TERMS):
        return "the level-1 middle takes one card" if pos == L1_MIDDLE else "one to three cards fill a position"
    for card, value in terms:
        if card == WILD:
            if not -9 <= value <= 9:
                return "a Wild counts a value from 0 to 9"
        elif not 0 <= card <= 9:
            return f"only value cards and Wilds are placed on a pyramid, not {card_name(card)}"
        elif abs(value) != card:
            return f"a {card} counts {card} or -{card}"
    if len(terms) == 1:
        if terms[0][1] < 0:
            return "a single card counts plus its value"
        if pos == L1_MIDDLE:
            return None
        need = to_bridge(pyramid, pos)
        return None if terms[0][1] == need else f"{where} needs {need}"
    values = [value for _, value in terms]
    if 0 in values:
        return "in a combination no card counts 0"
    if any(-v in values for v in values):
        return "in a combination no two cards cancel (+x and -x)"
    need = to_bridge(pyramid, pos)
    if sum(values) != need:
        return f"{where} needs {need}, and these cards make {sum(values)}"
    return None


def _slots_for(s: State, cards: tuple[int, ...], slots: tuple[int, ...] | None, knowledge: PlayerKnowledge | None,
               text: _Text) -> tuple[int, ...]:
    """The hand slots the cards come from: as named (checked against `knowledge` if given), or
    found in `knowledge`, lowest slot first."""
    hand = s.hands[s.turn]
    if any(card not in CARD_KINDS for card in cards):
        raise IllegalAction(text, "not a card")
    if knowledge is None:  # what the rules can see without the hand: the cards left unseen
        seen, total = public_counts(s), s.table.options.counts
        for card in set(cards):
            if seen[card] + cards.count(card) > total[card]:
                raise IllegalAction(text, f"every {card_name(card)} of the deck is already face up")
    if slots is not None:
        if len(slots) != len(cards) or len(set(slots)) != len(slots):
            raise IllegalAction(text, "name one distinct slot for each card")
        for slot, card in zip(slots, cards):
            if slot not in hand:
                raise IllegalAction(text, f"#{slot} is not in your hand")
            held = None if knowledge is None else knowledge.get(slot)
            if knowledge is not None and held != card:
                what = "a card you do not know" if held is None else f"a {card_name(held)}"
                raise IllegalAction(text, f"#{slot} holds {what}, not a {card_name(card)}")
        return tuple(slots)
    if knowledge is None:
        raise IllegalAction(text, "say which slot each card comes from (e.g. 5#12)")
    free = sorted(hand)
    chosen = []
    for card in cards:
        found = next((slot for slot in free if knowledge.get(slot) == card), None)
        if found is None:
            in_hand = " ".join(sorted(card_name(knowledge[x]) for x in hand if x in knowledge)) or "nothing"
            raise IllegalAction(text, f"not enough {card_name(card)} in your hand (you hold {in_hand})")
        free.remove(found)
        chosen.append(found)
    return tuple(chosen)


def _slot_for(s: State, card: int, slot: int | None, knowledge: PlayerKnowledge | None, text: _Text) -> int:
    return _slots_for(s, (card,), None if slot is None else (slot,), knowledge, text)[0]


def _check_dealer(s: State, action: Reveal | Deal | Shuffle | Steal, knowledge: DealerKnowledge | None,
                  text: _Text) -> Action:
    if isinstance(action, Shuffle):
        return action
    if isinstance(action, Reveal):
        if action.card not in CARD_KINDS:
            raise IllegalAction(text, "not a card")
        if knowledge is not None and action.card != knowledge.deck[0]:
            raise IllegalAction(text, f"the top card of the deck is {card_name(knowledge.deck[0])}")
        if public_counts(s)[action.card] >= s.table.options.counts[action.card]:
            raise IllegalAction(text, f"every {card_name(action.card)} of the deck is already face up")
        return action
    if isinstance(action, Deal):
        player, count = s.owed_deal[0]
        k = min(count, s.deck)
        first = len(s.slot_card)
        if action.player != s.table.players[player]:
            raise IllegalAction(text, f"the dealer owes cards to {s.table.players[player]}")
        if action.slots != tuple(range(first, first + k)):
            raise IllegalAction(text, f"deal exactly {k} cards, into slots #{first} to #{first + k - 1}")
        if action.cards is not None:
            if len(action.cards) != k or any(card not in CARD_KINDS for card in action.cards):
                raise IllegalAction(text, "one card for each slot")
            if knowledge is not None and tuple(action.cards) != tuple(knowledge.deck[:k]):
                raise IllegalAction(text, "these are not the top cards of the deck")
        return action
    victim = s.victim
    assert victim is not None, "a steal is owed after a Thief"
    hand = s.hands[victim]
    k = min(STEAL_COUNT, len(hand))
    slots = action.slots
    if len(slots) != k or len(set(slots)) != k or not set(slots) <= set(hand):
        raise IllegalAction(text, f"take {k} distinct slots from {s.table.players[victim]}'s hand")
    order = sorted(range(k), key=slots.__getitem__)
    cards = action.cards
    if cards is not None:
        if len(cards) != k:
            raise IllegalAction(text, "one card for each slot")
        if knowledge is not None and any(knowledge.cards.get(x) != c for x, c in zip(slots, cards)):
            raise IllegalAction(text, "a slot does not hold that card")
        cards = tuple(cards[i] for i in order)
    return Steal(tuple(slots[i] for i in order), cards)

