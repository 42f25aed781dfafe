"""Issue 22's trust features attacked as a cheater would, with their own valid keys (docs/deadlines.md,
docs/security.md): what the other absence tests do not try. A shared absence tampered with by its signers,
a referee recording itself or acting for the one it recorded, `since` off by one, signed times at the
hour's edge, absences after the end, three in a row broken by an own act, an absent party back at the
same moment as the last signature, a receiver's word given too late, a verdict or a policy carried to
another game, and policies a creator could write. Each cheat is refused with a named error, or
convicted, and `pbem verify` reads the same file the same way. Short hand-built games; time injected."""

import json
import re

import pytest

from engine.contract import DEALER
from pbem.errors import BadOpening, BadSequence, IllegalMove, NotOwed, UsageError
from pbem.protocol.commitments import b64
from pbem.protocol.entries import apply_entry
from pbem.record.canonical import canonical
from pbem.record.deadlines import HOUR
from pbem.record.models import GameFile, core_id, payload, to_json

from absence_support import (
    ABSENT_AFTER,
    T0,
    a_card_that_does_not_open,
    check_replays,
    false_discard,
    game,
    half_signed,
    install_key,
    mover,
    others,
    pbem,
    run_duties,
    signed_at,
    to_a_discard,
)
from pbem_support import identity


def refused(rep, entry, error, message):
    """The entry is refused with that error and message, and the game is as it was."""
    seq, head = rep.seq, rep.head
    with pytest.raises(error, match=message) as caught:
        apply_entry(rep, entry)
    assert (rep.seq, rep.head) == (seq, head)
    return caught.value


def verified(home, rep):
    """`pbem verify` on the game as the programs wrote it: exit 0 and its first line."""
    (home / "game.json").write_text(to_json(rep.record))
    result = pbem("verify", "game.json")
    assert result.exit_code == 0, result.output
    return result.output.splitlines()[0]


def verify_refuses(home, rep, entry, message):
    """`pbem verify` on the game with the cheater's entry appended: one `Error:` line naming it, exit 1."""
    cheat = GameFile(genesis=rep.genesis, entries=[*rep.entries, entry])
    (home / "cheat.json").write_text(to_json(cheat))
    result = pbem("verify", "cheat.json")
    assert result.exit_code == 1 and result.output.count("\n") == 1, result.output
    assert result.output.startswith(f"Error: cheat.json: entry {entry.seq} by {entry.author}: ") and message in \
        result.output, result.output


# ---------------------------------------------------------------- a shared absence, tampered with

def test_signers_of_a_shared_absence_cannot_sign_twice_skip_a_turn_change_its_text_or_add_themselves(home, clock):
    rep, sessions = game("path-of-pharaohs", "table", ("ann", "ben", "cat", "dan"))
    run_duties(rep, sessions)
    late = mover(rep)
    first, second, third = others(rep, late)
    since = rep.began[late]
    bare = f"absent {late} move since={since}"
    text = f"{bare} do stop"
    clock.advance(ABSENT_AFTER)
    s = sessions
    # the game reads `bare` as `text`; a first signer who wrote it so would leave an absence no honest
    # program co-signs (each signs the text it finds), and the game stalled: one form only
    refused(rep, s[first].sign({"action": bare}), IllegalMove, f"the record holds this absence as '{text}'")
    verify_refuses(home, rep, s[first].sign({"action": bare}), f"the record holds this absence as '{text}'")
    refused(rep, s[first].sign({"action": text, "openings": {"#0": "00" * 32}}), IllegalMove,
            "this action carries openings for exactly: none")  # a first signer shows nothing: the last one does
    apply_entry(rep, s[first].sign({"action": text}))
    refused(rep, s[first].sign({"action": text}), NotOwed, f"{text}: {second} signs it next")
    refused(rep, s[third].sign({"action": text}), NotOwed, f"{text}: {second} signs it next")
    refused(rep, s[late].sign({"action": text}), NotOwed,
            f"{text}: {late} may not record {late} absent \\(only {first} and {second} and {third}\\)")
    refused(rep, s[second].sign({"action": bare}), NotOwed,
            f"'{text}' is being signed: {second} signs it next")
    refused(rep, s[second].sign({"action": f"absent {late} move since={since + 1} do stop"}), IllegalMove,
            f"{late} owes a move since entry {since}")
    with pytest.raises(UsageError, match=f"{second} signs {late}'s absence next"):
        s[third].record_absence(late)
    s[second].record_absence(late)
    events = s[third].record_absence(late)
    assert events[0].signers == (first, second, third) and str(events[1]) == f"{late} is recorded absent (move): stops"
    check_replays(rep)
    assert verified(home, rep).startswith("game.json: valid, in progress")


