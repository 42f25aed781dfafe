"""Path of Pharaohs rules (docs/rules/path-of-pharaohs.md) as pure functions over the public State: the
functions the game's registry entry (engine.contract.Game) names, each here or brought here from the
module of its concern.

- setup: the options, the table and the first state (here);
- reading the state: who owes what (duties.py), what the table shows (board.py);
- legality: `check` (legality.py); every legal act, `legal_actions` (legal_acts.py), with the ways a
  hand fills a position (builds.py) and the choices of a discard (choices.py);
- applying: `apply` checks an act, then a `Play` (play.py) performs it on one copy of the state and
  settles; `outcome` reads the end (here).

What an actor privately knows, beside the state, is in knowledge.py.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.contract import DEALER, InvalidSetup

from .actions import Action
from .cards import BASES, FIRST_HAND
from .duties import duties
from .knowledge import Knowledge
from .legal_acts import legal_actions
from .legality import check
from .play import Play
from .state import OVER, SETUP, Options, State, Table

__all__ = ["Outcome", "apply", "apply_checked", "check", "duties", "legal_actions", "make_table", "outcome",
           "parse_options", "setup"]

_NAME_FORBIDDEN = set(" \t\n@:#=")


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

