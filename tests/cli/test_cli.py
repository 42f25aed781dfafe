"""The command line as a user runs it: exact output, exit codes, files left untouched on error."""

import json
import re

import pytest

from engine.sarcophagus.driver import FullInformation
from engine.sarcophagus.notation import parse_action
from engine.sarcophagus.rules import outcome
from engine.sarcophagus.state import Options
from pbem.cli import app
from pbem.record.gamefile import BEGIN
from pbem.record.models import from_json

from cli_support import LAYOUT, make_keys, new_game, pbem, runner, write_layout


def test_key_commands(home):
    result = pbem("key", "new", "ann", "--no-passphrase")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0] == f"Created key ann at {home / 'home' / 'keys' / 'ann'} (no passphrase)"
    assert lines[1] == "Your public key (send this line to the other players):"
    assert lines[2].startswith("ssh-ed25519 AAAA") and lines[2].endswith(" ann")
    assert (home / "home" / "keys" / "ann").stat().st_mode & 0o777 == 0o600
    assert pbem("key", "show", "ann").output == lines[2] + "\n"
    listed = pbem("key", "list").output
    assert listed.startswith("ann              SHA256:")
    again = pbem("key", "new", "ann", "--no-passphrase")
    assert again.exit_code == 1 and again.output.startswith("Error: a key named 'ann' already exists at ")


@pytest.mark.slow
def test_a_key_with_a_passphrase_needs_it(home, monkeypatch):
    monkeypatch.setenv("PBEM_PASSPHRASE", "correct horse")
    assert pbem("key", "new", "ann").exit_code == 0
    make_keys("ben")
    monkeypatch.delenv("PBEM_PASSPHRASE")
    result = pbem("new", "sarcophagus", "-o", "g.json", "--as", "ann", "--player", "ann", "--player", "ben")
    assert result.exit_code == 1
    assert result.output == ("Error: key ann has a passphrase: set PBEM_PASSPHRASE to it, or run on a terminal "
                             "to be asked\n")
    monkeypatch.setenv("PBEM_PASSPHRASE", "")
    result = pbem("new", "sarcophagus", "-o", "g.json", "--as", "ann", "--player", "ann", "--player", "ben")
    assert result.output == ("Error: key ann has a passphrase and PBEM_PASSPHRASE is empty: set PBEM_PASSPHRASE "
                             "to it, or run on a terminal to be asked\n")
    monkeypatch.setenv("PBEM_PASSPHRASE", "wrong")
    result = pbem("new", "sarcophagus", "-o", "g.json", "--as", "ann", "--player", "ann", "--player", "ben")
    assert result.output == "Error: wrong passphrase for key ann\n"
    assert not (home / "g.json").exists()
    monkeypatch.setenv("PBEM_PASSPHRASE", "correct horse")
    assert pbem("new", "sarcophagus", "-o", "g.json", "--as", "ann", "--player", "ann", "--player", "ben").exit_code == 0


def test_new_and_first_moves(home):
    result = new_game(home, join=False)
    assert result.output == (
        "Created game.json: Sarcophagus, ann, ben; table mode; deal chosen by ann; ben moves first.\n"
        "Next: ben (join: join the game (sign it and add randomness to the deal))\n"
    )
    early = pbem("play", "game.json", "--as", "ann", "3")
    assert (early.exit_code, early.output) == (1, "Error: the game has not started: waiting for ben to join the game "
                                                  "(if that was done already, this copy is old: git pull, or pbem "
                                                  "inbox)\n")
    result = pbem("play", "game.json", "--as", "ben", "3", "2@2a")
    assert result.exit_code == 0, result.output
    assert result.output == (
        "  ben joins the game\n"
        "  1a is sun-3\n"
        "  ben placed a coin on 1a (ben's 1st coin)\n"
        "  2a is moon-4\n"
        "  2b is arms-4\n"
        "  ben placed a coin on 2a (ben's 2nd coin)\n"
        "  3a is crown-2\n"
        "  3b is crown-ace\n"
        "Wrote game.json (entries 1-6).\n"
        "Next: ann (move: place a coin on 1a (forced))\n"
    )
    shown = json.loads(pbem("show", "game.json", "--as", "ben", "--json").output)
    assert shown["status"] == "playing"
    assert shown["duties"] == [{"who": "ann", "what": "move", "detail": "place a coin on 1a (forced)"}]
    assert [c["value"] for c in shown["pyramid"]["1a"]["coins"]] == [3]
    assert shown["pyramid"]["2a"]["tile"] == "moon-4" and shown["pyramid"]["3c"]["tile"] is None
    assert shown["hands"] == {"ann": 12, "ben": 10}
    assert shown["claimed"] == {"ann": [], "ben": []}
    assert pbem("verify", "game.json").output.endswith(" (deal chosen by ann: not shuffled jointly)\n")
    assert json.loads(pbem("show", "game.json", "--json").output)["deal"] == "deal chosen by ann"
    public = json.loads(pbem("show", "game.json", "--json").output)
    assert public["pyramid"]["1a"]["coins"][0]["value"] is None


