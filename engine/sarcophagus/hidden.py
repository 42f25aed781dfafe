"""Sarcophagus's hidden information, as the trust layer carries it (engine.contract.Secrets).

- The dealer's 24 tiles lie face down in named places: `1a`..`6f` in the pyramid, `under-5c`,
  `under-6c`, `under-6d` in the sarcophagus. A reveal opens them by place. There is no stock.
- A coin's value is the placing player's secret, chosen from their own coins: a placement commits
  it under `#N` (N the coin's slot, in placing order); tie-breaks and the end audit open it. The
  true values of a player's coins must fit the coins they held: `audit_problem` says when not.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.contract import DEALER, Dealt, Randomness, Secrets, Value

from .actions import Action, Open, Place, Reveal
from .driver import Layout, layout_from_names
from .driver import deal as deal_layout
from .duties import audit_problem as _audit_problem
from .duties import duties
from .geometry import SARCOPHAGUS_POSITIONS, pos_name
from .pieces import Tile
from .state import Options, State

PYRAMID_KEYS = tuple(pos_name(p) for p in range(21))
UNDER_KEYS = tuple(f"under-{pos_name(p)}" for p in SARCOPHAGUS_POSITIONS)
TILE_KEYS = PYRAMID_KEYS + UNDER_KEYS


def tile_key(pos: int, under: bool) -> str:
    return f"under-{pos_name(pos)}" if under else pos_name(pos)


def coin_key(slot: int) -> str:
    return f"#{slot}"


def layout_tiles(layout: Layout) -> dict[str, str]:
    """Every tile key to its tile's name."""
    tiles = {key: str(t) for key, t in zip(PYRAMID_KEYS, layout.pyramid)}
    tiles.update({key: str(t) for key, t in zip(UNDER_KEYS, layout.under)})
    return tiles


def layout_from_tiles(tiles: Mapping[str, Value]) -> Layout:
    """The layout of named tiles (InvalidSetup if they are not one piecepack dealt by the rules)."""
    return layout_from_names({k: str(tiles[k]) for k in PYRAMID_KEYS},
                             {k.removeprefix("under-"): str(tiles[k]) for k in UNDER_KEYS})


def deal(options: Options, players: Sequence[str], rng: Randomness) -> Dealt:
    """The setup rules' deal of every tile, then the first player, both from `rng`."""
    layout = deal_layout(rng)
    return Dealt(layout_tiles(layout), (), rng.choice(list(players)))


def actor(state: State, action: Action) -> str:
    """The dealer reveals; a coin's owner opens it (coins of several owners: only the dealer holds
    them all); any other act is the duty holder's."""
    if isinstance(action, Reveal):
        return DEALER
    if isinstance(action, Open):
        seats = state.table.seats
        owners = {seats[state.slot_seat[slot]].player for slot, _ in action.values
                  if 0 <= slot < len(state.slot_seat)}
        if len(owners) > 1:
            return DEALER
        return owners.pop() if owners else ""
    for duty in duties(state):
        if duty.what in ("move", "discard"):
            return duty.who
    return ""


def secrets(state: State, actor: str, action: Action) -> Secrets:
    if isinstance(action, Place):
        return Secrets(commits=((coin_key(len(state.slot_seat)), action.value),))
    if isinstance(action, Reveal):
        return Secrets(opens=tuple((tile_key(pos, action.under), str(tile)) for pos, tile in action.tiles))
    if isinstance(action, Open):
        return Secrets(opens=tuple((coin_key(slot), value) for slot, value in action.values))
    return Secrets()


class DealerKnowledge(dict[int, int]):
    """What the dealer knows: every coin it can open (slot -> value, as a player's knowledge) and the
    layout's tiles (`pyramid`, `under`, as the rules read a Layout)."""

    def __init__(self, coins: Mapping[int, int], layout: Layout):
        super().__init__(coins)
        self.pyramid: tuple[Tile, ...] = layout.pyramid
        self.under: tuple[Tile, ...] = layout.under


def knowledge(state: State, actor: str, known: Mapping[str, Value], stock: Sequence[Value]) -> dict[int, int]:
    """A player's coin values by slot; the dealer's also carry the layout (DealerKnowledge)."""
    coins = {int(key[1:]): int(value) for key, value in known.items() if key.startswith("#")}
    if actor == DEALER and all(key in known for key in TILE_KEYS):
        return DealerKnowledge(coins, layout_from_tiles(known))
    return coins


def audit_problem(state: State, opened: Sequence[tuple[str, Value]]) -> tuple[str, str] | None:
    try:
        values = [(int(str(key)[1:]), int(value)) for key, value in opened]
    except ValueError:
        return None
    if any(not str(key).startswith("#") or not 0 <= slot < len(state.slot_seat) or not 0 <= value <= 5
           for (key, _), (slot, value) in zip(opened, values)):
        return None
    problem = _audit_problem(state, values)
    return problem and (problem[0], f"placed a coin they did not hold: {problem[1]}")
