"""A computer player that searches: single-observer information-set Monte Carlo tree search
(Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 2012).

Honest by construction: `choose` is given only what its player knows, the public State (which holds
no secret) and the player's own coin values. Each iteration samples one world that agrees with that
knowledge (`determinize`): the opponents' unopened coins take values from what is left of their
public coin sets, the face-down tiles are dealt from the unseen tiles as the setup rules deal them.
The iteration then walks one tree shared by every sampled world, choosing only among the moves legal
in that world, with the availability counts of the published algorithm (a move is scored against
how often it was available, not how often its parent was visited), adds one node, plays the world
out at random and credits every player's share of the win along the path.

An opponent's placement shows where the coin went, not its value, so the tree branches on the public
move (`Place(pos)`) and the sampled world picks the value at random from that opponent's hand: the
tree never splits on something the searching player could not see. The dealer's reveals and the
openings are not choices: they follow from the sampled world.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.contract import DEALER, Duty
from engine.ismcts import Node, Result, credit, search, select

from .actions import Action, Place
from .deal import deal_unseen
from .duties import duties, hand_values, opening
from .legality import legal_actions, reveal
from .pieces import Tile
from .playout import play_out
from .rules import apply_checked, outcome
from .state import State


@dataclass(slots=True)
class World:
    """One determinization: a layout for the dealer's reveals and a value for every coin slot.
    Has the `pyramid` and `under` of a driver.Layout, so legality.reveal can make the dealer's reveals."""

    pyramid: tuple[Tile, ...]
    under: tuple[Tile, ...]
    values: dict[int, int]


def determinize(state: State, observer: str, known: Mapping[int, int], rng: random.Random) -> World:
    """A world drawn at random among those `observer` cannot tell apart from the real one."""
    values = {slot: value for slot, value in enumerate(state.slot_value) if value is not None}
    values.update(known)
    for seat_index, seat in enumerate(state.table.seats):
        if seat.player == observer:
            continue
        left = list(seat.coins)  # the seat's coins not seen on a tile: in hand or under an unopened coin
        hidden = []
        for slot in state.out[seat_index]:
            value = state.slot_value[slot]
            if value is None:
                hidden.append(slot)
            else:
                left.remove(value)
        rng.shuffle(left)
        values.update(zip(hidden, left))
    for slot in range(len(state.slot_seat)):  # back in hand unopened: only the end audit reads it
        if slot not in values:
            values[slot] = 0
    return World(*deal_unseen(state.tiles, state.under, rng), values)


def choose(state: State, actor: str, known: Mapping[int, int], rng: random.Random,
           seconds: float | None = 1.0, iterations: int | None = None) -> Result:
    """The move or discard `actor` owes now, by search for `seconds` (wall clock) or, if given,
    `iterations` (at least 1; then the result depends on `rng` alone, not on the machine)."""
    legal = legal_actions(state, actor, known)
    if len(legal) == 1:
        return Result(legal[0], 0, 0.0)
    def one_world(root: Node[Action]) -> None:
        _iterate(root, state, actor, determinize(state, actor, known, rng), rng)

    return search(one_world, seconds, iterations)


def _iterate(root: Node[Action], state: State, observer: str, world: World, rng: random.Random) -> None:
    """One iteration: select and expand in this world, play it out, credit the path."""
    path = [root]
    node = root
    state, duty = _to_next_choice(state, world)
    expanded = False
    while duty is not None and not expanded:
        who = duty.who
        hidden_values = who != observer and duty.what == "move"
        options = legal_actions(state, who, None if hidden_values else world.values)
        untried = [a for a in options if a not in node.children]
        if untried:
            action = untried[int(rng.random() * len(untried))]
            child = node.children[action] = Node(who)
            child.available = 1
            expanded = True
        else:
            i, child = select(node, options)
            action = options[i]
        path.append(child)
        node = child
        if hidden_values:
            assert isinstance(action, Place), "a hidden value is a placement's"
            hand = hand_values(state, state.turn, world.values)
            action = Place(action.pos, hand[int(rng.random() * len(hand))])
        state, duty = _play(state, who, action, world)
    if duty is not None:
        state = play_out(state, world.values, world, rng)
    result = outcome(state)
    assert result is not None, "a playout ends with the game"
    credit(path, result.winners)


def _play(state: State, who: str, action: Action, world: World) -> tuple[State, Duty | None]:
    if type(action) is Place:
        assert action.value is not None, "a placement in a world carries its value"
        world.values[len(state.slot_seat)] = action.value
    state = apply_checked(state, who, action)[0]
    return _to_next_choice(state, world)


def _to_next_choice(state: State, world: World) -> tuple[State, Duty | None]:
    """Make the dealer's reveals and the openings, which the world decides, until a player has a choice
    (that duty is returned) or the game is over (None)."""
    while True:
        owed = duties(state)
        if not owed:
            return state, None
        duty = owed[0]
        if duty.what == "reveal":
            state = apply_checked(state, DEALER, reveal(state, world))[0]
        elif duty.what == "open":
            state = apply_checked(state, DEALER, opening(state, DEALER, world.values))[0]
        else:
            return state, duty


class SearchPolicy:
    """The search as a driver Policy (and a bot's): `seconds` or `iterations` a move."""

    def __init__(self, seconds: float | None = 1.0, iterations: int | None = None):
        self.seconds, self.iterations = seconds, iterations

    def __call__(self, state: State, actor: str, actions: Sequence[Action], rng: random.Random,
                 known: Mapping[int, int]) -> Action:
        if len(actions) == 1:
            return actions[0]
        chosen: Action = choose(state, actor, known, rng, self.seconds, self.iterations).action
        return chosen
