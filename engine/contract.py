"""What every game in the engine provides, and the errors the engine raises.

The engine models the public game only. A hidden value is an opaque slot until an action reveals
it, so anyone can replay a record and a player's own machine can apply a move without knowing the
others' secrets. Chance is a duty of the dealer, like OpenSpiel's chance player.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple, Protocol, TypeVar

DEALER = "dealer"
"""The actor who holds what nobody else may see: face-down tiles, the deck order."""

DUTY_KINDS = ("move", "discard", "open", "reveal", "deal", "shuffle", "steal")
"""What a duty asks for, by what the trust layer must do about hidden information:
- "move", "discard": a player's own choice, public once made (a hidden item it plays is opened with it);
- "open": a player (or the dealer, who holds every opening) opens values committed earlier;
- "reveal": the dealer turns a hidden item face up for all (a face-down tile, the deck's top card);
- "deal": the dealer deals hidden items privately to one player (cards into a hand);
- "shuffle": the dealer puts public items into a fresh secret order (a discard pile becoming the deck);
- "steal": the dealer moves hidden items from one player to another, chosen by fair randomness."""


def winners_text(winners: Sequence[str]) -> str:
    """Who won, as every message says it: "ann wins", "ann and ben share the win"."""
    return f"{' and '.join(winners)} {'share the win' if len(winners) > 1 else 'wins'}"


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
        self.reason = reason


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
KnowledgeT = TypeVar("KnowledgeT", contravariant=True)
"""What an actor privately knows (a player's hidden values, the dealer's deck): only ever given."""


class Game(Protocol[OptionsT, StateT, ActionT, KnowledgeT]):
    """One game's rules as pure functions over immutable states (boardgame.io's shape), typed by its
    options, state, action and private knowledge. engine/__init__.py has mypy hold each game to it."""

    name: str
    title: str

    def parse_options(self, raw: Mapping[str, str]) -> OptionsT: ...
    def setup(self, options: OptionsT, players: Sequence[str], first: str) -> StateT: ...
    def duties(self, state: StateT) -> tuple[Duty, ...]: ...
    def legal_actions(self, state: StateT, actor: str, knowledge: KnowledgeT | None = None) -> Sequence[ActionT]: ...
    def check(self, state: StateT, actor: str, action: ActionT, knowledge: KnowledgeT | None = None) -> ActionT: ...
    def apply(self, state: StateT, actor: str, action: ActionT) -> tuple[StateT, tuple[Any, ...]]:
        """The next state and what happened: the game's own event dataclasses, which read as text."""
        ...
    def public(self, action: ActionT) -> ActionT: ...
    def view(self, state: StateT, observer: str | None, knowledge: KnowledgeT | None = None) -> dict[str, Any]:
        """JSON values for one observer (Any: a game's view is its own JSON shape)."""
        ...
    def outcome(self, state: StateT) -> Outcome | None: ...
    def parse_action(self, text: str) -> ActionT: ...
    def format_action(self, action: ActionT) -> str: ...


AnyGame = Game[Any, Any, Any, Any]
"""A game from the registry, whichever it is: each is checked against its own types where it is defined."""
