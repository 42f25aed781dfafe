"""`pbem absent` and deadlines as a user types them (docs/deadlines.md): exact output and exit codes, the
clock injected through PBEM_NOW (no sleeps)."""

import shutil
import types

import pytest

from pbem.cli import app
from pbem.record.deadlines import HOUR
from pbem.record.models import from_json

from absence_support import T0, cli_game, pbem
from cli_support import make_keys, runner
from clock_support import clocked


@pytest.fixture
def clock(monkeypatch):
    def at(t: int) -> None:
        monkeypatch.setenv("PBEM_NOW", str(t))
    at(T0)
    return at


def test_a_late_player_is_recorded_absent_by_the_opponent_and_every_command_shows_it(home, clock):
    cli_game(home)
    genesis = from_json((home / "game.json").read_bytes()).genesis
    assert genesis.deadlines.turn_hours == 48 and genesis.deadlines.reminders == [12]
    clock(T0 + 40 * HOUR)
    shown = pbem("show", "game.json")
    assert "Deadlines: ben to move for 40 h, due in 8 h (reminder due)." in shown.output.splitlines()
    result = pbem("absent", "game.json", "ben", "--as", "ann")
    assert result.exit_code == 1
    assert result.output == ("Error: too early: ben has owed a move since entry 2 (48 h, then 24 h of grace): they "
                             "may be recorded absent in 32 h\n")
    clock(T0 + 60 * HOUR)
    status = pbem("status", "--games", ".")  # (it also reads layout.json, which is no game: a line of its own)
    assert status.output.splitlines()[0].endswith("#2  you (ben) to move for 2 days LATE")
    clock(T0 + 72 * HOUR)
    result = pbem("absent", "game.json", "ben", "--as", "ann")
    assert result.exit_code == 0, result.output
    assert result.output == ("  ben recorded absent (move owed since entry 2) at entry 3 by ann\n"
                             "  ben is recorded absent (move): passes\n"
                             "Wrote game.json (entry 3).\n"
                             "Next: ann (move: place a coin on 1a (forced))\n")
    verified = pbem("verify", "game.json")
    assert verified.exit_code == 0
    assert verified.output.splitlines()[1] == (f"  absence: ben recorded absent (move owed since entry 2) at entry 3 "
                                               f"by ann; signed at {T0 + 72 * HOUR}, the deadline was "
                                               f"{T0 + 48 * HOUR}, 24 h of grace (the signed times agree with the "
                                               "policy)")
    assert "ben is recorded absent (move): passes" in pbem("log", "game.json").output
    assert ("Absent: ben recorded absent (move owed since entry 2) at entry 3 by ann."
            in pbem("show", "game.json").output.splitlines())
    assert pbem("html", "game.json").exit_code == 0
    assert "ben is recorded absent (move): passes" in (home / "game.html").read_text()


def test_who_may_not_record_an_absence_is_refused_and_nothing_is_written(home, clock):
    cli_game(home, players=("ann", "ben", "cat"), referee=True)
    before = (home / "game.json").read_bytes()
    clock(T0 + 100 * HOUR)
    result = pbem("absent", "game.json", "ben", "--as", "cat")
    assert (result.exit_code, result.output) == (1, "Error: cat may not record ben absent: only ref may\n")
    result = pbem("absent", "game.json", "cat", "--as", "ref")
    assert (result.exit_code, result.output) == (1, "Error: cat owes nothing that an absence can be recorded "
                                                    "for now\n")
    assert (home / "game.json").read_bytes() == before
    result = pbem("absent", "game.json", "ben", "--as", "ref")
    assert result.exit_code == 0 and "ben is recorded absent (move): passes" in result.output


def test_an_absent_player_who_comes_back_first_plays_on(home, clock):
    cli_game(home)
    clock(T0 + 80 * HOUR)
    assert pbem("play", "game.json", "--as", "ben", "3").exit_code in (0, 3)
    result = pbem("absent", "game.json", "ben", "--as", "ann")
    assert result.exit_code == 1 and result.output.startswith("Error: ")


def test_a_game_without_deadlines_has_no_absences(home, clock):
    cli_game(home, policy="default")
    make_keys("cat")
    bad = pbem("new", "sarcophagus", "-o", "g.json", "--as", "cat", "--player", "cat", "--player", "ann",
               "--deadlines", "turn=0")
    assert (bad.exit_code, bad.output) == (1, "Error: --deadlines 'turn=0': Input should be greater than or equal "
                                              "to 1\n")
    bad = pbem("new", "sarcophagus", "-o", "g.json", "--as", "cat", "--player", "cat", "--player", "ann",
               "--deadlines", "soon")
    assert bad.exit_code == 1 and bad.output.startswith("Error: --deadlines 'soon': write 'default' or KEY=HOURS")
    plain = pbem("new", "sarcophagus", "-o", "g.json", "--as", "cat", "--player", "cat", "--player", "ann")
    assert plain.exit_code == 0
    assert "deadlines" not in (home / "g.json").read_text()
    assert pbem("play", "g.json", "--as", "ann").exit_code in (0, 3)
    clock(T0 + 1000 * HOUR)
    owing = "ann" if "ann (move" in pbem("show", "g.json").output else "cat"
    other = "cat" if owing == "ann" else "ann"
    result = pbem("absent", "g.json", owing, "--as", other)
    assert (result.exit_code, result.output) == (1, "Error: this game has no deadline policy: nobody can be "
                                                    "recorded absent\n")


