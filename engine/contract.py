"""What every game in the engine provides, and the errors the engine raises.

The engine models the public game only. A hidden value is an opaque slot until an action reveals
it, so anyone can replay a record and a player's own machine can apply a move without knowing the
others' secrets. Chance is a duty of the dealer, like OpenSpiel's chance player.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple, Protocol

DEALER = "dealer"
"""The actor who holds what nobody else may see: face-down tiles, the deck order."""

DUTY_KINDS = ("move", "open", "reveal", "discard")


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


class Game(Protocol):
    """One game's rules as pure functions over immutable states (boardgame.io's shape)."""

    name: str
    title: str

    def parse_options(self, raw: Mapping[str, str]) -> Any: ...
    def setup(self, options: Any, players: Sequence[str], first: str) -> Any: ...
    def duties(self, state: Any) -> tuple[Duty, ...]: ...
    def legal_actions(self, state: Any, actor: str, knowledge: Any = None) -> Sequence[Any]: ...
    def check(self, state: Any, actor: str, action: Any, knowledge: Any = None) -> Any: ...
    def apply(self, state: Any, actor: str, action: Any) -> tuple[Any, tuple[Any, ...]]: ...
    def public(self, action: Any) -> Any: ...
    def view(self, state: Any, observer: str | None, knowledge: Any = None) -> dict[str, Any]: ...
    def outcome(self, state: Any) -> Any: ...
    def parse_action(self, text: str) -> Any: ...
    def format_action(self, action: Any) -> str: ...
