"""The CLI half of issue 34 (play that feels like a game site), as players type it, each with their own
PBEM_HOME: one mail a turn, the exit status of a turn not complete, and the rough edges, on exact output
and exit codes."""

import email
import json
from email import policy

import pytest

from cli_support import copy_of
from mail_support import smtp_server
from paths_support import BENCHMARKS


def mails(handler):
    return [email.message_from_bytes(raw, policy=policy.default) for raw in handler.received]


def test_a_turn_of_two_coins_played_in_two_commands_goes_in_one_mail(table, tmp_path):
    boxes = {f"{n}@example.org": tmp_path / "mail" / n for n in ("ann", "ben")}
    with smtp_server(boxes) as (port, handler):
        env = {"PBEM_SMTP": f"localhost:{port}", "PBEM_SMTP_SECURITY": "none"}
        ben = copy_of(tmp_path, "ben")
        assert table("ben", "play", ben, "--as", "ben", "3", "2@2a", "--send", **env).exit_code == 0
        assert table("ann", "inbox", tmp_path / "mail" / "ann", **env).exit_code == 0
        ann = copy_of(tmp_path, "ann")
        first = table("ann", "play", ann, "--as", "ann", "1", "--send", **env)  # one coin of a two-coin turn
        assert (first.exit_code, first.output) == (3, (
            "  ann placed a coin on 1a (ann's 1st coin)\n"
            f"Wrote {ann} (entry 7).\n"
            "Next: ann (move: place your second coin on any face-up tile with room)\n"
            "Not sent yet: ann's turn is not complete; the others get all of it in one mail once it is.\n"
            "ann owes a move now (place your second coin on any face-up tile with room): give it on the command "
            f"line, e.g. 'pbem play {ann} --as ann 0@1a --send', or run pbem play on a terminal to be asked, or add "
            "--bot greedy\n"))
        assert len(handler.received) == 1  # ben's turn only
        second = table("ann", "play", ann, "--as", "ann", "0@1a", "--send", **env)
        assert (second.exit_code, second.output) == (0, (
            "  ann placed a coin on 1a (ann's 2nd coin)\n"
            f"Wrote {ann} (entry 8).\n"
            "Next: ben (move: place a coin on 1a (forced))\n"
            f"Sent to ben <ben@example.org>: [pbem sarcophagus {ann.stem[-8:]}] #8: ben to move\n"))
        sent = mails(handler)
        assert len(sent) == 2
        assert sent[1].get_body().get_content().replace("\r\n", "\n").startswith(
            f"ann signed entries 7-8 of Sarcophagus {ann.stem[-8:]} (ann, ben).\n"
            "  ann placed a coin on 1a (ann's 1st coin)\n  ann placed a coin on 1a (ann's 2nd coin)\n")
        assert table("ben", "inbox", tmp_path / "mail" / "ben", **env).output.startswith(
            f"Updated {copy_of(tmp_path, 'ben')}: entries 7-8.\n")


def test_a_turn_not_complete_exits_3_as_the_help_says_and_mailing_waits_for_it(table, tmp_path):
    ben = copy_of(tmp_path, "ben")
    half = table("ben", "play", ben, "--as", "ben", "3", "--mail")  # the forced first coin alone
    assert half.exit_code == 3 and [p.name for p in tmp_path.glob("*.eml")] == ["first.eml"]  # ann's
    assert half.output.splitlines()[-2:] == [
        "Not mailed yet: ben's turn is not complete; the others get all of it in one mail once it is.",
        "ben owes a move now (place your second coin on any face-up tile with room): give it on the command line, "
        f"e.g. 'pbem play {ben} --as ben 0@1a --mail', or run pbem play on a terminal to be asked, or add --bot "
        "greedy"]
    quiet = table("ben", "play", ben, "--as", "ben", "2@2a")  # the turn complete, not mailed: said on stderr
    assert quiet.exit_code == 0
    assert quiet.stderr == f"Warning: written here, not sent: entries 1-6: pbem mail {ben} --as ben\n"
    help_text = " ".join(table("ben", "play", "--help").output.split())
    assert "Exit status: 0 done: NAME owes nothing more now" in help_text
    assert "or a move not given (the second act of a turn of several)" in help_text


def test_every_command_warns_on_stderr_while_pbem_now_is_set(table, tmp_path):
    from clock_support import clock_warning

    status = table("ann", "status", PBEM_NOW="1800000000")
    assert status.stderr == ("Warning: PBEM_NOW is set: pbem's clock stands at 2027-01-15 08:00:00 UTC (a testing "
                             "override: docs/deadlines.md)\n") == clock_warning(1_800_000_000)
    assert "PBEM_NOW" not in status.stdout
    odd = table("ann", "key", "list", PBEM_NOW="tomorrow")
    assert (odd.exit_code, odd.stderr) == (0, "Warning: PBEM_NOW is set to 'tomorrow', which is no time in Unix "
                                              "seconds: ignored, pbem's clock is this machine's (docs/deadlines.md)\n")
    assert table("ann", "status", PBEM_NOW=None).stderr == ""  # not set: not a word