def test_an_absent_party_back_at_the_moment_of_the_last_signature_is_too_late_once_it_is_in(home, clock):
    rep, sessions, late, first, second = half_signed(clock)
    back = sessions[late].entry_for(rep.game.legal_actions(rep.state, late, sessions[late].knowledge())[0], late)
    last = sessions[second].absence(late)  # both signed on the same head: whichever is in the record first stands
    apply_entry(rep, last)
    refused(rep, back, BadSequence, f"seq is {rep.seq}, expected {rep.seq + 1}")
    again = sessions[late].sign({k: getattr(back, k) for k in ("action", "commitments", "sealed", "openings")})
    refused(rep, again, NotOwed, f"{late} may not act for ")  # re-signed on the new head: the turn has passed
    assert rep.absences[-1].signers == (first, second)
    check_replays(rep)
    verified(home, rep)


# ---------------------------------------------------------------- a referee with its own key

def test_a_referee_cannot_sign_its_own_absence_nor_a_players_act_and_coming_back_voids_the_players_record(clock):
    rep, sessions = game("sarcophagus", "referee", ("ann", "ben"))
    for player in rep.players:
        sessions[player].automatic()
    ref, ann, ben = sessions["ref"], sessions["ann"], sessions["ben"]
    since = rep.began["ref"]
    text = f"absent ref deal since={since}"
    clock.advance(12 * HOUR + 24 * HOUR)
    refused(rep, ref.sign({"action": text}), NotOwed, f"{text}: ref may not record ref absent \\(only ann and ben\\)")
    apply_entry(rep, ann.sign({"action": text}))
    refused(rep, ref.sign({"action": text}), NotOwed, f"{text}: ref may not record ref absent")
    stale = ben.sign({"action": text})
    ref.automatic()  # the referee comes back and deals: the players' half-signed record lapses
    assert rep.pending is None and rep.state is not None
    refused(rep, ben.sign({"action": text}), (NotOwed, IllegalMove), "ref owes")
    refused(rep, stale, BadSequence, "expected")
    # the referee records a player absent, then tries to act for them, or to record the same turn twice
    run_duties(rep, sessions)
    late = mover(rep)
    clock.advance(ABSENT_AFTER)
    refused(rep, ref.sign({"action": f"absent {late} open since={rep.began[late]}"}), IllegalMove,
            f"{late} owes a move since entry {rep.began[late]}")
    since = rep.began[late]
    ref.record_absence(late)
    refused(rep, ref.sign({"action": f"absent {late} move since={since}"}), NotOwed, f"{late} owes nothing now")
    place = rep.game.legal_actions(rep.state, mover(rep), sessions[mover(rep)].knowledge())[0]
    theirs = sessions[mover(rep)].entry_for(place, mover(rep))
    refused(rep, ref.sign({"action": theirs.action, "commitments": theirs.commitments, "sealed": theirs.sealed}),
            NotOwed, f"ref may not act for {mover(rep)}")
    check_replays(rep)


# ---------------------------------------------------------------- signed times at the edges

