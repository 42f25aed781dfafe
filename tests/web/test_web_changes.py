"""The pages' event streams are woken when the judge commits a change (pbem/judge/web_changes.py), not by
looking again and again: a bump from any thread wakes whoever waits on the server's loop, and another
seat's page hears of an entry at once, though a stream looks at the store on its own only every
LOOK_AGAIN seconds."""

from __future__ import annotations

import asyncio
import queue
import threading
import time
import urllib.request

from pbem.judge.web_changes import Changes
from pbem.judge.web_server import LOOK_AGAIN

from web_client_support import Client, entry_for


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


def test_another_seats_page_hears_of_an_entry_at_once(judge):
    names = ["ann", "ben"]
    links = judge.invite("sarcophagus", *names)
    clients, plays = {name: Client(judge) for name in names}, {}
    for name in names:
        status, answer = clients[name].take(links[name], name)
        assert status == 200, answer
        plays[name] = answer["play"]
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
    start = time.monotonic()
    status, _ = clients["ann"].post("/api" + plays["ann"] + "/entry",
                                    {"entry": entry_for(clients["ann"].keys["ann"], state, state["offers"][0])})
    assert status == 200
    assert heard.get(timeout=LOOK_AGAIN) == f"data: entries {state['seq'] + 1}"
    assert time.monotonic() - start < LOOK_AGAIN / 2  # woken by the commit, not by a look of its own
