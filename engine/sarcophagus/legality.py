"""Whether an act is legal now, and its complete form (`check`): the forced position filled in, a
reveal's tiles and an opening's coins in order. Every legal act now (`legal_actions`), placements made
only when asked for (`Placements`), and the dealer's owed reveal read from where the tiles lie (`reveal`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

from engine.contract import DEALER, IllegalAction, NotYourDuty
from engine.lazy import LazySequence

from .actions import Action, Discard, Open, Place, Reveal
from .deal import UNDER, deal_problem, shown_places
from .duties import (
    audit_problem,
    discards,
    duties,
    hand_values,
    number_tiles,
    opening,
    owed_openings,
    placement_targets,
    placement_values,
    sarcophagus_unrevealed,
)
from .geometry import SARCOPHAGUS_INDEX, forced_position, pos_name
from .knowledge import Knowledge, PlayerKnowledge, TileKnowledge
from .notation import format_action
from .pieces import Tile
from .state import State


def _deal_problem(s: State, reveals: Sequence[tuple[int, Tile]], under: bool) -> str | None:
    """Is a reveal consistent with one piecepack dealt by the setup rules?"""
    placed = [(UNDER + SARCOPHAGUS_INDEX[pos] if under else pos, tile) for pos, tile in reveals]
    return deal_problem(shown_places(s.tiles, s.under), placed)


def _kind(action: Action) -> str:
    return {Place: "move", Reveal: "reveal", Open: "open", Discard: "discard"}[type(action)]


def check(s: State, actor: str, action: Action, knowledge: Knowledge | None = None) -> Action:
    """The action made complete (the forced position filled in), or IllegalAction saying why not.

    `knowledge` is what the actor privately knows (a player's slot values); without it the checks
    that need it (a coin of that value in hand) are left to the end audit."""
    text = _Text(action)
    owed = duties(s)
    mine = [d for d in owed if d.who == actor]
    if actor == DEALER and isinstance(action, Open) and any(d.what == "open" for d in owed):
        return _check_open(s, actor, action, text)  # the dealer may open for every owner at once
    if not any(d.what == _kind(action) for d in mine):
        if mine:
            raise NotYourDuty(text, f"{actor} owes a {mine[0].what} first ({mine[0].detail})")
        if not owed:
            raise NotYourDuty(text, "the game is over")
        reason = f"not {actor}'s turn" if _kind(action) == "move" else f"{actor} owes nothing of the kind"
        raise NotYourDuty(text, reason, tuple(sorted({d.who for d in owed})))
    if isinstance(action, Place):
        return _check_place(s, action, cast(PlayerKnowledge | None, knowledge), text)  # a player's
    if isinstance(action, Reveal):
        return _check_reveal(s, action, text)
    if isinstance(action, Open):
        return _check_open(s, actor, action, text)
    return _check_discard(s, action, text)


class _Text:
    """An action's notation, formatted only if an error message needs it."""

    def __init__(self, action: Action):
        self.action = action

    def __str__(self) -> str:
        return format_action(self.action)


def _check_place(s: State, action: Place, knowledge: PlayerKnowledge | None, text: _Text) -> Place:
    if s.placed == 0:
        pos = forced_position(s.present)
        if action.pos not in (None, pos):
            raise IllegalAction(text, f"the first coin of a turn goes on the forced tile {pos_name(pos)}")
    else:
        if action.pos is None:
            raise IllegalAction(text, "only the first coin of a turn is forced: say where this one goes, e.g. 4@3b")
        pos = action.pos
        if not s.present >> pos & 1:
            raise IllegalAction(text, f"{pos_name(pos)} has left the pyramid")
        if not s.face_up >> pos & 1:
            raise IllegalAction(text, f"{pos_name(pos)} is face down")
        if len(s.coins[pos]) >= 4:
            raise IllegalAction(text, f"{pos_name(pos)} is full (4 coins)")
    if action.value is not None and knowledge is not None:
        hand = hand_values(s, s.turn, knowledge)
        if action.value not in hand:
            held = ", ".join(map(str, hand)) or "nothing"
            raise IllegalAction(text, f"no coin of value {action.value} in your hand (you hold {held})")
    return Place(pos, action.value)


def _check_reveal(s: State, action: Reveal, text: _Text) -> Reveal:
    wanted = sarcophagus_unrevealed(s) if not s.present else s.reveal
    if action.under != (not s.present):
        what = "the sarcophagus tiles" if not s.present else "pyramid tiles, not the sarcophagus"
        raise IllegalAction(text, f"the dealer must reveal {what} now")
    positions = [p for p, _ in action.tiles]
    if sorted(positions) != sorted(wanted) or len(set(positions)) != len(positions):
        raise IllegalAction(text, "the dealer must reveal exactly " + ", ".join(map(pos_name, wanted)))
    problem = _deal_problem(s, action.tiles, action.under)
    if problem:
        raise IllegalAction(text, problem)
    return Reveal(tuple(sorted(action.tiles)), action.under)


def _check_open(s: State, actor: str, action: Open, text: _Text) -> Open:
    owed = owed_openings(s, actor)
    slots = [slot for slot, _ in action.values]
    if sorted(slots) != sorted(owed) or len(set(slots)) != len(slots):
        raise IllegalAction(text, f"{actor} must open exactly " + ", ".join(f"#{slot}" for slot in owed))
    if any(not 0 <= value <= 5 for _, value in action.values):
        raise IllegalAction(text, "a coin value is 0 to 5")
    problem = audit_problem(s, action.values)
    if problem:
        raise IllegalAction(text, problem[1])
    return Open(tuple(sorted(action.values)))


def _check_discard(s: State, action: Discard, text: _Text) -> Discard:
    numbers = number_tiles(s, s.traps[0])
    if action.tile not in numbers:
        choices = ", ".join(map(str, numbers))
        raise IllegalAction(text, f"choose one of your number tiles: {choices}")
    return action


PLACES = tuple({v: Place(p, v) for v in (None, *range(6))} for p in range(21))
"""Every possible placement, made once: actions are immutable values, so they can be shared."""


class Placements(LazySequence[Place]):
    """Every (target, coin value) placement, made only when asked for: a turn may offer a hundred."""

    __slots__ = ("targets", "values", "width")

    def __init__(self, targets: Sequence[int], values: Sequence[int | None]):
        self.targets, self.values, self.width = targets, values, len(values)
        self.size = len(targets) * self.width

    def _item(self, i: int) -> Place:
        target, value = divmod(i, self.width)
        return PLACES[self.targets[target]][self.values[value]]


def legal_actions(s: State, actor: str, knowledge: Knowledge | None = None) -> Sequence[Action]:
    """Every legal act of `actor` now. Placements carry values only when `knowledge` says the hand;
    the dealer's reveals need the layout as `knowledge`; openings need the player's slot values."""
    out: list[Action] = []
    if actor == DEALER and isinstance(knowledge, Mapping) and owed_openings(s, DEALER):
        out.append(opening(s, DEALER, knowledge))  # the dealer, holding every coin, opens for all at once
    for duty in duties(s):
        if duty.who != actor:
            continue
        if duty.what == "move":
            if knowledge is None:
                return Placements(placement_targets(s), (None,))
            return Placements(placement_targets(s), placement_values(s, cast(PlayerKnowledge, knowledge)))
        elif duty.what == "discard":
            out += discards(s)
        elif duty.what == "open" and knowledge is not None:
            out.append(opening(s, actor, cast(PlayerKnowledge, knowledge)))  # a player's
        elif duty.what == "reveal" and knowledge is not None:
            out.append(reveal(s, cast(TileKnowledge, knowledge)))  # the dealer's
    return out


def reveal(s: State, tiles: TileKnowledge) -> Reveal:
    """The reveal the dealer owes now, its tiles read from where `tiles` says they lie."""
    if s.present:
        pyramid = tiles.pyramid
        return Reveal(tuple([(p, pyramid[p]) for p in s.reveal]))
    under = tiles.under
    return Reveal(tuple([(p, under[SARCOPHAGUS_INDEX[p]]) for p in sarcophagus_unrevealed(s)]), under=True)
