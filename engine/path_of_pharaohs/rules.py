"""Path of Pharaohs rules (docs/rules/path-of-pharaohs.md) as pure functions over the public State.

`apply` copies the state once into a `Play`, which performs the act (`Play.act`), then settles: it runs
every step the rules take on their own (a turn's start and end, markers taking their places, bumps, skipped
turns, draws from an empty pile, the stalled-game end) until somebody owes an act.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, filterfalse
from typing import Any, TypeVar

from engine.contract import DEALER, Duty, IllegalAction, InvalidSetup, NotYourDuty
from engine.lazy import LazySequence

from .actions import Action, Build, Deal, Discard, Reveal, Sandstorm, Shuffle, Steal, Stop, Thief, Zero, new_build, new_deal
from .cards import (
    ALEXANDRIA,
    BASES,
    BRIDGES,
    BUMP_BACK,
    CARD_KINDS,
    COMPLETION_BONUS,
    DOUBLE,
    L1_MIDDLE,
    L2_LEFT,
    L2_RIGHT,
    L3,
    MAX_TERMS,
    MUMMIES,
    POINTS,
    SANDS_TO_WAKE,
    SANDSTORM,
    THIEF,
    UPPER,
    WILD,
    ZERO,
    A,
    B,
    card_name,
    pos_name,
)
from .events import (
    BaseDealt,
    BaseLeftEmpty,
    BaseRejected,
    Built,
    Completed,
    Dealt,
    Discarded,
    Finished,
    Moved,
    MummyWakes,
    Retreated,
    SandsAdvanced,
    SandstormDiscarded,
    SandstormGiven,
    Settled,
    Shuffled,
    Skipped,
    Stolen,
    Stopped,
    ThiefPlayed,
    ZeroPlayed,
)
from .notation import format_action
from .state import DISCARD, DRAW, OVER, PLAY, SETUP, START, Options, Pyramid, State, Table, Term, cards_on

PlayerKnowledge = Mapping[int, int]
"""What a player privately knows: the card each slot in their hand holds (other slots ignored)."""

HAND_LIMIT = 7
DRAW_COUNT = 3
FIRST_HAND = 5
STEAL_COUNT = 2
_NAME_FORBIDDEN = set(" \t\n@:#=")
Fillings = tuple[tuple[Term, ...], ...]
"""The ways to fill one position: each a combination of cards, with the value each counts."""
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class DealerKnowledge:
    """What the dealer privately knows: the deck order (top first) and the card of every slot dealt."""

    deck: Sequence[int]
    cards: Mapping[int, int]


@dataclass(frozen=True, slots=True)
class Outcome:
    scores: dict[str, int]
    """Each marker's final location."""
    winners: tuple[str, ...]
    ranking: tuple[tuple[str, ...], ...]
    """Players from first to last; players sharing a place share a group."""
    how: str
    """"alexandria" (a marker ended a turn on 13) or "stalled" (a full round without a card)."""


# ---------------------------------------------------------------- setup

def parse_options(raw: Mapping[str, str]) -> Options:
    options = Options()
    for key, value in raw.items():
        if key != "actions":
            raise InvalidSetup(f"unknown option {key!r} (options: actions)")
        parts = str(value).split(",")
        if len(parts) != 4 or not all(p.strip().isdigit() and int(p) <= 20 for p in parts):
            raise InvalidSetup("option actions is four counts 0-20 (Zero Block Value, Wild, Thief, Sandstorm), "
                               f"e.g. 5,5,5,5, not {value!r}")
        zero, wild, thief, sandstorm = (int(p) for p in parts)
        options = Options((zero, wild, thief, sandstorm))
    return options


def make_table(options: Options, players: Sequence[str]) -> Table:
    players = tuple(players)
    if not 3 <= len(players) <= 6:
        raise InvalidSetup(f"Path of Pharaohs is for 3 to 6 players, not {len(players)}")
    if len(set(players)) != len(players) or DEALER in players or not all(players):
        raise InvalidSetup(f"player names must be distinct, non-empty and not {DEALER!r}")
    if any(_NAME_FORBIDDEN & set(p) for p in players):
        raise InvalidSetup("a player name cannot hold spaces, @, :, # or = (the notation uses them)")
    return Table(players, options)


def setup(options: Options, players: Sequence[str], first: str) -> State:
    """A new play: the dealer owes the bases (left, then right, for each player from the first),
    then five cards to each player in the same order."""
    table = make_table(options, players)
    if first not in table.players:
        raise InvalidSetup(f"the first player {first!r} is not among the players")
    n, f = len(table.players), table.players.index(first)
    order = [(f + i) % n for i in range(n)]
    return State(
        table=table, deck=options.deck_size, discards=(), slot_card=(), hands=((),) * n,
        pyramids=((None,) * 6,) * n, zeros=(0,) * n, location=(0,) * n, space=(None,) * n,
        sands=0, mummies=0, storms=(False,) * n, turn=f, phase=SETUP,
        owed_bases=tuple((p, pos) for p in order for pos in BASES),
        owed_deal=tuple((p, FIRST_HAND) for p in order),
    )


# ---------------------------------------------------------------- reading the state

