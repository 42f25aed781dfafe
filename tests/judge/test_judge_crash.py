"""The judge killed with SIGKILL at random moments while turns arrive: restarted, it never signs two
different entries for one place in a game and never loses an accepted turn. (A longer run, to the end
of a 4-player game: benchmarks/judge_load.py --crash.)"""

from __future__ import annotations

import json
import random
import threading
import time

import pytest

from pbem.judge import config as judge_config
from pbem.judge.service import Judge

from judge_support import (
    JudgeProcess,
    fast_cli,
    players_act,
    setup_players,
    signed_by,
    start_game,
    write_config,
)
from mail_support import smtp_server

pytestmark = pytest.mark.slow

PLAYERS = ["ann", "ben", "cat"]


def entries(base, who: str) -> int:
    return len(json.loads(next((base / who / "games-files").glob("*.json")).read_text())["entries"])


def test_a_judge_killed_at_random_moments_signs_each_place_once_and_keeps_every_turn(base, monkeypatch):
    fast_cli(monkeypatch)
    monkeypatch.chdir(base)
    rng = random.Random(23)
    boxes = {f"{n}@example.org": base / "mail" / n for n in [*PLAYERS, "judge"]}
    with smtp_server(boxes) as (port, server):
        keys = setup_players(base, port, PLAYERS)
        config = write_config(base, port, maildir=base / "mail" / "judge")
        start_game(base, port, "path-of-pharaohs", PLAYERS, keys, base / "game.json")
        judge = JudgeProcess(config)
        judge.start()
        seen: dict[str, int] = {}
        try:
            while judge.kills < 3:
                judge.wait_started()
                kill = threading.Timer(rng.uniform(0.0, 0.4), judge.kill)  # somewhere in its work, or waiting
                kill.start()
                deadline = time.monotonic() + 30  # a round: the players read until one of them plays, or
                while not players_act(base, port, PLAYERS, seen) and kill.is_alive() \
                        and time.monotonic() < deadline:  # the judge they may be waiting for is killed
                    time.sleep(0.02)
                kill.join()
                judge.start()
            # then left alone, the players only reading: everything mailed to it is applied, everything
            # owed signed and mailed, and read (the game need not end: the kills are what is tested)
            judge.wait_started()
            settled, calm = time.monotonic() + 120, 0  # generous: a loaded machine is slow, not wrong
            while time.monotonic() < settled and calm < 3:  # the same three times running: everyone idle
                players_act(base, port, PLAYERS, seen, skip=set(PLAYERS))
                same = {entries(base, "judge-home")} == {entries(base, n) for n in PLAYERS}
                calm = calm + 1 if same and not any((base / "mail" / "judge" / "new").iterdir()) else 0
                time.sleep(0.1)
        finally:
            judge.stop()
        received = list(server.received)
    assert judge.kills == 3
    places = signed_by(received, "judge")
    assert places and all(len(versions) == 1 for versions in places.values()), places
    copy = next((base / "judge-home" / "games-files").glob("*.json"))
    final = json.loads(copy.read_text())["entries"]
    for name in PLAYERS:  # each player's copy is a prefix of the judge's: no accepted turn was lost
        mine = json.loads(next((base / name / "games-files").glob("*.json")).read_text())["entries"]
        assert final[:len(mine)] == mine and len(mine) <= len(final)
    assert {entries(base, n) for n in PLAYERS} == {len(final)}
    assert len(final) > 10


def test_the_judges_files_a_power_cut_damaged_are_made_again_from_its_database(base, hosted):
    """The judge writes its game copies and what its home has seen of each without fsync (its database
    holds them durably), so a power cut may leave them damaged or old. A judge started again trusts none
    of them: it writes each again from the database, and the game goes on. (A copy it cannot read was
    always written again; what the home has seen, damaged, stopped the game.)"""
    config, port = hosted.config, hosted.port
    judge = Judge(judge_config.load(config), log=lambda line: None)
    judge.once()  # the invitation
    seen: dict[str, int] = {}
    for _ in range(2):  # everyone joins; the judge deals
        players_act(base, port, PLAYERS, seen)
        judge.once()
    copy = next((base / "judge-home" / "games-files").glob("*.json"))
    history = base / "judge-home" / "games" / f"{hosted.game_id}.json"
    kept = json.loads(copy.read_text())["entries"]
    assert len(kept) > 3 and history.is_file()
    history.write_bytes(b"{\"seq\": 0, \"has")  # renamed into place, half of its data written
    lines: list[str] = []
    judge = Judge(judge_config.load(config), log=lines.append)  # the judge started again
    assert players_act(base, port, PLAYERS, seen) >= 1  # whoever owes a move by the deal
    judge.once()
    assert not [line for line in lines if " error " in line or "quarantined" in line], lines
    now = json.loads(copy.read_text())["entries"]
    assert now[:len(kept)] == kept and len(now) > len(kept)
    assert json.loads(history.read_text())["seq"] == len(now)


def test_a_judge_started_again_referees_the_games_a_stop_left_undone_and_opens_no_other(base, hosted):
    """At start, the judge does its duties in the games changed since it last did them (a mail applied,
    its duties left for a transaction of their own, then the judge stopped): not in every game it hosts,
    which cost a judge of 1,000 games minutes at each start."""
    config, port = hosted.config, hosted.port
    judge = Judge(judge_config.load(config), log=lambda line: None)
    judge.once()  # the invitation: applied, refereed
    assert Judge(judge_config.load(config), log=lambda line: None).pending == set()
    seen: dict[str, int] = {}
    players_act(base, port, PLAYERS, seen)  # the joins
    judge.referee_in = lambda tx, game_id, game=None: False  # the database busy: the duties left for later
    judge.read()  # applied, and the judge stops before its duties
    lines: list[str] = []
    again = Judge(judge_config.load(config), log=lines.append)
    assert again.pending == {hosted.game_id}
    again.once()
    assert any(" signed " in line for line in lines), lines  # the deal, owed once everyone joined
    assert Judge(judge_config.load(config), log=lambda line: None).pending == set()


def test_nothing_leaves_the_judge_before_what_it_committed_is_forced_to_disk(base, hosted, monkeypatch):
    """The judge commits a batch of mails without waiting for the disk, then forces it once (one fsync a
    batch, not one a mail): no mail is moved out of new/ and no mail sent before that, so a power cut
    cannot leave a turn set aside that its database lost, nor a signed entry mailed that it forgot."""
    from pbem.judge import spool as spool_module
    from pbem.transport.mail import Outgoing

    config, port = hosted.config, hosted.port
    judge = Judge(judge_config.load(config), log=lambda line: None)
    db, unforced_at = judge.store.db, []
    real_move, real_send = spool_module._move, Outgoing.send

    def move(path, target):
        unforced_at.append(("move", db._unforced))
        real_move(path, target)

    def send(self, msg):
        unforced_at.append(("send", db._unforced))
        real_send(self, msg)

    monkeypatch.setattr(spool_module, "_move", move)
    monkeypatch.setattr(Outgoing, "send", send)
    real_force, forced = db.force, []
    monkeypatch.setattr(db, "force", lambda: forced.append(db._unforced) or real_force())
    seen: dict[str, int] = {}
    judge.once()
    for _ in range(3):
        players_act(base, port, PLAYERS, seen)
        judge.once()
    assert {"move", "send"} <= {what for what, _ in unforced_at}
    assert not any(unforced for _, unforced in unforced_at), unforced_at
    assert True in forced  # it had something to force, and forced it