TO_A_TIE = [("ann", "3", "5@1a"), ("ben", "0", "0@2a"), ("ann", "4", "5@2a"), ("ben", "1", "1@2b"),
            ("ann", "4", "3@2b")]
"""At a table, on the fixed layout: ann claims sun-3, then ann and ben tie on 2a with 2 coins each; ann's
program opens hers, ben must open his (and ann's 3@2b waits for it)."""


@pytest.mark.slow
def test_at_a_table_a_player_who_will_not_open_for_a_tie_break_loses_it(home, clock, monkeypatch):
    cli_game(home, first="ann")
    for turn in TO_A_TIE:
        assert pbem("play", "game.json", "--as", *turn).exit_code in (0, 3)
    since = from_json((home / "game.json").read_bytes()).entries[-1].seq
    clock(T0 + 47 * HOUR)
    result = pbem("absent", "game.json", "ben", "--as", "ann")
    assert (result.exit_code, result.output) == (1, f"Error: too early: ben has owed an open since entry {since} "
                                                    "(24 h, then 24 h of grace): they may be recorded absent in 1 h\n")
    clock(T0 + 48 * HOUR)
    status = pbem("status", "--games", ".")
    short = from_json((home / "game.json").read_bytes()).genesis.game_id[:8]  # status names a game by its short id
    assert status.output.splitlines()[0].endswith(
        "#15  you (ben) to open for 2 days LATE, may be recorded absent; you (ann) may record ben absent: "
        f"pbem absent {short} ben --as ann")
    monkeypatch.setenv("PBEM_HOME", str(home / "ann-home"))  # ann's machine: her key alone
    (home / "ann-home").mkdir()
    shutil.copytree(home / "home" / "keys", home / "ann-home" / "keys", ignore=shutil.ignore_patterns("ben*"))
    assert pbem("show", "game.json").output.splitlines()[-2:] == [
        "Deadlines: ben to open for 2 days LATE, may be recorded absent.",
        "You may record ben absent (ann): pbem absent game.json ben --as ann"]
    offered = pbem("play", "game.json", "--as", "ann")
    assert (offered.exit_code, offered.output) == (0, (
        "Nothing written: ann owes nothing now.\n"
        "Next: ben (open: open your coins on 2a for the tie-break)\n"
        f"ben may be recorded absent now (open owed since entry {since}, past its deadline and grace): "
        "pbem absent game.json ben --as ann\n"))
    result = pbem("absent", "game.json", "ben", "--as", "ann")
    assert (result.exit_code, result.output) == (0, (
        f"  ben recorded absent (open owed since entry {since}) at entry {since + 1} by ann\n"
        "  ben is recorded absent (open): loses the tie-break on 2a: 2 coins go back unopened\n"
        "  ann claims moon-4 from 2a\n"
        f"Wrote game.json (entry {since + 1}).\n"
        "Next: ann (move: place your second coin on any face-up tile with room)\n"))
    assert pbem("play", "game.json", "--as", "ann", "3@2b").exit_code == 0  # the game goes on
    assert pbem("verify", "game.json").exit_code == 0
    assert "ben is recorded absent (open): loses the tie-break on 2a" in pbem("log", "game.json").output