def test_signed_times_at_the_edges_an_hour_ahead_at_most_never_before_the_entry_before(home, clock):
    rep, sessions = game("sarcophagus", "table", ("ann", "ben"))
    run_duties(rep, sessions)
    late = mover(rep)
    other = sessions[others(rep, late)[0]]
    since = rep.began[late]
    text = f"absent {late} move since={since}"
    start = rep.entries[since - 1].time
    due = start + ABSENT_AFTER
    clock.set(due)
    refused(rep, signed_at(other, {"action": f"absent {late} move since={since + 1}"}, due), IllegalMove,
            f"{late} owes a move since entry {since}")
    refused(rep, signed_at(other, {"action": text}, due - 1), IllegalMove, "too early")
    clock.set(due - HOUR - 1)  # dated forward by an hour and a second: refused until that time comes
    refused(rep, signed_at(other, {"action": text}, due), IllegalMove, r"is 1 h ahead of this program's clock")
    clock.set(due - HOUR)  # by an hour exactly: honest clocks differ, it is taken
    apply_entry(rep, signed_at(other, {"action": text}, due))
    assert rep.absences[-1].time == due
    back = mover(rep)
    place = rep.game.legal_actions(rep.state, back, sessions[back].knowledge())[0]
    honest = sessions[back].entry_for(place, back)
    body = {k: getattr(honest, k) for k in ("action", "commitments", "sealed", "openings")}
    refused(rep, signed_at(sessions[back], body, due - 1), IllegalMove,
            f"its signed time \\({due - 1}\\) is earlier than the entry before it \\({due}\\)")
    apply_entry(rep, signed_at(sessions[back], body, due))  # the same second as the entry before: taken
    clock.set(due)
    check_replays(rep)
    verified(home, rep)


# ---------------------------------------------------------------- three in a row, and after the end

def absent_turns(rep, sessions, clock, late, count):
    """`late` is recorded absent from `count` turns; the others move (their first legal move) between."""
    for _ in range(200):
        run_duties(rep, sessions, skip=(late,))
        if count == 0 or not rep.duties():
            return
        who = mover(rep)
        if who == late:
            clock.advance(ABSENT_AFTER)
            sessions[others(rep, late)[0]].record_absence(late)
            count -= 1
        else:
            sessions[who].act(rep.game.legal_actions(rep.state, who, sessions[who].knowledge())[0])


def test_an_own_act_between_breaks_three_in_a_row_and_nothing_is_recorded_absent_after_the_end(home, clock):
    rep, sessions = game("sarcophagus", "table", ("ann", "ben"))
    run_duties(rep, sessions)
    late = mover(rep)
    other = sessions[others(rep, late)[0]]
    absent_turns(rep, sessions, clock, late, 2)
    assert rep.strikes[late] == 2
    while mover(rep) != late:
        sessions[mover(rep)].act(rep.game.legal_actions(rep.state, mover(rep), sessions[mover(rep)].knowledge())[0])
    sessions[late].act(rep.game.legal_actions(rep.state, late, sessions[late].knowledge())[0])  # back once
    assert late not in rep.strikes
    absent_turns(rep, sessions, clock, late, 2)
    assert rep.strikes[late] == 2 and not rep.over
    absent_turns(rep, sessions, clock, late, 1)
    run_duties(rep, sessions, skip=(late,))
    assert rep.over and rep.verdict is None and late not in rep.outcome().winners
    clock.advance(ABSENT_AFTER)
    for since in {a.since for a in rep.absences} | {rep.seq}:
        refused(rep, other.sign({"action": f"absent {late} move since={since}"}), NotOwed, f"{late} owes nothing now")
    (home / "game.json").write_text(to_json(rep.record))
    install_key(other.name)
    result = pbem("absent", "game.json", late, "--as", other.name)
    assert result.exit_code == 1
    assert result.output == f"Error: {late} owes nothing that an absence can be recorded for now\n"
    assert verified(home, rep).startswith(f"game.json: valid, finished, {rep.seq} entries")


# ---------------------------------------------------------------- the receiver's word, given too late

def held(rep, player):
    """The unopened cards the referee sealed to `player`, in the order they were dealt."""
    return sorted((key for key, item in rep.items.items() if item.readers == (player,) and item.value is None
                   and item.sealed_by == rep.referee), key=lambda key: int(key[1:]))


