"""What one participant may see. The only place that decides it: the public state, plus the
observer's own coin values when they pass their own knowledge."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.contract import DEALER

from .duties import duties, hand_values
from .geometry import POS_NAMES, SARCOPHAGUS_POSITIONS
from .rules import outcome
from .scoring import fame
from .state import DISCARDED, State


def view(s: State, observer: str | None = None, knowledge: Mapping[int, int] | None = None) -> dict[str, Any]:
    """`knowledge` is the coin values the observer knows: a player sees their own; the dealer (a
    referee, who holds every coin's opening) sees all it knows."""
    seats = s.table.seats
    own = knowledge if observer in s.table.players + (DEALER,) and knowledge is not None else {}
    slot_seat, slot_value, present, face_up, tiles, coins = \
        s.slot_seat, s.slot_value, s.present, s.face_up, s.tiles, s.coins  # locals: a view is made at every step

    def coin(slot: int) -> dict[str, Any]:
        seat = seats[slot_seat[slot]]
        value = slot_value[slot]
        if value is None and (seat.player == observer or observer == DEALER):
            value = own.get(slot)
        return {"slot": slot, "owner": seat.player, "seat": seat.name, "value": value}

    pyramid = {
        POS_NAMES[p]: {
            "tile": str(tiles[p]) if face_up >> p & 1 else None,
            "coins": [coin(slot) for slot in coins[p]],
        }
        for p in range(21) if present >> p & 1
    }
    sarcophagus = {}
    for k, pos in enumerate(SARCOPHAGUS_POSITIONS):
        owner = s.under_owner[k]
        sarcophagus[POS_NAMES[pos]] = {
            "tile": str(s.under[k]) if s.under[k] else None,
            "status": "buried" if owner is None else "discarded" if owner == DISCARDED else "taken",
            "holder": seats[owner].player if owner not in (None, DISCARDED) else None,
            "coins": [coin(slot) for slot in s.entombed[k]],
        }
    hands: dict[str, int] = dict.fromkeys(s.table.players, 0)
    claimed: dict[str, list[str]] = {p: [] for p in s.table.players}
    running: dict[str, int] = dict.fromkeys(s.table.players, 0)
    for seat, count, tiles in zip(seats, s.hands, s.claimed):
        hands[seat.player] += count
        claimed[seat.player] += [str(t) for t in tiles]
        running[seat.player] += fame(tiles)  # each seat scores on its own, as at the end
    result = outcome(s)
    shown: dict[str, Any] = {  # JSON values
        "status": "finished" if result else "playing",
        "players": list(s.table.players),
        "seats": [{"name": seat.name, "player": seat.player, "suits": seat.suit_names} for seat in seats],
        "turn": seats[s.turn].name if s.present else None,
        "duties": [{"who": d.who, "what": d.what, "detail": d.detail} for d in duties(s)],
        "pyramid": pyramid,
        "sarcophagus": sarcophagus,
        "hands": hands,
        "claimed": claimed,
        "fame": running,
    }
    if observer in s.table.players and knowledge is not None:
        shown["my_hand"] = {seats[i].name: hand_values(s, i, own) for i in s.table.seats_of(observer)}
    if result:
        shown["scores"] = result.scores
        shown["held"] = result.held
        shown["winners"] = list(result.winners)
    return shown