def duties(s: State) -> tuple[Duty, ...]:
    """Who owes what now: one party at a time (the game is sequential). Worked out once per state
    (`cached_duties`), by `owed_kind`'s tests in its order, spelled out with the words of each duty
    (tuned: asked of every state a game goes through, where a call to owed_kind and a second test of
    its answer were a third of the cost, and a second function a tenth)."""
    owed = s.cached_duties
    if owed is not None:
        return owed
    players = s.table.players
    if s.phase == OVER:
        owed = ()
    elif s.owed_bases:
        if s.deck:
            p, pos = s.owed_bases[0]
            owed = _reveal_duty(players[p], pos)
        else:
            owed = _SHUFFLE_DUTY
    elif s.victim is not None:
        owed = _steal_duty(players[s.victim], min(STEAL_COUNT, len(s.hands[s.victim])), players[s.turn])
    elif s.owed_deal:
        if s.deck:
            p, count = s.owed_deal[0]
            owed = _deal_duty(players[p], min(count, s.deck))
        else:
            owed = _SHUFFLE_DUTY
    elif s.phase == DISCARD:
        owed = _discard_duty(players[s.turn], len(s.hands[s.turn]) - HAND_LIMIT)
    else:
        owed = _move_duty(players[s.turn])
    s.cached_duties = owed
    return owed


def owed_kind(s: State) -> str | None:
    """What kind of act is owed now (Duty.what), None once the game is over: the part of `duties` a
    playout needs, without the words."""
    if s.phase == OVER:
        return None
    if s.owed_bases:
        return "reveal" if s.deck else "shuffle"
    if s.victim is not None:
        return "steal"
    if s.owed_deal:
        return "deal" if s.deck else "shuffle"
    return "discard" if s.phase == DISCARD else "move"


# The dealer's duties are most of a game's: each worded once (every state has its duties).
_SHUFFLE_DUTY = (Duty(DEALER, "shuffle", "shuffle the discard pile into a new deck"),)


@functools.lru_cache(maxsize=256)
def _reveal_duty(player: str, pos: int) -> tuple[Duty]:
    return (Duty(DEALER, "reveal", f"turn up a base card for {player}'s {pos_name(pos)}"),)


@functools.lru_cache(maxsize=256)
def _deal_duty(player: str, k: int) -> tuple[Duty]:
    return (Duty(DEALER, "deal", f"deal {k} card{'s' * (k != 1)} to {player}"),)


@functools.lru_cache(maxsize=256)
def _steal_duty(victim: str, k: int, thief: str) -> tuple[Duty]:
    return (Duty(DEALER, "steal", f"move {k} random card{'s' * (k != 1)} from {victim}'s hand to {thief}"),)


@functools.lru_cache(maxsize=256)
def _discard_duty(player: str, k: int) -> tuple[Duty]:
    return (Duty(player, "discard", f"discard {k} card{'s' * (k != 1)}, down to seven"),)


@functools.lru_cache(maxsize=64)
def _move_duty(player: str) -> tuple[Duty]:
    return (Duty(player, "move", "place cards, play action cards, or stop"),)


def fillable(pyramid: Pyramid, pos: int) -> bool:
    """An empty position whose bridged positions are filled (the level-1 middle: whenever empty)."""
    if pyramid[pos] is not None:
        return False
    below = BRIDGES.get(pos)
    return below is None or (pyramid[below[0]] is not None and pyramid[below[1]] is not None)


def to_bridge(pyramid: Pyramid, pos: int) -> int:
    """The value an upper position must hold: the difference of the two it bridges (both filled)."""
    left, right = pyramid[BRIDGES[pos][0]], pyramid[BRIDGES[pos][1]]
    assert left is not None and right is not None, "only a fillable position has a value to bridge"
    return abs(left[0] - right[0])


def public_counts(s: State) -> list[int]:
    """How many cards of each kind lie face up: discards, pyramids, Zero cards, Sandstorms in front."""
    counts = [0] * len(CARD_KINDS)
    for card in s.discards:
        counts[card] += 1
    for pyramid, zeros in zip(s.pyramids, s.zeros):
        for card in cards_on(pyramid, zeros):
            counts[card] += 1
    counts[SANDSTORM] += sum(s.storms)
    return counts


def card_total(s: State) -> int:
    """Every card counted where it lies: the deck, the discards, hands, pyramids, Sandstorms in front.
    Always the deck's size (the property tests hold the rules to it)."""
    on_pyramids = 0
    for pyramid, zeros in zip(s.pyramids, s.zeros):
        on_pyramids += zeros.bit_count()
        for filled in pyramid:
            if filled is not None:
                on_pyramids += len(filled[1])
    return s.deck + len(s.discards) + sum(map(len, s.hands)) + on_pyramids + sum(s.storms)


def closed(s: State, location: int) -> bool:
    """A woken mummy has closed this location's B space."""
    return location in MUMMIES[:s.mummies]


def free_space(s: State, location: int) -> int | None:
    """The space a marker arriving at `location` (above 0) would take: A before B; None if full."""
    taken = [sp for loc, sp in zip(s.location, s.space) if loc == location and sp is not None]
    if A not in taken:
        return A
    if location in DOUBLE and not closed(s, location) and B not in taken:
        return B
    return None


# ---------------------------------------------------------------- legality

Knowledge = PlayerKnowledge | DealerKnowledge
"""What an actor privately knows: a player's hand, or the dealer's deck and dealt cards."""


def _players(knowledge: Knowledge | None) -> PlayerKnowledge | None:
    if isinstance(knowledge, DealerKnowledge):
        raise TypeError(_NOT_A_PLAYERS)
    return knowledge