def test_a_card_sworn_unopenable_after_its_receiver_signed_on_is_refused_at_once_it_is_their_word(home, clock):
    rep, sessions = game("path-of-pharaohs", "referee", ("ann", "ben", "cat"))
    run_duties(rep, sessions)  # an honest referee deals
    liar = mover(rep)
    other = others(rep, liar)[0]
    old = held(rep, liar)[0]
    dealt = next(entry.seq for entry in rep.entries if old in (entry.sealed or {}))
    sessions[liar].act(rep.game.parse_action("stop"))  # they play on with the card in hand: it opened for them
    stop = rep.seq
    run_duties(rep, sessions)  # the referee deals them their 3 cards
    lie = sessions[liar].sign({"action": f"verdict unopenable {old}"})
    message = (f"verdict unopenable: {liar} has signed entry {stop} since {old} was sealed to them (entry {dealt}): "
               "a program says so before it signs anything else")
    refused(rep, lie, IllegalMove, re.escape(message))
    verify_refuses(home, rep, lie, message)
    refused(rep, sessions[liar].sign({"action": f"verdict unopenable {held(rep, other)[0]}"}), IllegalMove,
            f"{held(rep, other)[0]} is not an unopened item sealed to {liar}")
    # what stays the receiver's word (docs/security.md): a card just sealed to them, sworn at once
    new = held(rep, liar)[-1]
    events = apply_entry(rep, sessions[liar].sign({"action": f"verdict unopenable {new}"}))
    assert str(events[0]).startswith(f"VERDICT: ref forfeits: {liar} says the card sealed to them as {new} does not "
                                     "open (the receiver's word: nobody else can check it)")
    check_replays(rep)


def test_a_receiver_of_a_card_that_does_not_open_proves_it_before_recording_anyone_absent(home, clock):
    rep, sessions, action, last = a_card_that_does_not_open()  # the referee still owes the others their cards
    assert rep.duties()[0].who == DEALER  # and then the referee stops: absent
    clock.advance(12 * HOUR + 24 * HOUR)
    victim = action.player
    for player in rep.players[:rep.players.index(victim)]:
        sessions[player].record_absence("ref")
    (home / "game.json").write_text(to_json(rep.record))
    install_key(victim)
    result = pbem("absent", "game.json", "ref", "--as", victim)  # signing on would forfeit the proof
    assert (result.exit_code, result.output) == (1, "Error: this program has a cheat to prove before it signs "
                                                    "anything else: pbem play proves it\n")
    result = pbem("play", "game.json", "--as", victim)
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"  VERDICT: ref forfeits: {victim} says the card sealed to them as {last} does "
                                    "not open")
    result = pbem("verify", "game.json")
    assert result.exit_code == 0 and "Game over: VERDICT: ref forfeits" in result.output.splitlines()[0]


def test_a_table_duty_an_absent_players_program_does_is_no_turn_of_theirs_three_in_a_row_still_end_it(clock):
    rep, sessions = game("path-of-pharaohs", "table", ("ann", "ben", "cat"))
    run_duties(rep, sessions)
    late = mover(rep)
    absences = 0
    for _ in range(200):
        if rep.over:
            break
        duty = rep.duties()[0]
        if duty.who == DEALER:  # the table's duty: the absent player's program does it, whenever it can
            sessions[late].automatic()
        elif duty.who == late:
            clock.advance(ABSENT_AFTER)
            for name in others(rep, late):
                sessions[name].record_absence(late)
            absences += duty.what == "move"
        else:
            run_duties(rep, sessions, skip=(late,))
            if rep.duties()[0].who not in (late, DEALER):  # the others build (if all stopped, the game would stall)
                who = mover(rep)
                actions = rep.game.legal_actions(rep.state, who, sessions[who].knowledge())
                sessions[who].act(next((a for a in actions if rep.game.format_action(a) != "stop"), actions[0]))
    assert any(e.author == late for e in rep.entries[-20:])  # their program signed the table's deals
    assert absences == 3 and rep.over, (absences, rep.over, rep.verdict, rep.strikes, [str(e) for _, e in rep.events[-8:]])
    assert late not in rep.outcome().winners
    check_replays(rep)


