"""How an act changes the state (`Play`): one copy of the state, changed in place by the act, then
settled: every step the rules take on their own (a turn's start and end, markers taking their places,
bumps, skipped turns, draws from an empty pile, the stalled-game end) until somebody owes an act."""

from __future__ import annotations

from collections.abc import Callable
from itertools import filterfalse
from typing import Any, TypeVar

from .actions import Action, Build, Deal, Discard, Reveal, Sandstorm, Shuffle, Steal, Stop, Thief, Zero
from .board import closed, free_space
from .cards import (
    ALEXANDRIA,
    BASES,
    BUMP_BACK,
    COMPLETION_BONUS,
    DOUBLE,
    DRAW_COUNT,
    HAND_LIMIT,
    L3,
    MUMMIES,
    POINTS,
    SANDS_TO_WAKE,
    SANDSTORM,
    THIEF,
    ZERO,
    A,
    B,
)
from .events import (
    BaseDealt,
    BaseLeftEmpty,
    BaseRejected,
    Built,
    CardsDealt,
    Completed,
    Discarded,
    Finished,
    Moved,
    MummyWakes,
    Retreated,
    SandsAdvanced,
    SandstormDiscarded,
    SandstormGiven,
    Settled,
    Shuffled,
    Skipped,
    Stolen,
    Stopped,
    ThiefPlayed,
    ZeroPlayed,
)
from .state import DISCARD, DRAW, OVER, PLAY, SETUP, START, State, cards_on

T = TypeVar("T")


def _with(items: tuple[T, ...], i: int, value: T) -> tuple[T, ...]:
    """`items` with `value` at `i`. Tuned: through a list, half the time of joining two slices and the
    value (every act changes a player's entry in a few of the state's tuples)."""
    changed = list(items)
    changed[i] = value
    return tuple(changed)


