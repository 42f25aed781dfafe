"""A table with a deadline policy (pbem judge invite --deadlines): its browser seats agree to it by joining, and
the judge keeps it for them as for anyone, over real HTTP to its own process and a real SMTP server. A
browser seat that gave an address is told by mail, with its page's link; one that gave none is mailed
nothing (the judge's outbox holds no mail to a placeholder); a seat that never moves is recorded absent, and
the game goes on and verifies."""

from __future__ import annotations

import json
import mailbox
import sqlite3
import time
from contextlib import closing
from pathlib import Path

import pytest

from judge_support import cli, fast_cli, memory_folder, ok
from web_client_support import Client, WebJudge, entry_for

NAMES = ["ann", "ben", "cat"]
base = pytest.fixture(memory_folder)


def play_until_a_move_is_owed(clients, plays) -> tuple[str, dict]:
    """Everyone signs what they owe that is no move of the game (the joins), until someone owes a move."""
    for _ in range(20):
        states = {name: clients[name].state(plays[name]) for name in NAMES}
        owing = next((name for name in NAMES if states[name]["offers"]), None)
        if owing is None:
            time.sleep(0.1)
            continue
        offer = states[owing]["offers"][0]
        if offer["kind"] == "move":
            return owing, states[owing]
        entry = entry_for(clients[owing].keys[owing], states[owing], offer)
        assert clients[owing].post("/api" + plays[owing] + "/entry", {"entry": entry})[0] == 200
    raise AssertionError("nobody came to owe a move")


def noted(base: Path, party: str, kind: str) -> bool:
    """Whether the judge has noted, in its database, a `kind` (reminder, absent) of `party`'s as done: what
    it notes whether or not there was an address to mail (so that a restart does it not twice)."""
    with closing(sqlite3.connect(f"file:{base / 'judge-home' / 'judge.db'}?mode=ro", uri=True, timeout=10)) as db:
        return db.execute("SELECT 1 FROM deadlines WHERE item LIKE ?", (f"{party}:%:{kind}:%",)).fetchone() is not None


def wait_until(condition, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the judge did not get there"
        time.sleep(0.05)


@pytest.mark.slow
def test_a_browser_seat_that_never_moves_is_reminded_by_mail_then_recorded_absent(base, monkeypatch):
    fast_cli(monkeypatch)
    boxes = {f"{n}@example.org": base / "mail" / n for n in NAMES}
    with WebJudge(base, boxes) as judge:
        links = judge.invite("sarcophagus", *NAMES, extra=("--deadlines", "turn=24,grace=12,remind=6"))
        clients = {name: Client(judge) for name in NAMES}
        plays = {}
        for name in NAMES:  # ann and ben give an address, cat none
            status, answer = clients[name].take(links[name], name, None if name == "cat" else f"{name}@example.org")
            assert status == 200, answer
            plays[name] = answer["play"]
        late, state = play_until_a_move_is_owed(clients, plays)
        seq = state["seq"]
        judge.stop()  # the judge comes back 20 hours later: the reminder is due (6 hours before the deadline)
        judge.start(int(time.time()) + 20 * 3600)
        wait_until(lambda: noted(base, late, "reminder"))  # cat, who gave no address, is mailed nothing
        if late != "cat":
            wait_until(lambda: " a reminder to " in judge.log.read_text())  # mailed
        judge.stop()  # and again, 3 days on: past the deadline and its grace
        later = int(time.time()) + 72 * 3600
        judge.start(later)
        wait_until(lambda: " absent from a move" in judge.log.read_text())
        log = judge.log.read_text()
        assert "recorded sarcophagus " in log and f": {late} absent from a move owed since entry {seq}" in log, log
        assert "error" not in log and "browser.invalid" not in log, log
        copies = judge.export()
    mails = {name: [" ".join(str(m["Subject"]).split()) for m in mailbox.Maildir(base / "mail" / name)] for name in NAMES}
    reminded = [s for s in mails.get(late, []) if "reminder:" in s]
    if late == "cat":
        assert mails["cat"] == []  # no address: nothing mailed, and nothing to a placeholder either
    else:
        assert reminded == [f"[pbem sarcophagus {copies[0].stem.split('-')[-1]}] reminder: {late} to move by "
                            f"{reminded[0].split(' by ')[1]}"]
        body = next(m for m in mailbox.Maildir(base / "mail" / late) if "reminder:" in str(m["Subject"]))
        assert f"/play/{plays[late].split('/')[2]}/{late}" in body.get_payload(decode=True).decode()
    monkeypatch.setenv("PBEM_NOW", str(later))  # the absence is signed at the judge's time: verified then
    verified = ok(cli(base / "anyone", 0, "verify", copies[0]))
    assert ": valid, in progress, " in verified
    record = json.loads(copies[0].read_text())
    assert any(e["author"] == "judge" and e["action"].startswith(f"absent {late} move") for e in record["entries"])
