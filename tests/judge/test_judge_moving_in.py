"""A judge home of files, made by the judge of b1789a2 (before the store: tests/judge/data/judge-home-b1789a2,
a 3-player Path of Pharaohs game at entry 31 with the default deadlines, a reminder sent to ben and an
answer to ann), moves into the store on the judge's first start: the game, the marks of what was mailed,
the addresses learned, the reminders sent and the answers' times. Nothing is sent twice, and the game goes
on (issue 33)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pbem.judge import config as judge_config
from pbem.judge.service import Judge

from judge_support import fast_cli, players_act
from mail_support import smtp_server

FIXTURE = Path(__file__).resolve().parent / "data" / "judge-home-b1789a2"
PLAYERS = ["ann", "ben", "cat"]
REMINDED = 1796016084
"""When the old judge reminded ben (deadlines.json), 24 hours before his deadline."""


@pytest.mark.slow
def test_a_home_of_files_moves_into_the_store_and_the_game_goes_on(tmp_path, monkeypatch):
    fast_cli(monkeypatch)
    base = tmp_path / "base"
    shutil.copytree(FIXTURE, base)
    for key in base.glob("*/keys/*"):
        key.chmod(0o600 if key.suffix != ".pub" else 0o644)  # as made: a checkout does not keep modes
    for sub in ("new", "cur", "tmp"):
        (base / "mail" / "ben" / sub).mkdir(exist_ok=True)  # nor empty folders
    monkeypatch.chdir(base)
    monkeypatch.delenv("PBEM_NOW", raising=False)
    boxes = {f"{n}@example.org": base / "mail" / n for n in [*PLAYERS, "judge"]}
    with smtp_server(boxes) as (port, server):
        config = base / "judge.toml"
        config.write_text(f'home = "{base / "judge-home"}"\nkey = "{base / "judge-home" / "keys" / "judge"}"\n'
                          f'address = "judge@example.org"\n[mailbox]\nmaildir = "{base / "mail" / "judge"}"\n'
                          f'poll_seconds = 0.2\n[smtp]\nserver = "127.0.0.1:{port}"\nsecurity = "none"\n')
        now = [float(REMINDED + 23 * 3600)]  # an hour before ben's deadline, when the old judge last ran
        lines: list[str] = []
        judge = Judge(judge_config.load(config), log=lines.append, clock=lambda: now[0])
        assert [line.split(" ", 1)[1] for line in lines] == [
            "moved into the store: 1 game, 3 addresses, 1 answer, 1 deadline note, 0 waiting mails"]
        (base / "mail" / "judge" / "new" / "1.bad").write_bytes(
            b"From: ann <ann@example.org>\r\nSubject: again\r\n\r\n"
            b"-----BEGIN PBEM TURN-----\r\nH4sIAAAAAAAA/damaged\r\n-----END PBEM TURN-----\r\n")
        judge.once()
        assert [line.split(" ")[1] for line in lines[1:]] == ["refused"], lines  # no reminder again, no answer
        assert server.received == []
        assert judge.store.game_ids() == ["1515e9024bee78e0bbe343fa52f035a5"]
        with judge.store.db.transaction() as tx:
            assert tx.one("SELECT seq, mailed FROM games") == (31, 31)
        assert judge.book("1515e9024bee78e0bbe343fa52f035a5", "judge")["ben"] == "ben@example.org"
        lines.clear()
        judge = Judge(judge_config.load(config), log=lines.append)  # moved in once; now on the real clock
        assert players_act(base, port, ["ben"], {}) == 1  # ben plays his move and mails it
        judge.once()
        kinds = [line.split(" ")[1] for line in lines]
        assert kinds[:1] == ["applied"] and "mailed" in kinds and "moved" not in kinds, lines
    copy = json.loads(next((base / "judge-home" / "games-files").glob("*.json")).read_text())
    assert len(copy["entries"]) > 31


def test_pbem_judge_migrate_then_export_writes_the_games_anyone_verifies(tmp_path, monkeypatch):
    from judge_support import cli

    fast_cli(monkeypatch)
    base = tmp_path / "base"
    shutil.copytree(FIXTURE, base)
    monkeypatch.delenv("PBEM_NOW", raising=False)
    config = base / "judge.toml"
    config.write_text(f'home = "{base / "judge-home"}"\nkey = "{base / "judge-home" / "keys" / "judge"}"\n'
                      'address = "judge@example.org"\n')
    database = base / "judge-home" / "judge.db"
    done = cli(base, 0, "judge", "migrate", config)
    assert (done.exit_code, done.output) == (0, f"Moved into {database}: 1 game, 3 addresses, 1 answer, 1 deadline "
                                                "note, 0 waiting mails.\n")
    again = cli(base, 0, "judge", "migrate", config)
    assert (again.exit_code, again.output) == (0, f"The database {database} holds games already: nothing moved.\n")
    done = cli(base, 0, "judge", "export", config, tmp_path / "out")
    out = tmp_path / "out" / "path-of-pharaohs-1515e902.json"
    assert (done.exit_code, done.output) == (0, f"Wrote {out}\n1 game file from {database}.\n")
    assert out.read_bytes() == (base / "judge-home" / "games-files" / "path-of-pharaohs-1515e902.json").read_bytes()
    checked = cli(tmp_path / "anyone", 0, "verify", out)
    assert checked.exit_code == 0 and ": valid, in progress, " in checked.output, checked.output