_NOT_A_PLAYERS = "a player's act goes with a player's knowledge, not the dealer's"


def _dealers(knowledge: Knowledge | None) -> DealerKnowledge | None:
    if knowledge is not None and not isinstance(knowledge, DealerKnowledge):
        raise TypeError(_NOT_THE_DEALERS)
    return knowledge


_NOT_THE_DEALERS = "the dealer's act goes with the dealer's knowledge (DealerKnowledge)"


_KINDS = {Build: "move", Zero: "move", Thief: "move", Sandstorm: "move", Stop: "move", Discard: "discard",
          Reveal: "reveal", Deal: "deal", Shuffle: "shuffle", Steal: "steal"}


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
        return Discard(action.cards, _slots_for(s, action.cards, action.slots, _players(knowledge), text))
    if isinstance(action, (Reveal, Deal, Shuffle, Steal)):
        return _check_dealer(s, action, _dealers(knowledge), text)
    return _check_move(s, action, _players(knowledge), text)


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


# ---------------------------------------------------------------- every legal act

def legal_actions(s: State, actor: str, knowledge: Knowledge | None = None) -> Sequence[Action]:
    """Every legal act of `actor` now, complete and canonical, as `check` would return it.
    A player's cards need their hand as `knowledge` (without it only `stop` is listed); the dealer's
    reveal and deals need the deck order; a steal lists every choice randomness may make."""
    owed = s.cached_duties or duties(s)  # tuned: mostly asked just after the duties, at every act
    if not owed:
        return []
    duty = owed[0]
    if duty.who != actor:
        return []
    what = duty.what
    if actor != DEALER:  # a mover's (tuned: their acts first, and their knowledge tested without a call)
        if knowledge is None:
            return [Stop()] if what == "move" else []
        if isinstance(knowledge, DealerKnowledge):
            raise TypeError(_NOT_A_PLAYERS)
        hand = s.hands[s.turn]
        cards = tuple(map(knowledge.__getitem__, hand))
        return Moves(s, cards) if what == "move" else Discards(hand, cards, len(hand) - HAND_LIMIT)
    if what == "shuffle":  # needs no knowledge
        return [_SHUFFLE]
    if knowledge is not None and not isinstance(knowledge, DealerKnowledge):
        raise TypeError(_NOT_THE_DEALERS)
    if what == "reveal":
        return [_REVEALS[knowledge.deck[0]]] if knowledge is not None else []
    if what == "deal":
        return [dealt(s, None if knowledge is None else knowledge.deck)]
    assert what == "steal" and s.victim is not None
    return Steals(s.hands[s.victim], None if knowledge is None else knowledge.cards)


_SHUFFLE = Shuffle()
_REVEALS = tuple(Reveal(card) for card in CARD_KINDS)
"""The dealer's reveal of each card, made once: acts are values, and a frozen one takes microseconds to
make (about every fourth act of a game is a reveal)."""


def dealt(s: State, deck: Sequence[int] | None) -> Deal:
    """The deal owed now, with the top cards of `deck` if the dealer's deck is given."""
    player, count = s.owed_deal[0]
    k, first = min(count, s.deck), len(s.slot_card)
    return new_deal(s.table.players[player], tuple(range(first, first + k)), None if deck is None else tuple(deck[:k]))


def lowest_slots(hand: tuple[int, ...], cards: tuple[int, ...], chosen: Sequence[int]) -> tuple[int, ...]:
    """The slots a canonical act playing the `chosen` cards names (as `check` fills them in): for each,
    in order, the lowest slot of `hand` holding it that is not taken yet (`cards`: the card of each
    slot of `hand`). Tuned: a mover's acts are listed from their hand's cards alone (its slots
    grouped by card cost a tenth of a move), and only the act chosen looks its slots up."""
    taken: list[int] = []
    for card in chosen:
        if cards.count(card) == 1:  # the commoner case, in two calls in C
            taken.append(hand[cards.index(card)])
        else:
            taken.append(min([slot for slot, held in zip(hand, cards) if held == card and slot not in taken]))
    return tuple(taken)




class Steals(LazySequence[Steal]):
    """Every choice of slots a steal may take from the victim's hand, made only when asked for:
    the trust layer's randomness picks one."""

    __slots__ = ("cards", "choices")

    def __init__(self, hand: tuple[int, ...], cards: Mapping[int, int] | None):
        self.choices = list(combinations(sorted(hand), min(STEAL_COUNT, len(hand))))
        self.cards = cards
        self.size = len(self.choices)

    def _item(self, i: int) -> Steal:
        slots = self.choices[i]
        return Steal(slots, None if self.cards is None else tuple(self.cards[x] for x in slots))


