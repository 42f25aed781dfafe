"""Issue 22's cases in both games and both modes (docs/deadlines.md): an absent mover, three absent turns in a
row, a party who comes back before the absence is recorded, too early and not entitled, a referee that
never audits, and a referee that withholds a dealt card. Games are brought to the point through the library
every front end calls; what a participant then sees and does is typed at the CLI. Time is injected
(PBEM_NOW), never slept."""

import random

import pytest

from pbem.errors import UsageError
from pbem.protocol.bots import play_out
from pbem.protocol.verify import verify
from pbem.record.deadlines import HOUR
from pbem.record.models import GameFile, to_json

from absence_support import (
    ABSENT_AFTER,
    a_card_that_does_not_open,
    check_replays,
    game,
    install_key,
    mover,
    others,
    pbem,
    run_duties,
)

GAMES = ["sarcophagus", "path-of-pharaohs"]
MODES = ["table", "referee"]


def recorders(rep, late):
    return [rep.referee] if rep.referee else others(rep, late)


def players_for(name, mode):
    return ("ann", "ben") if name == "sarcophagus" and mode == "referee" else ("ann", "ben", "cat")


def step(rep, sessions, rng):
    """The player who owes a move or a choice makes one (a random bot)."""
    who = mover(rep)
    session = sessions[who]
    actions = list(rep.game.legal_actions(rep.state, who, session.knowledge()))
    session.act(rep.game.policy("random")(rep.state, who, actions, rng, None))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", GAMES)
def test_too_early_not_entitled_back_in_time_then_three_absent_turns_in_a_row_end_the_game(clock, name, mode):
    rep, sessions = game(name, mode, players_for(name, mode))
    run_duties(rep, sessions)
    late = mover(rep)
    stranger = others(rep, late)[0] if rep.referee else late
    clock.advance(ABSENT_AFTER - 1)
    with pytest.raises(UsageError, match=f"too early: {late} has owed a move since entry"):
        sessions[recorders(rep, late)[0]].record_absence(late)
    with pytest.raises(UsageError, match=f"{stranger} may not record {late} absent"):
        sessions[stranger].record_absence(late)
    clock.advance(1)
    step(rep, sessions, random.Random(0))  # back just in time: the move is theirs, and taken
    assert not rep.absences
    rng, strikes = random.Random(1), 0
    for _ in range(400):
        run_duties(rep, sessions, skip=(late,))
        if not rep.duties() or rep.duties()[0].what not in ("move", "discard", "open"):
            break
        duty = rep.duties()[0]
        if duty.who == late:
            clock.advance(ABSENT_AFTER)
            for recorder in recorders(rep, late):
                sessions[recorder].record_absence(late)
            strikes += duty.what == "move"
        elif duty.what == "open":
            sessions[duty.who].automatic()
        else:
            step(rep, sessions, rng)
    run_duties(rep, sessions, skip=(late,))
    assert strikes == 3 and rep.over and rep.verdict is None, (strikes, rep.duties(), rep.verdict, rep.strikes,
                                                               [str(e) for _, e in rep.events[-8:]])
    assert late not in rep.outcome().winners
    assert any("absent 3 turns in a row" in str(event) for _, event in rep.events)
    check_replays(rep)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.slow
def test_a_referee_that_never_audits_is_recorded_absent_by_the_players_no_winner(home, clock, name):
    rep, sessions = game(name, "referee", players_for(name, "referee"))
    play_out(sessions, "random", random.Random(4))
    assert rep.entries[-1].action == "audit"
    rep = verify(GameFile(genesis=rep.genesis, entries=rep.entries[:-1]))  # the same game, the audit never made
    assert rep.duties()[0].what == "audit" and rep.outcome() is not None  # the scores are known; not yet proven
    clock.advance(12 * HOUR + 24 * HOUR)
    (home / "game.json").write_text(to_json(rep.record))
    for player in rep.players:
        install_key(player)
    install_key("ref")
    status = pbem("status", "--games", ".").output.splitlines()[0]
    assert status.endswith(f"you (ref) to audit for 36 h LATE, may be recorded absent; you ({rep.players[0]}) may "
                           f"record ref absent: pbem absent {rep.genesis.game_id[:8]} ref --as {rep.players[0]}")
    for player in rep.players:  # the command as status wrote it: the game by its short id
        result = pbem("absent", rep.genesis.game_id[:8], "ref", "--as", player)
        assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1].startswith(
        f"Game over: VERDICT: ref forfeits: the referee was absent: it owed audit since entry {rep.began['ref']}, past its "
        "deadline and grace (recorded by every player); the game ends with no winner")
    verified = pbem("verify", "game.json")
    assert verified.exit_code == 0 and "Game over: VERDICT: ref forfeits" in verified.output


def test_a_referee_that_withholds_a_dealt_card_is_convicted_by_the_victim_never_shown_late(home, clock):
    rep, _, action, last = a_card_that_does_not_open()
    (home / "game.json").write_text(to_json(rep.record))
    victim = action.player
    install_key(victim)
    clock.advance(200 * HOUR)  # long past every deadline: the victim acts, whenever it is
    played = pbem("play", "game.json", "--as", victim)
    assert played.exit_code == 0, played.output
    assert played.output.splitlines()[0] == (
        f"  VERDICT: ref forfeits: {victim} says the card sealed to them as {last} does not open (the receiver's "
        f"word: nobody else can check it) (entry {rep.seq + 1}, signed by {victim})")
    status = pbem("status", "--games", ".").output.splitlines()[0]
    assert "finished: VERDICT: ref forfeits" in status and "LATE" not in status and "absent" not in status
    assert "Deadlines: nothing owed is on a clock." in pbem("show", "game.json").output.splitlines()