def test_late_after_and_deadlines_cannot_be_confused_and_the_old_name_says_so(home):
    from typer.testing import CliRunner

    from pbem.cli import app

    from cli_support import make_keys

    runner = CliRunner()
    make_keys("ann", "ben")
    base = ["new", "sarcophagus", "--as", "ann", "--player", "ann", "--player", "ben"]
    old = runner.invoke(app, [*base, "-o", "old.json", "--deadline", "72h"])
    assert old.exit_code == 0
    assert old.stderr == ("Warning: --deadline is now --late-after (it only marks who is late; --deadlines sets a "
                          "policy after which an absence may be recorded); the old name will go\n")
    new = runner.invoke(app, [*base, "-o", "new.json", "--late-after", "72h"])
    assert (new.exit_code, new.stderr) == (0, "")
    for name in ("old.json", "new.json"):
        assert runner.invoke(app, ["show", name]).output.splitlines()[-2] == "Deadline 72 h a duty: nobody is late."
    both = runner.invoke(app, [*base, "-o", "both.json", "--deadline", "72h", "--late-after", "72h"])
    assert (both.exit_code, both.stderr) == (1, "Error: --deadline is the old name of --late-after: give only "
                                                "--late-after\n")
    bad = runner.invoke(app, [*base, "-o", "bad.json", "--late-after", "soon"])
    assert (bad.exit_code, bad.output) == (1, "Error: --late-after 'soon': write hours or days, e.g. 72h or 3d (at "
                                              "most a year)\n")
    shown = " ".join(runner.invoke(app, ["new", "--help"]).output.split())
    assert "--late-after" in shown and "--deadlines" in shown and "--deadline " not in shown


def test_absent_mails_like_play_titled_for_who_must_act_next(home, monkeypatch):
    from typer.testing import CliRunner

    from pbem.cli import app
    from pbem.record.deadlines import HOUR

    from absence_support import T0
    from cli_support import make_keys, write_layout
    from clock_support import clocked

    runner = CliRunner()

    def pbem(*args):
        return clocked(runner.invoke(app, [str(a) for a in args]))

    monkeypatch.setenv("PBEM_NOW", str(T0))
    make_keys("ann", "ben", "cat")
    for name in ("ann", "ben", "cat"):
        pbem("contact", "add", name, f"{name}@example.org")
    layout = write_layout(home / "layout.json", "ben")
    assert pbem("new", "sarcophagus", "-o", "game.json", "--as", "ann", "--player", "ann", "--player", "ben",
                "--player", "cat", "--layout", layout, "--deadlines", "default").exit_code == 0
    for name in ("ben", "cat"):
        assert pbem("play", "game.json", "--as", name).exit_code in (0, 3)
    short = (home / "game.json").read_text().split('"game_id": "')[1][:8]
    monkeypatch.setenv("PBEM_NOW", str(T0 + 80 * HOUR))
    first = pbem("absent", "game.json", "ben", "--as", "ann", "--mail")
    assert (first.exit_code, first.output) == (0, (
        "  ann records ben absent; it takes effect when cat signs it too\n"
        "Wrote game.json (entry 4).\n"
        "Next: ben (move: place a coin on 1a (forced))\n"
        f"Wrote sarcophagus-{short}-4.eml to cat <cat@example.org>, ben <ben@example.org>: [pbem sarcophagus "
        f"{short}] #4: cat to sign ben's absence, or ben to move\n"))
    second = pbem("absent", "game.json", "ben", "--as", "cat", "--mail")  # ben passes: cat's turn
    assert second.exit_code == 0, second.output
    assert second.output.splitlines()[-2:] == [
        "Next: cat (move: place a coin on 1a (forced))",
        "Not mailed yet: cat owes a move now (place a coin on 1a (forced)); the absence goes in one mail with it: "
        "pbem play game.json --as cat ... --mail"]
    played = pbem("play", "game.json", "--as", "cat", "1", "0@1a", "--mail")
    assert played.output.splitlines()[-1] == (f"Wrote sarcophagus-{short}-8.eml to ann <ann@example.org>, cc ben "
                                              f"<ben@example.org>: [pbem sarcophagus {short}] #8: ann to move")


def test_a_game_that_names_me_with_another_key_is_said_once_in_words_i_can_act_on(table, tmp_path):
    import json

    from pbem.crypto import PublicKey

    # ann invites "ben" with a key that is not the one in ben's home (an old one, say)
    table("old", "key", "new", "ben", "--no-passphrase")
    old_key = (tmp_path / "old" / "keys" / "ben.pub").read_text().strip()
    made = table("ann", "new", "sarcophagus", "-o", "other.json", "--as", "ann", "--player", "ann",
                 f"--player=ben={old_key}")
    assert made.exit_code == 0, made.output
    assert table("ann", "mail", "other.json", "--as", "ann", "-o", "other.eml").exit_code == 0
    game_id = json.loads((tmp_path / "other.json").read_text())["genesis"]["game_id"]
    theirs, mine = (PublicKey.parse(table(who, "key", "show", "ben").output.strip()).fingerprint()
                    for who in ("old", "ben"))
    read = table("ben", "inbox", "other.eml")
    assert (read.exit_code, read.stderr) == (1, (
        f"Error: other.eml (sarcophagus-{game_id[:8]}.json): a game of ann and ben (sarcophagus {game_id[:8]}, made "
        f"by ann) names ben with another key than this home's ben ({theirs} in the game, {mine} here): ask ann which "
        "key they invited ben with. Not kept; its mails are set aside quietly from now on.\n"))
    again = table("ben", "inbox", "other.eml")
    assert (again.exit_code, again.output.splitlines()[0]) == (0, "Read 1 mail: nothing new (1 set aside, as said "
                                                                  "before: --again reads it again).")
    assert again.stderr == ""  # (then ben's own game, which he owes a join)


