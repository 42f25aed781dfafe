"""Reading the public state: who owes what now (`duties`, `owed_kind`), the coin openings owed, a tile's
leaders, the audit of a seat's coins, where and what the seat to move may place, a trapped claimer's
discards. The rules' decisions that `check`, `legal_actions` and `Play` share."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from engine.contract import DEALER, Duty

from .actions import Discard, Open
from .events import coin_words
from .geometry import SARCOPHAGUS_POSITIONS, forced_position, pos_name, positions_in
from .knowledge import PlayerKnowledge
from .pieces import Tile
from .state import State


def leaders(s: State, pos: int) -> tuple[int, ...]:
    """The seats with the most coins on a tile, in seat order: one claims it, several are tied."""
    slot_seat = s.slot_seat
    return most_coins(tuple([slot_seat[slot] for slot in s.coins[pos]]))


@functools.lru_cache(maxsize=1024)
def most_coins(owners: tuple[int, ...]) -> tuple[int, ...]:
    """`leaders` of one tile's coin owners in placement order, worked out once: a tile holds at most
    four coins of four seats, so few orders ever occur, and a playout asks thousands of times."""
    distinct = sorted(set(owners))
    best = max(map(owners.count, distinct), default=0)
    return tuple(seat for seat in distinct if owners.count(seat) == best)


def unopened_tied(s: State, pos: int, tied: Sequence[int]) -> list[int]:
    """The unopened coins of the tied seats on a tile: its tie-break waits for them to be opened."""
    return [slot for slot in s.coins[pos] if s.slot_value[slot] is None and s.slot_seat[slot] in tied]


def _audit_due(s: State) -> bool:
    return not s.present and not s.traps and None not in s.under


def owed_openings(s: State, player: str) -> tuple[int, ...]:
    """The coin slots `player` must open now: theirs in a pending tie-break, or all at the end audit.
    For the dealer: every owed slot, of every owner (a referee holds every coin's opening)."""
    return _openings(s).get(player, ())


def opening(s: State, player: str, values: PlayerKnowledge) -> Open:
    """The opening `player` owes now (for the dealer: every owed coin), its values read from `values`."""
    slots = _owed_slots(s) if player == DEALER else owed_openings(s, player)
    return Open(tuple(zip(slots, [values[slot] for slot in slots])))


def _owed_slots(s: State) -> list[int]:
    """Every coin slot whose opening is owed now, in ascending order (a tile's coins are in the order
    they were placed): the tied coins of a pending tie-break, or every unopened coin at the end audit."""
    if s.tie is not None:
        return unopened_tied(s, s.tie, leaders(s, s.tie))
    if _audit_due(s):
        return [slot for slot, value in enumerate(s.slot_value) if value is None]
    return []


def _openings(s: State) -> dict[str, tuple[int, ...]]:
    """Every owner's owed openings, and every owed slot under DEALER, worked out once per state."""
    if s.cached_openings is not None:
        return s.cached_openings
    slots = _owed_slots(s)
    by_owner: dict[str, list[int]] = {}
    seats, slot_seat = s.table.seats, s.slot_seat
    for slot in slots:
        by_owner.setdefault(seats[slot_seat[slot]].player, []).append(slot)
    owed = {player: tuple(owned) for player, owned in by_owner.items()}
    if slots:
        owed[DEALER] = tuple(slots)
    s.cached_openings = owed
    return owed


def sarcophagus_unrevealed(s: State) -> tuple[int, ...]:
    return tuple(pos for k, pos in enumerate(SARCOPHAGUS_POSITIONS) if s.under[k] is None)


def duties(s: State) -> tuple[Duty, ...]:
    """Who owes what now. Several parties can owe at once (openings for a tie-break)."""
    if s.cached_duties is None:
        s.cached_duties = _compute_duties(s)
    return s.cached_duties


def owed_kind(s: State) -> str | None:
    """What the rules wait for now: "reveal", "open", "discard" or "move", or None once the game is
    over. The one decision behind `duties`, which adds who owes it and why; a playout needs only this."""
    if s.reveal:
        return "reveal"
    if s.tie is not None:
        return "open"
    if s.traps:
        return "discard"
    if s.present:
        return "move"
    if None in s.under:
        return "reveal"
    return "open" if None in s.slot_value else None  # the end audit, until every coin is opened


def _compute_duties(s: State) -> tuple[Duty, ...]:
    what = owed_kind(s)
    if what == "move":
        seat = s.table.seats[s.turn]
        return _move_duties(seat.player, seat.suit_names if seat.name != seat.player else "",
                            forced_position(s.present) if s.placed == 0 else None)
    if what == "reveal":
        return _reveal_duties(s.reveal) if s.reveal else (Duty(DEALER, "reveal", "reveal the sarcophagus tiles"),)
    if what == "discard":
        return (Duty(s.table.seats[s.traps[0]].player, "discard", "discard a number tile to the trap"),)
    if what == "open":
        if s.tie is not None:
            return _first_opener(s, f"open your coins on {pos_name(s.tie)} for the tie-break")
        return _first_opener(s, "open every coin you placed, for the end audit")
    return ()


def _first_opener(s: State, detail: str) -> tuple[Duty, ...]:
    """Openings are owed one player at a time, in seat order: two players opening at once on their own
    copies of a mailed file would fork the game. (The dealer, holding every coin, may open all at once.)"""
    owed = _openings(s)
    return tuple(Duty(p, "open", detail) for p in s.table.players if p in owed)[:1]


@functools.lru_cache(maxsize=256)
def _reveal_duties(positions: tuple[int, ...]) -> tuple[Duty]:
    return (Duty(DEALER, "reveal", "turn up " + ", ".join(map(pos_name, positions))),)


@functools.lru_cache(maxsize=1024)
def _move_duties(player: str, suits: str, forced: int | None) -> tuple[Duty]:
    """The duties of a seat to move, made once: most states of a play owe one of these."""
    if forced is None:
        detail = "place your second coin on any face-up tile with room"
    else:
        detail = f"place a coin on {pos_name(forced)} (forced)"
    if suits:
        detail += f" with {suits}"
    return (Duty(player, "move", detail),)


def hand_values(s: State, seat: int, known: PlayerKnowledge) -> list[int]:
    """The coin values a seat holds, in ascending order, as its owner computes them from their own
    slot values."""
    hand = list(s.table.seats[seat].coins)
    for slot in s.out[seat]:
        hand.remove(known[slot])
    return hand


def placement_targets(s: State) -> tuple[int, ...]:
    """Where the seat to move may place: the forced tile with a turn's first coin, then any face-up tile
    with room."""
    if s.placed == 0:
        return (forced_position(s.present),)
    return positions_in(s.present & s.face_up & ~s.full)


def placement_values(s: State, known: PlayerKnowledge) -> list[int]:
    """The distinct coin values the seat to move may place, in ascending order."""
    hand = hand_values(s, s.turn, known)
    if len(s.table.seats[s.turn].suits) > 1:  # pooled suits: two coins may share a value
        return sorted(set(hand))
    return hand


def discards(s: State) -> list[Discard]:
    """The discards a trapped claimer may choose among: one of their number tiles."""
    return [Discard(t) for t in number_tiles(s, s.traps[0])]


def number_tiles(s: State, seat: int) -> list[Tile]:
    return [t for t in s.claimed[seat] if t.is_number]


def coin_name(s: State, slot: int) -> str:
    """A placed coin as people name it: "ben's 2nd coin" (its seat's count, never the slot number)."""
    seat = s.slot_seat[slot]
    return coin_words(s.table.seats[seat].name, s.slot_seat[:slot + 1].count(seat))


def _audit_seat(s: State, values: Sequence[int | None], seat: int) -> str | None:
    """With the values known so far, was every placed coin really in the seat's hand at the time?

    Walks the seat's coins in placement order; a coin that went back to the hand when `back` coins
    had been placed is in hand again for placement number `back` onwards."""
    initial = s.table.seats[seat].coins
    out = [0] * 6
    returns: list[tuple[int, int]] = []
    for k, (owner, value, back) in enumerate(zip(s.slot_seat, values, s.slot_back)):
        if owner != seat or value is None or value < 0:  # < 0: withheld for good (absence.WITHHELD)
            continue
        returns.sort(reverse=True)
        while returns and returns[-1][0] <= k:
            out[returns.pop()[1]] -= 1
        out[value] += 1
        if out[value] > initial.count(value):
            return (f"{coin_name(s, k)} opened as {value}, but {s.table.seats[seat].name} had no coin of that value "
                    "left in hand when it was placed")
        if back is not None:
            returns.append((back, value))
    return None


def audit_problem(s: State, opened: Sequence[tuple[int, int]]) -> tuple[str, str] | None:
    """Whether opening these (slot, value) pairs proves that a player placed a coin they did not hold:
    (the player, why), or None. What a verdict against a false coin rests on."""
    values = list(s.slot_value)
    for slot, value in opened:
        values[slot] = value
    for seat in sorted({s.slot_seat[slot] for slot, _ in opened}):
        problem = _audit_seat(s, values, seat)
        if problem:
            return s.table.seats[seat].player, problem
    return None
