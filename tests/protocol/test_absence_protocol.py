"""Absences in the record (docs/deadlines.md) through the library every front end calls: who may record
one, when, what it does in each game and mode, what verify re-checks; and what a cheater with their own
valid key would try. Time is injected (PBEM_NOW), never slept."""

import random

import pytest

from engine.contract import DEALER
from pbem.errors import IllegalMove, NoClock, NothingOwed, NotOwed, NotYourTurn, TooEarly, UsageError
from pbem.protocol.absence import Absence, AbsenceSigned
from pbem.protocol.entries import apply_entry
from pbem.record.deadlines import HOUR
from pbem.record.models import to_json

from absence_support import (
    ABSENT_AFTER,
    T0,
    a_card_that_does_not_open,
    check_replays,
    game,
    half_signed,
    mover,
    others,
    run_duties,
    signed_at,
)

# ---------------------------------------------------------------- table mode

def test_sarcophagus_table_every_other_player_records_an_absent_mover_who_passes(clock):
    rep, sessions = game("sarcophagus", "table", ("ann", "ben", "cat"))
    run_duties(rep, sessions)
    late = mover(rep)
    first, second = others(rep, late)
    with pytest.raises(TooEarly, match=rf"^too early: {late} has owed a move since entry \d+"):
        sessions[first].record_absence(late)
    clock.advance(ABSENT_AFTER)
    with pytest.raises(NotYourTurn, match=f"^{first} signs {late}'s absence first$"):
        sessions[second].record_absence(late)
    events = sessions[first].record_absence(late)
    assert [str(e) for e in events] == [f"{first} records {late} absent; it takes effect when {second} signs it too"]
    assert mover(rep) == late  # nothing happens until every other player has signed
    events = sessions[second].record_absence(late)
    assert isinstance(events[0], Absence) and events[0].signers == (first, second)
    assert str(events[1]) == f"{late} is recorded absent (move): passes"
    assert mover(rep) == first if rep.players.index(first) == (rep.players.index(late) + 1) % 3 else second
    check_replays(rep)


def test_sarcophagus_two_players_the_opponent_alone_records_it(clock):
    rep, sessions = game("sarcophagus", "table", ("ann", "ben"))
    run_duties(rep, sessions)
    late = mover(rep)
    other = others(rep, late)[0]
    clock.advance(ABSENT_AFTER - 1)
    with pytest.raises(TooEarly, match=r"^too early"):
        sessions[other].record_absence(late)
    clock.advance(1)
    events = sessions[other].record_absence(late)
    assert events[0].signers == (other,) and mover(rep) == other
    check_replays(rep)


def test_an_absent_party_who_comes_back_before_it_is_recorded_plays_on(clock):
    rep, sessions, late, _, second = half_signed(clock)
    stale = sessions[second].absence(late).action  # what the second signer was about to sign
    session = sessions[late]
    session.act(rep.game.legal_actions(rep.state, late, session.knowledge())[0])  # back: the move is owed
    assert rep.pending is None and not rep.absences
    with pytest.raises((NotOwed, IllegalMove), match="owes"):
        apply_entry(rep, sessions[second].sign({"action": stale}))
    with pytest.raises((NothingOwed, TooEarly)):
        sessions[second].record_absence(late)  # owed nothing now, or their clock starts again from their move
    check_replays(rep)


def test_pop_table_an_absent_mover_stops_then_discards_the_lowest_cards(clock):
    rep, sessions = game("path-of-pharaohs", "table", ("ann", "ben", "cat"))
    run_duties(rep, sessions)
    late = mover(rep)
    clock.advance(ABSENT_AFTER)
    for name in others(rep, late):
        events = sessions[name].record_absence(late)
    assert f"{late} is recorded absent (move): stops" in [str(e) for e in events]
    run_duties(rep, sessions)  # the table deals the 3 cards
    assert rep.duties()[0].what == "discard" and rep.duties()[0].who == late
    hand = sessions[late].knowledge()
    lowest = sorted(rep.state.hands[rep.state.turn], key=lambda slot: (hand[slot], slot))[0]
    clock.advance(ABSENT_AFTER)
    for name in others(rep, late):
        events = sessions[name].record_absence(late)
    assert rep.entries[-1].action.endswith(f"do discard {hand[lowest]}#{lowest}")
    assert rep.entries[-1].openings and rep.entries[-2].openings is None  # the last signer shows the card
    assert [str(e) for e in events][1] == f"{late} is recorded absent (discard): discards their lowest cards, " \
                                          f"{hand[lowest]}"
    check_replays(rep)


