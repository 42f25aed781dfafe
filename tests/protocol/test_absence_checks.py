"""What verify re-checks of an absence that a signer could lie about (docs/deadlines.md, docs/security.md):
the lowest cards of a hand nobody else sees, and signed times in the future. The cheaters here have their
own valid keys; the game is brought to the point by the library every front end calls, and what a user
sees is read through the CLI as they type it. Time is injected (PBEM_NOW), never slept."""

import random

import pytest

from pbem.crypto.keyring import load_identity
from pbem.errors import BadOpening, IllegalMove
from pbem.protocol.entries import apply_entry
from pbem.protocol.session import Session
from pbem.protocol.verify import verify
from pbem.record.models import from_json, to_json

from absence_support import (
    ABSENT_AFTER,
    T0,
    check_replays,
    cli_game,
    false_discard,
    install_key,
    mover,
    others,
    pbem,
    run_duties,
    signed_at,
    to_a_discard,
)


def play_to_the_end(rep, sessions, late, clock, skip=()):
    """The others play (random bots), `late` is recorded absent at every duty until three turns in a row end
    the game; everyone's program does what needs no decision, but those of `skip`."""
    rng = random.Random(2)
    for _ in range(300):
        run_duties(rep, sessions, skip=(late, *skip))
        if not rep.duties() or rep.duties()[0].what not in ("move", "discard"):
            return
        who = mover(rep)
        if who == late:
            clock.advance(ABSENT_AFTER)
            for name in ([rep.referee] if rep.referee else others(rep, late)):
                sessions[name].record_absence(late)
        else:
            session = sessions[who]
            actions = list(rep.game.legal_actions(rep.state, who, session.knowledge()))
            session.act(rep.game.policy("random")(rep.state, who, actions, rng, None))


def test_a_referee_that_discards_an_absent_players_higher_cards_is_convicted_when_its_seed_opens(home, clock):
    rep, sessions, late = to_a_discard(clock, "referee")
    ref = sessions["ref"]
    action, openings = false_discard(rep, ref, late)
    lowest = rep.game.format_action(rep.game.absence_act(rep.state, late, ref.knowledge(as_dealer=True)))
    clock.advance(ABSENT_AFTER)
    false_seq = rep.seq + 1
    apply_entry(rep, ref.sign({"action": f"absent {late} discard since={rep.began[late]} do {action}",
                               "openings": openings}))  # the kind and the count are right: it is taken
    (home / "game.json").write_text(to_json(rep.record))
    shown = pbem("verify", "game.json")
    assert shown.exit_code == 0
    assert shown.output.splitlines()[-1] == ("    that its cards are the lowest of the hand is checked when the "
                                            "dealer's seed opens (the end audit)")
    play_to_the_end(rep, sessions, late, clock)  # the referee's program opens its seed at the end audit
    assert rep.verdict is not None and rep.verdict.against == "ref" and rep.outcome() is None
    check_replays(rep)
    (home / "game.json").write_text(to_json(rep.record))
    shown = pbem("verify", "game.json")
    assert shown.exit_code == 0
    assert shown.output.splitlines()[0] == (
        f"game.json: valid, finished, {rep.seq} entries. Game over: VERDICT: ref forfeits: signed {late}'s absence "
        f"(from entry {false_seq}) with the act '{action}', but the dealer's committed seed shows {late}'s lowest "
        f"cards then gave '{lowest}' (entry {rep.seq}, signed by ref)")


