"""The judge by mail, against real servers (aiosmtpd delivering into Maildirs): the players only play
and mail, and the judge does everything else."""

from __future__ import annotations

import json
from email.message import EmailMessage

import pytest

from pbem.judge import config as judge_config
from pbem.judge.service import Judge

from judge_support import cli, fast_cli, ok, play_by_mail, setup_players, start_game, write_config
from mail_support import smtp_server

PLAYERS = ["ann", "ben", "cat", "dan"]


def four_player_game(base, monkeypatch, limit: int | None) -> tuple[list[str], int]:
    """ann makes a 4-player Path of Pharaohs game with the judge as referee; the players play (at most
    `limit` runs of pbem play) and the judge does the rest. Returns the judge's log and the plays."""
    fast_cli(monkeypatch)
    monkeypatch.chdir(base)
    boxes = {f"{n}@example.org": base / "mail" / n for n in [*PLAYERS, "judge"]}
    lines: list[str] = []
    with smtp_server(boxes) as (port, _):
        keys = setup_players(base, port, PLAYERS)
        config = write_config(base, port, maildir=base / "mail" / "judge")
        start_game(base, port, "path-of-pharaohs", PLAYERS, keys, base / "game.json")
        judge = Judge(judge_config.load(config), log=lines.append)
        plays = play_by_mail(base, port, PLAYERS, judge.once, limit)
    copies = sorted((base / "judge-home" / "games-files").glob("path-of-pharaohs-*.json"))
    assert len(copies) == 1
    judged = json.loads(copies[0].read_bytes())
    for name in PLAYERS:  # every player's copy is the judge's (or, stopped midway, the start of it)
        mine = json.loads(next((base / name / "games-files").glob("path-of-pharaohs-*.json")).read_bytes())
        assert mine["genesis"] == judged["genesis"] and mine["entries"] == judged["entries"][:len(mine["entries"])]
        assert limit is not None or mine == judged
    assert not any(line.split(" ", 2)[1] in ("refused", "error") for line in lines), lines
    return lines, plays


@pytest.mark.slow
def test_four_players_play_path_of_pharaohs_and_the_judge_does_the_rest(base, monkeypatch):
    """The first 16 runs of pbem play (the joins, the deal, draws revealed by the judge): the whole game
    is played by benchmarks/judge_load.py --game, which checks that it ends."""
    lines, plays = four_player_game(base, monkeypatch, limit=16)
    assert plays >= 16
    kinds = [line.split(" ", 2)[1] for line in lines]
    assert kinds.count("signed") >= 8 and kinds.count("mailed") == kinds.count("signed")
    copy = next((base / "judge-home" / "games-files").glob("*.json"))
    shown = ok(cli(base / "ann", 0, "verify", copy))
    assert ": valid, in progress, " in shown


def _invitation(base, port, monkeypatch):
    """ann's Path of Pharaohs game with the judge as referee, mailed: the judge's Maildir holds it."""
    fast_cli(monkeypatch)
    monkeypatch.chdir(base)
    monkeypatch.delenv("PBEM_NOW", raising=False)  # a judge on an injected clock sets it: undone after the test
    keys = setup_players(base, port, PLAYERS[:3])
    config = write_config(base, port, maildir=base / "mail" / "judge")
    start_game(base, port, "path-of-pharaohs", PLAYERS[:3], keys, base / "game.json")
    return config


def test_bad_mail_is_set_aside_and_never_stops_the_good_one(base, monkeypatch):
    boxes = {f"{n}@example.org": base / "mail" / n for n in [*PLAYERS[:3], "judge"]}
    with smtp_server(boxes) as (port, server):
        config = _invitation(base, port, monkeypatch)
        judge_box = base / "mail" / "judge"
        forged = EmailMessage()  # ann's game with one entry's author changed: its signature no longer holds
        forged["Subject"] = "[pbem path-of-pharaohs] #0"
        forged.set_content("the game")
        forged.add_attachment((base / "game.json").read_bytes().replace(b'"author": "ann"', b'"author": "ben"', 1),
                              maintype="application", subtype="json", filename="game.json")
        tampered = bytes(forged)
        spam = b"From: x@spam.example\r\nSubject: cheap\r\n\r\nbuy now\r\n"
        broken = b"Subject: a turn\r\n\r\n-----BEGIN PBEM TURN-----\r\nnot base64 at all\r\n-----END PBEM TURN-----\r\n"
        for i, data in enumerate([tampered, spam, broken]):
            (judge_box / "new" / f"0{i}.bad").write_bytes(data)
        lines: list[str] = []
        judge = Judge(judge_config.load(config), log=lines.append)
        judge.once()
        kinds = sorted(line.split(" ", 3)[1:3] for line in lines if " mail " in line)
        assert kinds == [["ignored", "mail"], ["refused", "mail"], ["refused", "mail"]], lines
        assert any(line.split(" ")[1] == "mailed" for line in lines), lines  # the good game went on: joined
        assert not list((judge_box / "new").iterdir()) and len(list((judge_box / "cur").iterdir())) == 4
        sent = len(server.received)
        lines.clear()
        judge.once()  # nothing is read twice, nothing is mailed twice
        assert lines == [] and len(server.received) == sent