def test_three_absent_turns_in_a_row_end_a_pop_game(clock):
    rep, sessions = game("path-of-pharaohs", "table", ("ann", "ben", "cat"))
    run_duties(rep, sessions)
    late = mover(rep)
    rng = random.Random(1)
    absences = 0
    for _ in range(200):
        run_duties(rep, sessions, skip=(late,))  # an absent player's program signs nothing
        if not rep.duties():
            break
        who = mover(rep)
        if who == late:
            clock.advance(ABSENT_AFTER)
            for name in others(rep, late):
                sessions[name].record_absence(late)
            absences += rep.absences[-1].what == "move"
        else:
            session = sessions[who]
            actions = list(rep.game.legal_actions(rep.state, who, session.knowledge()))
            session.act(rep.game.policy("random")(rep.state, who, actions, rng, None))
    assert absences == 3 and rep.over and rep.verdict is None
    assert late not in rep.outcome().winners
    assert "absent 3 turns in a row: the game ends" in str(rep.events[-2][1]) + str(rep.events[-1][1])
    check_replays(rep)


@pytest.mark.slow
def test_sarcophagus_an_absent_opener_at_the_end_audit_forfeits_and_the_file_verifies(clock):
    rep, sessions = game("sarcophagus", "table", ("ann", "ben"))
    rng = random.Random(3)
    run_duties(rep, sessions)
    for _ in range(400):
        run_duties(rep, sessions, skip=("ann",))  # ann's program makes no opening on its own
        duty = rep.duties()[0]
        if duty.what == "open" and not rep.state.present:
            break
        session = sessions[duty.who]
        if duty.what == "open":  # a tie-break
            session.automatic()
            continue
        actions = list(rep.game.legal_actions(rep.state, duty.who, session.knowledge()))
        session.act(rep.game.policy("greedy")(rep.state, duty.who, actions, rng, None))
    late = rep.duties()[0].who
    assert late == "ann"
    clock.advance(24 * HOUR + 24 * HOUR)
    events = sessions[others(rep, late)[0]].record_absence(late)
    assert "their coins stay closed for good: they forfeit (cannot win)" in str(events[1])
    run_duties(rep, sessions)
    assert rep.over and rep.outcome().winners == tuple(others(rep, late))
    check_replays(rep)  # the audit passes: the absent player's coins may stay closed


# ---------------------------------------------------------------- referee mode

@pytest.mark.parametrize("name", ["sarcophagus", "path-of-pharaohs"])
def test_referee_mode_the_referee_alone_records_a_players_absence(clock, name):
    players = ("ann", "ben") if name == "sarcophagus" else ("ann", "ben", "cat")
    rep, sessions = game(name, "referee", players)
    run_duties(rep, sessions)
    late = mover(rep)
    clock.advance(ABSENT_AFTER)
    with pytest.raises(NotYourTurn, match=f"^{others(rep, late)[0]} may not record {late} absent: only ref may$"):
        sessions[others(rep, late)[0]].record_absence(late)
    forged = sessions[others(rep, late)[0]].sign({"action": f"absent {late} move since={rep.began[late]}"})
    with pytest.raises(NotOwed, match=f"may not record {late} absent \\(only ref\\)"):
        apply_entry(rep, forged)
    events = sessions["ref"].record_absence(late)
    assert events[0].signers == ("ref",)
    run_duties(rep, sessions)
    if name == "path-of-pharaohs" and rep.duties()[0].what == "discard":
        clock.advance(ABSENT_AFTER)
        sessions["ref"].record_absence(late)  # the referee knows the hand: the lowest cards
    assert mover(rep) != late
    check_replays(rep)


@pytest.mark.parametrize("name", ["sarcophagus", "path-of-pharaohs"])
def test_an_absent_referee_is_recorded_by_every_player_and_the_game_ends_with_no_winner(clock, name):
    players = ("ann", "ben") if name == "sarcophagus" else ("ann", "ben", "cat")
    rep, sessions = game(name, "referee", players)
    for player in players:  # everyone joins; the referee never deals
        sessions[player].automatic()
    assert rep.state is None and rep.duties()[0].what == "deal"
    clock.advance(11 * HOUR)
    with pytest.raises(UsageError, match="too early"):
        sessions[players[0]].record_absence("ref")
    clock.advance(25 * HOUR)
    with pytest.raises(UsageError, match=f"ref may not record ref absent|{players[0]} signs"):
        sessions["ref"].record_absence("ref")
    for player in players[:-1]:
        events = sessions[player].record_absence("ref")
        assert isinstance(events[0], AbsenceSigned)
    events = sessions[players[-1]].record_absence("ref")
    assert str(events[-1]).startswith("VERDICT: ref forfeits: the referee was absent: it owed")
    assert rep.over and rep.outcome() is None
    check_replays(rep)


