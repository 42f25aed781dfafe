"""A newcomer's first hour (issue 15): each rough edge run as the user ran it, with the exact message
and exit code."""

import json
import os
import pty
import shutil
import signal
import subprocess
import sys
import time

import pytest

from cli_support import new_game, pbem, read_until, write_layout
from engine_support import layout_with


@pytest.fixture
def refereed(home):
    """A referee-mode game between ann (first) and ben, refereed by ref, on the fixed layout
    (1a sun-3, 2a moon-4, 2b arms-4)."""
    for name in ("ann", "ben", "ref"):
        assert pbem("key", "new", name, "--no-passphrase").exit_code == 0
    layout = write_layout(home / "layout.json", "ann")
    created = pbem("new", "sarcophagus", "-o", "game.json", "--as", "ref", "--player", "ann", "--player", "ben",
                   "--referee", "ref", "--layout", layout)
    assert created.exit_code == 0, created.output
    for name in ("ann", "ben"):  # each joins; then the referee turns up the apex
        assert pbem("play", "game.json", "--as", name).exit_code == 0
    assert pbem("referee", "game.json", "--as", "ref").exit_code == 0
    return home


def test_the_referee_settles_a_tie_break_and_the_report_names_who_signed(refereed):
    pbem("play", "game.json", "--as", "ann", "3")
    pbem("referee", "game.json", "--as", "ref")
    pbem("play", "game.json", "--as", "ann", "1@1a")
    tied = pbem("play", "game.json", "--as", "ben", "2", "0@1a")
    assert tied.output.splitlines()[-1] == "Next: ref (open: open the tied coins on 1a for the tie-break)"
    settled = pbem("referee", "game.json", "--as", "ref")
    opened = ("ref opens coins: ann's 1st coin is a 3, ann's 2nd coin is a 1, ben's 1st coin is a 2, ben's 2nd coin "
              "is a 0")
    assert settled.output.splitlines()[0] == "  " + opened
    assert "        " + opened in pbem("log", "game.json").output.splitlines()


def test_a_two_coin_turn_in_referee_mode_writes_the_first_coin_and_says_who_must_act(refereed):
    result = pbem("play", "game.json", "--as", "ann", "3", "1@1a")
    assert (result.exit_code, result.output) == (3, (
        "  ann placed a coin on 1a (ann's 1st coin)\n"
        "Wrote game.json (entry 4).\n"
        "Next: ref (reveal: turn up 2a, 2b)\n"
        "Not played yet: 1@1a: the referee ref must act first (reveal: turn up 2a, 2b). Send them game.json, "
        "then run pbem play again.\n"))
    assert pbem("verify", "game.json").output.startswith("game.json: valid, in progress, 4 entries.")
    pbem("referee", "game.json", "--as", "ref")
    assert pbem("play", "game.json", "--as", "ann", "1@1a").exit_code == 0


def test_play_without_moves_off_a_terminal_says_what_is_owed(refereed):
    before = (refereed / "game.json").read_bytes()
    result = pbem("play", "game.json", "--as", "ann")
    assert (result.exit_code, result.output) == (1, (
        "Error: ann owes a move now (place a coin on 1a (forced)): give it on the command line, e.g. "
        "'pbem play game.json --as ann 0@1a', or run pbem play on a terminal to be asked, or add --bot greedy\n"))
    result = pbem("play", "game.json", "--as", "ben")
    assert (result.exit_code, result.output) == (0, (
        "Nothing written: ben owes nothing now.\n"
        "Next: ann (move: place a coin on 1a (forced))\n"))
    assert (refereed / "game.json").read_bytes() == before