class Moves(LazySequence[Action]):
    """A mover's legal acts, each made only when asked for: a hand with a Wild can fill a position
    a hundred ways, and a random player looks at one of them. Then the action cards, as
    (card, opponent, position) until asked for, and stop."""

    __slots__ = ("builds", "cards", "hand", "others", "players")

    def __init__(self, s: State, cards: tuple[int, ...]):
        """The mover's acts, from the card of each slot of their hand (`cards`, in its order)."""
        hand = sum(map(_BITS.__getitem__, cards))  # hand_key
        self.others = _action_cards(s, hand) if hand & _ACTION_CARDS else _NO_OTHERS
        self.builds, builds = builds_for(s.pyramids[s.turn], hand)
        self.hand, self.cards, self.players = s.hands[s.turn], cards, s.table.players
        self.size = builds + len(self.others) + 1

    def _item(self, i: int) -> Action:
        for pos, fillings in self.builds:
            if i < len(fillings):
                terms = fillings[i]
                return new_build(pos, terms, lowest_slots(self.hand, self.cards, [card for card, _ in terms]))
            i -= len(fillings)
        if i == len(self.others):
            return _STOP
        card, p, pos = self.others[i]
        slot = lowest_slots(self.hand, self.cards, (card,))[0]
        if card == ZERO:
            return Zero(self.players[p], pos, slot)
        return Thief(self.players[p], slot) if card == THIEF else Sandstorm(self.players[p], slot)


def _action_cards(s: State, hand: int) -> list[tuple[int, int, int]]:
    """The action cards the mover can play from the hand `hand_key` packs, on each opponent they can be
    played on: (card, opponent, position), made acts only when asked for (tuned: a frozen act costs a
    microsecond to make). `fillable` spelled out over BRIDGES for the upper positions (a mover's acts
    are listed at every move)."""
    me = s.turn
    others: list[tuple[int, int, int]] = []
    opponents = _OPPONENTS[len(s.table.players)][me]
    if hand & _ZEROS:
        for p in opponents:
            left, middle, right, upper_left, upper_right, top = s.pyramids[p]
            zeros = s.zeros[p]
            if upper_left is None and left is not None and middle is not None and not zeros >> L2_LEFT & 1:
                others.append((ZERO, p, L2_LEFT))
            if upper_right is None and middle is not None and right is not None and not zeros >> L2_RIGHT & 1:
                others.append((ZERO, p, L2_RIGHT))
            if top is None and upper_left is not None and upper_right is not None and not zeros >> L3 & 1:
                others.append((ZERO, p, L3))
    if hand & _THIEVES:
        others += [(THIEF, p, 0) for p in opponents if s.hands[p]]
    if hand & _SANDSTORMS:
        others += [(SANDSTORM, p, 0) for p in opponents if not s.storms[p]]
    return others


_OPPONENTS = {n: tuple(tuple(p for p in range(n) if p != me) for me in range(n)) for n in range(3, 7)}
"""_OPPONENTS[players][mover]: the other seats, in order."""
_STOP = Stop()
_NO_OTHERS: list[tuple[int, int, int]] = []
"""No action card to play (shared: never changed)."""
Builds = tuple[tuple[tuple[int, Fillings], ...], int]
"""(position, fillings) pairs, and how many fillings in all."""


def builds_for(pyramid: Pyramid, hand: int) -> Builds:
    """Every way to fill each position of `pyramid` that can be filled (the level-1 middle whenever it
    is empty, an upper one once both it bridges are) from a hand whose counts `hand_key` packs. Not
    remembered whole (hands and pyramids seldom meet twice): each position's ways are, by the hand's
    value cards and Wilds. `fillable` and `to_bridge` spelled out over BRIDGES, in the order of the
    positions: a mover's acts are listed at every move."""
    left, middle, right, upper_left, upper_right, top = pyramid
    out = []
    total = 0
    if middle is None:
        fillings = middle_fillings(hand)
        if fillings:
            out.append((L1_MIDDLE, fillings))
            total += len(fillings)
    elif left is not None and upper_left is None:
        fillings = bridge_fillings(abs(left[0] - middle[0]), hand)
        if fillings:
            out.append((L2_LEFT, fillings))
            total += len(fillings)
    if middle is not None and right is not None and upper_right is None:
        fillings = bridge_fillings(abs(middle[0] - right[0]), hand)
        if fillings:
            out.append((L2_RIGHT, fillings))
            total += len(fillings)
    if top is None and upper_left is not None and upper_right is not None:
        fillings = bridge_fillings(abs(upper_left[0] - upper_right[0]), hand)
        if fillings:
            out.append((L3, fillings))
            total += len(fillings)
    return tuple(out), total


CARD_BITS = 5
"""`hand_key` packs a hand's count of each card kind in this many bits (a deck holds at most 20 copies)."""
_FIELD = (1 << CARD_BITS) - 1
_VALUES_AND_WILDS = sum(_FIELD << CARD_BITS * card for card in (*range(10), WILD))
_NO_ZEROS = _VALUES_AND_WILDS & ~_FIELD
_ZEROS, _THIEVES, _SANDSTORMS = (_FIELD << CARD_BITS * card for card in (ZERO, THIEF, SANDSTORM))
_ACTION_CARDS = _ZEROS | _THIEVES | _SANDSTORMS
"""Where a packed hand (`hand_key`) counts its action cards."""


def hand_key(counts: Sequence[int]) -> int:
    """A hand's count of each card kind (`counts[card]`), packed in one int: a cheap key to remember
    a hand's ways to fill a position by, which a playout keeps up to date as cards come and go
    (card_bit(card) per copy)."""
    return sum(n << CARD_BITS * card for card, n in enumerate(counts))


def card_bit(card: int) -> int:
    """What one copy of `card` adds to a hand's `hand_key`."""
    return 1 << CARD_BITS * card


_BITS = tuple(1 << CARD_BITS * card for card in CARD_KINDS)
"""What one copy of each card adds to a packed hand (`card_bit`)."""


