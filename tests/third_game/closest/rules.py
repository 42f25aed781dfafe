"""Closest's rules over immutable states: each player in turn seals a guess of a hidden target; the dealer
turns the target up; the guesses are opened; the nearest guess wins."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.contract import DEALER, Absent, Duty, IllegalAction, InvalidSetup, NotYourDuty, Value, winners_text

from .actions import HIGH, LOW, Action, Open, Reveal, Seal

Knowledge = Mapping[str, Value]
"""What an actor can read, by item key: a player's own sealed guess (`#SEAT`); the dealer's also `target`."""


@dataclass(frozen=True)
class Options:
    """Closest has no options."""


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    first: int
    sealed: int = 0
    """How many players have sealed (or lost their turn to an absence), in turn order from `first`."""
    void: tuple[str, ...] = ()
    """Players who sealed nothing (absent): they cannot win."""
    target: int | None = None
    opened: tuple[tuple[str, int], ...] = ()
    withheld: tuple[str, ...] = ()
    """Players whose guess stays closed for good (absent when it was to be opened): they cannot win."""

    def seat_of(self, player: str) -> int:
        return self.players.index(player)

    def turn_order(self) -> tuple[str, ...]:
        return self.players[self.first:] + self.players[:self.first]


@dataclass(frozen=True, slots=True)
class Sealed:
    player: str

    def __str__(self) -> str:
        return f"{self.player} seals a guess"


@dataclass(frozen=True, slots=True)
class Revealed:
    target: int

    def __str__(self) -> str:
        return f"the target is {self.target}"


@dataclass(frozen=True, slots=True)
class Opened:
    player: str
    value: int

    def __str__(self) -> str:
        return f"{self.player} guessed {self.value}"


@dataclass(frozen=True, slots=True)
class Finished:
    scores: tuple[tuple[str, int], ...]
    winners: tuple[str, ...]

    def __str__(self) -> str:
        return f"final scores: {', '.join(f'{p} {s}' for p, s in self.scores)}; {winners_text(self.winners)}"


@dataclass(frozen=True)
class Outcome:
    scores: Mapping[str, int]
    winners: tuple[str, ...]


def parse_options(raw: Mapping[str, str]) -> Options:
    if raw:
        raise InvalidSetup(f"Closest has no options, not {', '.join(sorted(raw))}")
    return Options()


def setup(options: Options, players: Sequence[str], first: str) -> State:
    if not 2 <= len(players) <= 3:
        raise InvalidSetup(f"Closest is for 2 or 3 players, not {len(players)}")
    return State(tuple(players), list(players).index(first))


def _to_open(s: State) -> list[str]:
    done = {p for p, _ in s.opened} | set(s.withheld) | set(s.void)
    return [p for p in s.turn_order() if p not in done]


def duties(s: State) -> tuple[Duty, ...]:
    if s.sealed < len(s.players):
        return (Duty(s.turn_order()[s.sealed], "move", f"seal a guess from {LOW} to {HIGH}"),)
    if s.target is None:
        return (Duty(DEALER, "reveal", "turn up the target"),)
    left = _to_open(s)
    return (Duty(left[0], "open", "open your sealed guess"),) if left else ()


def _owed(s: State, actor: str, action: object) -> Duty:
    owed = duties(s)
    for duty in owed:
        if duty.who == actor:
            return duty
    raise NotYourDuty(action, "the game is over" if not owed else f"{actor} owes nothing now",
                      tuple(d.who for d in owed))


def legal_actions(s: State, actor: str, knowledge: Knowledge | None = None) -> list[Action]:
    owed = [d for d in duties(s) if d.who == actor]
    if not owed:
        return []
    known = knowledge or {}
    if owed[0].what == "move":
        return [Seal(v) for v in range(LOW, HIGH + 1)]
    if owed[0].what == "reveal":
        return [Reveal(int(known["target"]))] if "target" in known else []
    key = f"#{s.seat_of(actor)}"
    return [Open(actor, int(known[key]))] if key in known else []


def check(s: State, actor: str, action: Action, knowledge: Knowledge | None = None) -> Action:
    """The act as the rules allow it now; a sealed value is checked by the trust layer (and the audit)."""
    if isinstance(action, Open) and actor == DEALER:
        actor = action.player  # the referee opens for the player
    duty = _owed(s, actor, action)
    expected = {"move": Seal, "reveal": Reveal, "open": Open}[duty.what]
    if not isinstance(action, expected):
        raise IllegalAction(action, f"{actor} owes a {duty.what} now ({duty.detail})")
    if isinstance(action, Open) and action.player != actor:
        raise IllegalAction(action, f"{actor} opens their own guess, not {action.player}'s")
    if isinstance(action, Seal) and action.value is not None and not LOW <= action.value <= HIGH:
        raise IllegalAction(action, f"a guess is from {LOW} to {HIGH}")
    return action


def apply(s: State, actor: str, action: Action) -> tuple[State, tuple[Any, ...]]:
    events: tuple[Any, ...]
    if isinstance(action, Seal):
        s, events = replace(s, sealed=s.sealed + 1), (Sealed(s.turn_order()[s.sealed]),)
    elif isinstance(action, Reveal):
        s, events = replace(s, target=action.value), (Revealed(action.value),)
    else:
        s, events = replace(s, opened=s.opened + ((action.player, action.value),)), (Opened(action.player, action.value),)
    return s, events + _finished(s)


def _finished(s: State) -> tuple[Finished, ...]:
    result = outcome(s)
    return () if result is None else (Finished(tuple(result.scores.items()), result.winners),)


def outcome(s: State) -> Outcome | None:
    """Each player scores 9 less the distance of their guess from the target; the nearest wins (a void or
    withheld guess scores 0 and cannot win)."""
    if duties(s) or s.target is None:
        return None
    guesses = dict(s.opened)
    scores = {p: HIGH - abs(guesses[p] - s.target) if p in guesses else 0 for p in s.players}
    best = max((scores[p] for p in guesses), default=None)
    return Outcome(scores, tuple(p for p in s.players if p in guesses and scores[p] == best))


def view(s: State, observer: str | None, knowledge: Knowledge | None = None) -> dict[str, Any]:
    opened = dict(s.opened)
    order = s.turn_order()
    guesses = {p: opened.get(p, "void" if p in s.void else "withheld" if p in s.withheld else
                  "sealed" if order.index(p) < s.sealed else "to seal") for p in s.players}
    shown: dict[str, Any] = {"players": list(s.players), "target": "hidden" if s.target is None else s.target,
                             "guesses": guesses}
    key = f"#{s.seat_of(observer)}" if observer in s.players else ""
    if knowledge and key in knowledge:
        shown["yours"] = knowledge[key]
    shown["status"] = "finished" if outcome(s) else "playing"
    shown["duties"] = [list(d) for d in duties(s)]
    return shown


# -- absence (docs/deadlines.md): what an absent player's duty becomes

def absence_act(s: State, party: str, knowledge: Knowledge | None = None) -> Action | None:
    """Never an act: nobody may seal or open a guess for a player (the game's rule applies instead)."""
    if party == DEALER:
        raise IllegalAction("absent", "the dealer's duties are the trust layer's to rule on, not the game's")
    _owed(s, party, "absent")
    return None


def absent(s: State, party: str, act: Action | None = None, strikes: int = 1) -> tuple[State, tuple[Any, ...]]:
    """An absent player's guess is void (not sealed) or withheld (not opened): they score 0 and cannot win.
    One duty of each kind a game: the ABSENCES_OUT rule never comes into play."""
    duty = _owed(s, party, "absent")
    if act is not None or party == DEALER:
        raise IllegalAction(act or "absent", f"an absent {party}'s {duty.what} becomes the rule of absence, no act")
    if duty.what == "move":
        s = replace(s, sealed=s.sealed + 1, void=s.void + (party,))
        said = "seals nothing: their guess is void, they cannot win"
    else:
        s = replace(s, withheld=s.withheld + (party,))
        said = "their guess stays closed for good: they cannot win"
    return s, (Absent(party, duty.what, said),) + _finished(s)