def test_a_referee_that_seals_a_card_that_does_not_open_is_convicted_by_the_receiver(clock):
    rep, sessions, action, last = a_card_that_does_not_open()
    victim = sessions[action.player]
    events = victim.automatic()
    assert str(events[-1]) == (f"VERDICT: ref forfeits: {action.player} says the card sealed to them as {last} does "
                               f"not open (the receiver's word: nobody else can check it) (entry {rep.seq}, signed by "
                               f"{action.player})")
    assert rep.over and not rep.duties()  # nobody is waited for: the victim is never the late one
    check_replays(rep)


# ---------------------------------------------------------------- cheaters with their own valid keys

def test_a_player_cannot_record_a_false_absence_with_their_own_key(clock):
    rep, sessions = game("sarcophagus", "table", ("ann", "ben", "cat"))
    run_duties(rep, sessions)
    late = mover(rep)
    cheat, honest = others(rep, late)
    since = rep.began[late]
    s = sessions[cheat]
    cases = [
        (signed_at(s, {"action": f"absent {late} move since={since}"}, T0 + ABSENT_AFTER - 1), IllegalMove,
         "too early"),
        (signed_at(s, {"action": f"absent {honest} move since={since}"}, T0 + ABSENT_AFTER), NotOwed,
         f"{honest} owes nothing now"),
        (signed_at(s, {"action": f"absent {late} move since={since - 1}"}, T0 + ABSENT_AFTER), IllegalMove,
         f"{late} owes a move since entry {since}"),
        (signed_at(s, {"action": f"absent {late} open since={since}"}, T0 + ABSENT_AFTER), IllegalMove,
         f"{late} owes a move since entry {since}"),
        (signed_at(s, {"action": f"absent {late} move since={since} do @1a"}, T0 + ABSENT_AFTER), IllegalMove,
         "becomes"),
        (signed_at(s, {"action": f"absent {late} move since={since}"}, T0 - 1), IllegalMove,
         "earlier than the entry before it"),
    ]
    if rep.players.index(cheat) > rep.players.index(honest):
        cases.append((signed_at(s, {"action": f"absent {late} move since={since}"}, T0 + ABSENT_AFTER), NotOwed,
                      f"{honest} signs it first"))
    clock.set(T0 + ABSENT_AFTER)  # every verifier's clock as late as the signed times: the other checks decide
    for entry, error, message in cases:
        with pytest.raises(error, match=message):
            apply_entry(rep, entry)
        assert rep.seq == entry.seq - 1
    # the cheater dates an absence forward: every program whose clock is earlier refuses it until that time
    forward = signed_at(s, {"action": f"absent {late} move since={since}"}, T0 + ABSENT_AFTER)
    clock.set(T0 + 3600)
    with pytest.raises(IllegalMove, match=r"\(1800259200\) is 2 days ahead of this program's clock \(1800003600\): "
                                          r"a time in the future is refused \(more than 1 h ahead\) until that time"):
        apply_entry(rep, forward)
    clock.set(T0 + ABSENT_AFTER - 3600)  # an hour of tolerance for honest clocks that differ
    if rep.players.index(cheat) < rep.players.index(honest):  # alone, at a table of three, it changes nothing
        apply_entry(rep, forward)
        assert mover(rep) == late and not rep.absences


def test_a_game_without_a_policy_has_no_absences_and_its_file_is_unchanged(clock):
    rep, sessions = game("sarcophagus", "table", ("ann", "ben"), policy=None)
    assert "deadlines" not in to_json(rep.record)
    run_duties(rep, sessions)
    late = mover(rep)
    clock.advance(365 * 24 * HOUR)
    with pytest.raises(NoClock, match=r"^this game has no deadline policy: nobody can be recorded absent$"):
        sessions[others(rep, late)[0]].record_absence(late)
    forged = sessions[others(rep, late)[0]].sign({"action": f"absent {late} move since={rep.began[late]}"})
    with pytest.raises(NotOwed, match="no deadline policy"):
        apply_entry(rep, forged)


def test_a_referee_cannot_backdate_the_entry_a_duty_starts_from(clock):
    rep, sessions = game("path-of-pharaohs", "referee", ("ann", "ben", "cat"))
    for player in rep.players:
        sessions[player].automatic()
    ref = sessions["ref"]
    ref.automatic()
    clock.advance(10 * HOUR)
    while rep.duties()[0].who == DEALER:
        ref.act(ref.dealer_action())
    late = mover(rep)
    sessions[late].act(rep.game.parse_action("stop"))
    assert rep.duties()[0].who == DEALER
    action = ref.dealer_action()
    honest = ref.entry_for(action, DEALER)
    backdated = signed_at(ref, {"action": honest.action, "sealed": honest.sealed, "openings": honest.openings,
                                "commitments": honest.commitments}, T0 - 72 * HOUR)
    assert backdated.time < rep.entries[-1].time
    with pytest.raises(IllegalMove, match="earlier than the entry before it"):
        apply_entry(rep, backdated)
