"""A newcomer's game by email (issue 25), as two players type it, each with their own PBEM_HOME: what to
type next, turns written and not sent, sending by default, and one list of what is owed."""

import json

from pbem.cli import app

from cli_support import LAYOUT, copy_of, runner
from mail_support import smtp_server


def test_show_ends_with_the_command_to_type(table, tmp_path):
    copy = copy_of(tmp_path, "ben")
    shown = table("ben", "show", copy)
    assert shown.exit_code == 0
    assert shown.output.splitlines()[-1] == f"Your turn (ben): pbem play {copy} --as ben --mail"
    with_smtp = table("ben", "show", copy, PBEM_SMTP="localhost:2525")
    assert with_smtp.output.splitlines()[-1] == f"Your turn (ben): pbem play {copy} --as ben --send"
    theirs = table("ann", "show", "game.json")
    assert theirs.output.splitlines()[-1] == "Waiting for ben: when their mail comes, pbem inbox"


def test_the_inbox_suggests_what_will_work(table, tmp_path, monkeypatch):
    copy = copy_of(tmp_path, "ben")
    short = copy.stem.split("-")[1]  # the game named as the status line above names it
    smtp = table("ben", "inbox", "first.eml", "--again", PBEM_SMTP="localhost:2525")
    assert smtp.output.splitlines()[-1] == f"    pbem play {short} --as ben --send"
    default = table("ben", "inbox", "first.eml", "--again", PBEM_SMTP="localhost:2525", PBEM_SEND="1")
    assert default.output.splitlines()[-1] == f"    pbem play {short} --as ben"
    plain = table("ben", "inbox", "first.eml", "--again")
    assert plain.output.splitlines()[-1] == f"    pbem play {short} --as ben --mail"
    typed = plain.output.splitlines()[-1].split()[1:] + ["3", "2@2a"]  # as the user copies it, from another folder
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    played = table("ben", *typed)
    assert played.exit_code == 0, played.output
    assert played.output.splitlines()[-3:] == [f"Wrote {copy} (entries 1-6).",
                                               "Next: ann (move: place a coin on 1a (forced))",
                                               f"Wrote sarcophagus-{short}-6.eml to ann <ann@example.org>: "
                                               f"[pbem sarcophagus {short}] #6: ann to move"]


def test_a_turn_written_and_not_sent_is_said_everywhere(table, tmp_path):
    copy = copy_of(tmp_path, "ben")
    short = copy.stem.split("-")[1]
    played = table("ben", "play", short[:4], "--as", "ben", "3", "2@2a")  # the game named as typed, again
    assert played.exit_code == 0
    assert played.stderr == f"Warning: written here, not sent: entries 1-6: pbem mail {short[:4]} --as ben\n"
    status = table("ben", "status")
    assert status.exit_code == 0
    assert status.output.startswith(f"  sarcophagus {short}  ") and " ann to move for 0 min" in status.output
    assert status.output.endswith(f"; written here, not sent: pbem mail {short} --as ben\n")
    shown = table("ben", "show", copy).output.splitlines()
    assert shown[-2:] == [f"Written here, not sent: entries 1-6: pbem mail {copy} --as ben",
                          f"Send your turn: pbem mail {copy} --as ben"]
    assert table("ben", "mail", copy, "--as", "ben").exit_code == 0
    assert "not sent" not in table("ben", "status").output
    assert table("ben", "show", copy).output.splitlines()[-1] == "Waiting for ann: when their mail comes, pbem inbox"