@pytest.mark.parametrize("args,message", [
    (["play", "game.json", "--as", "ann", "3"], "Error: 3: not ann's turn: waiting for ben (if that "
     "was done already, this copy is old: git pull, or pbem inbox)\n"),
    (["play", "game.json", "--as", "ben", "7"], "Error: '7': a coin value is 0 to 5, not '7'\n"),
    (["play", "game.json", "--as", "ben", "3@2a"], "Error: 3@2a: the first coin of a turn goes on the forced tile 1a\n"),
    (["play", "game.json", "--as", "ben", "3", "4@2b", "3@2a"], "Error: 3@2a: not ben's turn: waiting for ann (if "
     "that was done already, this copy is old: git pull, or pbem inbox)\n"),
    (["play", "game.json", "--as", "ben", "--key", "home/keys/ann", "3"],
     "Error: this key is not ben's key in this game (expected SHA256:"),
    (["play", "nothing.json", "--as", "ben", "3"], "Error: no such file: nothing.json\n"),
    (["play", "game.json", "--as", "zed", "3"], "Error: --as zed: not in this game (participants: ann, ben)\n"),
])
def test_errors_are_one_line_and_leave_the_file_alone(home, args, message):
    new_game(home)
    before = (home / "game.json").read_bytes()
    result = pbem(*args)
    assert result.exit_code == 1
    assert result.output.startswith(message) and result.output.count("\n") == 1
    assert (home / "game.json").read_bytes() == before


def test_a_coin_you_do_not_hold(home):
    new_game(home, ("ann", "ben", "cat"))
    result = pbem("play", "game.json", "--as", "ben", "3", "3@2a")
    assert (result.exit_code, result.output) == (1, "Error: 3@2a: no coin of value 3 in your hand "
                                                    "(you hold 0, 1, 2, 4, 5)\n")


@pytest.mark.parametrize("content,message", [
    (b"", "Error: broken.json: file is empty\n"),
    (b"{not json", "Error: broken.json: not valid JSON (line 1, column 2: Expecting property name enclosed in "
                   "double quotes)\n"),
    (b'{"genesis": {"format": "pbem/7"}}', "Error: broken.json: unknown record format 'pbem/7' (this pbem reads "
                                           "'pbem/3')\n"),
])
def test_unreadable_files(home, content, message):
    make_keys("ann")
    (home / "broken.json").write_bytes(content)
    for command in (["verify"], ["show"], ["log"], ["play", "--as", "ann"]):
        result = pbem(command[0], "broken.json", *command[1:])
        assert (result.exit_code, result.output) == (1, message)
    assert (home / "broken.json").read_bytes() == content


def test_a_tampered_file_is_named_by_entry_and_author(home):
    new_game(home)
    pbem("play", "game.json", "--as", "ben", "3", "2@2a")
    data = json.loads((home / "game.json").read_text())
    data["entries"][2]["action"] = "@2b"
    (home / "game.json").write_text(json.dumps(data))
    result = pbem("verify", "game.json")
    assert (result.exit_code, result.output) == (1, "Error: game.json: entry 3 by ben: signature does not match\n")


def test_armored_games_survive_an_email_body(home):
    new_game(home)
    armored = pbem("armor", "game.json").output
    assert armored.startswith(BEGIN + "\n") and max(map(len, armored.splitlines())) <= 64
    mail = "From: ann\nSubject: your move\n\n" + "".join("> " + line + "\n" for line in armored.splitlines())
    (home / "mail.txt").write_text(mail)
    result = pbem("play", "mail.txt", "--as", "ben", "3", "2@2a")
    assert result.exit_code == 0, result.output
    assert (home / "mail.txt").read_text().startswith(BEGIN)  # written back armored, in place
    assert pbem("verify", "mail.txt").output.startswith("mail.txt: valid, in progress, 6 entries.")