# ---------------------------------------------------------------- policies a creator could write

@pytest.mark.parametrize("spec,why", [
    ("turn=-1", "write 'default' or KEY=HOURS"),
    ("turn=999999", "write 'default' or KEY=HOURS"),
    ("turn=9000", "Input should be less than or equal to 8760"),
    ("grace=", "write 'default' or KEY=HOURS"),
    ("turn=48,", "write 'default' or KEY=HOURS"),
    ("remind=12+12", "reminders are distinct hours before the deadline, longest first"),
    ("remind=2+12", "reminders are distinct hours before the deadline, longest first"),
    ("remind=", "write 'default' or KEY=HOURS"),
    ("remind=60", "a reminder comes before a deadline: shorter than the longest duty's time"),
    ("remind=40+30+20+10+5", "List should have at most 4 items"),
    ("turn=48,turn=1", "turn is given twice"),
    ("turn=1,grace=0", "every duty's hours and the grace together are at least 2 (an entry may be dated an hour "
                       "forward)"),
])
def test_a_creator_cannot_make_a_policy_of_absurd_or_ambiguous_hours(home, spec, why):
    install_key("cat")
    install_key("ann")
    made = pbem("new", "sarcophagus", "-o", "g.json", "--as", "cat", "--player", "cat", "--player", "ann",
                "--deadlines", spec)
    assert made.exit_code == 1 and made.output.startswith(f"Error: --deadlines '{spec}': ") and why in made.output, \
        made.output
    assert made.output.count("\n") == 1 and not (home / "g.json").exists()


def genesis_signed_anew(rep, creator, keep_id=False, **policy):
    """The game's file with its genesis's policy changed and signed again by its creator (with the game id
    derived anew, or kept), and the entries the others signed under the first one."""
    body = payload(rep.genesis)
    body["deadlines"] = {**body["deadlines"], **policy}
    if not keep_id:
        body["game_id"] = core_id(body)
    signed = {**body, "signature": b64(identity(creator).sign(canonical(body)))}
    return json.dumps({**json.loads(to_json(rep.record)), "genesis": signed})


@pytest.mark.parametrize("keep_id,message", [
    (False, "entry 1 by ann: this entry belongs to another game"),
    (True, "the game id is not derived from the genesis (it must hash the invitation)"),
])
def test_a_policy_changed_after_the_joins_is_not_the_game_they_joined(home, clock, keep_id, message):
    rep, sessions = game("sarcophagus", "table", ("cat", "ann"))
    run_duties(rep, sessions)  # ann joined the invitation as made: 48 h a turn
    (home / "game.json").write_text(genesis_signed_anew(rep, "cat", keep_id, turn_hours=2, grace_hours=0))
    result = pbem("verify", "game.json")
    assert result.exit_code == 1 and message in result.output and result.output.count("\n") == 1, result.output


def test_a_policy_nobody_could_have_made_with_pbem_new_is_refused_as_the_file_is_read(home, clock):
    rep, _ = game("sarcophagus", "table", ("cat", "ann"))
    (home / "game.json").write_text(genesis_signed_anew(rep, "cat", turn_hours=0))
    result = pbem("verify", "game.json")
    assert result.exit_code == 1 and result.output.startswith("Error: game.json: ") and \
        "greater than or equal to 1" in result.output and result.output.count("\n") == 1, result.output