def test_a_game_never_mailed_gets_no_mail_advice(tmp_path, monkeypatch):
    """A game in a git repository is never mailed: no warning, and show names the plain command."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    for name in ("ann", "ben"):
        runner.invoke(app, ["key", "new", name, "--no-passphrase"])
    runner.invoke(app, ["new", "sarcophagus", "-o", "g.json", "--as", "ann", "--player", "ann", "--player", "ben"])
    joined = runner.invoke(app, ["play", "g.json", "--as", "ben"])
    assert "Warning" not in joined.output
    assert runner.invoke(app, ["show", "g.json"]).output.splitlines()[-1].startswith("Your turn (")


def test_sending_is_the_default_with_pbem_send(table, tmp_path):
    copy = copy_of(tmp_path, "ben")
    boxes = {f"{n}@example.org": tmp_path / "mail" / n for n in ("ann", "ben")}
    with smtp_server(boxes) as (port, handler):
        env = {"PBEM_SMTP": f"localhost:{port}", "PBEM_SMTP_SECURITY": "none", "PBEM_SEND": "1"}
        played = table("ben", "play", copy, "--as", "ben", "3", "2@2a", **env)
        assert played.exit_code == 0, played.output
        assert played.output.splitlines()[-1].startswith("Sent to ann <ann@example.org>: [pbem sarcophagus ")
        assert len(handler.received) == 1
        back = table("ann", "inbox", tmp_path / "mail" / "ann", **env)
        assert back.output.splitlines()[-1] == f"    pbem play {copy.stem.split('-')[1]} --as ann"
        held = table("ann", "play", copy_of(tmp_path, "ann"), "--as", "ann", "1", "0@1a", "--no-send", **env)
        assert held.exit_code == 0 and len(handler.received) == 1, held.output
        assert held.stderr.startswith("Warning: written here, not sent: entr")


def test_show_json_names_what_is_owed_once(tmp_path, monkeypatch):
    """A 3-player table game with a chosen deal, right after new: duties and next agree, and nobody is
    called "dealer"."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    for name in ("ann", "bob", "cat"):
        runner.invoke(app, ["key", "new", name, "--no-passphrase"])
    layout = LAYOUT.to_names()
    layout["first"] = "bob"
    (tmp_path / "layout.json").write_text(json.dumps(layout))
    made = runner.invoke(app, ["new", "sarcophagus", "-o", "g.json", "--as", "ann", "--player", "ann", "--player",
                               "bob", "--player", "cat", "--layout", "layout.json"])
    assert made.exit_code == 0, made.output
    shown = json.loads(runner.invoke(app, ["show", "g.json", "--json"]).stdout)
    assert shown["duties"] == [{"who": "bob", "what": "join",
                                "detail": "join the game (sign it and add randomness to the deal)"}]
    assert shown["next"] == {"who": ["bob"], "what": "join",
                             "detail": "join the game (sign it and add randomness to the deal)"}
    for name in ("bob", "cat"):
        runner.invoke(app, ["play", "g.json", "--as", name])
    later = json.loads(runner.invoke(app, ["show", "g.json", "--json"]).stdout)
    assert later["duties"][0]["who"] == later["next"]["who"][0] == "bob"
    assert "dealer" not in json.dumps([later["duties"], later["next"], shown["duties"]])


def test_a_saved_mail_opens_wherever_a_game_file_is_read(table, tmp_path):
    """The first mail (the game attached) and a turn mail (a turn block, applied to the copy here) read as
    game files; playing a mail writes the local copy, never the mail."""
    shown = table("ben", "show", "first.eml")
    assert shown.exit_code == 0 and shown.output.splitlines()[-1] == "Your turn (ben): pbem play first.eml --as ben --mail"
    mail_bytes = (tmp_path / "first.eml").read_bytes()
    played = table("ben", "play", "first.eml", "3", "2@2a", "--mail")  # --as left out: ben's only key
    copy = copy_of(tmp_path, "ben")
    assert played.exit_code == 0, played.output
    assert f"Wrote {copy} (entries 1-6)." in played.output and (tmp_path / "first.eml").read_bytes() == mail_bytes
    (turn_mail,) = tmp_path.glob("sarcophagus-*-6.eml")
    assert "-----BEGIN PBEM TURN-----" in turn_mail.read_text()
    for command in ("show", "log", "verify", "html"):
        result = table("ann", command, turn_mail.name)
        assert result.exit_code == 0, (command, result.output)
    assert table("ann", "verify", turn_mail.name).output == (f"{turn_mail.name}: valid, in progress, 6 entries. "
                                                            "Next: ann (move: place a coin on 1a (forced)) (deal "
                                                            "chosen by ann: not shuffled jointly)\n")
    assert table("ann", "log", turn_mail.name).output.splitlines()[-3] == "   6. ben      reveal 3a=crown-2 3b=crown-ace"
    nobody = table("cat", "show", turn_mail.name)
    short = turn_mail.name.split("-")[1]
    assert (nobody.exit_code, nobody.output) == (1, f"Error: {turn_mail.name} holds a turn of game {short} (entries "
                                                    f"after 0), and there is no copy of that game in "
                                                    f"{tmp_path / 'cat' / 'games-files'}: read the game's first mail "
                                                    "with pbem inbox\n")


