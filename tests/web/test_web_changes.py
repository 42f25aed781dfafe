"""The pages' event streams are woken when the judge commits a change (pbem/judge/web_changes.py), not by
looking again and again: a bump from any thread wakes whoever waits on the server's loop, and another
seat's page hears of an entry at once; what another process wrote is found by one look of the judge's
every LOOK_AGAIN seconds, whatever the number of pages open, and none while no page is; a mail pass that
changed nothing wakes nobody."""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
import time
import urllib.request
from typing import Any

import pytest

from pbem.crypto import Identity
from pbem.judge import web_judge, web_tables
from pbem.judge.config import load
from pbem.judge.web_changes import Changes, watch_outside
from pbem.judge.web_judge import WebJudge
from pbem.judge.web_server import LOOK_AGAIN

from judge_support import write_config
from web_client_support import Client, entry_for, seated
from web_client_support import WebJudge as WebJudgeProcess


def test_a_bump_from_another_thread_wakes_every_waiter_and_nothing_else_does():
    changes = Changes()

    async def waiting() -> None:
        seen = changes.count
        first, second = changes.moved(seen), changes.moved(seen)
        assert first is second and not first.done()  # one future for every stream of this loop
        await asyncio.sleep(0.05)
        assert not first.done()
        threading.Timer(0.05, changes.bump).start()
        await asyncio.wait_for(first, 5)
        assert changes.count == seen + 1
        assert changes.moved(seen).done()  # a stream that looked before the bump looks again at once
        assert not changes.moved(changes.count).done()

    asyncio.run(waiting())


def ben_listening(judge: WebJudgeProcess) -> tuple[Client, str, queue.Queue[str], dict[str, Any]]:
    """ann and ben take their seats; ben's page's event stream is open and heard the game as it stands.
    ann's client, her page's address, what ben's stream says next, and ann's view."""
    _, clients, plays = seated(judge)
    heard: queue.Queue[str] = queue.Queue()

    def listen() -> None:
        request = urllib.request.Request(judge.url + "/api" + plays["ben"] + "/events",
                                         headers={"cookie": clients["ben"].cookie})
        with urllib.request.urlopen(request, timeout=30) as stream:
            for line in stream:
                if line.startswith(b"data: "):
                    heard.put(line.decode().strip())

    threading.Thread(target=listen, daemon=True).start()
    state = clients["ann"].state(plays["ann"])
    assert heard.get(timeout=10) == f"data: entries {state['seq']}"
    return clients["ann"], plays["ann"], heard, state


@pytest.mark.slow
def test_another_seats_page_hears_of_an_entry_at_once(judge):
    ann, play, heard, state = ben_listening(judge)
    start = time.monotonic()
    status, _ = ann.post("/api" + play + "/entry", {"entry": entry_for(ann.keys["ann"], state, state["offers"][0])})
    assert status == 200
    assert heard.get(timeout=LOOK_AGAIN) == f"data: entries {state['seq'] + 1}"
    assert time.monotonic() - start < LOOK_AGAIN / 2  # woken by the commit, not by a look of its own


@pytest.mark.slow
def test_a_page_hears_of_an_entry_another_process_wrote_within_the_judges_look(tmp_path):
    """Another judge on the same store (here the test's own process) takes ann's entry: the judge serving
    ben's page never committed it, and its mail pass (once a minute here) does not run in the meantime: its
    one look finds the entry and wakes the page within LOOK_AGAIN."""
    with WebJudgeProcess(tmp_path, poll=60) as judge:
        ann, play, heard, state = ben_listening(judge)
        other = WebJudge(load(judge.config), judge.url, log=lambda line: None)
        table = web_tables.table(other.store, play.split("/")[2])
        assert other.post(table, "ann", entry_for(ann.keys["ann"], state, state["offers"][0])) == state["seq"] + 1
        posted = time.monotonic()
        assert heard.get(timeout=LOOK_AGAIN + 5) == f"data: entries {state['seq'] + 1}"
        assert time.monotonic() - posted < LOOK_AGAIN + 2


def test_a_mail_pass_counts_a_change_only_when_the_games_changed(tmp_path):
    judge = WebJudge(load(write_config(tmp_path, 1, maildir=tmp_path / "mail")), "http://127.0.0.1:1",
                     log=lambda line: None)
    judge.once()
    quiet = judge.changes.count
    judge.once()
    judge.once()
    assert judge.changes.count == quiet  # nothing changed: no stream is woken
    table, tokens = web_tables.new_table(judge.store, "sarcophagus", [("ann", None, None), ("ben", None, None)],
                                         [], None, 0.0)
    for name, token in tokens.items():
        web_tables.claim(judge.store, token, Identity.generate().public.line(), None, name, 0.0)
    assert judge.make_game(table.table_id) is not None
    assert judge.changes.count == quiet + 1  # the game made, its duties done: the pages look
    judge.once()  # the games changed since the last pass (by this process, as by another judge)
    judge.once()
    assert judge.changes.count == quiet + 2