def test_an_invitation_dated_forward_is_refused_by_whoever_would_join_it(home, clock):
    clock.set(T0 + 10 * 24 * HOUR)  # the creator's clock set ten days ahead: every entry after would follow it
    rep, _ = game("sarcophagus", "table", ("cat", "ann"))
    (home / "game.json").write_text(to_json(rep.record))
    clock.set(T0)
    install_key("ann")
    message = (f"the genesis by cat: its signed time ({T0 + 10 * 24 * HOUR}) is 10 days ahead of this program's "
               f"clock ({T0}): an invitation dated in the future is refused until that time comes")
    for command in (("verify", "game.json"), ("play", "game.json", "--as", "ann")):
        result = pbem(*command)
        assert result.exit_code == 1 and result.output.count("\n") == 1, result.output
        assert result.output.startswith("Error: ") and message in result.output, result.output
    clock.set(T0 + 10 * 24 * HOUR - HOUR)  # once that time comes (within the hour honest clocks differ by)
    joined = pbem("play", "game.json", "--as", "ann")
    assert joined.exit_code in (0, 3) and "Wrote game.json" in joined.output, joined.output


# ---------------------------------------------------------------- a proof carried to another game

def test_a_victims_proof_of_a_false_discard_proves_nothing_in_another_game(clock):
    rep, sessions, late = to_a_discard(clock, "referee")
    action, openings = false_discard(rep, sessions["ref"], late)
    clock.advance(ABSENT_AFTER)
    apply_entry(rep, sessions["ref"].sign({"action": f"absent {late} discard since={rep.began[late]} do {action}",
                                           "openings": openings}))
    sessions[late].automatic()  # the victim's program proves it: verdict lowest, the cards they held opened
    proof = rep.entries[-1]
    assert proof.action.startswith("verdict lowest ") and rep.verdict.against == "ref"
    other, others_sessions, absent = to_a_discard(clock, "referee")  # the same people, another game: honest
    clock.advance(ABSENT_AFTER)
    others_sessions["ref"].record_absence(absent)
    again = others_sessions[absent].sign({"action": proof.action, "openings": proof.openings})
    refused(other, again, (BadOpening, IllegalMove),
            "does not match the card the dealer committed|open each hidden card the dealer dealt, once")
    assert other.verdict is None
    check_replays(other)


def test_a_referee_cannot_keep_a_players_coin_to_swear_it_unopenable_later(home, clock):
    rep, sessions = game("sarcophagus", "referee", ("ann", "ben"))
    run_duties(rep, sessions)
    ref = sessions["ref"]
    coin, placed = None, 0
    for _ in range(40):  # the players place coins, the referee does its duties, until it signed after the first
        run_duties(rep, sessions)
        if coin and any(entry.author == "ref" for entry in rep.entries[placed:]):
            break
        who = mover(rep)
        sessions[who].act(rep.game.legal_actions(rep.state, who, sessions[who].knowledge())[0])
        if coin is None:
            coin, placed = next(iter(rep.entries[-1].sealed)), rep.seq
    assert rep.items[coin].value is None and rep.items[coin].players_own
    signed = next(entry.seq for entry in rep.entries[placed:] if entry.author == "ref")
    lie = ref.sign({"action": f"verdict unopenable {coin}"})
    message = (f"verdict unopenable: ref has signed entry {signed} since {coin} was sealed to them (entry {placed}): "
               "a program says so before it signs anything else")
    refused(rep, lie, IllegalMove, re.escape(message))
    verify_refuses(home, rep, lie, message)


def test_a_referee_that_records_a_player_absent_cannot_in_the_same_run_discard_for_them(clock):
    rep, sessions = game("path-of-pharaohs", "referee", ("ann", "ben", "cat"))
    run_duties(rep, sessions)
    ref = sessions["ref"]
    late = mover(rep)
    for _ in range(3):  # absent moves until the cards dealt after one take them over the limit
        clock.advance(ABSENT_AFTER)
        ref.record_absence(late)
        run_duties(rep, sessions, skip=(late,))  # the referee deals them their 3 cards, at once
        if rep.duties()[0].what == "discard":
            break
        while mover(rep) != late:
            who = mover(rep)
            sessions[who].act(rep.game.parse_action("stop"))
            run_duties(rep, sessions, skip=(late,))
    assert rep.duties()[0].what == "discard" and rep.duties()[0].who == late
    since = rep.began[late]
    with pytest.raises(UsageError, match=f"too early: {late} has owed a discard since entry {since}"):
        ref.record_absence(late)
    lowest = rep.game.absence_act(rep.state, late, ref.knowledge(as_dealer=True))
    text = f"absent {late} discard since={since} do {rep.game.format_action(lowest)}"
    salts = {key: ref._salt_of(key) for key, _ in rep.game.secrets(rep.state, late, lowest).opens}
    refused(rep, ref.sign({"action": text, "openings": salts}), IllegalMove, "too early")
    as_them = ref.entry_for(lowest, late)  # the discard itself, signed by the referee as if it were theirs
    refused(rep, ref.sign({"action": as_them.action, "openings": as_them.openings}), NotOwed,
            f"ref may not act for {late}")
    check_replays(rep)


