"""Sarcophagus rules (docs/rules/sarcophagus.md) as pure functions over the public State: the functions
the game's registry entry (engine.contract.Game) names, each here or brought here from the module of
its concern.

- setup: the options, the table and the first state (here);
- reading the state: who owes what (`duties`, `owed_kind`), the openings owed, a tile's leaders, the
  audit of a seat's coins, the placements and discards open to a seat (duties.py); the pyramid's
  positions (geometry.py);
- legality: `check`, and every legal act, `legal_actions` (legality.py), with the deal's consistency
  (deal.py);
- applying: `apply` checks an act, then a `Play` (play.py) performs it on one copy of the state and
  settles: it runs every step the rules take on their own (reveals owed, claims and their cascade,
  traps, passes, the all-coins-played assessment) until somebody owes an act; `outcome` reads the end
  (here; the scores by scoring.py).

What an actor privately knows, beside the state, is in knowledge.py; playout.py is a second, lean
reading of the same rules, for random play to the end of a game.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import replace

from engine.contract import DEALER, InvalidSetup

from .actions import Action
from .duties import duties
from .events import Finished
from .geometry import ALL_MASK, APEX
from .legality import check, legal_actions
from .pieces import SUITS
from .play import Play
from .scoring import Outcome, score
from .state import TWO_PLAYER_MODES, Options, Seat, State, Table

__all__ = ["Outcome", "apply", "apply_checked", "check", "duties", "legal_actions", "make_table", "outcome",
           "parse_options", "setup"]

_ALL_VALUES = tuple(range(6))


# ---------------------------------------------------------------- setup

def parse_options(raw: Mapping[str, str | bool]) -> Options:
    options = Options()
    for key, value in raw.items():
        text = str(value).lower()
        if key == "two_player":
            if text not in TWO_PLAYER_MODES:
                raise InvalidSetup(f"option two_player is one of {', '.join(TWO_PLAYER_MODES)}, not {value!r}")
            options = replace(options, two_player=text)
        elif key == "bottom_edge_free":
            if text not in ("true", "false"):
                raise InvalidSetup(f"option bottom_edge_free is true or false, not {value!r}")
            options = replace(options, bottom_edge_free=text == "true")
        else:
            raise InvalidSetup(f"unknown option {key!r} (options: two_player, bottom_edge_free)")
    return options


def make_table(options: Options, players: Sequence[str]) -> Table:
    return _table(options, tuple(players))


@functools.lru_cache(maxsize=64)
def _table(options: Options, players: tuple[str, ...]) -> Table:
    """Made once per options and players: a Table never changes, and a playout sets up many games."""
    if not 2 <= len(players) <= 4:
        raise InvalidSetup(f"Sarcophagus is for 2 to 4 players, not {len(players)}")
    if len(set(players)) != len(players) or DEALER in players or not all(players):
        raise InvalidSetup(f"player names must be distinct, non-empty and not {DEALER!r}")
    if len(players) > 2:
        seats = tuple(Seat(p, p, (i,), _ALL_VALUES) for i, p in enumerate(players))
    elif options.two_player == "pooled":
        seats = tuple(Seat(p, p, (i, i + 2), tuple(sorted(_ALL_VALUES * 2))) for i, p in enumerate(players))
    else:
        seats = tuple(Seat(f"{players[s % 2]}/{SUITS[s]}", players[s % 2], (s,), _ALL_VALUES) for s in range(4))
    return Table(players, options, seats)


def setup(options: Options, players: Sequence[str], first: str) -> State:
    """A new play: all tiles face down; the dealer's first duty is to turn up the apex."""
    table = make_table(options, players)
    if first not in table.players:
        raise InvalidSetup(f"the first player {first!r} is not among the players")
    return State(
        table=table, present=ALL_MASK, face_up=0, tiles=(None,) * 21, coins=((),) * 21,
        under=(None,) * 3, under_owner=(None,) * 3, slot_seat=(), slot_value=(), slot_back=(),
        hands=tuple(len(seat.coins) for seat in table.seats), out=((),) * len(table.seats),
        claimed=((),) * len(table.seats),
        turn=table.seats_of(first)[0], placed=0, reveal=(APEX,), tie=None, traps=(),
    )


# ---------------------------------------------------------------- applying

def apply(s: State, actor: str, action: Action) -> tuple[State, tuple[object, ...]]:
    """Apply one act of `actor` (checked first); returns the next state and what happened."""
    return apply_checked(s, actor, check(s, actor, action))


def apply_checked(s: State, actor: str, action: Action) -> tuple[State, tuple[object, ...]]:
    """`apply` for an action already known legal and complete (from `check` or `legal_actions`)."""
    play = Play(s)
    play.act(actor, action)
    after, events = play.s, play.events
    assert events is not None, "a Play reports unless told not to"
    result = outcome(after) if not after.present else None
    if result is not None:
        events.append(Finished(tuple(result.scores.items()), result.winners))
    return after, tuple(events)


def outcome(s: State) -> Outcome | None:
    """Scores and winners once the game is over and audited, else None."""
    if s.present or duties(s):
        return None
    return score(s.table, s.claimed, s.forfeits)