def test_a_damaged_turn_block_says_how_to_ask_for_it_again(table, tmp_path):
    assert table("ben", "play", copy_of(tmp_path, "ben"), "--as", "ben", "3", "2@2a", "--mail").exit_code == 0
    (turn_mail,) = tmp_path.glob("sarcophagus-*-6.eml")
    lines = turn_mail.read_text().splitlines()
    at = lines.index("-----BEGIN PBEM TURN-----") + 2
    lines[at] = lines[at][:10] + ("A" if lines[at][10] != "A" else "B") + lines[at][11:]
    (tmp_path / "bad.eml").write_text("\n".join(lines) + "\n")
    short = turn_mail.name.split("-")[1]
    hint = f"ask ben to mail it again with 'pbem mail {short} --as ben --since 0'"
    shown = table("ann", "show", "bad.eml")
    assert (shown.exit_code, shown.output) == (1, "Error: bad.eml: the armored turn block is damaged (was it cut, or "
                                                  f"edited?): {hint}\n")
    read = table("ann", "inbox", "bad.eml")
    assert read.exit_code == 1
    assert read.stderr == f"Error: bad.eml: the armored turn block is damaged (was it cut, or edited?): {hint}\n"


def test_a_game_by_the_start_of_its_id_and_as_left_out(table, tmp_path):
    copy = copy_of(tmp_path, "ben")
    short = copy.stem.split("-")[1]
    played = table("ben", "play", short[:4], "3", "2@2a")
    assert played.exit_code == 0, played.output
    assert f"Wrote {copy} (entries 1-6)." in played.output
    assert table("ben", "show", short[:5]).output.splitlines()[-1] == f"Send your turn: pbem mail {short[:5]} --as ben"
    assert table("ben", "mail", short).exit_code == 0
    unknown = table("ben", "play", "ffff", "1")
    assert (unknown.exit_code, unknown.output) == (1, "Error: ffff: no such file, and no game known here has an id "
                                                      f"starting with ffff (looked in the current folder, in "
                                                      f"{copy.parent} and where this home last read or wrote each "
                                                      f"game). Games known here: {short} (sarcophagus: ann, ben; 6 "
                                                      f"entries) in {copy}\n")  # its newest version of the two
    (copy.parent / f"sarcophagus-{short[:4]}0000.json").write_bytes(copy.read_bytes().replace(
        short.encode(), (short[:4] + "0000").encode()))  # another file whose id starts the same way
    both = table("ben", "log", short[:4])
    assert both.exit_code == 1
    assert both.output.startswith(f"Error: {short[:4]}: 2 games have an id starting with {short[:4]}: ")
    assert both.output.endswith(". Type more of the id\n")


