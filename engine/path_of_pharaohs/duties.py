"""Who owes what now, read from the public state: one party at a time (the game is sequential). The
dealer owes reveals, deals, shuffles and steals; the mover a move or a discard."""

from __future__ import annotations

import functools

from engine.contract import DEALER, Duty

from .cards import HAND_LIMIT, STEAL_COUNT, pos_name
from .state import DISCARD, OVER, State


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

