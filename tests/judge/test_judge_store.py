"""The judge's store holds its invariants by the database's own means, on SQLite (a real file) and on a
real PostgreSQL (a throwaway cluster): a place signed once, whichever process tries twice; one writer
at a time in a game; a mail and an outbox mail taken by one judge; a schema newer than this pbem's
refused."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

import pytest

from pbem.judge import schema
from pbem.judge.database import Database, StoreError
from pbem.judge.store import OUTBOX_KEPT, Store


@pytest.fixture
def url(judge_database):
    """A new, empty database of each kind."""
    return judge_database


def judge(url: str, tmp_path: Path, name: str) -> Store:
    return Store(Database(url), tmp_path / name / "games-files", name)


def test_a_place_is_signed_once_whichever_judge_tries_twice(url, tmp_path):
    one, two = judge(url, tmp_path, "one"), judge(url, tmp_path, "two")
    with one.db.transaction(lock=["g"]) as tx:
        one.sign(tx, "g", {5: "a" * 64, 6: "b" * 64}, 1.0)
    with pytest.raises(StoreError, match="refused a change"), two.db.transaction(lock=["g"]) as tx:
        two.sign(tx, "g", {6: "c" * 64}, 2.0)  # another entry for place 6: refused, with all of its transaction
    with pytest.raises(StoreError), one.db.transaction(lock=["g"]) as tx:
        one.sign(tx, "g", {7: "d" * 64}, 3.0)
        one.sign(tx, "g", {5: "e" * 64}, 3.0)  # place 5 again: place 7 goes with it
    assert one.places_signed() == {("g", 5): "a" * 64, ("g", 6): "b" * 64}


FORKS = multiprocessing.get_context("forkserver")
"""Processes of their own, forked from a server that imported the store once (spawn imported it in each:
0.3 s of CPU a process), not from this process (its connections and threads are not theirs to share)."""
FORKS.set_forkserver_preload(["pbem.judge.store"])


def _count(url: str, root: str, name: str, times: int) -> None:
    store = judge(url, Path(root), name)
    for _ in range(times):
        with store.db.transaction(lock=["game"]) as tx:  # read, then write: only safe under the game's lock
            row = tx.one("SELECT at FROM answered WHERE address = 'counter'")
            if row is None:
                tx.run("INSERT INTO answered (address, at) VALUES ('counter', 1)")
            else:
                tx.run("UPDATE answered SET at = ? WHERE address = 'counter'", (row[0] + 1,))


@pytest.mark.slow
def test_the_game_lock_lets_one_judge_process_at_a_time_change_a_game(url, tmp_path):
    judge(url, tmp_path, "setup")  # the schema, made once
    processes = [FORKS.Process(target=_count, args=(url, str(tmp_path), f"j{i}", 100)) for i in range(3)]
    for process in processes:
        process.start()
    for process in processes:
        process.join(120)
    assert [p.exitcode for p in processes] == [0, 0, 0]
    store = judge(url, tmp_path, "reader")
    assert store.answered_at("counter") == 300  # no update lost between the three


def test_a_mail_is_read_by_one_judge_until_its_claim_is_stale(url, tmp_path):
    one, two = judge(url, tmp_path, "one"), judge(url, tmp_path, "two")
    assert one.take("1.mail", 100.0) == 1
    assert two.take("1.mail", 101.0) is None  # one is reading it
    assert one.take("1.mail", 102.0) == 2  # one was restarted: its second try
    assert two.take("1.mail", 102.0 + 61) == 3  # one died: two takes it over
    one.settle(None, "1.mail", "done")
    assert one.take("1.mail", 200.0) == 0 and two.take("1.mail", 200.0) == 0  # settled: only to be moved aside


def test_an_outbox_mail_is_claimed_by_one_judge_and_marked_once_sent(url, tmp_path):
    one, two = judge(url, tmp_path, "one"), judge(url, tmp_path, "two")
    with one.db.transaction() as tx:
        one.queue(tx, "g", None, b"Subject: a\r\n\r\nA", "the first", 10.0)
        one.queue(tx, "g", None, b"Subject: b\r\n\r\nB", "the second", 10.0)
    taken = one.claim_unsent(11.0)
    assert [about for _, _, about, _ in taken] == ["the first", "the second"]
    assert two.claim_unsent(12.0) == []
    one.delivered([taken[0][0]], 13.0)
    one.undelivered(taken[1][0], "the server said no")
    assert [about for _, _, about, _ in two.claim_unsent(14.0)] == ["the second"]
    assert one.unsent_count() == 1
    # a month on, the mail sent is forgotten (the game files hold what it carried), the unsent one kept
    assert one.prune_outbox(13.0 + OUTBOX_KEPT) == 0
    assert one.prune_outbox(13.5 + OUTBOX_KEPT) == 1
    assert one.unsent_count() == 1 and [about for _, _, about, _ in two.claim_unsent(14.0 + 60)] == ["the second"]


def test_a_database_newer_than_this_pbem_is_refused(url, tmp_path):
    store = judge(url, tmp_path, "one")
    with store.db.transaction() as tx:
        tx.run("UPDATE schema_version SET version = ?", (schema.VERSION + 1,))
    with pytest.raises(schema.SchemaError, match=f"schema version {schema.VERSION + 1}, newer than this pbem's"):
        Database(url)


def test_migrations_run_once(url, tmp_path):
    judge(url, tmp_path, "one")
    judge(url, tmp_path, "two")
    with judge(url, tmp_path, "three").db.transaction() as tx:
        assert tx.all("SELECT version FROM schema_version") == [(schema.VERSION,)]


def test_a_part_of_a_transaction_fails_alone(url, tmp_path):
    """Tx.part (a savepoint): the referee's duties inside a mail's transaction. A change the database
    refuses there undoes that part only; the mail's own changes are committed."""
    one, two = judge(url, tmp_path, "one"), judge(url, tmp_path, "two")
    with one.db.transaction(lock=["g"]) as tx:
        one.sign(tx, "g", {1: "a" * 64}, 1.0)
    with two.db.transaction(lock=["g"]) as tx:
        two.sign(tx, "g", {2: "b" * 64}, 2.0)  # the mail's change
        with pytest.raises(StoreError, match="refused a change"), tx.part():
            two.sign(tx, "g", {3: "c" * 64}, 2.0)
            two.sign(tx, "g", {1: "d" * 64}, 2.0)  # place 1 again: refused, and place 3 with it
        with tx.part():
            two.sign(tx, "g", {4: "e" * 64}, 2.0)  # the next part goes on
    assert two.places_signed() == {("g", 1): "a" * 64, ("g", 2): "b" * 64, ("g", 4): "e" * 64}
