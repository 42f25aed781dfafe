"""The judge in public, by mail: what a stranger or a player with their own valid keys can send it. No mail
stops it, a stranger's mail costs one reading, answers carry nothing a stranger wrote raw and no path of
the judge's machine, and it keeps one clock (issue 32). Real SMTP (aiosmtpd) delivering into Maildirs."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from email import message_from_bytes, policy
from email.message import EmailMessage

import pytest

from pbem import api
from pbem.judge import config as judge_config
from pbem.judge import library
from pbem.judge.service import Judge, open_memory
from pbem.judge.spool import MAX_TRIES

from judge_support import cli, ok, players_act
from paths_support import EXAMPLES

PLAYERS = ["ann", "ben", "cat"]


def answers(server) -> list[EmailMessage]:
    return [m for m in (message_from_bytes(r, policy=policy.default) for r in server.received)
            if m["Auto-Submitted"] == "auto-replied"]


def judge_entries(base) -> list[dict]:
    return json.loads(next((base / "judge-home" / "games-files").glob("*.json")).read_text())["entries"]


@pytest.mark.slow
def test_a_forged_mail_whose_subject_decodes_to_a_line_break_is_answered_on_one_line_and_the_game_goes_on(
        base, hosted):
    config, port, server, box = hosted.config, hosted.port, hosted.server, hosted.box
    lines: list[str] = []
    judge = Judge(judge_config.load(config), log=lines.append)
    judge.once()  # the invitation: applied, ann's address learned
    (box / "new" / "1.evil").write_bytes(
        b"From: ann <ann@example.org>\r\nTo: judge@example.org\r\n"
        b"Subject: =?utf-8?q?turn=0D=0AX-Injected=3A_yes?=\r\nMessage-ID: <evil\r\n here@x>\r\n\r\n"
        b"-----BEGIN PBEM TURN-----\r\nH4sIAAAAAAAA/damaged\r\n-----END PBEM TURN-----\r\n")
    judge.once()
    [told] = answers(server)
    assert told["Subject"] == "Re: turn X-Injected: yes" and told["X-Injected"] is None
    assert told["In-Reply-To"] is None  # a Message-ID that is not one is not threaded on
    raw = server.received[-1]
    assert b"\nX-Injected" not in raw and b"\rX-Injected" not in raw
    assert str(base) not in told.get_content()
    assert list((box / "new").iterdir()) == [] and not any((base / "judge-home" / "quarantine").iterdir())
    seen: dict[str, int] = {}
    for _ in range(3):  # everyone joins; the judge deals: the game beside the hostile mail goes on
        players_act(base, port, PLAYERS, seen)
        judge.once()
    assert any(e["author"] == "judge" and e["action"].startswith("deal") for e in judge_entries(base))
    # the same mail through the command a service manager restarts: exit 0, nothing to say twice
    shutil.copy(box / "cur" / "1.evil:2,S", box / "new" / "2.evil")
    done = cli(base, port, "judge", "run", config, "--once")
    assert done.exit_code == 0, done.output


def test_a_mail_that_raises_what_nobody_foresaw_is_quarantined_with_its_reason_and_the_others_are_read(
        base, hosted, monkeypatch):
    config, port, server, box = hosted.config, hosted.port, hosted.server, hosted.box  # noqa: F841
    real = library.parse_mail

    def flawed(where, data):  # a fault of pbem's own, met by one mail's content
        if b"TRIGGER" in data:
            raise RuntimeError("a fault in the reader")
        return real(where, data)

    monkeypatch.setattr(library, "parse_mail", flawed)
    (box / "new" / "0.trigger").write_bytes(b"From: x@spam.example\r\nSubject: hi\r\n\r\nTRIGGER\r\n")
    lines: list[str] = []
    judge = Judge(judge_config.load(config), log=lines.append)
    judge.once()
    quarantine = base / "judge-home" / "quarantine"
    assert sorted(p.name for p in quarantine.iterdir()) == ["0.trigger", "0.trigger.why"]
    assert (quarantine / "0.trigger.why").read_text() == "RuntimeError: a fault in the reader\n"
    assert [line.split(" ", 1)[1] for line in lines if "quarantined" in line] == [
        f"quarantined mail 0.trigger: RuntimeError: a fault in the reader (in {quarantine})"]
    assert any(" applied " in line for line in lines) and any(" signed " in line for line in lines)  # the invitation
    lines.clear()
    judge.once()
    assert lines == []  # logged once, never read again


def test_a_mail_the_judge_died_reading_three_times_is_quarantined_not_read_a_fourth_time(base, hosted):
    config, port, server, box = hosted.config, hosted.port, hosted.server, hosted.box  # noqa: F841
    (box / "new" / "0.deadly").write_bytes(b"Subject: x\r\n\r\nwhatever kills a process\r\n")
    store = open_memory(judge_config.load(config), 0)
    for _ in range(MAX_TRIES):  # what three runs killed while reading it leave behind (the claim, made first)
        store.take("0.deadly", 0)
    lines: list[str] = []
    Judge(judge_config.load(config), log=lines.append).once()
    why = base / "judge-home" / "quarantine" / "0.deadly.why"
    assert why.read_text() == f"the judge stopped {MAX_TRIES} times while reading it\n"
    assert any(" applied " in line for line in lines)  # the invitation beside it


def _foreign_turns(base, count: int, game_id: str | None = None) -> list[bytes]:
    """Turn mails of games the judge does not host: the real game's entries under other game ids, blocks
    that pass every check of form (a stranger's cheapest way to make a judge parse)."""
    from pbem.record.canonical import canonical
    from pbem.transport import armor

    entries = json.loads((EXAMPLES / "table-3-players.json").read_text())["entries"][:3] * 200
    mails = []
    for i in range(count):
        turn = {"format": "pbem-turn/1", "game_id": game_id or f"{i:032x}", "genesis": "0" * 64, "after": 0, "prev": "0" * 64,
                "entries": entries}
        mails.append(b"From: ann@example.org\r\nSubject: [pbem] a turn\r\n\r\n"
                     + armor.wrap("TURN", canonical(turn)).encode())
    return mails


@pytest.mark.slow
def test_a_strangers_turns_of_games_not_hosted_here_are_set_aside_at_once_and_never_read_again(
        base, hosted, monkeypatch):
    config, port, server, box = hosted.config, hosted.port, hosted.server, hosted.box  # noqa: F841
    lines: list[str] = []
    judge = Judge(judge_config.load(config), log=lines.append)
    judge.once()
    for i, data in enumerate(_foreign_turns(base, 8)):
        (box / "new" / f"0{i}.stranger").write_bytes(data)
    reads: list[str] = []
    real = library.parse_mail
    monkeypatch.setattr(library, "parse_mail", lambda where, data: reads.append(where) or real(where, data))
    lines.clear()
    judge.once()
    assert len(reads) == 8 and not list((box / "new").iterdir()), lines
    parked = sorted(p.name for p in (base / "mail" / "judge" / "unhosted").iterdir())
    assert parked == [f"{i:032x}.0{i}.stranger" for i in range(8)], lines
    assert sum(" set aside mail " in line for line in lines) == 8
    assert not answers(server)  # a game not hosted here: nobody is answered
    reads.clear()
    for _ in range(3):
        judge.once()
    assert reads == []


def test_a_turn_that_came_before_its_games_invitation_is_read_again_when_the_invitation_comes(base, hosted):
    """Mail is not always delivered in order: a turn of a game not hosted yet is set aside by its game id,
    and read again once the invitation makes the game hosted (here, a turn that then proves bad)."""
    config, port, server, box = hosted.config, hosted.port, hosted.server, hosted.box  # noqa: F841
    game_id = json.loads((base / "game.json").read_text())["genesis"]["game_id"]
    [early] = _foreign_turns(base, 1, game_id)
    (box / "new" / "0.early").write_bytes(early)
    invitation = next(p for p in (box / "new").iterdir() if p.name != "0.early")
    invitation.rename(box / "new" / "9.invitation")
    lines: list[str] = []
    Judge(judge_config.load(config), log=lines.append).once()
    said = [line.split(" ", 1)[1] for line in lines if " mail " in line or " invitation" in line]
    assert said[0].startswith("set aside mail 0.early: a turn of a game there is no copy of here"), said
    assert said[1].startswith(f"applied {game_id[:8]} the invitation"), said
    assert said[2] == f"read again the turns of {game_id[:8]} that came before its invitation"
    assert said[3].startswith("refused mail 0.early: refused a turn: entry 1: this turn belongs to another game"), said
    assert not any((base / "mail" / "judge" / "unhosted").iterdir()) and not any((box / "new").iterdir())


def test_a_turn_waiting_for_a_missing_one_is_read_again_only_when_its_game_moves_on(base, hosted, monkeypatch):
    config, port, server, box = hosted.config, hosted.port, hosted.server, hosted.box  # noqa: F841
    lines: list[str] = []
    judge = Judge(judge_config.load(config), log=lines.append)
    judge.once()  # the invitation
    players_act(base, port, ["ben"], {})  # ben joins (entry after the invitation)
    [ben] = list((box / "new").iterdir())
    held = ben.rename(base / "ben-join.eml")  # delayed on the way
    players_act(base, port, ["cat"], {})  # cat read ben's join and joined after it
    reads: list[str] = []
    real = library.parse_mail
    monkeypatch.setattr(library, "parse_mail", lambda where, data: reads.append(where) or real(where, data))
    judge.once()
    assert len(reads) == 1 and sum(" waiting mail " in line for line in lines) == 1
    judge.once()
    judge.once()
    assert len(reads) == 1  # not parsed on every pass
    held.rename(box / "new" / "0.ben-join")
    judge.once()
    assert len(reads) == 3 and not list((box / "new").iterdir())
    assert [e["author"] for e in judge_entries(base)][1:3] == ["ben", "cat"]


def test_a_players_forked_turn_is_refused_and_the_answer_names_no_path_of_the_judges_machine(base, hosted):
    config, port, server, box = hosted.config, hosted.port, hosted.server, hosted.box  # noqa: F841
    lines: list[str] = []
    judge = Judge(judge_config.load(config), log=lines.append)
    judge.once()
    shutil.copytree(base / "ben", base / "ben-again")  # ben's key in a second home, before his join
    players_act(base, port, ["ben"], {})
    judge.once()  # ben's join applied; ben's address learned
    again = base / "ben-again"
    ok(cli(again, port, "inbox", base / "mail" / "ben"))  # the invitation, read again in the second home
    copy = next((again / "games-files").glob("*.json"))
    ok(cli(again, port, "play", copy, "--as", "ben", "--bot", "greedy", "--seed", "9", "--send"))
    judge.once()
    refused = [line for line in lines if " refused mail " in line]
    assert len(refused) == 1 and ("forked" in refused[0] or "differ" in refused[0]), lines
    [told] = answers(server)
    assert told["To"] == "ben@example.org"
    body = told.get_content()
    assert str(base) not in body and "/tmp" not in body and "/dev/shm" not in body, body
    assert "kept the rival copy" not in body


@pytest.mark.slow
def test_the_judge_keeps_deadlines_on_pbem_now_when_it_is_set(base, hosted, monkeypatch):
    """One clock: the deadlines are judged, and the absence signed, at PBEM_NOW's time (a testing override)."""
    config, port, server, box = hosted.config, hosted.port, hosted.server, hosted.box  # noqa: F841
    lines: list[str] = []
    judge = Judge(judge_config.load(config), log=lines.append)
    seen: dict[str, int] = {}
    for _ in range(4):
        judge.once()
        players_act(base, port, PLAYERS, seen)
    game = api.open_game(next((base / "judge-home" / "games-files").glob("*.json")))
    clocks = api.duty_clocks(game)
    party, (_, _, clock) = next(iter(clocks.items()))
    lines.clear()
    monkeypatch.setenv("PBEM_NOW", str(clock.absent_from + 60))
    judge.last_sweep = float("-inf")
    judge.once()
    assert any(line.split(" ")[1] == "recorded" and f"{party} absent" in line for line in lines), lines
    entries = judge_entries(base)
    absent = next(e for e in entries if e["action"].startswith(f"absent {party}"))
    assert absent["time"] == clock.absent_from + 60


@pytest.mark.slow
def test_pbem_judge_hands_a_commands_help_to_the_judge():
    """`pbem judge` starts the judge's own program with its arguments, --help included (one command is
    enough: the arguments go through untouched, whichever command they name)."""
    done = subprocess.run([sys.executable, "-m", "pbem.cli", "judge", "status", "--help"], capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0 and "Usage: pbem judge status [OPTIONS]" in done.stdout, done.stdout


@pytest.mark.parametrize("command", ["run", "status", "hooks", "ci", "pre-receive", "post-receive"])
def test_each_judge_command_has_its_own_help(command, capsys):
    """What that program (python -m pbem.judge) does with each command's --help, in this process."""
    from pbem.judge.__main__ import main

    assert main([command, "--help"]) == 0
    shown = capsys.readouterr().out
    assert f"Usage: pbem judge {command} [OPTIONS]" in shown, shown


def test_rival_copies_kept_as_evidence_are_capped_per_game(tmp_path):
    """A participant who forks a game again and again (each rival signed, so each is evidence) fills no disk:
    at most MAX_RIVALS rival histories of one game are kept."""
    from pbem.record.models import from_json
    from pbem.transport import copies
    from pbem.transport.store import Copies

    data = json.loads((EXAMPLES / "table-3-players.json").read_text())
    store = Copies(tmp_path)
    kept = []
    for n in range(copies.MAX_RIVALS + 3):
        rival = json.loads(json.dumps(data))
        rival["entries"] = rival["entries"][:n + 1]  # each a different history: a different last entry
        kept.append(store.keep_rival(from_json(json.dumps(rival).encode())))
    assert all(kept[:copies.MAX_RIVALS]) and kept[copies.MAX_RIVALS:] == [None] * 3
    assert len(list((tmp_path / "forks").iterdir())) == copies.MAX_RIVALS
    assert store.keep_rival(from_json(json.dumps({**data, "entries": data["entries"][:1]}).encode())) is not None  # kept