def test_in_referee_mode_a_tie_break_nobody_opens_is_the_referees_absence(home, clock):
    """The referee holds every opening, so status puts the tie-break on its clock, not on the tied players';
    if it never opens, the players record it absent and the game ends with no winner, the referee blamed."""
    cli_game(home, first="ann", referee=True)
    for turn in [("play", "ann", "3"), ("referee", "ref"), ("play", "ann", "1@1a"), ("play", "ben", "2", "0@1a")]:
        assert pbem(turn[0], "game.json", "--as", *turn[1:]).exit_code == 0
    clock(T0 + 6 * HOUR)
    assert "Deadlines: ref to open for 6 h, due in 6 h." in pbem("show", "game.json").output.splitlines()
    clock(T0 + 36 * HOUR)
    status = pbem("status", "--games", ".")
    short = from_json((home / "game.json").read_bytes()).genesis.game_id[:8]  # status names a game by its short id
    assert status.output.splitlines()[0].endswith(
        "#8  you (ref) to open for 36 h LATE, may be recorded absent; you (ann) may record ref absent: "
        f"pbem absent {short} ref --as ann")
    result = pbem("absent", "game.json", "ann", "--as", "ref")
    assert (result.exit_code, result.output) == (1, "Error: ann owes nothing that an absence can be recorded "
                                                    "for now\n")
    result = pbem("absent", "game.json", "ref", "--as", "ben")
    assert (result.exit_code, result.output) == (1, "Error: ann signs ref's absence first\n")
    offered = pbem("play", "game.json", "--as", "ann")  # ann's program opens her own coins, and offers the rest
    assert (offered.exit_code, offered.output) == (0, (
        "  ann opens coins: ann's 1st coin is a 3, ann's 2nd coin is a 1\n"
        "Wrote game.json (entry 9).\n"
        "Next: ref (open: open the tied coins on 1a for the tie-break)\n"
        "ref may be recorded absent now (open owed since entry 8, past its deadline and grace): "
        "pbem absent game.json ref --as ann\n"))
    result = pbem("absent", "game.json", "ref", "--as", "ann")
    assert result.output.splitlines()[0] == "  ann records ref absent; it takes effect when ben signs it too"
    result = pbem("absent", "game.json", "ref", "--as", "ben")
    assert result.exit_code == 0
    assert result.output.splitlines()[-1] == (
        "Game over: VERDICT: ref forfeits: the referee was absent: it owed open since entry 8, past its deadline "
        "and grace (recorded by every player); the game ends with no winner (entry 11, signed by ben)")
    verified = pbem("verify", "game.json")
    assert verified.exit_code == 0 and "absence: ref recorded absent (open owed since entry 8) at entry 11 by ann " \
                                       "and ben" in verified.output


def test_play_on_a_terminal_asks_whether_to_record_an_absence_once_the_grace_has_passed(home, clock, monkeypatch):
    cli_game(home)
    clock(T0 + 72 * HOUR)
    terminal = types.SimpleNamespace(stdin=types.SimpleNamespace(isatty=lambda: True))
    monkeypatch.setattr("pbem.cli.turns.sys", terminal)  # play sees a terminal; the answers come from `input`
    declined = pbem_input("n\n", "play", "game.json", "--as", "ann")
    assert declined.output.splitlines()[-1] == "Record ben absent now? [y/N]: n"
    assert len(from_json((home / "game.json").read_bytes()).entries) == 2
    accepted = pbem_input("y\n", "play", "game.json", "--as", "ann")
    assert (accepted.exit_code, accepted.output) == (0, (
        "Nothing written: ann owes nothing now.\n"
        "Next: ben (move: place a coin on 1a (forced))\n"
        "ben may be recorded absent now (move owed since entry 2, past its deadline and grace): "
        "pbem absent game.json ben --as ann\n"
        "Record ben absent now? [y/N]: y\n"
        "  ben recorded absent (move owed since entry 2) at entry 3 by ann\n"
        "  ben is recorded absent (move): passes\n"
        "Wrote game.json (entry 3).\n"
        "Next: ann (move: place a coin on 1a (forced))\n"))


def pbem_input(typed, *args):
    return clocked(runner.invoke(app, [str(a) for a in args], input=typed))


@pytest.mark.parametrize("game", ["sarcophagus", "path-of-pharaohs"])
def test_a_referee_that_never_deals_is_recorded_absent_by_every_player_and_blamed(home, clock, game):
    players = ("ann", "ben") if game == "sarcophagus" else ("ann", "ben", "cat")
    make_keys(*players, "ref")
    made = pbem("new", game, "-o", "game.json", "--as", "ref", *[a for p in players for a in ("--player", p)],
                "--referee", "ref", "--deadlines", "default")
    assert made.exit_code == 0, made.output
    for player in players:
        assert pbem("play", "game.json", "--as", player).exit_code == 0
    joined = len(players)
    clock(T0 + 35 * HOUR)
    result = pbem("absent", "game.json", "ref", "--as", "ann")
    assert (result.exit_code, result.output) == (1, f"Error: too early: ref has owed a deal since entry {joined} (12 "
                                                    "h, then 24 h of grace): they may be recorded absent in 1 h\n")
    clock(T0 + 36 * HOUR)
    assert "you (ref) to deal for 36 h LATE, may be recorded absent; you (ann) may record ref absent" in \
        pbem("status", "--games", ".").output
    for player in players:
        result = pbem("absent", "game.json", "ref", "--as", player)
    assert (result.exit_code, result.output.splitlines()[-1]) == (0, (
        f"Game over: VERDICT: ref forfeits: the referee was absent: it owed deal since entry {joined}, past its "
        f"deadline and grace (recorded by every player); the game ends with no winner (entry {2 * joined}, signed "
        f"by {players[-1]})"))
    assert pbem("verify", "game.json").exit_code == 0
