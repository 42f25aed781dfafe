"""What every game in the engine provides, and the errors the engine raises.

The engine models the public game only. A hidden value is an opaque slot until an action reveals
it, so anyone can replay a record and a player's own machine can apply a move without knowing the
others' secrets. Chance is a duty of the dealer, like OpenSpiel's chance player.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, MutableSequence, Sequence
from typing import Any, NamedTuple, Protocol, TypeVar, runtime_checkable

from .frozen import Frozen

DEALER = "dealer"
"""The actor who holds what nobody else may see: face-down tiles, the deck order."""

DUTY_KINDS = ("move", "discard", "open", "reveal", "deal", "shuffle", "steal")
"""What a duty asks for. The trust layer does not read the kind to handle hidden information (each
action's `Secrets` says that); it reads it to know who may sign: a player's "move" and "discard" are
their own; the referee, which can open every secret a player commits, may sign an "open" for them;
"reveal", "deal", "shuffle" and "steal" are the DEALER's:
- "move", "discard": a player's own choice, public once made (a hidden item it plays is opened with it);
- "open": a player (or the dealer, who holds every opening) opens values committed earlier;
- "reveal": the dealer turns a hidden item face up for all (a face-down tile, the deck's top card);
- "deal": the dealer deals hidden items privately to one player (cards into a hand);
- "shuffle": the dealer puts public items into a fresh secret order (a discard pile becoming the deck);
- "steal": the dealer moves hidden items from one player to another, chosen by fair randomness."""

TURN_DUTIES = ("move", "discard")
"""The duty kinds that are a player's own decision on their turn: what the prompt, a bot and the app ask
for, what a mail of the turn waits on, what a deadline's `turn_hours` times. When a player owes one, a
one-word answer reads as the duty's kind followed by it, if the notation reads that (`discard moon-4`
given as `moon-4`)."""

ABSENCES_OUT = 3
"""Absent turns in a row (absences from a move owed, none of the player's own acts between) after which a
game's `absent` applies its rule for a player who is gone: it takes them out or ends the game."""

STRIKE_KIND = TURN_DUTIES[0]
"""The duty kind an absent turn is an absence from, which the trust layer counts towards ABSENCES_OUT: "move",
the turn itself, in every game. A "discard" is a choice within a turn (a trap's, the hand limit's) and an
"open" no decision at all: an absence from either neither adds to the count nor resets it."""

Value = int | str
"""A hidden item's value as the record writes it: a coin's number, a tile's or a card's name."""


T = TypeVar("T")


class Randomness(Protocol):
    """What a game's deal may draw on: pbem's specified shuffle (pbem/protocol/shuffle.py) or a `random.Random`."""

    def shuffle(self, items: MutableSequence[Any]) -> None: ...
    def choice(self, items: Sequence[T]) -> T: ...


class Dealt(Frozen):
    """What the dealer hides at the start, from the game's own deal rules driven by the trust layer's
    fair randomness: `named` items lie face down in their own places (Sarcophagus's tiles, keyed by
    place); `stock` is a deck, drawn from its first item on; `first` moves first."""

    named: Mapping[str, Value]
    stock: Sequence[Value]
    first: str


class Secrets(Frozen):
    """What one action does with hidden items: the whole of what the trust layer must commit, seal,
    open and check for it. Keys are the game's names for items (`#3` a coin or a card in hand, `3b` a
    tile place); the dealer's stock items are drawn from the top and named by the draw.

    - `commits`: (key, value) secrets the actor chooses now (a coin), committed and sealed to the
      actor (and a referee); the value is None in the public form of the action.
    - `draws`: (key, player) the next stock items, dealt privately to a player under a new key.
    - `shows`: the values of the next stock items, turned face up for all (a base card).
    - `opens`: (key, value) items made public (a tile turned up, a coin opened, a card played).
    - `gives`: (key, player) items already dealt, passed privately to another player (a theft).
    - `restock`: the values of a fresh stock the dealer shuffles now (the discard pile as a new deck).
    - `chance`: the action is chance's pick among `legal_actions(state, DEALER)`: the trust layer
      chooses it by randomness no player controls, and the record proves it."""

    commits: tuple[tuple[str, Value | None], ...] = ()
    draws: tuple[tuple[str, str], ...] = ()
    shows: tuple[Value, ...] = ()
    opens: tuple[tuple[str, Value], ...] = ()
    gives: tuple[tuple[str, str], ...] = ()
    restock: tuple[Value, ...] = ()
    chance: bool = False


class Pace(Frozen):
    """How long a game's duties may take people by default (a game made with `--deadlines default`,
    docs/deadlines.md): hours for a turn (TURN_DUTIES), for an opening, for each of the referee's duties;
    the reminders (hours before a deadline, longest first) and the grace after it."""

    turn_hours: int = 48
    reminders: tuple[int, ...] = (12,)
    open_hours: int = 24
    referee_hours: int = 12
    grace_hours: int = 24


class HandWords(Frozen):
    """The trust layer's words for a game's hidden hand, the items the dealer deals one player (`Secrets.draws`,
    `gives`), in the verdicts that prove one false: a dealt item that does not open for its receiver, and an
    absence whose act the game's rule chose from the hand (`absence_act` given the hand's knowledge), proven by
    the dealer's seed or by the absent player opening what they held. `item` and `items` name one and several
    ("card", "cards"), `chosen` what the rule chose ("lowest cards"), `act` its act ("discard"). A game whose
    dealer deals no one a hand keeps the defaults, never said."""

    item: str = "hidden item"
    items: str = "hidden items"
    chosen: str = "hand, by the game's rule,"
    act: str = "act"


def winners_text(winners: Sequence[str]) -> str:
    """Who won, as every message says it: "ann wins", "ann and ben share the win"."""
    return f"{' and '.join(winners)} {'share the win' if len(winners) > 1 else 'wins'}"


class Event(Protocol):
    """What an act caused, as the rules report it: a small frozen value whose `str()` says it in words
    ("ben claims moon-4"). Presentations choose events by their class (isinstance), never by its name."""

    def __str__(self) -> str: ...


@runtime_checkable
class Acted(Protocol):
    """An event that names the player who acted. When someone else signs the act for them (the referee
    opens a player's coins), the trust layer reports the signer instead: `dataclasses.replace(event,
    player=signer)`, so every event that names a player is a dataclass with a `player` field."""

    player: str


class Absent(Frozen):
    """A player was recorded absent; `consequence` says, in the game's words, what their duty became (every
    game reports an absence with this one event)."""

    player: str
    duty: str
    consequence: str

    def __str__(self) -> str:
        return f"{self.player} is recorded absent ({self.duty}): {self.consequence}"


class Duty(NamedTuple):
    """Someone owes an act now: `what` is one of DUTY_KINDS; `detail` says it in words.
    A NamedTuple: every state has its duties, and a tuple is the cheapest immutable record."""

    who: str
    what: str
    detail: str = ""


class RuleError(Exception):
    """Base of every error the engine raises on purpose."""


class NotationError(RuleError, ValueError):
    """The text is not an action in the game's notation (a syntax error, before any legality check)."""


class IllegalAction(RuleError):
    """The action is well-formed but the rules forbid it here; the message names the action and why."""

    def __init__(self, action: object, reason: str):
        super().__init__(f"{action}: {reason}")
        self.action = str(action)


class NotYourDuty(IllegalAction):
    """The actor owes no act of this kind now (for example, it is not their turn). `waiting` names
    who does owe, by their name in the game: DEALER for the dealer."""

    def __init__(self, action: object, reason: str, waiting: tuple[str, ...] = ()):
        self.waiting, self.why = waiting, reason
        super().__init__(action, self._reason({}))

    def naming(self, names: Mapping[str, str]) -> str:
        """The message with the waiting parties called as `names` says (e.g. the dealer by a referee's
        name); a party not in `names` keeps its own name."""
        return f"{self.action}: {self._reason(names)}"

    def _reason(self, names: Mapping[str, str]) -> str:
        if not self.waiting:
            return self.why
        return f"{self.why}: waiting for {' and '.join(names.get(w, w) for w in self.waiting)}"


class InvalidSetup(RuleError):
    """Players, options or a layout that the game cannot start from."""


class UnknownGame(RuleError, LookupError):
    """No game of that name in the registry."""


class Outcome(Protocol):
    """How a finished game ended, as the trust layer reports it."""

    @property
    def scores(self) -> Mapping[str, int]: ...
    @property
    def winners(self) -> tuple[str, ...]: ...


OptionsT = TypeVar("OptionsT")
StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT")
KnowledgeT = TypeVar("KnowledgeT")
"""What an actor privately knows (a player's hidden values, the dealer's deck)."""


Policy = Callable[[Any, str, list[Any], random.Random, Any], Any]
"""A computer player's choice: (state, actor, legal actions, rng, the actor's own knowledge) -> action."""


class Game(Protocol[OptionsT, StateT, ActionT, KnowledgeT]):
    """One game's rules as pure functions over immutable states (boardgame.io's shape), typed by its
    options, state, action and private knowledge. engine/__init__.py has mypy hold each game to it."""

    name: str
    title: str
    min_players: int
    max_players: int
    """How many players the game takes: `pbem new` and the demo answer another count with them
    (`players_problem`), and `setup` refuses it in the same words (tests/protocol/test_every_game.py holds them alike)."""
    pace: Pace
    """The deadlines a game made with `--deadlines default` gives (a long turn needs more than a short one)."""
    hand_words: HandWords
    """How a verdict names its hidden hand and what its rule of absence chooses from it (HandWords())."""

    def parse_options(self, raw: Mapping[str, str]) -> OptionsT: ...
    def setup(self, options: OptionsT, players: Sequence[str], first: str) -> StateT: ...
    def duties(self, state: StateT) -> tuple[Duty, ...]: ...
    def legal_actions(self, state: StateT, actor: str, knowledge: KnowledgeT | None = None) -> Sequence[ActionT]: ...
    def check(self, state: StateT, actor: str, action: ActionT, knowledge: KnowledgeT | None = None) -> ActionT: ...
    def apply(self, state: StateT, actor: str, action: ActionT) -> tuple[StateT, tuple[Event, ...]]:
        """The next state and what happened: the game's own event dataclasses, which read as text."""
        ...
    def public(self, action: ActionT) -> ActionT: ...
    def view(self, state: StateT, observer: str | None, knowledge: KnowledgeT | None = None) -> dict[str, Any]:
        """JSON values for one observer (Any: a game's view is its own JSON shape)."""
        ...
    def outcome(self, state: StateT) -> Outcome | None: ...
    def parse_action(self, text: str) -> ActionT: ...
    def format_action(self, action: ActionT) -> str: ...

    # -- computer players

    bots: tuple[str, ...]
    """The names of its computer players, the default first."""

    def policy(self, bot: str, think: float | None = 1.0, iterations: int | None = None) -> Policy:
        """A computer player by name: it chooses among the legal actions with the actor's own knowledge
        only; a searching one thinks `think` seconds a move, or `iterations`."""
        ...

    # -- hidden information: what the trust layer (pbem/) needs to host the game without knowing it

    def deal(self, options: OptionsT, players: Sequence[str], rng: Randomness) -> Dealt:
        """The hidden deal and the first player, by the game's own setup rules from `rng` alone."""
        ...
    def actor(self, state: StateT, action: ActionT) -> str:
        """Who the rules say performs `action` now: a player, DEALER, or "" if nobody may."""
        ...
    def secrets(self, state: StateT, actor: str, action: ActionT) -> Secrets:
        """What `action` (checked, or its public form from the record) does with hidden items."""
        ...
    def knowledge(self, state: StateT, actor: str, known: Mapping[str, Value],
                  stock: Sequence[Value]) -> KnowledgeT:
        """The actor's private knowledge in the game's own form, from the items it can open (`known`,
        by key) and, for DEALER, the values left in the stock, top first."""
        ...
    def audit_problem(self, state: StateT, opened: Sequence[tuple[str, Value]]) -> tuple[str, str] | None:
        """Whether the true values of secrets players committed (`commits`) prove that one chose a value
        they did not hold: (that player, why), or None. What a verdict against a false secret rests on."""
        ...

    # -- absence: what a player's owed duty becomes once the trust layer records them absent (docs/deadlines.md)

    def absence_act(self, state: StateT, party: str, knowledge: KnowledgeT | None = None) -> ActionT | None:
        """The ordinary act (complete and legal) that the duty `party` owes now becomes, which the trust
        layer records with the hidden items it shows, as any act of theirs; None when the game's own rule
        of absence applies instead. `knowledge` is what the recorder can open of `party`'s secrets (an act
        that shows hidden items needs it: IllegalAction without). IllegalAction if `party` owes nothing or
        is DEALER: an absent dealer is the trust layer's to rule on."""
        ...
    def absent(self, state: StateT, party: str, act: ActionT | None = None,
               strikes: int = 1) -> tuple[StateT, tuple[Any, ...]]:
        """The state once `party`, who owes a duty now, is recorded absent, and what happened: `act` (the
        public form of what `absence_act` gave) applied, or the game's own rule; then, when this is the
        `strikes`-th absent turn in a row and `strikes` >= ABSENCES_OUT, the game's rule for a player who is
        gone. Always a state from which the game can go on or has ended; IllegalAction if `act` is not
        what the absence allows."""
        ...


AnyGame = Game[Any, Any, Any, Any]
"""A game from the registry, whichever it is: each is checked against its own types where it is defined."""


def players_span(game: AnyGame) -> str:
    """How many players `game` takes, in words, from its `min_players` and `max_players`: "2 to 4", "2 or 3"."""
    low, high = game.min_players, game.max_players
    return str(low) if low == high else f"{low} or {high}" if high == low + 1 else f"{low} to {high}"


def players_problem(game: AnyGame, count: int) -> str | None:
    """Why `count` players cannot play `game`, in the words its `setup` uses ("Sarcophagus is for 2 to 4
    players, not 5"); None when they can."""
    if game.min_players <= count <= game.max_players:
        return None
    return f"{game.title} is for {players_span(game)} players, not {count}"