@pytest.mark.slow
def test_a_four_player_game_driven_only_through_the_cli_follows_the_rules(home):
    players = ["ann", "ben", "cat", "dan"]
    new_game(home, players, first="cat")
    owed = _owed(pbem("show", "game.json").output)
    for _ in range(400):
        if owed is None:
            break
        who, _ = owed
        result = pbem("play", "game.json", "--as", "ann" if who == "dealer" else who, "--bot", "greedy")
        assert result.exit_code == 0, result.output
        owed = _owed(result.output)
    final = json.loads(pbem("show", "game.json", "--json").output)
    assert final["status"] == "finished"
    # Replay the same acts with the engine's full-information driver, values taken from the openings:
    record = from_json((home / "game.json").read_bytes())
    values = {}
    for entry in record.entries:
        if entry.action.startswith("open"):
            values.update(dict(parse_action(entry.action).values))
    engine_game = FullInformation(Options(), players, LAYOUT, "cat")
    for entry in record.entries:
        if entry.action == "join":
            continue
        action = parse_action(entry.action)
        if entry.action.startswith("@"):
            action = type(action)(action.pos, values[len(engine_game.state.slot_seat)])
        actor = {"reveal": "dealer"}.get(entry.action.split()[0])
        if actor is None and entry.action.startswith("open"):
            slot = action.values[0][0]
            actor = players[engine_game.state.slot_seat[slot]]
        engine_game.act(actor or _duty_holder(engine_game), action)
    result = outcome(engine_game.state)
    assert final["scores"] == result.scores and final["winners"] == list(result.winners)
    assert final["claimed"] == {p: [str(t) for t in engine_game.state.claimed[i]] for i, p in enumerate(players)}
    assert sum(map(len, final["claimed"].values())) >= 10


def _owed(output):
    """(who, what) of the next duty, from the last "Next:" line a command printed (the dealer at a table
    is "dealer"); None after "Game over:". Read there, not from a `show --json` each time, a whole game
    costs half the verifies."""
    last = [line for line in output.splitlines() if line.startswith(("Next: ", "Game over: "))][-1]
    if last.startswith("Game over: "):
        return None
    found = re.match(r"Next: (any player \(the table deals\)|\w+)(?:, \w+)* \((\w+): ", last)
    assert found, output
    return ("dealer" if found[1].startswith("any player") else found[1]), found[2]


def _duty_holder(game):
    from engine.sarcophagus.rules import duties

    return next(d.who for d in duties(game.state) if d.what in ("move", "discard"))


@pytest.mark.slow
def test_a_referee_mode_game(home):
    make_keys("ref")
    make_keys("ann", "ben")
    layout = write_layout(home / "layout.json", "ann")
    created = pbem("new", "sarcophagus", "-o", "game.json", "--as", "ref", "--player", "ann", "--player", "ben",
                   "--referee", "ref", "--layout", layout)
    assert created.output == ("Created game.json: Sarcophagus, ann, ben; referee mode (referee ref); deal chosen by ref; "
                              "ann moves first.\n"
                              "Next: ann (join: join the game (sign it and add randomness to the deal))\n")
    assert pbem("play", "game.json", "--as", "ann").output.splitlines()[-1] == \
        "Next: ben (join: join the game (sign it and add randomness to the deal))"
    assert pbem("play", "game.json", "--as", "ben").output.splitlines()[-1] == "Next: ref (reveal: turn up 1a)"
    assert pbem("referee", "game.json", "--as", "ref").output.splitlines()[0] == "  1a is sun-3"
    played = pbem("play", "game.json", "--as", "ann", "3")
    assert played.output.splitlines()[-1] == "Next: ref (reveal: turn up 2a, 2b)"
    waiting = pbem("play", "game.json", "--as", "ann", "1@2a")
    assert waiting.output == ("Error: 1@2a: not ann's turn: waiting for the referee ref (if that was done already, "
                              "this copy is old: git pull, or pbem inbox)\n")
    revealed = pbem("referee", "game.json", "--as", "ref")
    assert revealed.output == ("  2a is moon-4\n  2b is arms-4\nWrote game.json (entry 5).\n"
                               "Next: ann (move: place your second coin on any face-up tile with room)\n")
    assert pbem("referee", "game.json", "--as", "ann").output == "Error: ann is not the referee of this game\n"
    owed = _owed(revealed.output)
    for _ in range(400):
        if owed is None:
            break
        who, what = owed
        if who == "ref" or what == "open":
            result = pbem("referee", "game.json", "--as", "ref")
        else:
            result = pbem("play", "game.json", "--as", who, "--bot", "random")
        assert result.exit_code == 0, result.output
        owed = _owed(result.output)
    record = from_json((home / "game.json").read_bytes())
    assert {e.author for e in record.entries if e.action.startswith("reveal")} == {"ref"}
    assert {e.author for e in record.entries if e.action.startswith("open")} <= {"ref", "ann", "ben"}
    log = pbem("log", "game.json").output.splitlines()
    by_ref = [i for i, line in enumerate(log) if line[6:].startswith("ref      open ")]
    opened = re.compile(r"        ref opens (coins|a coin): (ann|ben)'s \d+(st|nd|rd|th) coin is a \d")
    assert by_ref and all(opened.match(log[i + 1]) for i in by_ref)
    assert pbem("verify", "game.json").output.startswith("game.json: valid, finished, ")