def test_a_trap_is_answered_as_documented(home, monkeypatch):
    for name in ("ann", "ben"):
        pbem("key", "new", name, "--no-passphrase")
    layout = layout_with({"1a": "sun-3", "2a": "moon-4", "2b": "arms-null"}).to_names()
    (home / "layout.json").write_text(json.dumps({**layout, "first": "ann"}))
    pbem("new", "sarcophagus", "-o", "g.json", "--as", "ann", "--player", "ann", "--player", "ben", "--layout",
         "layout.json")
    assert pbem("play", "g.json", "--as", "ben").exit_code == 0  # ben joins; ann moves first
    turns = [("ann", "3", "5@1a"), ("ben", "0", "0@2a"), ("ann", "4", "5@2a"), ("ben", "1", "1@2b"),
             ("ann", "4", "3@2b")]  # ann claims sun-3; then ties on 2a, and must wait for ben's opening
    results = [pbem("play", "g.json", "--as", *turn) for turn in turns]
    assert [r.exit_code for r in results] == [0, 0, 0, 0, 3]
    assert results[-1].output.splitlines()[-1] == (
        "Not played yet: 3@2b: ben must act first (open: open your coins on 2a for the tie-break). Send them "
        "g.json, then run pbem play again.")
    for turn in [("ben",), ("ann", "3@2b"), ("ben", "2", "2@3a"), ("ann", "2"), ("ben",)]:
        assert pbem("play", "g.json", "--as", *turn).exit_code == 0  # ann wins the tie on 2b: arms-null
    assert pbem("show", "g.json").output.splitlines()[-2:] == ["Next: ann (discard: discard a number tile to the trap)",
                                                               "Your turn (ann): pbem play g.json --as ann"]
    assert pbem("play", "g.json", "--as", "ann", "discard").output == (
        "Error: 'discard': name the one tile you give up, e.g. discard moon-4\n")
    assert pbem("play", "g.json", "--as", "ann", "sun-5").output == (
        "Error: discard sun-5: choose one of your number tiles: sun-3, moon-4\n")
    shutil.copytree(home / "home" / "keys", home / "other" / "keys")
    shutil.copy(home / "g.json", home / "h.json")
    answered = pbem("play", "g.json", "--as", "ann", "discard", "moon-4")  # her turn's second coin still owed: 3
    assert answered.exit_code == 3 and answered.output.startswith("  ann discards moon-4 to the trap\n")
    monkeypatch.setenv("PBEM_HOME", str(home / "other"))  # a second copy, answered with the tile alone
    answered = pbem("play", "h.json", "--as", "ann", "sun-3")
    assert answered.exit_code == 3 and answered.output.startswith("  ann discards sun-3 to the trap\n")


def test_a_rewrite_keeps_the_file_mode_and_writes_through_a_symlink(home):
    new_game(home)
    (home / "games").mkdir()
    (home / "game.json").rename(home / "games" / "real.json")
    (home / "games" / "real.json").chmod(0o600)
    (home / "game.json").symlink_to(home / "games" / "real.json")
    assert pbem("play", "game.json", "--as", "ben", "3", "2@2a").exit_code == 0
    assert (home / "game.json").is_symlink()
    assert (home / "games" / "real.json").stat().st_mode & 0o777 == 0o600
    assert pbem("verify", "games/real.json").output.startswith("games/real.json: valid, in progress, 6 entries.")


def test_writing_into_a_missing_folder_names_the_folder(home):
    new_game(home)
    result = pbem("play", "game.json", "--as", "ben", "3", "-o", "nodir/x.json")
    assert (result.exit_code, result.output) == (1, "Error: cannot write nodir/x.json: the folder nodir does not "
                                                    "exist\n")


def test_dearmor_reverses_armor_and_an_output_named_json_is_json(home):
    new_game(home)
    plain = (home / "game.json").read_text()
    assert pbem("armor", "game.json", "-o", "mail.txt").output == "Wrote mail.txt.\n"
    assert pbem("dearmor", "mail.txt").output == plain
    assert pbem("dearmor", "mail.txt", "-o", "back.json").output == "Wrote back.json.\n"
    assert (home / "back.json").read_text() == plain
    assert pbem("play", "mail.txt", "--as", "ben", "3", "-o", "next.json").exit_code == 3  # the first coin: the turn goes on
    assert (home / "next.json").read_text().startswith("{\n")
    assert pbem("play", "next.json", "--as", "ben", "2@2a", "-o", "next.txt").exit_code == 0
    assert (home / "next.txt").read_text().startswith("{\n")  # read as JSON, written as JSON


def test_a_file_with_a_byte_order_mark_is_read(home):
    new_game(home, join=False)
    pbem("play", "game.json", "--as", "ben")  # ben joins; the table turns up the apex
    (home / "bom.json").write_bytes(b"\xef\xbb\xbf" + (home / "game.json").read_bytes())
    result = pbem("verify", "bom.json")
    assert result.exit_code == 0 and result.output.startswith("bom.json: valid, in progress, 2 entries. Next: ben")


def test_a_move_out_of_turn_order_says_what_is_owed_first(home):
    new_game(home)
    result = pbem("play", "game.json", "--as", "ben", "discard", "moon-4")
    assert (result.exit_code, result.output) == (1, "Error: discard moon-4: ben owes a move first (place a coin "
                                                    "on 1a (forced))\n")


def test_show_json_names_the_referee_and_the_game(refereed):
    pbem("play", "game.json", "--as", "ann", "3")
    shown = json.loads(pbem("show", "game.json", "--json").output)
    game_id = json.loads((refereed / "game.json").read_text())["genesis"]["game_id"]
    assert {k: shown[k] for k in ("game", "game_id", "mode", "referee", "entries", "duties", "next")} == {
        "game": "sarcophagus", "game_id": game_id, "mode": "referee", "referee": "ref", "entries": 4,
        "duties": [{"who": "ref", "what": "reveal", "detail": "turn up 2a, 2b"}],
        "next": {"who": ["ref"], "what": "reveal", "detail": "turn up 2a, 2b"}}