# ---------------------------------------------------------------- a co-signer who never signs

def test_a_co_signer_who_never_signs_is_passed_over_after_the_grace_and_the_game_goes_on(home, clock):
    """Not signing an absence is withholding too: one friend of the absent player, or a second player
    who vanished, must not stall the game for ever. After the grace (at least two hours) since the last
    signature, any entitled signer completes it, passing over whoever did not sign; never before."""
    rep, sessions = game("path-of-pharaohs", "table", ("ann", "ben", "cat", "dan"))
    run_duties(rep, sessions)
    late = mover(rep)
    first, second, third = others(rep, late)
    text = f"absent {late} move since={rep.began[late]} do stop"
    clock.advance(ABSENT_AFTER)
    sessions[first].record_absence(late)  # `second` never signs (a friend of the absent, or gone too)
    clock.advance(24 * HOUR - 1)
    for signer in (first, third):
        with pytest.raises(UsageError, match=f"{second} signs {late}'s absence next \\(or, if they have not signed"):
            sessions[signer].record_absence(late)
        refused(rep, signed_at(sessions[signer], {"action": text}, clock.now), NotOwed, f"{text}: {second} signs it next")
    verify_refuses(home, rep, signed_at(sessions[third], {"action": text}, clock.now), f"{second} signs it next")
    clock.advance(1)  # the grace has passed since the first signature: the third passes over the second
    events = sessions[third].record_absence(late)
    assert events[0].signers == (first, third) and str(events[1]) == f"{late} is recorded absent (move): stops"
    assert rep.duties()[0].who != late
    check_replays(rep)
    assert verified(home, rep).startswith("game.json: valid, in progress")


def test_at_a_table_of_three_where_two_vanish_the_last_player_records_them_absent_alone_after_the_grace(home, clock):
    rep, sessions, late, first, second = half_signed(clock)
    with pytest.raises(UsageError, match=f"{second} signs {late}'s absence next"):
        sessions[first].record_absence(late)  # signing twice at once is not passing anyone over
    clock.advance(24 * HOUR)
    events = sessions[first].record_absence(late)
    assert events[0].signers == (first,) and events[0].party == late
    check_replays(rep)
    assert verified(home, rep).startswith("game.json: valid, in progress")


def test_a_policy_with_no_grace_still_gives_a_co_signer_two_hours(clock):
    from pbem.record.deadlines import DeadlinePolicy

    quick = DeadlinePolicy(turn_hours=2, open_hours=2, referee_hours=2, reminders=[], grace_hours=0)
    rep, sessions = game("sarcophagus", "table", ("ann", "ben", "cat"), policy=quick)
    run_duties(rep, sessions)
    late = mover(rep)
    first, second = others(rep, late)
    clock.advance(2 * HOUR)
    sessions[first].record_absence(late)
    text = rep.pending[0]
    clock.advance(HOUR)  # an hour ahead of that is within what a signed time may run ahead: still refused
    refused(rep, signed_at(sessions[first], {"action": text}, clock.now + HOUR - 1), NotOwed,
            f"{text}: {second} signs it next")
    clock.advance(HOUR)
    assert sessions[first].record_absence(late)[0].signers == (first,)