@pytest.mark.slow
def test_a_player_whose_mail_is_refused_is_told_why_once_an_hour_and_a_stranger_never(base, monkeypatch):
    boxes = {f"{n}@example.org": base / "mail" / n for n in [*PLAYERS[:3], "judge"]}
    with smtp_server(boxes) as (port, server):
        config = _invitation(base, port, monkeypatch)
        judge_box = base / "mail" / "judge"
        now = [1_800_000_000.0]
        lines: list[str] = []
        judge = Judge(judge_config.load(config), log=lines.append, clock=lambda: now[0])
        judge.once()  # ann's invitation: applied, and her address learned from it

        def bad_mail(name: str, sender: str, *headers: tuple[str, str]) -> None:
            forged = EmailMessage()  # ann's game with one entry's author changed: its signature fails
            forged["From"], forged["Subject"], forged["Message-ID"] = sender, "[pbem path-of-pharaohs] #0", f"<{name}@x>"
            for key, value in headers:
                forged[key] = value
            forged.set_content("the game")
            forged.add_attachment((base / "game.json").read_bytes().replace(b'"author": "ann"', b'"author": "ben"', 1),
                                  maintype="application", subtype="json", filename="game.json")
            (judge_box / "new" / name).write_bytes(bytes(forged))

        def answers() -> list[EmailMessage]:
            from email import message_from_bytes, policy
            return [m for m in (message_from_bytes(r, policy=policy.default) for r in server.received)
                    if m["Auto-Submitted"] == "auto-replied"]

        bad_mail("1.bad", "ann <ann@example.org>")
        bad_mail("2.bad", "x@spam.example")  # not a participant's address: no answer to a stranger
        bad_mail("3.bad", "ann@example.org", ("Auto-Submitted", "auto-generated"))  # a robot: no answer
        judge.once()
        [told] = answers()
        assert (told["To"], told["Subject"], told["In-Reply-To"]) == ("ann@example.org", "Re: [pbem path-of-pharaohs] #0",
                                                                     "<1.bad@x>")
        assert told.get_content().replace("\r\n", "\n").startswith(
            "The judge could not apply your mail \"[pbem path-of-pharaohs] #0\":\n\n    your mail (game.json): refused the "
            "attached game: the genesis by ben: signed by a different key\n\nNothing in it was applied")
        assert [line.split(" ", 2)[1:] for line in lines if " answered " in line] == \
            [["answered", "ann@example.org: why 1.bad was refused"]]
        now[0] += 3599
        bad_mail("4.bad", "ann@example.org")
        judge.once()
        assert len(answers()) == 1  # within the hour: logged and set aside, not answered
        now[0] += 1
        bad_mail("5.bad", "ann@example.org")
        Judge(judge_config.load(config), log=lines.append, clock=lambda: now[0]).once()  # restarted: it remembers
        assert [m["In-Reply-To"] for m in answers()] == ["<1.bad@x>", "<5.bad@x>"]


def test_a_judge_that_could_not_mail_mails_the_same_entries_after_a_restart(base, monkeypatch):
    boxes = {f"{n}@example.org": base / "mail" / n for n in [*PLAYERS[:3], "judge"]}
    with smtp_server(boxes) as (port, server):
        config = _invitation(base, port, monkeypatch)
    lines: list[str] = []
    Judge(judge_config.load(config), log=lines.append).once()  # the mail server is gone: signed, not mailed
    assert [line.split(" ")[1] for line in lines] == ["applied", "signed", "error"], lines
    copy = next((base / "judge-home" / "games-files").glob("*.json"))
    signed = copy.read_bytes()
    with smtp_server(boxes, port=port) as (_, server):  # back on the same port; the judge restarts
        lines.clear()
        Judge(judge_config.load(config), log=lines.append).once()
        assert [line.split(" ")[1] for line in lines] == ["mailed"], lines
        assert copy.read_bytes() == signed  # nothing signed again
        assert len(server.received) == 1 and b"-----BEGIN PBEM TURN-----" in server.received[0]


def test_a_bad_configuration_is_one_clear_error(base, monkeypatch):
    fast_cli(monkeypatch)
    path = base / "judge.toml"
    path.write_text('home = "h"\nkey = "k"\naddress = "judge@example.org"\n[mailbox]\nmaildir = "m"\n'
                    '[smtp]\nserver = "localhost"\nsecurty = "none"\n')
    done = cli(base, 0, "judge", "run", path, "--once")
    assert (done.exit_code, done.output) == (1, f"Error: {path}: smtp.securty: Extra inputs are not permitted\n")
    path.write_text('home = "h"\nkey = "k"\naddress = "judge"\n[mailbox]\nmaildir = "m"\nimap = "imaps://a@b"\n'
                    '[smtp]\nserver = "localhost"\n')
    done = cli(base, 0, "judge", "status", path)
    assert done.exit_code == 1 and done.output.startswith(f"Error: {path}: address: String should match pattern")
    path.write_text('home = "h"\n[mailbox\n')
    done = cli(base, 0, "judge", "status", path)
    assert done.exit_code == 1 and done.output.startswith(f"Error: {path}: not valid TOML (")


@pytest.mark.slow
def test_pbem_judge_starts_the_judge_with_the_same_arguments(base):
    import subprocess
    import sys

    path = base / "judge.toml"
    path.write_text(f'home = "{base / "home"}"\nkey = "k"\naddress = "judge@example.org"\n')
    done = subprocess.run([sys.executable, "-m", "pbem.cli", "judge", "status", str(path)], capture_output=True,
                          text=True, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (0, f"No games in {base / 'home' / 'judge.db'}.\n", "")
    done = subprocess.run([sys.executable, "-m", "pbem.cli", "judge", "run", str(path), "--once"],
                          capture_output=True, text=True, check=False)
    assert (done.returncode, done.stderr) == (1, "Error: the judge by mail needs a [mailbox] section (maildir or "
                                                 "imap) in its configuration\n")