def test_a_rewrite_is_never_more_open_than_asked(tmp_path):
    from pbem.record.files import write_atomic

    page = tmp_path / "page.html"
    page.write_text("public")
    page.chmod(0o644)
    write_atomic(page, b"secret", mode=0o600)
    assert page.stat().st_mode & 0o777 == 0o600 and page.read_bytes() == b"secret"


def test_an_as_typo_names_the_participants_and_a_missing_key_the_keys_there_are(home):
    new_game(home)
    assert pbem("play", "game.json", "--as", "bne", "3").output == (
        "Error: --as bne: not in this game: did you mean ben? (participants: ann, ben)\n")
    assert pbem("new", "sarcophagus", "-o", "h.json", "--as", "an", "--player", "ann", "--player", "ben").output == (
        "Error: --as an: you must be one of the players or the referee: did you mean ann?\n")
    (home / "home" / "keys" / "ben").rename(home / "ben-key")
    result = pbem("play", "game.json", "--as", "ben", "3")
    assert (result.exit_code, result.output) == (1, (
        f"Error: no key 'ben' (looked for {home / 'home' / 'keys' / 'ben'}); the keys here are ann. Use your own "
        "key with 'pbem key add ben --from ~/.ssh/id_ed25519', or make one with 'pbem key new ben'\n"))


def test_a_key_of_ones_own_is_added_once_and_its_public_half_used(home):
    for name in ("ann", "dan"):
        pbem("key", "new", name, "--no-passphrase")
    for suffix in ("", ".pub"):  # dan's key lives outside pbem's key directory, as ~/.ssh/id_ed25519 would
        (home / "home" / "keys" / f"dan{suffix}").rename(home / f"id_dan{suffix}")
    assert pbem("play", "x.json", "--as", "ann", "--key", "id_dan.pub").output == (
        "Error: no such file: x.json\n")  # the game is read first
    created = pbem("new", "sarcophagus", "-o", "g.json", "--as", "dan", "--key", "./id_dan.pub", "--player", "ann",
                   "--player", "dan")
    assert (created.exit_code, created.output) == (1, "Error: id_dan.pub is a public key: give the private key "
                                                      "file (id_dan)\n")
    created = pbem("new", "sarcophagus", "-o", "g.json", "--as", "dan", "--key", "./id_dan", "--player", "ann",
                   "--player", "dan")
    assert created.exit_code == 0, created.output
    added = pbem("key", "add", "dan", "--from", "id_dan")
    public = (home / "id_dan.pub").read_text().split()[:2]
    assert added.output == (f"Added key dan: {home / 'home' / 'keys' / 'dan'} -> {home / 'id_dan'}\n"
                            "Your public key (send this line to the other players):\n"
                            f"{' '.join(public)} dan\n")
    assert pbem("show", "g.json", "--as", "dan").exit_code == 0  # no --key any more
    assert pbem("key", "list").output.splitlines()[1].startswith("dan              SHA256:")
    again = pbem("key", "add", "dan", "--from", "id_dan")
    assert again.output == f"Error: a key named 'dan' already exists at {home / 'home' / 'keys' / 'dan'}\n"


@pytest.mark.slow
def test_ctrl_c_at_the_prompt_says_nothing_was_written(home):
    new_game(home)
    before = (home / "game.json").read_bytes()
    main, child = pty.openpty()
    # Ctrl-C's default action restored in the child: a suite started in the background (`pytest &`)
    # ignores SIGINT, and Python keeps that ignored, so the signal would never arrive
    proc = subprocess.Popen([sys.executable, "-m", "pbem.cli", "play", "game.json", "--as", "ben"], stdin=child,
                            stdout=child, stderr=child, cwd=home, env={**os.environ, "COLUMNS": "100"},
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    os.close(child)
    try:
        read_until(main, b"Your move (empty to stop): ")
        os.write(main, b"3\n")
        after = read_until(main, b"Tiles with room").split(b"Tiles with room")[-1]
        if b"(empty to stop): " not in after:  # the second coin's prompt, maybe half read already
            read_until(main, b"(empty to stop): ", start=after)
        time.sleep(0.5)  # as a person would: a signal before the read begins waits for the next line
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=20) == 130
        assert read_until(main, b"written\r\n") == b"\r\nError: interrupted; nothing was written\r\n"
    finally:
        proc.kill()
        os.close(main)
    assert (home / "game.json").read_bytes() == before
