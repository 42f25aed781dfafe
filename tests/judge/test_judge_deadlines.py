"""The judge keeps the deadlines of a game's policy, on an injected clock (no sleeps): a reminder to the
player who owes before the deadline, a notice after it, and once the grace has passed the absence
recorded as a signed entry, mailed to everyone, after which the game goes on by its rule."""

from __future__ import annotations

import json

import pytest

from pbem import api
from pbem.crypto.keyring import load_identity
from pbem.judge import config as judge_config
from pbem.judge.service import Judge
from pbem.protocol.genesis import new_game
from pbem.protocol.session import Session
from pbem.record.deadlines import default_policy
from pbem.record.gamefile import save

from judge_support import cli, fast_cli, judge_key, ok, players_act, setup_players, write_config
from mail_support import smtp_server

pytestmark = pytest.mark.slow

PLAYERS = ["ann", "ben", "cat"]


def test_a_vanished_player_is_reminded_then_recorded_absent_and_the_game_goes_on(base, monkeypatch):
    fast_cli(monkeypatch)
    monkeypatch.chdir(base)
    monkeypatch.delenv("PBEM_NOW", raising=False)
    boxes = {f"{n}@example.org": base / "mail" / n for n in [*PLAYERS, "judge"]}
    lines: list[str] = []
    with smtp_server(boxes) as (port, server):
        keys = setup_players(base, port, PLAYERS)
        config = write_config(base, port, maildir=base / "mail" / "judge")
        monkeypatch.setenv("PBEM_HOME", str(base / "ann"))  # ann makes the game with the game's default policy
        rep = new_game("path-of-pharaohs", {}, [(n, api.PublicKey.parse(keys[n])) for n in PLAYERS], "ann",
                       load_identity("ann"), ("judge", api.PublicKey.parse(judge_key(base))),
                       deadlines=default_policy("path-of-pharaohs"))
        Session(rep, "ann", load_identity("ann")).automatic()
        save(base / "game.json", rep.record)
        ok(cli(base / "ann", port, "mail", base / "game.json", "--as", "ann", "--send"))
        start = api.open_game(base / "game.json").genesis.time
        now = [float(start)]
        judge = Judge(judge_config.load(config), log=lines.append, clock=lambda: now[0])
        seen: dict[str, int] = {}
        copy = base / "judge-home" / "games-files"
        late = None
        for _ in range(20):  # everyone joins, the judge deals; the first mover then vanishes
            judge.once()
            game = api.open_game(next(copy.glob("*.json")))
            movers = [d.who for d in game.duties() if d.what == "move"]
            late = late or (movers[0] if movers else None)
            if not players_act(base, port, PLAYERS, seen, skip={late} if late else set()) and late:
                break
        assert late is not None
        what, since, clock = api.duty_clocks(game)[late]
        assert what == "move" and clock.deadline - clock.since == 72 * 3600

        def at(t: int) -> list[str]:
            now[0] = t
            lines.clear()
            judge.last_sweep = float("-inf")  # a minute has passed for the sweep, whatever the jump
            judge.once()
            return lines

        assert at(clock.deadline - 25 * 3600) == []  # before the reminder: nothing
        reminded = at(clock.deadline - 24 * 3600 + 60)
        assert [line.split(" ", 2)[1:] for line in reminded] == [
            ["mailed", f"path-of-pharaohs {game.genesis.game_id[:8]} a reminder to {late}: move owed since entry {since}"]]
        mail = server.received[-1].decode()
        assert f"Subject: [pbem path-of-pharaohs {game.genesis.game_id[:8]}] reminder: {late} to move by " in mail
        assert at(clock.deadline - 3600) == []  # reminded once
        assert [line.split(" ")[1:4] for line in at(clock.deadline + 60)] == [["mailed", "path-of-pharaohs",
                                                                              game.genesis.game_id[:8]]]
        assert "deadline passed" in server.received[-1].decode()
        before = len(json.loads(next(copy.glob("*.json")).read_text())["entries"])
        recorded = at(clock.absent_from + 60)
        kinds = [line.split(" ")[1] for line in recorded]
        assert kinds[:2] == ["recorded", "mailed"] or kinds[:3] == ["recorded", "signed", "mailed"], recorded
        entries = json.loads(next(copy.glob("*.json")).read_text())["entries"]
        assert entries[before]["action"].startswith(f"absent {late} move since={since}")
        assert entries[before]["author"] == "judge" and entries[before]["time"] == clock.absent_from + 60
        assert at(clock.absent_from + 120) == []  # nothing twice
        after = api.open_game(next(copy.glob("*.json")))  # the rule: an absent mover stops; the judge deals on
        assert [e.action.split(" ")[0] for e in after.entries[before:]] == ["absent", "deal"] and not after.over
        assert entries[before]["action"] == f"absent {late} move since={since} do stop"
        what, since, clock = api.duty_clocks(after)[late]  # still silent: the discard down to the limit
        assert what == "discard"
        recorded = at(clock.absent_from + 60)
        assert recorded[0].split(" ")[1] == "recorded", recorded
        final = api.open_game(next(copy.glob("*.json")))
        assert final.entries[after.seq].action.startswith(f"absent {late} discard since={since} do ")
        assert final.duties()[0].who != late  # the next player's turn: the game went on without them
        for name in PLAYERS:  # every player's program accepts what the judge recorded
            players_act(base, port, [name], seen, skip={late})
            mine = json.loads(next((base / name / "games-files").glob("*.json")).read_text())["entries"]
            assert mine[:len(final.entries)] == json.loads(next(copy.glob("*.json")).read_text())["entries"][:len(mine)]
