"""Closest's hidden information, as the trust layer carries it (engine.contract.Secrets): the target lies
face down under the key `target` (the dealer's, turned up by a reveal); a guess is its player's secret,
committed under `#SEAT` when sealed and opened at the end. A guess must be a number from 1 to 9:
`audit_problem` says when an opened one is not."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.contract import DEALER, Dealt, Randomness, Secrets, Value

from .actions import HIGH, LOW, Action, Open, Reveal, Seal
from .rules import Options, State


def deal(options: Options, players: Sequence[str], rng: Randomness) -> Dealt:
    """The target, then the first player, both from `rng`."""
    target = rng.choice(range(LOW, HIGH + 1))
    return Dealt({"target": target}, (), rng.choice(list(players)))


def actor(state: State, action: Action) -> str:
    if isinstance(action, Reveal):
        return DEALER
    if isinstance(action, Open):
        return action.player if action.player in state.players else ""
    order = state.turn_order()
    return order[state.sealed] if state.sealed < len(order) else ""


def secrets(state: State, actor: str, action: Action) -> Secrets:
    if isinstance(action, Seal):
        return Secrets(commits=((f"#{state.seat_of(actor)}", action.value),))
    if isinstance(action, Reveal):
        return Secrets(opens=(("target", action.value),))
    return Secrets(opens=((f"#{state.seat_of(action.player)}", action.value),))


def knowledge(state: State, actor: str, known: Mapping[str, Value], stock: Sequence[Value]) -> dict[str, Value]:
    """What the actor can read, as it is: the keys are the game's own."""
    return dict(known)


def audit_problem(state: State, opened: Sequence[tuple[str, Value]]) -> tuple[str, str] | None:
    for key, value in opened:
        seat = str(key)[1:]
        guess = str(key).startswith("#") and seat.isdigit() and int(seat) < len(state.players)
        if guess and not (isinstance(value, int) and LOW <= value <= HIGH):
            return state.players[int(seat)], f"sealed {value!r}, not a guess from {LOW} to {HIGH}"
    return None