def _counts(hand: int) -> list[int]:
    mask = (1 << CARD_BITS) - 1
    return [hand >> CARD_BITS * card & mask for card in CARD_KINDS]


_MIDDLES: dict[int, Fillings] = {}
_BRIDGES: dict[int, Fillings] = {}
_KEPT = 1 << 17
"""Hands remembered (about 50,000 tell positions apart in thousands of random games), then forgotten at once."""


def middle_fillings(hand: int) -> Fillings:
    """Every way to fill the level-1 middle from the hand `hand_key` packs: one of its value cards, or a
    Wild counting any value. Remembered by the hand's value cards and Wilds."""
    key = hand & _VALUES_AND_WILDS
    found = _MIDDLES.get(key)
    if found is None:
        if len(_MIDDLES) >= _KEPT:
            _MIDDLES.clear()
        counts = _counts(hand)
        singles = tuple(((v, v),) for v in range(10) if counts[v])
        found = _MIDDLES[key] = singles + (tuple(((WILD, v),) for v in range(10)) if counts[WILD] else ())
    return found


def bridge_fillings(need: int, hand: int) -> Fillings:
    """Every canonical way to make `need` from the hand `hand_key` packs: one card of the value (or a
    Wild), or two or three signed cards, in the order `_combinations` ranks them. Remembered by the
    need and the hand's value cards and Wilds (its 0s only for a need of 0) in one int; worked out
    by `_bridge_table` (tests/test_pop_properties.py holds both to the plain model)."""
    key = (hand & (_NO_ZEROS if need else _VALUES_AND_WILDS)) << 4 | need
    found = _BRIDGES.get(key)
    if found is None:
        if len(_BRIDGES) >= _KEPT:
            _BRIDGES.clear()
        have = hand & _VALUES | _GUARDS
        table = _bridge_table(need, min(hand >> CARD_BITS * WILD & _FIELD, MAX_TERMS))
        found = _BRIDGES[key] = tuple([terms for first, rows in table if hand & first
                                       for needs, terms in rows if (have - needs) & _GUARDS == _GUARDS])
    return found


_VALUES = sum(_FIELD << CARD_BITS * card for card in range(10))
_GUARDS = sum(1 << CARD_BITS * card + CARD_BITS - 1 for card in range(10))
"""The top bit of each value card's count in a packed hand, never set by a count (a deck holds six
copies of a value card): set in the hand, a borrow clears it in `hand - needs` when the hand holds
fewer copies of that card than `needs` (packed the same way) does, so one subtraction tests all ten."""


@functools.cache
def _bridge_table(need: int, wilds: int) -> tuple[tuple[int, tuple[tuple[int, tuple[Term, ...]], ...]], ...]:
    """Every way to make `need` with at most `wilds` Wilds (any value cards, as many copies as they
    use), in rank order, each with the value cards it uses packed as `hand_key` packs a hand. A hand
    makes those whose cards it holds: a filter over a few dozen rows (a few hundred with Wilds) where
    trying every pair and triple of its cards took ten times as long, at every hand met first. The
    rows come in blocks by the card of their first term, with that card's place in a packed hand:
    a hand without it skips the block (a third of the filter's time)."""
    rows: list[tuple[int, tuple[Term, ...]]] = [(card_bit(need), ((need, need),))]  # a 0 makes a need of 0 alone
    if wilds:
        rows.append((0, ((WILD, need),)))
    rows += [(needs, terms) for used, needs, terms in _combinations(need) if used <= wilds]
    blocks: list[tuple[int, list[tuple[int, tuple[Term, ...]]]]] = []
    for needs, terms in rows:
        first = _FIELD << CARD_BITS * terms[0][0]
        if blocks and blocks[-1][0] == first:
            blocks[-1][1].append((needs, terms))
        else:
            blocks.append((first, [(needs, terms)]))
    return tuple((first, tuple(block)) for first, block in blocks)


@functools.cache
def _combinations(need: int) -> tuple[tuple[int, int, tuple[Term, ...]], ...]:
    """Every combination of two or three signed terms making `need` (any card, as many copies as it
    uses), in rank order, as (Wilds it uses, the value cards it uses packed as `hand_key` packs a
    hand, its terms). The terms of every value card and of a Wild, sorted by value down then
    card, are listed in one row; a combination's rank is the place of its terms in the row, a pair
    before the triples that start with the same term (the order in which they are found here). The
    terms a hand allows are a subsequence of the row, so the combinations it can make, in rank
    order, are those the plain model (benchmarks/pop_plain.py) lists by trying every pair and
    triple of them in order."""
    terms = sorted([(v, v) for v in range(1, 10)] + [(v, -v) for v in range(1, 10)]
                   + [(WILD, x) for x in range(-9, 10) if x], key=lambda t: (-t[1], t[0]))
    index: dict[int, list[int]] = {}
    for i, (_, value) in enumerate(terms):
        index.setdefault(value, []).append(i)
    found: list[tuple[Term, ...]] = []
    for i, (_, v1) in enumerate(terms):
        found += [(terms[i], terms[k]) for k in index.get(need - v1, ()) if k >= i and v1 != -terms[k][1]]
        for j in range(i, len(terms)):
            v2 = terms[j][1]
            if v1 != -v2:
                found += [(terms[i], terms[j], terms[k]) for k in index.get(need - v1 - v2, ())
                          if k >= j and terms[k][1] != -v1 and terms[k][1] != -v2]
    wilds = [sum(card == WILD for card, _ in combination) for combination in found]
    return tuple(zip(wilds, [sum(card_bit(card) for card, _ in combination if card != WILD) for combination in found],
                     found))