class Play:
    """Builds the next state in place from one copy, then returns it settled. A playout
    (playout.play_out) carries one Play through a whole game, act after act."""

    __slots__ = ("events", "names", "s")

    def __init__(self, before: State, report: bool = True):
        self.s = before.copy()
        self.names = before.table.players
        self.events: list[object] | None = [] if report else None
        """What happened, for a game report; a playout asks for none."""

    # -- the acts

    def act(self, action: Action) -> None:
        """Perform one act (checked), then settle, forgetting the duties the state had worked out: a Play
        carried on from act to act changes the state in place. Tuned: the act's kind looked up once, not
        tested kind by kind (every act of a game comes through here)."""
        _PERFORM[type(action)](self, action)
        self.settle()
        self.s.cached_duties = None

    def _stop(self, action: Stop) -> None:
        if self.events is not None:
            self.events.append(Stopped(self.s.mover))
        self._end_turn()

    def _shuffle(self, action: Shuffle) -> None:
        s = self.s
        if self.events is not None:
            self.events.append(Shuffled(len(s.discards)))
        s.deck, s.discards = len(s.discards), ()

    def _steal(self, action: Steal) -> None:
        s = self.s
        victim, me = s.victim, s.turn
        assert victim is not None, "a steal follows a Thief"
        hands = list(s.hands)
        hands[victim] = tuple(x for x in hands[victim] if x not in action.slots)
        hands[me] = hands[me] + action.slots
        s.hands, s.victim = tuple(hands), None
        if self.events is not None:
            self.events.append(Stolen(s.mover, self.names[victim], len(action.slots)))

    def _discard(self, action: Discard) -> None:
        s = self.s
        self._from_hand(action.slots, action.cards)
        s.discards += action.cards
        if self.events is not None:
            self.events.append(Discarded(s.mover, action.cards))
        self._finish_turn()

    def _from_hand(self, slots: tuple[int, ...] | None, cards: tuple[int, ...]) -> None:
        """The mover plays these slots: they leave the hand and their cards become public."""
        assert slots is not None, "a checked act names the slot of each card it plays"
        s = self.s
        s.hands = _with(s.hands, s.turn, tuple(filterfalse(slots.__contains__, s.hands[s.turn])))
        slot_card = list(s.slot_card)
        for slot, card in zip(slots, cards):
            slot_card[slot] = card
        s.slot_card = tuple(slot_card)

    def _build(self, action: Build) -> None:
        s = self.s
        me, pos, terms = s.turn, action.pos, action.terms
        cards, values = zip(*terms)  # tuned: in C, where two comprehensions were two calls a build
        self._from_hand(action.slots, cards)
        value = sum(values)
        pyramid = _with(s.pyramids[me], pos, (value, terms))
        points = 0 if s.zeros[me] >> pos & 1 else POINTS[pos]
        s.built = True
        if self.events is not None:
            self.events.append(Built(s.mover, pos, terms, value, points))
        if pos == L3:
            on_pyramid = cards_on(pyramid, s.zeros[me])
            s.discards += tuple(on_pyramid)
            s.zeros = _with(s.zeros, me, 0)
            pyramid = (None,) * 6
            s.owed_bases += tuple((me, base) for base in BASES)
            if self.events is not None:
                self.events.append(Completed(s.mover, len(on_pyramid)))
            points += COMPLETION_BONUS
        s.pyramids = _with(s.pyramids, me, pyramid)
        if points and s.location[me] < ALEXANDRIA:
            s.location = _with(s.location, me, min(ALEXANDRIA, s.location[me] + points))
            s.space = _with(s.space, me, None)
            if self.events is not None:
                self.events.append(Moved(s.mover, s.location[me]))

    def _action_card(self, action: Zero | Thief | Sandstorm) -> None:
        s = self.s
        target = self.names.index(action.target)
        slot = action.slot
        assert slot is not None, "a checked act names the slot of the card it plays"
        if isinstance(action, Zero):
            self._from_hand((slot,), (ZERO,))
            s.zeros = _with(s.zeros, target, s.zeros[target] | 1 << action.pos)
            if self.events is not None:
                self.events.append(ZeroPlayed(s.mover, action.target, action.pos))
        elif isinstance(action, Thief):
            self._from_hand((slot,), (THIEF,))
            s.discards += (THIEF,)
            s.victim = target
            if self.events is not None:
                self.events.append(ThiefPlayed(s.mover, action.target))
        else:
            self._from_hand((slot,), (SANDSTORM,))
            s.storms = _with(s.storms, target, True)
            if self.events is not None:
                self.events.append(SandstormGiven(s.mover, action.target))
            self._advance_sands()

    def _reveal(self, action: Reveal) -> None:
        s = self.s
        card = action.card
        s.deck -= 1
        player, pos = s.owed_bases[0]
        if card <= 9:
            pyramid = list(s.pyramids[player])
            pyramid[pos] = (card, ((card, card),))
            s.pyramids = _with(s.pyramids, player, tuple(pyramid))
            s.owed_bases = s.owed_bases[1:]
            if self.events is not None:
                self.events.append(BaseDealt(self.names[player], pos, card))
            return
        s.discards += (card,)
        if self.events is not None:
            self.events.append(BaseRejected(self.names[player], card))
        if card == SANDSTORM:
            self._advance_sands()

    def _deal(self, action: Deal) -> None:
        s = self.s
        player, count = s.owed_deal[0]
        k = len(action.slots)
        s.deck -= k
        s.slot_card += (None,) * k
        s.hands = _with(s.hands, player, s.hands[player] + action.slots)
        s.owed_deal = ((player, count - k),) + s.owed_deal[1:] if count > k else s.owed_deal[1:]
        if s.phase == DRAW:
            s.drew = True
        if self.events is not None:
            self.events.append(CardsDealt(self.names[player], k))

    # -- the Sands of Time and the path

    def _advance_sands(self) -> None:
        s = self.s
        if s.mummies == len(MUMMIES):
            return  # no mummy left: the track does nothing
        s.sands += 1
        if self.events is not None:
            self.events.append(SandsAdvanced(s.sands))
        if s.sands < SANDS_TO_WAKE:
            return
        location = MUMMIES[s.mummies]
        s.mummies += 1
        s.sands = 0
        if self.events is not None:
            self.events.append(MummyWakes(location))
        for p in range(len(self.names)):
            if s.location[p] == location and s.space[p] == B:
                self._fall_back(p, location - 1, "mummy")

    def _fall_back(self, p: int, start: int, why: str) -> None:
        """Marker `p` goes to `start`, then back one at a time to a location with a free space."""
        s = self.s
        s.space = _with(s.space, p, None)
        location = max(0, start)
        space = None
        while location > 0:
            space = free_space(s, location)
            if space is not None:
                break
            location -= 1
        s.location = _with(s.location, p, location)
        s.space = _with(s.space, p, space)
        if self.events is not None:
            self.events.append(Retreated(self.names[p], location, space, why))

    def _take_place(self) -> None:
        """The mover's marker takes its location at the end of the turn, bumping if it must."""
        s = self.s
        me = s.turn
        location = s.location[me]
        if location == 0 or s.space[me] is not None:
            return
        space = free_space(s, location)
        bumped = None
        if space is None:
            space = B if location in DOUBLE and not closed(s, location) else A
            bumped = next(p for p in range(len(self.names)) if s.location[p] == location and s.space[p] == space)
        s.space = _with(s.space, me, space)
        if self.events is not None:
            self.events.append(Settled(s.mover, location, space))
        if bumped is not None:
            self._fall_back(bumped, location - BUMP_BACK, "bumped")

    # -- a turn's course

    def _end_turn(self) -> None:
        s = self.s
        self._take_place()
        if s.location[s.turn] == ALEXANDRIA:
            s.phase, s.winners = OVER, (s.turn,)
            if self.events is not None:
                self.events.append(Finished((s.mover,), "alexandria"))
            return
        s.phase = DRAW
        s.owed_deal += ((s.turn, DRAW_COUNT),)

    def _finish_turn(self) -> None:
        s = self.s
        me = s.turn
        if s.storms[me]:
            s.storms = _with(s.storms, me, False)
            s.discards += (SANDSTORM,)
            if self.events is not None:
                self.events.append(SandstormDiscarded(s.mover))
        s.idle = 0 if s.built or s.drew else s.idle + 1
        if s.idle >= len(self.names):
            best = max(s.location)
            s.phase = OVER
            s.winners = tuple(p for p in range(len(self.names)) if s.location[p] == best)
            if self.events is not None:
                self.events.append(Finished(tuple(self.names[p] for p in s.winners), "stalled"))
            return
        s.turn = (me + 1) % len(self.names)
        s.phase, s.built, s.drew = START, False, False

    def settle(self) -> None:
        """Run the rules forward until someone owes an act."""
        s = self.s
        while s.phase != OVER:
            if s.owed_bases:
                if s.deck or any(card <= 9 for card in s.discards):
                    return  # a reveal, or a shuffle first
                player, pos = s.owed_bases[0]
                s.owed_bases = s.owed_bases[1:]
                if self.events is not None:
                    self.events.append(BaseLeftEmpty(self.names[player], pos))
                continue
            if s.victim is not None:
                return
            if s.owed_deal:
                if s.deck or s.discards:
                    return  # a deal, or a shuffle first
                s.owed_deal = s.owed_deal[1:]  # nothing left to draw
                continue
            phase = s.phase  # the phases by how often they come: a mover's every act, then once a turn
            if phase == PLAY:
                if s.hands[s.turn]:
                    return
                if self.events is not None:
                    self.events.append(Stopped(s.mover))
                self._end_turn()
            elif phase == DRAW:
                if len(s.hands[s.turn]) > HAND_LIMIT:
                    s.phase = DISCARD
                    return
                self._finish_turn()
            elif phase == START:
                me = s.turn
                pyramid = s.pyramids[me]
                s.owed_bases = tuple([(me, base) for base in BASES if pyramid[base] is None])
                s.phase = PLAY
                if s.storms[me] or not s.hands[me]:
                    if self.events is not None:
                        self.events.append(Skipped(s.mover, "a Sandstorm" if s.storms[me] else "no cards"))
                    self._end_turn()
            elif phase == SETUP:
                s.phase = START
            else:
                return  # DISCARD: the mover chooses


_PERFORM: dict[type, Callable[[Play, Any], None]] = {
    Deal: Play._deal, Reveal: Play._reveal, Build: Play._build, Stop: Play._stop, Shuffle: Play._shuffle,
    Steal: Play._steal, Discard: Play._discard, Zero: Play._action_card, Thief: Play._action_card,
    Sandstorm: Play._action_card,
}
"""How Play performs each kind of act."""
