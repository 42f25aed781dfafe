"""`pbem absent` and deadlines as a user types them (docs/deadlines.md): exact output and exit codes, the
clock injected through PBEM_NOW (no sleeps)."""

import pytest
from typer.testing import CliRunner

from pbem.cli import app
from pbem.record.models import from_json

from test_cli import make_keys, write_layout

runner = CliRunner()
T0 = 1_800_000_000
HOUR = 3600
POLICY = "turn=48,open=24,referee=12,grace=24,remind=12"


def pbem(*args):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture
def clock(monkeypatch):
    def at(t: int) -> None:
        monkeypatch.setenv("PBEM_NOW", str(t))
    at(T0)
    return at


def new_game(home, players=("ann", "ben"), first="ben", referee=False, policy=POLICY):
    make_keys(*players, *(["ref"] if referee else []))
    layout = write_layout(home / "layout.json", first)
    creator = "ref" if referee else players[0]
    args = ["new", "sarcophagus", "-o", "game.json", "--as", creator, "--layout", layout, "--deadlines", policy]
    args += [arg for p in players for arg in ("--player", p)] + (["--referee", "ref"] if referee else [])
    result = pbem(*args)
    assert result.exit_code == 0, result.output
    for p in players:
        if p != creator:
            assert pbem("play", "game.json", "--as", p).exit_code in (0, 3)
    if referee:
        assert pbem("referee", "game.json", "--as", "ref").exit_code == 0


def test_a_late_player_is_recorded_absent_by_the_opponent_and_every_command_shows_it(home, clock):
    new_game(home)
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
    new_game(home, players=("ann", "ben", "cat"), referee=True)
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
    new_game(home)
    clock(T0 + 80 * HOUR)
    assert pbem("play", "game.json", "--as", "ben", "3").exit_code in (0, 3)
    result = pbem("absent", "game.json", "ben", "--as", "ann")
    assert result.exit_code == 1 and result.output.startswith("Error: ")


def test_a_game_without_deadlines_has_no_absences(home, clock):
    new_game(home, policy="default")
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