class Discards(LazySequence[Discard]):
    """Every choice of cards to discard, each made only when asked for (which copy of a card goes
    does not matter: the lowest slots holding it). Choices are multisets of cards in the order
    `_card_choices` lists them; a random player takes one, so they are counted and the one taken
    is found by its index (`_nth_choice`) rather than all listed (a hand of twelve has hundreds)."""

    __slots__ = ("cards", "hand", "held", "k", "ways")

    def __init__(self, hand: tuple[int, ...], cards: tuple[int, ...], k: int):
        """The choices of `k` cards from `hand`, whose slots hold `cards` (in its order)."""
        self.hand, self.cards, self.k = hand, cards, k
        self.held = tuple([(card, min(cards.count(card), k)) for card in sorted(set(cards))])
        self.ways = _choice_ways(tuple([n for _, n in self.held]), k)
        self.size = self.ways[0][k]

    def _item(self, i: int) -> Discard:
        cards = _nth_choice(self.held, self.k, i, self.ways)
        return Discard(cards, lowest_slots(self.hand, self.cards, cards))


def _card_choices(held: tuple[tuple[int, int], ...], k: int) -> tuple[tuple[int, ...], ...]:
    """Every multiset of `k` cards from `held` ((card, copies) pairs, cards ascending): as many of the
    first card as can be (descending), each followed by the choices of the rest. The order
    `_nth_choice` indexes; tests/test_pop_properties.py holds them together."""
    if k == 0:
        return ((),)
    if not held:
        return ()
    (card, copies), rest = held[0], held[1:]
    out: list[tuple[int, ...]] = []
    for n in range(min(copies, k), -1, -1):
        out += [(card,) * n + tail for tail in _card_choices(rest, k - n)]
    return tuple(out)


@functools.lru_cache(maxsize=1 << 14)
def _choice_ways(copies: tuple[int, ...], k: int) -> tuple[tuple[int, ...], ...]:
    """ways[j][m]: how many multisets of m cards (m <= k) there are of cards held in these numbers of
    `copies`, from the j-th card on. Remembered by the copies alone, not the cards (a few thousand
    shapes of hand, where hands of every card crowded each other out of a cache)."""
    row = (1,) + (0,) * k
    ways = [row]
    for n in reversed(copies):
        row = tuple([sum(row[max(0, m - n):m + 1]) for m in range(k + 1)])
        ways.append(row)
    ways.reverse()
    return tuple(ways)


def _choice_count(held: tuple[tuple[int, int], ...], k: int) -> int:
    """len(_card_choices(held, k)), without listing them."""
    return _choice_ways(tuple([n for _, n in held]), k)[0][k]


def _nth_choice(held: tuple[tuple[int, int], ...], k: int, i: int,
                ways: tuple[tuple[int, ...], ...] | None = None) -> tuple[int, ...]:
    """_card_choices(held, k)[i], without listing the others (`ways`: _choice_ways of held's copies)."""
    if k == 1:  # tuned: four discards in ten are of one card, and its choices are the cards held, in order
        return (held[i][0],)
    if ways is None:
        ways = _choice_ways(tuple([n for _, n in held]), k)
    out: tuple[int, ...] = ()
    j = 0
    while k:
        card, copies = held[j]
        j += 1
        for n in range(min(copies, k), -1, -1):
            count = ways[j][k - n]
            if i < count:
                out += (card,) * n
                k -= n
                break
            i -= count
    return out


# ---------------------------------------------------------------- applying

def apply(s: State, actor: str, action: Action, knowledge: Knowledge | None = None) -> tuple[State, tuple[object, ...]]:
    """Apply one act of `actor` (checked first); returns the next state and what happened."""
    return apply_checked(s, actor, check(s, actor, action, knowledge))


def apply_checked(s: State, actor: str, action: Action, report: bool = True) -> tuple[State, tuple[object, ...]]:
    """`apply` for an action already complete and legal (from `check` or `legal_actions`); with
    `report` false, no events (a simulation reads none: making them is a tenth of its time)."""
    play = Play(s, report)
    play.act(action)
    return play.s, () if play.events is None else tuple(play.events)


def outcome(s: State) -> Outcome | None:
    """Final locations, winners and ranking once the game is over, else None."""
    if s.phase != OVER:
        return None
    players = s.table.players
    scores = dict(zip(players, s.location))
    winners = tuple(players[i] for i in s.winners)
    rest = sorted({scores[p] for p in players if p not in winners}, reverse=True)
    ranking = (winners,) + tuple(tuple(p for p in players if p not in winners and scores[p] == loc)
                                 for loc in rest)
    return Outcome(scores, winners, ranking, "stalled" if s.idle >= len(players) else "alexandria")


def _with(items: tuple[T, ...], i: int, value: T) -> tuple[T, ...]:
    """`items` with `value` at `i`. Tuned: through a list, half the time of joining two slices and the
    value (every act changes a player's entry in a few of the state's tuples)."""
    changed = list(items)
    changed[i] = value
    return tuple(changed)


