"""What an absent player's duty becomes in Path of Pharaohs (docs/deadlines.md), as pure functions of
the public state. The trust layer records an absence once a deadline and its grace have passed; these
rules say what the game does with it. The rulebook has no absence, so the readings are ours:

- **move**: the player stops (`Stop`, an ordinary act): nothing placed, no action card played; the
  turn ends, and the dealer deals them their 3 cards as usual.
- **discard** (down to seven after drawing): they discard their lowest cards (value cards 0-9 before
  action cards; among equal cards the earliest dealt), an ordinary `Discard` that shows its cards. Who
  records it must know the hand: the referee, or at a table any player's program (it holds the deck).
- **three absent turns in a row** (`ABSENCES_OUT`, counted by the trust layer): the game ends as a
  stalled game does, without them: the furthest marker among the others wins (a tie is shared).

A player's hand needs no opening at the end (the dealer's seed accounts for every card), so there is
no end-audit absence here. Dealer duties are never a game's: the trust layer rules on an absent referee.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.contract import (
    ABSENCES_OUT,
    DEALER,
    STRIKE_KIND,
    Absent,
    Duty,
    HandWords,
    IllegalAction,
    NotYourDuty,
    winners_text,
)

from .actions import Action, Discard, Stop
from .cards import HAND_LIMIT, card_name
from .duties import duties
from .knowledge import DealerKnowledge
from .rules import apply
from .state import OVER, State

HAND_WORDS = HandWords(item="card", items="cards", chosen="lowest cards", act="discard")
"""What the trust layer's verdicts call a hand's cards and the discard this rule chooses from it (a discard
recorded for an absent player that the dealer's seed, or their own cards opened, shows was not the lowest)."""


@dataclass(frozen=True, slots=True)
class Out:
    """A player absent for ABSENCES_OUT turns in a row: the game ends without them."""

    player: str
    winners: tuple[str, ...]

    def __str__(self) -> str:
        return (f"{self.player} has been absent {ABSENCES_OUT} turns in a row: the game ends, the furthest "
                f"marker of the others wins; {winners_text(self.winners)}")


def _owed(s: State, party: str) -> Duty:
    if party == DEALER:
        raise IllegalAction("absent", "the dealer's duties are the trust layer's to rule on, not the game's")
    owed = duties(s)
    if not owed or owed[0].who != party:
        raise NotYourDuty("absent", f"{party} owes nothing now", tuple(d.who for d in owed[:1]))
    return owed[0]


def absence_act(s: State, party: str, knowledge: Mapping[int, int] | DealerKnowledge | None = None) -> Action:
    """`Stop` for a move; for the discard, the lowest cards down to seven, read from `knowledge` (the
    player's hand, or the dealer's: IllegalAction without it)."""
    if _owed(s, party).what == "move":
        return Stop()
    cards = knowledge.cards if isinstance(knowledge, DealerKnowledge) else knowledge
    hand = s.hands[s.turn]
    if cards is None or any(slot not in cards for slot in hand):
        raise IllegalAction("absent", f"the lowest cards of {party}'s hand: say what it holds")
    lowest = sorted(hand, key=lambda slot: (cards[slot], slot))[:len(hand) - HAND_LIMIT]
    return Discard(tuple(cards[slot] for slot in lowest), tuple(lowest))


def absent(s: State, party: str, act: Action | None = None, strikes: int = 1) -> tuple[State, tuple[object, ...]]:
    """The state once `party`, who owes a duty now, is recorded absent: their `Stop` or lowest-cards
    `Discard` applied (a verifier, who cannot see the hand, checks the discard's kind and count here; that
    its cards are the lowest, the trust layer checks by this module's `absence_act` once the dealer's seed
    shows the hand), then the end at ABSENCES_OUT absent turns."""
    duty = _owed(s, party)
    act = Stop() if act is None and duty.what == "move" else act
    if not isinstance(act, Stop if duty.what == "move" else Discard):
        wanted = "a stop" if duty.what == "move" else "a discard of their lowest cards"
        raise IllegalAction(act if act is not None else "absent", f"an absent {party}'s {duty.what} becomes {wanted}")
    after, applied = apply(s, party, act)
    if isinstance(act, Stop):
        consequence = "stops"
    else:
        consequence = f"discards their lowest cards, {' '.join(map(card_name, act.cards))}"
    events: tuple[object, ...] = (Absent(party, duty.what, consequence), *applied)
    if strikes >= ABSENCES_OUT and duty.what == STRIKE_KIND and after.phase != OVER:
        after, out = _end(after, party)
        events += (out,)
    return after, events


def _end(s: State, party: str) -> tuple[State, Out]:
    """The game ends as a stalled one does (`idle` a full round, so `outcome` says "stalled"), without
    the player who is gone."""
    players = s.table.players
    others = [p for p, name in enumerate(players) if name != party]
    best = max(s.location[p] for p in others)
    after = s.copy()
    after.phase, after.idle = OVER, len(players)
    after.winners = tuple(p for p in others if s.location[p] == best)
    return after, Out(party, tuple(players[p] for p in after.winners))