def test_players_at_a_table_who_discard_an_absent_players_higher_cards_are_convicted_by_the_victim(home, clock):
    rep, sessions, late = to_a_discard(clock, "table")
    first, second = others(rep, late)
    action, openings = false_discard(rep, sessions[first], late)
    clock.advance(ABSENT_AFTER)
    text = f"absent {late} discard since={rep.began[late]} do {action}"
    apply_entry(rep, sessions[first].sign({"action": text}))
    apply_entry(rep, sessions[second].sign({"action": text, "openings": openings}))
    assert rep.absences[-1].signers == (first, second) and rep.verdict is None
    (home / "game.json").write_text(to_json(rep.record))
    install_key(late)
    back = pbem("play", "game.json", "--as", late)  # the victim's program holds the table's seed: it proves it
    assert back.exit_code == 0, back.output
    verdict = (f"VERDICT: {first} and {second} forfeit: signed {late}'s absence (from entry {rep.seq - 1}) with "
               f"the act '{action}', but the dealer's committed seed shows {late}'s lowest cards then gave")
    assert back.output.startswith(f"  {verdict}")
    shown = pbem("verify", "game.json")
    assert shown.exit_code == 0 and f"Game over: {verdict}" in shown.output.splitlines()[0]


def test_an_absent_players_lowest_cards_pass_the_end_audit(home, clock):
    rep, sessions, late = to_a_discard(clock, "referee")
    clock.advance(ABSENT_AFTER)
    sessions["ref"].record_absence(late)  # the referee's program: the lowest cards, as the rule says
    play_to_the_end(rep, sessions, late, clock)
    assert rep.verdict is None and rep.over and rep.seed is not None
    check_replays(rep)
    (home / "game.json").write_text(to_json(rep.record))
    shown = pbem("verify", "game.json").output.splitlines()
    assert shown.count("    its cards are the lowest of the hand, by the dealer's opened seed") >= 1


# ---------------------------------------------------------------- signed times in the future

@pytest.mark.parametrize("referee", [False, True], ids=["lone-opponent", "referee"])
def test_an_absence_dated_forward_is_refused_by_every_program_whose_clock_is_earlier(home, clock, referee):
    players = ("ann", "ben", "cat") if referee else ("ann", "ben")
    cli_game(home, players=players, referee=referee)
    cheat = "ref" if referee else "ann"
    clock.set(T0 + ABSENT_AFTER)  # the cheater's own program, its clock set 3 days forward
    assert pbem("absent", "game.json", "ben", "--as", cheat).exit_code == 0
    entry = 3 if not referee else 5
    clock.set(T0 + 3600)  # everyone else's clock: an hour after ben's duty began
    refused = (f"game.json: entry {entry} by {cheat}: its signed time ({T0 + ABSENT_AFTER}) is 2 days ahead of this "
               f"program's clock ({T0 + 3600}): a time in the future is refused (more than 1 h ahead) until that "
               "time comes")
    shown = pbem("verify", "game.json")
    assert (shown.exit_code, shown.output) == (1, f"Error: {refused}\n")
    back = pbem("play", "game.json", "--as", "ben", "3")
    assert back.exit_code == 1 and back.output.startswith("Error: ") and "2 days ahead" in back.output
    clock.set(T0 + ABSENT_AFTER - 3600)  # within the hour honest clocks may differ by: taken
    assert pbem("verify", "game.json").exit_code == 0
    record = from_json((home / "game.json").read_bytes())
    rep = verify(record)
    nxt = mover(rep)
    early = signed_at(Session(rep, nxt, load_identity(nxt)), {"action": "3"}, T0 + ABSENT_AFTER - 1)  # before it
    with pytest.raises(IllegalMove, match=f"its signed time \\({T0 + ABSENT_AFTER - 1}\\) is earlier than the "
                                          f"entry before it \\({T0 + ABSENT_AFTER}\\)"):
        apply_entry(rep, early)
    assert pbem("play", "game.json", "--as", nxt, "3").exit_code in (0, 3)  # an honest program: never earlier
    assert from_json((home / "game.json").read_bytes()).entries[entry].time == T0 + ABSENT_AFTER



