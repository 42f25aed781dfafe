"""What an absent player's duty becomes in Sarcophagus (docs/deadlines.md), as pure functions of the
public state. The trust layer records an absence once a deadline and its grace have passed; these
rules say what the game does with it. The rulebook has no absence, so the readings are ours:

- **move**: the player passes. The rulebook's only pass is a player's with no coins; an absent
  player is treated as one for this turn: the turn ends (after the first coin, with one coin placed).
  Placing nothing is the least harmful legal consequence: no coin value is chosen for them.
- **discard** (a sprung trap): they discard their lowest number tile (lowest rank, then suit order).
- **open** for a tie-break: they lose the tie-break. Their tied coins on the tile go back to their hand
  unopened, and the tile is assessed again among the others (a sole leader claims it; a tie still
  among several waits for their openings).
- **open** at the end audit: their coins stay closed for good (`WITHHELD`), and they forfeit: their
  score stands but they cannot win (nobody can check they held those coins).
- **three absent turns in a row** (`ABSENCES_OUT`, counted by the trust layer): the game ends now.
  Every tile left in the pyramid is discarded (coins go back, the sarcophagus tiles under them are
  discarded unseen), the player's unopened coins are withheld and they forfeit; the rules' own end
  follows (the sarcophagus reveal, traps, the audit of everyone else's coins).

Dealer duties (reveals) are never a game's: the trust layer rules on an absent referee.
"""

from __future__ import annotations

from engine.contract import ABSENCES_OUT, DEALER, STRIKE_KIND, Absent, Duty, IllegalAction, NotYourDuty
from engine.frozen import Frozen

from .actions import Action, Discard
from .duties import duties, leaders
from .events import Finished
from .geometry import SARCOPHAGUS_POSITIONS, pos_name, positions_in
from .pieces import Tile
from .play import Play
from .rules import outcome
from .state import DISCARDED, State

WITHHELD = -1
"""The value of a coin whose owner was recorded absent at the end audit: closed for good."""


class Out(Frozen):
    """A player absent for ABSENCES_OUT turns in a row: the game ends, and they forfeit."""

    player: str
    discarded: int

    def __str__(self) -> str:
        left = f"the {self.discarded} tiles left in the pyramid are discarded, " if self.discarded else ""
        return (f"{self.player} has been absent {ABSENCES_OUT} turns in a row: the game ends; {left}"
                f"{self.player} forfeits (cannot win)")


def _owed(s: State, party: str) -> Duty:
    if party == DEALER:
        raise IllegalAction("absent", "the dealer's duties are the trust layer's to rule on, not the game's")
    for duty in duties(s):
        if duty.who == party:
            return duty
    raise NotYourDuty("absent", f"{party} owes nothing now", tuple(sorted({d.who for d in duties(s)})))


def absence_act(s: State, party: str, knowledge: object = None) -> Action | None:
    """The ordinary act `party`'s owed duty becomes (a trapped claimer's lowest number tile), or None when
    the game's own rule applies (`absent`). Needs no private knowledge."""
    if _owed(s, party).what == "discard":
        numbers = [t for t in s.claimed[s.traps[0]] if t.is_number]
        return Discard(min(numbers, key=_lowest))
    return None


def _lowest(tile: Tile) -> tuple[int, int]:
    return tile.rank, tile.suit


def absent(s: State, party: str, act: Action | None = None, strikes: int = 1) -> tuple[State, tuple[object, ...]]:
    """The state once `party`, who owes a duty now, is recorded absent: `act` (what `absence_act` gives,
    and nothing else) or the game's rule, then the end of the game at ABSENCES_OUT absent turns in a row
    (`strikes` counts this one). IllegalAction if `act` is not the one the absence allows."""
    duty = _owed(s, party)
    expected = absence_act(s, party)
    if act != expected:
        raise IllegalAction(act if act is not None else "absent",
                            f"an absent {party}'s {duty.what} becomes {expected or 'the rule of absence, no act'}")
    play = Play(s)
    events = play.events
    assert events is not None, "a Play reports unless told not to"
    if isinstance(expected, Discard):
        events.append(Absent(party, duty.what, f"discards their lowest number tile, {expected.tile}"))
        play.act(party, expected)
    elif duty.what == "move":
        events.append(Absent(party, duty.what, "passes" if s.placed == 0 else "passes (the turn ends)"))
        play.s.turn = (s.turn + 1) % len(s.table.seats)
        play.s.placed = 0
        play.settle()
    elif s.tie is not None:
        _lose_tie(play, party)
    else:
        events.append(Absent(party, duty.what, "their coins stay closed for good: they forfeit (cannot win)"))
        _withhold(play, party)
        play.settle()
    if strikes >= ABSENCES_OUT and duty.what == STRIKE_KIND and play.s.present:
        _end(play, party)
    result = outcome(play.s)
    if result is not None and not any(isinstance(e, Finished) for e in events):
        events.append(Finished(tuple(result.scores.items()), result.winners))
    return play.s, tuple(events)


def _lose_tie(play: Play, party: str) -> None:
    """The absent player's tied coins go back to their hand unopened; the tile is assessed again."""
    s = play.s
    pos = s.tie
    assert pos is not None
    mine = set(s.table.seats_of(party)) & set(leaders(s, pos))
    withdrawn = [slot for slot in s.coins[pos] if s.slot_seat[slot] in mine]
    assert play.events is not None
    play.events.append(Absent(party, "open", f"loses the tie-break on {pos_name(pos)}: "
                                             f"{len(withdrawn)} coin{'s' * (len(withdrawn) != 1)} go back unopened"))
    _back_to_hand(play, pos, withdrawn)
    s.tie = None
    play._assess(pos)  # the rules' own assessment of the tile, on the coins left
    play.settle()


def _back_to_hand(play: Play, pos: int, slots: list[int]) -> None:
    s = play.s
    back = len(s.slot_seat)
    slot_back, hands, out = list(s.slot_back), list(s.hands), list(s.out)
    for slot in slots:
        seat = s.slot_seat[slot]
        slot_back[slot] = back
        hands[seat] += 1
        out[seat] = tuple(x for x in out[seat] if x != slot)
    s.slot_back, s.hands, s.out = tuple(slot_back), tuple(hands), tuple(out)
    coins = list(s.coins)
    coins[pos] = tuple(x for x in coins[pos] if x not in slots)
    s.coins = tuple(coins)
    s.full &= ~(1 << pos)


def _withhold(play: Play, party: str) -> None:
    s = play.s
    seats = set(s.table.seats_of(party))
    s.slot_value = tuple(WITHHELD if value is None and s.slot_seat[slot] in seats else value
                         for slot, value in enumerate(s.slot_value))
    if party not in s.forfeits:
        s.forfeits += (party,)


def _end(play: Play, party: str) -> None:
    """Three absent turns in a row: every tile left leaves the pyramid unclaimed, and the player forfeits."""
    s = play.s
    left = positions_in(s.present)
    for pos in left:
        _back_to_hand(play, pos, list(s.coins[pos]))
        if pos in SARCOPHAGUS_POSITIONS:
            k = SARCOPHAGUS_POSITIONS.index(pos)
            under_owner = list(s.under_owner)
            under_owner[k] = DISCARDED
            s.under_owner = tuple(under_owner)
    s.present = s.full = 0
    s.reveal, s.tie, s.placed = (), None, 0
    assert play.events is not None
    play.events.append(Out(party, len(left)))
    _withhold(play, party)
    play.settle()