def test_a_file_rolled_back_in_place_is_not_named_as_the_newer_file(home):
    import shutil
    import subprocess

    from typer.testing import CliRunner

    from pbem.cli import app

    from cli_support import new_game

    runner = CliRunner()
    new_game(home)  # ann and ben joined: ben moves first
    shutil.copy(home / "game.json", home / "old.json")
    assert runner.invoke(app, ["play", "game.json", "--as", "ben", "3", "2@2a"]).exit_code == 0
    shutil.copy(home / "old.json", home / "game.json")  # a copy put back over the newer one
    rolled = runner.invoke(app, ["play", "game.json", "--as", "ann", "1"])
    assert (rolled.exit_code, rolled.output) == (1, (
        "Error: this file stops at entry 2, but entry 6 of this game was already seen here, in this same file: it has "
        "been replaced by an older copy. Restore the newer one (from your mail: pbem inbox --again; or from a "
        "backup)\n"))
    subprocess.run(["git", "init", "-q", str(home)], check=True)  # the same, in a git clone
    shown = runner.invoke(app, ["show", "game.json"])
    assert shown.stderr == (
        "Warning: game.json: this file stops at entry 2, but entry 6 of this game was already seen here, in this same "
        "file: it has been replaced by an older version (a git checkout or a commit that rolls it back). Pull the "
        "newer one (git pull), or find the commit with entry 6\n")
    other = runner.invoke(app, ["verify", "old.json"])  # another file: named as the newer one, as before
    assert other.stderr == ("Warning: old.json: this file stops at entry 2, but entry 6 of this game was already "
                            f"seen here: use the newer file: {home / 'game.json'}\n")


@pytest.mark.slow
def test_mail_turns_counts_one_mail_a_turn_for_both_games():
    import sys

    sys.path.insert(0, str(BENCHMARKS))
    import mail_turns

    for game in ("sarcophagus", "path-of-pharaohs"):
        entries, old, new = mail_turns.mail_counts(game, 1, act_by_act=False)
        assert entries > 0 and old == new  # a turn a command: one mail a command, as before
        entries, old, new = mail_turns.mail_counts(game, 1, act_by_act=True)
        assert new < old  # an act a command: the acts of a turn go in one mail


def test_show_without_as_says_it_is_the_public_view_to_a_home_with_one_players_key(table, tmp_path):
    ben = copy_of(tmp_path, "ben")
    shown = table("ben", "show", ben)
    assert shown.exit_code == 0
    assert shown.output.splitlines()[-2:] == [
        f"Public view (what everyone sees): pbem show {ben} --as ben adds what only ben sees.",
        f"Your turn (ben): pbem play {ben} --as ben --mail"]
    assert "Public view" not in table("ben", "show", ben, "--as", "ben").output
    assert "Public view" not in table("nobody", "show", ben).output  # a home with none of its keys: nothing to add


def test_status_lists_a_game_file_in_the_current_folder_that_this_home_played(tmp_path, monkeypatch):
    """A game kept outside the folder of copies (a git work tree, say) and played here is listed once."""
    from typer.testing import CliRunner

    from pbem.cli import app

    monkeypatch.chdir(tmp_path)
    runner = CliRunner()

    def pbem(home: str, *args: str):
        return runner.invoke(app, list(args), env={"PBEM_HOME": str(tmp_path / home), "PBEM_GAMES": None,
                                                   "PBEM_NOW": None})

    assert pbem("ann", "key", "new", "ann", "--no-passphrase").exit_code == 0
    ben_key = pbem("ben", "key", "new", "ben", "--no-passphrase").output.splitlines()[-1]
    assert pbem("ann", "status").output == f"No games in {tmp_path / 'ann' / 'games-files'}.\n"
    made = pbem("ann", "new", "sarcophagus", "-o", "game.json", "--as", "ann", "--player", "ann",
                "--player", f"ben={ben_key}")
    assert made.exit_code == 0, made.output
    assert not (tmp_path / "ann" / "games-files").exists()  # the game is only here
    listed = pbem("ann", "status", "--json")
    assert [game["path"] for game in json.loads(listed.output)["games"]] == [str(tmp_path / "game.json")]
    assert pbem("ann", "status").output.startswith("  sarcophagus ")
    assert json.loads(pbem("ben", "status", "--json").output)["games"] == []  # ben's home never read it
