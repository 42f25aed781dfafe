"""Checkpoints (issue 33): the judge keeps each game's verified replay in its database, and a later process
goes on from it instead of replaying from the genesis, for exactly the record it was made from: a record
that differs in one byte, or a checkpoint made by other code, is replayed and checked from the genesis."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import pbem.protocol.entries as entries
from pbem.errors import VerifyError
from pbem.judge.database import Database
from pbem.judge.store import Store
from pbem.protocol import remembered
from pbem.protocol.verify import verify
from pbem.record.models import from_json

from paths_support import EXAMPLES

GAME = EXAMPLES / "pharaohs-table-4-players.json"


@pytest.fixture
def store(judge_database, tmp_path):
    return Store(Database(judge_database), tmp_path / "games-files", "one")


@pytest.fixture
def applied(monkeypatch):
    """How many entries are applied (checked) from now on."""
    count = [0]
    real = entries.apply_entry

    def counting(rep, entry, signed=None):
        count[0] += 1
        return real(rep, entry, signed)

    monkeypatch.setattr(entries, "apply_entry", counting)
    return count


def kept(store: Store, tmp_path: Path):
    """The example game (146 entries) held in the store with its checkpoint; this process's memory then
    emptied, as a new process's is."""
    record = from_json(GAME.read_bytes())
    copy = tmp_path / "games-files" / "pharaohs.json"
    copy.parent.mkdir(parents=True, exist_ok=True)
    copy.write_bytes(GAME.read_bytes())
    with store.db.transaction(lock=[record.genesis.game_id]) as tx:
        store.save(tx, copy, 1.0)
        assert store.checkpoint(tx, verify(record))
    remembered.forget()
    return record


def test_a_new_process_goes_on_from_the_checkpoint_without_replaying_the_game(store, tmp_path, applied):
    record = kept(store, tmp_path)
    with store.db.transaction() as tx:
        assert store.resume(tx, record.genesis.game_id)
    applied[0] = 0
    assert verify(record).seq == 146 and applied[0] == 0
    remembered.forget()
    verify(record)
    assert applied[0] == 146  # without it: every entry


def test_a_record_one_byte_off_the_checkpoints_is_checked_from_the_genesis(store, tmp_path, applied):
    record = kept(store, tmp_path)
    with store.db.transaction() as tx:
        assert store.resume(tx, record.genesis.game_id)
    data = json.loads(GAME.read_text())
    last = data["entries"][-1]
    last["signature"] = last["signature"][:-4] + ("AAA=" if last["signature"][-4:] != "AAA=" else "BBB=")
    applied[0] = 0
    with pytest.raises(VerifyError):
        verify(from_json(json.dumps(data).encode()))
    assert applied[0] == 146  # the checkpoint's key is the whole record's: nothing of it served


def test_a_checkpoint_made_by_other_code_is_not_used(store, tmp_path, applied):
    record = kept(store, tmp_path)
    with store.db.transaction() as tx:
        tx.run("UPDATE checkpoints SET stamp = ?", ("pbem-checkpoint/1 0123456789abcdef0123456789abcdef",))
        assert not store.resume(tx, record.genesis.game_id)
        tx.run("UPDATE checkpoints SET stamp = (SELECT stamp FROM checkpoints), state = ?", (b"not a pickle",))
    applied[0] = 0
    verify(record)
    assert applied[0] == 146


def test_checkpoints_are_kept_every_few_entries_and_never_go_back(store, tmp_path):
    data = json.loads(GAME.read_text())
    full = verify(from_json(GAME.read_bytes()))
    shorter = verify(from_json(json.dumps({"genesis": data["genesis"], "entries": data["entries"][:140]}).encode()))
    copy = tmp_path / "games-files" / "pharaohs.json"
    copy.parent.mkdir(parents=True, exist_ok=True)
    copy.write_bytes(GAME.read_bytes())
    with store.db.transaction() as tx:
        store.save(tx, copy, 1.0)
        assert store.checkpoint(tx, shorter)  # the first
        assert not store.checkpoint(tx, full)  # 6 entries on: not yet
        assert store.checkpoint(tx, full, every=1)
        assert not store.checkpoint(tx, shorter, every=1)  # never back
        assert tx.one("SELECT seq FROM checkpoints") == (146,)