def test_as_is_needed_when_this_home_holds_two_keys_of_the_game(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    for name in ("ann", "ben"):
        runner.invoke(app, ["key", "new", name, "--no-passphrase"])
    runner.invoke(app, ["new", "sarcophagus", "-o", "g.json", "--as", "ann", "--player", "ann", "--player", "ben"])
    both = runner.invoke(app, ["play", "g.json"])
    assert (both.exit_code, both.output) == (1, "Error: this home holds the keys of ann and ben in g.json: say which "
                                                "with --as NAME\n")
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "other"))
    nobody = runner.invoke(app, ["play", "g.json"])
    assert (nobody.exit_code, nobody.output) == (1, "Error: no key in this home is in g.json (participants: ann, "
                                                    "ben): say who you are with --as NAME (and --key FILE for a key "
                                                    "kept elsewhere)\n")


def test_an_old_copy_names_the_newer_file_and_a_behind_clone_says_so(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    for name in ("ann", "ben", "cat"):
        runner.invoke(app, ["key", "new", name, "--no-passphrase"])
    runner.invoke(app, ["new", "sarcophagus", "-o", "g.json", "--as", "ann", "--player", "ann", "--player", "ben",
                        "--player", "cat"])
    (tmp_path / "old.json").write_bytes((tmp_path / "g.json").read_bytes())
    early = runner.invoke(app, ["play", "old.json", "--as", "cat", "3"])
    assert (early.exit_code, early.output) == (1, "Error: the game has not started: waiting for ben to join the game "
                                                  "(if that was done already, this copy is old: git pull, or pbem "
                                                  "inbox)\n")
    assert runner.invoke(app, ["play", "g.json", "--as", "ben"]).exit_code in (0, 3)
    stale = runner.invoke(app, ["play", "old.json", "--as", "cat"])
    assert (stale.exit_code, stale.output) == (1, "Error: this file stops at entry 0, but entry 1 of this game was "
                                                  f"already seen here: use the newer file: {tmp_path / 'g.json'}\n")


def test_the_turn_mail_shows_the_public_board_in_plain_text(table, tmp_path):
    assert table("ben", "play", copy_of(tmp_path, "ben"), "--as", "ben", "3", "2@2a", "--mail").exit_code == 0
    (turn_mail,) = tmp_path.glob("sarcophagus-*-6.eml")
    from email import message_from_bytes, policy

    body = message_from_bytes(turn_mail.read_bytes(), policy=policy.default).get_body(("plain",)).get_content()
    assert body.isascii()
    board = body.split("The board after entry 6 (what everyone sees):\n\n", 1)[1].split("\n\nTo apply it", 1)[0]
    lines = board.splitlines()
    assert lines[0].startswith("Tiles: S=sun M=moon C=crown A=arms")
    assert "Coins: 1a ben:?   2a ben:?" in lines  # the values stay secret
    assert lines[-3:] == ["Player  hand  fame   holds", "ann       12      0  nothing yet",
                          "ben       10      0  nothing yet"]


def test_a_signed_note_on_a_turn_is_shown_in_the_log_and_cannot_be_changed(table, tmp_path):
    copy = copy_of(tmp_path, "ben")
    bad = table("ben", "play", copy, "--as", "ben", "3", "--message", "two\nlines")
    assert (bad.exit_code, bad.output) == (1, "Error: --message: one line of 1 to 500 printable characters\n")
    played = table("ben", "play", copy, "--as", "ben", "3", "2@2a", "--message", "good luck, ann", "--mail")
    assert played.exit_code == 0, played.output
    (turn_mail,) = tmp_path.glob("sarcophagus-*-6.eml")
    assert table("ann", "inbox", turn_mail.name).exit_code == 0
    log = table("ann", "log", copy_of(tmp_path, "ann")).output.splitlines()
    assert log[log.index("   1. ben      join") + 1] == '        ben says: "good luck, ann"'
    data = json.loads(copy.read_text())
    assert [e.get("note") for e in data["entries"]] == ["good luck, ann", None, None, None, None, None]
    data["entries"][0]["note"] = "I concede"
    copy.write_text(json.dumps(data, indent=2))
    forged = table("ben", "verify", copy)
    assert forged.exit_code == 1 and "signature" in forged.output


def test_a_signed_note_is_on_the_html_page(table, tmp_path):
    copy = copy_of(tmp_path, "ben")
    note = "see you </script> at 1a"
    assert table("ben", "play", copy, "--as", "ben", "3", "2@2a", "-m", note).exit_code == 0
    made = table("ben", "html", copy, "-o", "page.html")
    assert made.exit_code == 0, made.output
    page = (tmp_path / "page.html").read_text()
    assert 'ben says: \\"see you <\\/script> at 1a\\"' in page and note not in page


def test_a_game_by_the_start_of_its_id_wherever_this_home_played_it(tmp_path, monkeypatch):
    """A prefix finds a game this home read or wrote in another folder (a git clone), the current folder's
    game files, and the newest version of a game found in several places; two games alike are listed."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("PBEM_GAMES", raising=False)
    for name in ("ann", "ben"):
        runner.invoke(app, ["key", "new", name, "--no-passphrase"])
    (tmp_path / "repo").mkdir()
    made = runner.invoke(app, ["new", "sarcophagus", "-o", "repo/g.json", "--as", "ann", "--player", "ann",
                               "--player", "ben"])
    assert made.exit_code == 0, made.output
    game_id = json.loads((tmp_path / "repo" / "g.json").read_text())["genesis"]["game_id"]
    (tmp_path / "old.json").write_bytes((tmp_path / "repo" / "g.json").read_bytes())  # a copy left here
    joined = runner.invoke(app, ["play", game_id[:4], "--as", "ben"])  # the newest: the one ben has not joined yet
    assert joined.exit_code in (0, 3) and f"Wrote {tmp_path / 'repo' / 'g.json'} (entr" in joined.output, joined.output
    assert runner.invoke(app, ["log", game_id[:6]]).output.splitlines()[:2] == [
        '[Game "sarcophagus"]', f'[GameId "{game_id}"]']
    shown = runner.invoke(app, ["show", game_id[:4]])  # repo/g.json has more entries than ./old.json
    assert shown.exit_code == 0 and "entry 0;" not in shown.output.splitlines()[0]
    # another home, no history: the current folder's game file
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "stranger"))
    assert runner.invoke(app, ["verify", game_id[:4]]).output.startswith("old.json: valid, in progress, 0 entries.")
    # a second game whose id starts the same way: both are listed, with what tells them apart
    twin = game_id[:4] + ("1" if game_id[4] == "0" else "0") * 28  # alike for 4 characters, not for 5
    (tmp_path / "twin.json").write_text((tmp_path / "old.json").read_text().replace(game_id, twin))
    both = runner.invoke(app, ["show", game_id[:4]])
    listed = sorted([f"{game_id[:8]} (sarcophagus: ann, ben; 0 entries) in old.json",
                     f"{twin[:8]} (sarcophagus: ann, ben; 0 entries) in twin.json"])
    assert (both.exit_code, both.output) == (1, f"Error: {game_id[:4]}: 2 games have an id starting with "
                                                f"{game_id[:4]}: {'; '.join(listed)}. Type more of the id\n")
    assert runner.invoke(app, ["show", game_id[:5]]).exit_code == 0  # typed far enough, the one game
    # the home's own game moved away: said, not silently ignored
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path / "repo")
    (tmp_path / "repo" / "g.json").rename(tmp_path / "moved.json")
    lost = runner.invoke(app, ["show", game_id[:4]])
    assert (lost.exit_code, lost.output) == (1, f"Error: {game_id[:4]}: no such file, and no game known here has an "
                                                f"id starting with {game_id[:4]} (looked in the current folder, in "
                                                f"{tmp_path / 'home' / 'games-files'} and where this home last read "
                                                f"or wrote each game; this home saw {game_id[:8]} but no longer "
                                                "finds its file)\n")
