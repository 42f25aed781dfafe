"""A mixed game through pbem judge web: ann plays Path of Pharaohs in a browser (headless Chromium), ben and cat
with pbem on the command line by mail (a real SMTP server, the judge's Maildir read by the same process
that serves ann's page), to the end. ann gave her address when she took her seat: the judge mails her a
short notice with her page's link when something is owed from her, once a turn. Every copy verifies with
pbem verify, and the players' copies are the judge's."""

from __future__ import annotations

import json
import mailbox
import random
import time
from pathlib import Path

import pytest

from judge_support import cli, fast_cli, ok, players_act, setup_players
from web_client_support import WebJudge, ready, sign, take_seat, text_of

BY_MAIL = ["ben", "cat"]

def copy(base: Path, name: str) -> Path:
    """A player's own copy of the game."""
    return next((base / name / "games-files").glob("path-of-pharaohs-*.json"))


@pytest.mark.slow
def test_a_browser_player_and_two_players_by_mail_share_one_game(base, browser, monkeypatch):
    fast_cli(monkeypatch)
    monkeypatch.chdir(base)
    boxes = {f"{n}@example.org": base / "mail" / n for n in ["ann", *BY_MAIL]}
    with WebJudge(base, boxes) as judge:
        keys = setup_players(base, judge.port, BY_MAIL)
        for name in BY_MAIL:  # ann's address, as she gave it on her page, is in their address books
            ok(cli(base / name, judge.port, "contact", "add", "ann", "ann@example.org"))
        links = judge.invite("path-of-pharaohs", "ann", *BY_MAIL,
                             extra=tuple(f"--{kind}={name}={value}" for name in BY_MAIL
                                         for kind, value in (("key", keys[name]), ("mail", f"{name}@example.org"))))
        assert sorted(links) == ["ann"]  # ben and cat have their keys: no link
        page = take_seat(browser, links["ann"], address="ann@example.org")
        seen: dict[str, int] = {}
        ann_moves, opened, chance, deadline = 0, 0, random.Random(7), time.monotonic() + 300
        while time.monotonic() < deadline:
            acted = players_act(base, judge.port, BY_MAIL, seen)
            shown = ready(browser)
            secrets = text_of(browser, "secrets")  # ann's cards, opened in her page with her key
            assert "not as committed" not in secrets
            opened += "opened here with your key and checked against the record" in secrets
            if shown["offers"]:
                said = sign(browser, chance.randrange(len(shown["offers"])))
                assert "accepted by the judge" in said, said
                ann_moves += 1
            elif shown["title"] == "Game over":
                break
            elif not acted:
                time.sleep(0.05)  # for the judge's next look at its mail (every 0.1 s), or its mail to them
        assert shown["title"] == "Game over" and ann_moves >= 5 and opened >= 3  # the deal decides how many
        browser.get("about:blank")  # ann's page closed: its event stream would hold the judge's stop for 2 s
        copies = judge.export()
        length = len(json.loads(copies[0].read_text())["entries"])
        settled = time.monotonic() + 60
        while time.monotonic() < settled and any(len(json.loads(copy(base, name).read_text())["entries"]) < length
                                                  for name in BY_MAIL):
            players_act(base, judge.port, BY_MAIL, seen)  # the judge's last mail, read when it comes
            time.sleep(0.05)
    notices = [m for m in mailbox.Maildir(base / "mail" / "ann") if m["Subject"].startswith("Your turn:")]
    assert 1 <= len(notices) < ann_moves  # once a turn, not once an entry
    assert page in notices[0].get_payload(decode=True).decode()
    assert str(notices[0]["From"]) == "judge <judge@example.org>"
    assert len(copies) == 1
    judged = ok(cli(base / "anyone", 0, "verify", copies[0]))
    assert ": valid, finished, " in judged and "wins" in judged
    for name in BY_MAIL:  # each player's own copy is the judge's, entry for entry
        mine = copy(base, name)
        assert ok(cli(base / name, 0, "verify", mine)).split(": ", 1)[1] == judged.split(": ", 1)[1]
        assert json.loads(mine.read_text()) == json.loads(copies[0].read_text())
    record = json.loads(copies[0].read_text())
    assert sum(1 for entry in record["entries"] if entry["author"] == "ann") == ann_moves