def test_the_pages_of_the_most_recently_shown_games_are_kept_and_no_more(tmp_path, monkeypatch):
    """A web judge keeps the pages it worked out (and the referee's session on each game) for the games
    looked at last, KEPT_GAMES of them at most; a game dropped is worked out again, the same, when asked."""
    monkeypatch.setattr(web_judge, "KEPT_GAMES", 2)
    judge = WebJudge(load(write_config(tmp_path, 1, maildir=tmp_path / "mail")), "http://127.0.0.1:1",
                     log=lambda line: None)
    tables = []
    for _ in range(3):
        table, tokens = web_tables.new_table(judge.store, "sarcophagus", [("ann", None, None), ("ben", None, None)],
                                             [], None, 0.0)
        for name, token in tokens.items():
            web_tables.claim(judge.store, token, Identity.generate().public.line(), None, name, 0.0)
        assert judge.make_game(table.table_id) is not None
        tables.append(web_tables.table(judge.store, table.table_id))
    first = judge.page(tables[0], "ann")
    for table in tables[1:]:
        judge.page(table, "ann")
    assert set(judge._pages) == {tables[1].game_id, tables[2].game_id}  # the first, looked at longest ago, dropped
    assert judge.page(tables[0], "ann") == first
    assert set(judge._pages) == {tables[2].game_id, tables[0].game_id}


@pytest.mark.slow
def test_one_look_for_every_open_page_none_without_one_and_a_bump_only_when_the_store_moved():
    changes, stopping, looks, mark = Changes(), threading.Event(), [], [0]

    def look() -> int:
        looks.append(time.monotonic())
        return mark[0]

    watch_outside(changes, threading.Lock(), look, stopping, 0.02, log=lambda line: None)
    try:
        time.sleep(0.2)
        assert looks == []  # no page open: the store is not asked
        with contextlib.ExitStack() as pages:
            for _ in range(200):
                pages.enter_context(changes.watched())
            assert changes.streams == 200
            time.sleep(0.3)
            assert 2 <= len(looks) <= 0.3 / 0.02 + 1  # one look an interval for all 200 pages
            assert changes.count == 1  # the first look wakes them (what moved before it is not known), then
            mark[0] = 1  # the store did not move until another process wrote
            deadline = time.monotonic() + 5
            while changes.count == 1 and time.monotonic() < deadline:
                time.sleep(0.01)
            assert changes.count == 2
        assert changes.streams == 0
        time.sleep(0.1)
        seen = len(looks)
        time.sleep(0.2)
        assert len(looks) == seen  # the pages gone: the looks stop
    finally:
        stopping.set()


@pytest.mark.slow
def test_a_look_that_fails_is_logged_once_until_one_succeeds_and_the_pages_are_woken_after():
    changes, stopping, logged, marks = Changes(), threading.Event(), [], iter([0, 0, "gone", "gone", "gone", 1, 1,
                                                                              "gone", 1] + [1] * 1000)

    def look() -> int:
        found = next(marks)
        if found == "gone":
            raise OSError("the database went away")
        return int(found)

    with changes.watched():
        watch_outside(changes, threading.Lock(), look, stopping, 0.01, logged.append)
        try:
            deadline = time.monotonic() + 5
            while changes.count < 2 and time.monotonic() < deadline:
                time.sleep(0.01)
            time.sleep(0.2)
        finally:
            stopping.set()
    assert logged == ["error looking at the store for other judges' changes: OSError: the database went away"] * 2
    assert changes.count == 2  # the first look, then the store moved on from 0 to 1 across the failures


def test_the_store_mark_moves_with_each_thing_a_page_shows_whoever_wrote_it(tmp_path, judge_database):
    """What `pbem judge web` looks at for other processes' changes: a table made, a seat taken, the game
    made, an entry, each moves it, as another judge on the same store (SQLite or PostgreSQL) writes them;
    nothing else does."""
    path = write_config(tmp_path, 1, maildir=tmp_path / "mail")
    path.write_text(path.read_text().replace("[mailbox]", f'database = "{judge_database}"\n[mailbox]', 1))
    config = load(path)
    watching = WebJudge(config, "http://127.0.0.1:1", log=lambda line: None)
    other = WebJudge(config, "http://127.0.0.1:1", log=lambda line: None)  # another process's judge
    marks = [web_tables.store_mark(watching.store)]

    def moved() -> bool:
        marks.append(web_tables.store_mark(watching.store))
        return marks[-1] != marks[-2]

    assert not moved()
    table, tokens = web_tables.new_table(other.store, "sarcophagus", [("ann", None, None), ("ben", None, None)],
                                         [], None, 0.0)
    assert moved()
    keys = {name: Identity.generate() for name in tokens}
    for name, token in tokens.items():
        web_tables.claim(other.store, token, keys[name].public.line(), None, name, 0.0)
        assert moved()
    assert other.make_game(table.table_id) is not None
    assert moved()
    other.once()
    assert not moved()  # a pass with no mail wrote nothing a page shows
    hosted = web_tables.table(other.store, table.table_id)
    data = other.page(hosted, "ann")
    seat = (data["offers"] and "ann") or "ben"
    data = other.page(hosted, seat)
    other.post(hosted, seat, entry_for(keys[seat], data, data["offers"][0]))
    assert moved()