def test_the_referee_sees_every_coin_and_players_only_their_own(home):
    make_keys("ann", "ben", "ref")
    layout = write_layout(home / "layout.json", "ann")
    pbem("new", "sarcophagus", "-o", "game.json", "--as", "ref", "--player", "ann", "--player", "ben", "--referee",
         "ref", "--layout", layout)
    pbem("play", "game.json", "--as", "ann")
    pbem("play", "game.json", "--as", "ben")
    pbem("referee", "game.json", "--as", "ref")
    pbem("play", "game.json", "--as", "ann", "4")
    pbem("referee", "game.json", "--as", "ref")
    pbem("play", "game.json", "--as", "ann", "1@2a")
    pbem("referee", "game.json", "--as", "ref")

    def values(*who):
        shown = json.loads(pbem("show", "game.json", "--json", *who).output)
        return {pos: [c["value"] for c in spot["coins"]] for pos, spot in shown["pyramid"].items() if spot["coins"]}

    assert values("--as", "ref") == {"1a": [4], "2a": [1]}
    assert values("--as", "ann") == {"1a": [4], "2a": [1]}
    assert values("--as", "ben") == {"1a": [None], "2a": [None]}
    assert values() == {"1a": [None], "2a": [None]}


def test_a_joiner_drawn_second_has_his_join_written_and_his_moves_left(home):
    """Bob does not know who moves first until he joins: when the deal draws Alice, his join stays."""
    make_keys("ann", "ben")
    for _attempt in range(40):  # the joint deal draws ben first half the time: make games until it does not
        made = pbem("new", "sarcophagus", "-o", "g.json", "--as", "ann", "--player", "ann", "--player", "ben",
                    "--force")
        assert made.exit_code == 0, made.output
        result = pbem("play", "g.json", "--as", "ben", "3", "2@2a")
        if "ann moves first" in result.output:
            break
    else:
        raise AssertionError("the deal never drew ann first")
    lines = result.output.splitlines()
    assert result.exit_code == 3
    assert lines[:2] == ["  ben joins the game",
                         "  the hidden items are dealt (shuffled from the dealer's seed and every join); ann moves first"]
    assert lines[-3:] == ["Wrote g.json (entries 1-3).", "Next: ann (move: place a coin on 1a (forced))",
                          "Not played yet: 3 2@2a: ann must act first (move: place a coin on 1a (forced)). Send them "
                          "g.json, then run pbem play again."]


@pytest.mark.slow
def test_a_second_demo_in_the_same_folder_reuses_its_keys(home):
    keys = {"PBEM_HOME": str(home / "demo" / "home")}  # what a first demo in this folder left
    assert runner.invoke(app, ["key", "new", "ann", "--no-passphrase"], env=keys).exit_code == 0
    result = pbem("demo", "--dir", home / "demo", "--players", "2", "--quiet")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Finished after ")