class Play:
    """Builds the next state in place from one copy, then returns it settled. A playout
    (playout.play_out) carries one Play through a whole game, act after act."""

    __slots__ = ("events", "names", "s")

    def __init__(self, before: State, report: bool = True):
        self.s = before.copy()
        self.names = before.table.players
        self.events: list[object] | None = [] if report else None
        """What happened, for a game report; a playout asks for none."""

    # -- the acts

    def act(self, action: Action) -> None:
        """Perform one act (checked), then settle, forgetting the duties the state had worked out: a Play
        carried on from act to act changes the state in place. Tuned: the act's kind looked up once, not
        tested kind by kind (every act of a game comes through here)."""
        _PERFORM[type(action)](self, action)
        self.settle()
        self.s.cached_duties = None

    def _stop(self, action: Stop) -> None:
        if self.events is not None:
            self.events.append(Stopped(self.s.mover))
        self._end_turn()

    def _shuffle(self, action: Shuffle) -> None:
        s = self.s
        if self.events is not None:
            self.events.append(Shuffled(len(s.discards)))
        s.deck, s.discards = len(s.discards), ()

    def _steal(self, action: Steal) -> None:
        s = self.s
        victim, me = s.victim, s.turn
        assert victim is not None, "a steal follows a Thief"
        hands = list(s.hands)
        hands[victim] = tuple(x for x in hands[victim] if x not in action.slots)
        hands[me] = hands[me] + action.slots
        s.hands, s.victim = tuple(hands), None
        if self.events is not None:
            self.events.append(Stolen(s.mover, self.names[victim], len(action.slots)))

    def _discard(self, action: Discard) -> None:
        s = self.s
        self._from_hand(action.slots, action.cards)
        s.discards += action.cards
        if self.events is not None:
            self.events.append(Discarded(s.mover, action.cards))
        self._finish_turn()

    def _from_hand(self, slots: tuple[int, ...] | None, cards: tuple[int, ...]) -> None:
        """The mover plays these slots: they leave the hand and their cards become public."""
        assert slots is not None, "a checked act names the slot of each card it plays"
        s = self.s
        s.hands = _with(s.hands, s.turn, tuple(filterfalse(slots.__contains__, s.hands[s.turn])))
        slot_card = list(s.slot_card)
        for slot, card in zip(slots, cards):
            slot_card[slot] = card
        s.slot_card = tuple(slot_card)

    def _build(self, action: Build) -> None:
        s = self.s
        me, pos, terms = s.turn, action.pos, action.terms
        cards, values = zip(*terms)  # tuned: in C, where two comprehensions were two calls a build
        self._from_hand(action.slots, cards)
        value = sum(values)
        pyramid = _with(s.pyramids[me], pos, (value, terms))
        points = 0 if s.zeros[me] >> pos & 1 else POINTS[pos]
        s.built = True
        if self.events is not None:
            self.events.append(Built(s.mover, pos, terms, value, points))
        if pos == L3:
            on_pyramid = cards_on(pyramid, s.zeros[me])
            s.discards += tuple(on_pyramid)
            s.zeros = _with(s.zeros, me, 0)
            pyramid = (None,) * 6
            s.owed_bases += tuple((me, base) for base in BASES)
            if self.events is not None:
                self.events.append(Completed(s.mover, len(on_pyramid)))
            points += COMPLETION_BONUS
        s.pyramids = _with(s.pyramids, me, pyramid)
        if points and s.location[me] < ALEXANDRIA:
            s.location = _with(s.location, me, min(ALEXANDRIA, s.location[me] + points))
            s.space = _with(s.space, me, None)
            if self.events is not None:
                self.events.append(Moved(s.mover, s.location[me]))

    def _action_card(self, action: Zero | Thief | Sandstorm) -> None:
        s = self.s
        target = self.names.index(action.target)
        slot = action.slot
        assert slot is not None, "a checked act names the slot of the card it plays"
        if isinstance(action, Zero):
            self._from_hand((slot,), (ZERO,))
            s.zeros = _with(s.zeros, target, s.zeros[target] | 1 << action.pos)
            if self.events is not None:
                self.events.append(ZeroPlayed(s.mover, action.target, action.pos))
        elif isinstance(action, Thief):
            self._from_hand((slot,), (THIEF,))
            s.discards += (THIEF,)
            s.victim = target
            if self.events is not None:
                self.events.append(ThiefPlayed(s.mover, action.target))
        else:
            self._from_hand((slot,), (SANDSTORM,))
            s.storms = _with(s.storms, target, True)
            if self.events is not None:
                self.events.append(SandstormGiven(s.mover, action.target))
            self._advance_sands()

    def _reveal(self, action: Reveal) -> None:
        s = self.s
        card = action.card
        s.deck -= 1
        player, pos = s.owed_bases[0]
        if card <= 9:
            pyramid = list(s.pyramids[player])
            pyramid[pos] = (card, ((card, card),))
            s.pyramids = _with(s.pyramids, player, tuple(pyramid))
            s.owed_bases = s.owed_bases[1:]
            if self.events is not None:
                self.events.append(BaseDealt(self.names[player], pos, card))
            return
        s.discards += (card,)
        if self.events is not None:
            self.events.append(BaseRejected(self.names[player], card))
        if card == SANDSTORM:
            self._advance_sands()

    def _deal(self, action: Deal) -> None:
        s = self.s
        player, count = s.owed_deal[0]
        k = len(action.slots)
        s.deck -= k
        s.slot_card += (None,) * k
        s.hands = _with(s.hands, player, s.hands[player] + action.slots)
        s.owed_deal = ((player, count - k),) + s.owed_deal[1:] if count > k else s.owed_deal[1:]
        if s.phase == DRAW:
            s.drew = True
        if self.events is not None:
            self.events.append(Dealt(self.names[player], k))

    # -- the Sands of Time and the path

    def _advance_sands(self) -> None:
        s = self.s
        if s.mummies == len(MUMMIES):
            return  # no mummy left: the track does nothing
        s.sands += 1
        if self.events is not None:
            self.events.append(SandsAdvanced(s.sands))
        if s.sands < SANDS_TO_WAKE:
            return
        location = MUMMIES[s.mummies]
        s.mummies += 1
        s.sands = 0
        if self.events is not None:
            self.events.append(MummyWakes(location))
        for p in range(len(self.names)):
            if s.location[p] == location and s.space[p] == B:
                self._fall_back(p, location - 1, "mummy")

    def _fall_back(self, p: int, start: int, why: str) -> None:
        """Marker `p` goes to `start`, then back one at a time to a location with a free space."""
        s = self.s
        s.space = _with(s.space, p, None)
        location = max(0, start)
        space = None
        while location > 0:
            space = free_space(s, location)
            if space is not None:
                break
            location -= 1
        s.location = _with(s.location, p, location)
        s.space = _with(s.space, p, space)
        if self.events is not None:
            self.events.append(Retreated(self.names[p], location, space, why))

    def _take_place(self) -> None:
        """The mover's marker takes its location at the end of the turn, bumping if it must."""
        s = self.s
        me = s.turn
        location = s.location[me]
        if location == 0 or s.space[me] is not None:
            return
        space = free_space(s, location)
        bumped = None
        if space is None:
            space = B if location in DOUBLE and not closed(s, location) else A
            bumped = next(p for p in range(len(self.names)) if s.location[p] == location and s.space[p] == space)
        s.space = _with(s.space, me, space)
        if self.events is not None:
            self.events.append(Settled(s.mover, location, space))
        if bumped is not None:
            self._fall_back(bumped, location - BUMP_BACK, "bumped")

    # -- a turn's course

    def _end_turn(self) -> None:
        s = self.s
        self._take_place()
        if s.location[s.turn] == ALEXANDRIA:
            s.phase, s.winners = OVER, (s.turn,)
            if self.events is not None:
                self.events.append(Finished((s.mover,), "alexandria"))
            return
        s.phase = DRAW
        s.owed_deal += ((s.turn, DRAW_COUNT),)

    def _finish_turn(self) -> None:
        s = self.s
        me = s.turn
        if s.storms[me]:
            s.storms = _with(s.storms, me, False)
            s.discards += (SANDSTORM,)
            if self.events is not None:
                self.events.append(SandstormDiscarded(s.mover))
        s.idle = 0 if s.built or s.drew else s.idle + 1
        if s.idle >= len(self.names):
            best = max(s.location)
            s.phase = OVER
            s.winners = tuple(p for p in range(len(self.names)) if s.location[p] == best)
            if self.events is not None:
                self.events.append(Finished(tuple(self.names[p] for p in s.winners), "stalled"))
            return
        s.turn = (me + 1) % len(self.names)
        s.phase, s.built, s.drew = START, False, False

    def settle(self) -> None:
        """Run the rules forward until someone owes an act."""
        s = self.s
        while s.phase != OVER:
            if s.owed_bases:
                if s.deck or any(card <= 9 for card in s.discards):
                    return  # a reveal, or a shuffle first
                player, pos = s.owed_bases[0]
                s.owed_bases = s.owed_bases[1:]
                if self.events is not None:
                    self.events.append(BaseLeftEmpty(self.names[player], pos))
                continue
            if s.victim is not None:
                return
            if s.owed_deal:
                if s.deck or s.discards:
                    return  # a deal, or a shuffle first
                s.owed_deal = s.owed_deal[1:]  # nothing left to draw
                continue
            phase = s.phase  # the phases by how often they come: a mover's every act, then once a turn
            if phase == PLAY:
                if s.hands[s.turn]:
                    return
                if self.events is not None:
                    self.events.append(Stopped(s.mover))
                self._end_turn()
            elif phase == DRAW:
                if len(s.hands[s.turn]) > HAND_LIMIT:
                    s.phase = DISCARD
                    return
                self._finish_turn()
            elif phase == START:
                me = s.turn
                pyramid = s.pyramids[me]
                s.owed_bases = tuple([(me, base) for base in BASES if pyramid[base] is None])
                s.phase = PLAY
                if s.storms[me] or not s.hands[me]:
                    if self.events is not None:
                        self.events.append(Skipped(s.mover, "a Sandstorm" if s.storms[me] else "no cards"))
                    self._end_turn()
            elif phase == SETUP:
                s.phase = START
            else:
                return  # DISCARD: the mover chooses


_PERFORM: dict[type, Callable[[Play, Any], None]] = {
    Deal: Play._deal, Reveal: Play._reveal, Build: Play._build, Stop: Play._stop, Shuffle: Play._shuffle,
    Steal: Play._steal, Discard: Play._discard, Zero: Play._action_card, Thief: Play._action_card,
    Sandstorm: Play._action_card,
}
"""How Play performs each kind of act."""
