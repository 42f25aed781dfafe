"""Three players, each with their own PBEM_HOME and Maildir, play a whole game only through `pbem mail`
and `pbem inbox`, with a real SMTP server on localhost delivering the mails; every copy verifies."""

import json

import pytest
from typer.testing import CliRunner

from pbem.cli import app

from mail_support import smtp_server

pytestmark = pytest.mark.slow

runner = CliRunner()
PLAYERS = ["ann", "ben", "cat"]


def as_player(tmp_path, name, port, *args):
    env = {"PBEM_HOME": str(tmp_path / name), "PBEM_SMTP": f"127.0.0.1:{port}", "PBEM_SMTP_SECURITY": "none",
           "PBEM_PASSPHRASE": None, "PBEM_GAMES": None}
    return runner.invoke(app, [str(a) for a in args], env=env)


def test_three_players_play_a_whole_game_by_mail(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    boxes = {f"{n}@example.org": tmp_path / "mail" / n for n in PLAYERS}
    with smtp_server(boxes) as (port, server):
        keys = {}
        for name in PLAYERS:
            made = as_player(tmp_path, name, port, "key", "new", name, "--no-passphrase")
            keys[name] = made.output.splitlines()[-1]
            for other in PLAYERS:
                assert as_player(tmp_path, name, port, "contact", "add", other, f"{other}@example.org").exit_code == 0
        roster = [f"--player={n}={keys[n]}" for n in PLAYERS]
        created = as_player(tmp_path, "ann", port, "new", "sarcophagus", "-o", "game.json", "--as", "ann", *roster,
                            "--late-after", "72h")
        assert created.exit_code == 0, created.output
        sent = as_player(tmp_path, "ann", port, "mail", "game.json", "--as", "ann", "--send")
        assert sent.exit_code == 0, sent.output
        assert sent.output.startswith("Sent to ")

        seen = dict.fromkeys(PLAYERS, -1)
        while True:  # each player reads their mail when some arrived, and plays what they owe
            arrived = {n: len(list((tmp_path / "mail" / n).glob("*/*"))) for n in PLAYERS}
            readers = [n for n in PLAYERS if arrived[n] != seen[n]]
            if not readers:
                break
            for name in readers:
                seen[name] = arrived[name]
                read = as_player(tmp_path, name, port, "inbox", tmp_path / "mail" / name)
                assert read.exit_code == 0, read.output
                owed = [line.split() for line in read.output.splitlines() if line.startswith("    pbem play ")]
                if owed:  # the inbox says what to run: pbem play PATH --as NAME --mail
                    assert owed[0][3:5] == ["--as", name]
                    played = as_player(tmp_path, name, port, "play", owed[0][2], "--as", name, "--bot", "greedy",
                                       "--send")
                    assert played.exit_code == 0, played.output

    for name in PLAYERS:  # everyone's status: the game is over, nobody owes anything
        status = as_player(tmp_path, name, 0, "status", "--json")
        assert status.exit_code == 0, status.output
        assert [(g["finished"], g["i_owe"], g["me"]) for g in json.loads(status.output)["games"]] == [(True, False, [name])]
    copies = [next((tmp_path / n / "games-files").glob("sarcophagus-*.json")) for n in PLAYERS]
    checked = runner.invoke(app, ["verify", *map(str, copies)])
    assert checked.exit_code == 0, checked.output
    assert all("valid, finished" in line for line in checked.output.splitlines())
    assert len({c.read_bytes() for c in copies}) == 1  # one history, byte for byte
    # a turn block, not the whole file, after the first mail; and one thread: each mail replies to the one before
    later = list(server.received[1:])
    assert all(b"BEGIN PBEM TURN" in m and b"filename=" not in m for m in later)
    assert all(b"In-Reply-To:" in m for m in later)