def test_a_false_discard_a_co_signer_will_not_sign_is_proven_by_their_program_before_it_takes_effect(home, clock):
    rep, sessions, late = to_a_discard(clock, "table")
    first, second = others(rep, late)
    action, _ = false_discard(rep, sessions[first], late)
    clock.advance(ABSENT_AFTER)
    text = f"absent {late} discard since={rep.began[late]} do {action}"
    apply_entry(rep, sessions[first].sign({"action": text}))  # the first signer's false claim: not yet in effect
    (home / "game.json").write_text(to_json(rep.record))
    install_key(second)
    refused = pbem("absent", "game.json", late, "--as", second)
    assert refused.exit_code == 1
    assert refused.output.startswith(f"Error: {first} signed {late}'s absence as '{text}', but the rule gives "
                                     f"'absent {late} discard since={rep.began[late]} do discard ")
    assert refused.output.endswith("': this program does not sign it (pbem play proves it false)\n")
    proven = pbem("play", "game.json", "--as", second)
    assert proven.exit_code == 0, proven.output
    assert proven.output.startswith(f"  VERDICT: {first} forfeits: signed {late}'s absence (from entry {rep.seq}) "
                                    f"with the act '{action}', but the dealer's committed seed shows")
    lines = proven.output.splitlines()
    assert lines[0].endswith(f"(entry {rep.seq + 1}, signed by {second})")
    assert lines[1:] == [f"Wrote game.json (entry {rep.seq + 1}).", f"Game over: {lines[0].strip()}"]


def test_the_absent_player_proves_a_referees_false_discard_at_once_by_opening_the_cards_they_held(home, clock):
    rep, sessions, late = to_a_discard(clock, "referee")
    ref = sessions["ref"]
    action, openings = false_discard(rep, ref, late)
    lowest = rep.game.format_action(rep.game.absence_act(rep.state, late, ref.knowledge(as_dealer=True)))
    clock.advance(ABSENT_AFTER)
    apply_entry(rep, ref.sign({"action": f"absent {late} discard since={rep.began[late]} do {action}",
                               "openings": openings}))
    (home / "game.json").write_text(to_json(rep.record))
    install_key(late)
    back = pbem("play", "game.json", "--as", late)  # their program reads their hand: it opens it as proof
    assert back.exit_code == 0, back.output
    verdict = (f"VERDICT: ref forfeits: signed {late}'s absence (from entry {rep.seq}) with the act '{action}', but "
               f"{late}'s cards, opened, show their lowest cards then gave '{lowest}' (entry {rep.seq + 1}, signed "
               f"by {late})")
    assert back.output.splitlines() == [f"  {verdict}", f"Wrote game.json (entry {rep.seq + 1}).",
                                        f"Game over: {verdict}"]
    proven = from_json((home / "game.json").read_bytes()).entries[-1]
    assert proven.action.startswith("verdict lowest #") and set(proven.openings) == {
        key for key, _ in (pair.split("=") for pair in proven.action.split()[2:])}
    assert pbem("verify", "game.json").output.splitlines()[0].endswith(f"Game over: {verdict}")


def test_an_absent_player_cannot_convict_an_honest_discard_by_opening_their_cards(clock):
    rep, sessions, late = to_a_discard(clock, "referee")
    clock.advance(ABSENT_AFTER)
    sessions["ref"].record_absence(late)  # the lowest cards, as the rule says
    victim = sessions[late]
    hand = rep.seeded[-1].context[2]
    kept = [key for key in hand if rep.items[key].value is None]
    values = {key: victim.known()[key] for key in kept}
    salts = {key: victim._open_item(key)[1] for key in kept}
    text = "verdict lowest " + " ".join(f"{key}={values[key]}" for key in kept)
    with pytest.raises(IllegalMove, match=f"these cards prove no absent discard recorded for {late} false"):
        apply_entry(rep, victim.sign({"action": text, "openings": salts}))
    wrong = {**salts, kept[0]: "00" * 32}
    with pytest.raises(BadOpening, match=f"{kept[0]}={values[kept[0]]} does not match the card the dealer committed"):
        apply_entry(rep, victim.sign({"action": text, "openings": wrong}))
    victim.automatic()  # an honest program finds nothing to prove
    assert rep.verdict is None
