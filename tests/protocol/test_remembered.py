"""Replays kept in memory (pbem.protocol.remembered): a record that extends a verified one is checked from
where that one stopped and ends where a replay from the genesis ends; a changed file is refused exactly
as a fresh process refuses it, however much of the honest one was kept."""

import dataclasses
import json
import random

import pytest

from pbem.errors import IllegalMove, PbemError
from pbem.protocol import remembered
from pbem.protocol.entries import apply_entry, replay
from pbem.protocol.replay import Replay
from pbem.protocol.verify import verify
from pbem.record.deadlines import parse_policy
from pbem.record.models import GameFile, from_json

from pbem_support import played_game, start_play
from tampering import EXAMPLES, lazy_mutations, resigned_mutations


@pytest.fixture(autouse=True)
def _nothing_kept():
    remembered.forget()
    yield
    remembered.forget()


def fresh(record: GameFile) -> Replay:
    """The replay from the genesis, as a new process makes it."""
    remembered.forget()
    return replay(record)


def prefix(record: GameFile, entries: int) -> GameFile:
    return GameFile.model_construct(genesis=record.genesis, entries=list(record.entries[:entries]))


def outcome(record_bytes: bytes) -> str:
    """What verify makes of a file: the error's class and words, or the entries it accepted."""
    try:
        return f"valid, {verify(from_json(record_bytes)).seq} entries"
    except PbemError as exc:
        return f"{type(exc).__name__}: {exc}"


def outcome_alone(record_bytes: bytes, monkeypatch) -> str:
    """What a fresh process makes of a file: nothing recalled, nothing kept."""
    with monkeypatch.context() as alone:
        alone.setattr(remembered, "recall", lambda keys: None)
        alone.setattr(remembered, "keep", lambda keys, rep: None)
        return outcome(record_bytes)


@pytest.mark.parametrize("game", ["table-3-players.json", "pharaohs-referee-4-players.json"])
def test_a_record_that_extends_a_kept_one_goes_on_from_it_to_what_a_replay_from_the_genesis_gives(game):
    record = from_json((EXAMPLES / game).read_bytes())
    whole = fresh(record)
    remembered.forget()
    half = len(record.entries) // 2
    replay(prefix(record, half))
    assert remembered.recall(remembered.chain(record)).seq == half  # what the next replay starts from
    went_on = replay(record)
    assert went_on == whole  # every field: state, events, items, hashes, duties' clocks
    assert replay(record) == whole  # and once more, all of it recalled


def test_what_a_caller_does_with_a_replay_changes_nothing_kept():
    record = from_json((EXAMPLES / "table-3-players.json").read_bytes())
    shorter = prefix(record, 20)
    handed = replay(shorter)
    apply_entry(handed, record.entries[20])  # as a session does when it signs on the replay it was handed
    assert handed.seq == 21
    assert replay(shorter) == fresh(shorter)


def test_a_fork_shares_no_list_or_dict_with_what_it_was_made_from():
    rep = played_game(finish=False)
    copy = rep.fork()
    assert copy == rep
    for f in dataclasses.fields(Replay):
        if isinstance(getattr(rep, f.name), (list, dict, set)):
            assert getattr(copy, f.name) is not getattr(rep, f.name), f.name


@pytest.mark.parametrize("game", ["table-3-players.json", "pharaohs-table-4-players.json"])
@pytest.mark.slow
def test_every_changed_copy_is_refused_as_a_fresh_process_refuses_it_though_the_honest_one_is_kept(game, monkeypatch):
    raw = (EXAMPLES / game).read_bytes()
    honest = from_json(raw)
    monkeypatch.setattr(remembered, "KEPT", 10_000)  # the bounds are not what this test is about
    monkeypatch.setattr(remembered, "KEPT_BYTES", 2**40)
    keys, rep = remembered.chain(honest), fresh(prefix(honest, 0))
    for entry in honest.entries:  # every honest prefix kept: a copy changed at entry k goes on from the
        apply_entry(rep, entry)  # honest replay of the k - 1 before it
        remembered.keep(remembered.Chain(keys[:rep.seq + 1]), rep)
    other = json.loads((EXAMPLES / "referee-2-players.json").read_bytes())
    rng = random.Random(7)
    changed = rng.sample(list(lazy_mutations(json.loads(raw), other, rng)), 20)
    forged = rng.sample([(kind, build) for kind, _mode, build in resigned_mutations(json.loads(raw), other, rng)], 4)
    refused = 0
    for kind, make in changed + forged:  # each copy made only here (re-signing is the slow part)
        mutated = make()
        alone = outcome_alone(mutated, monkeypatch)
        assert outcome(mutated) == alone, kind
        refused += not alone.startswith("valid")
    assert refused >= 20
    assert remembered.recall(remembered.chain(honest)).seq == len(honest.entries)  # the honest file, still kept


def test_an_entry_kept_at_a_later_clock_is_refused_at_an_earlier_one(monkeypatch):
    invited = 1_800_000_000
    monkeypatch.setenv("PBEM_NOW", str(invited))
    rep = played_game(finish=False, started=False, deadlines=parse_policy("sarcophagus", "turn=24,grace=24"))
    monkeypatch.setenv("PBEM_NOW", str(invited + 10 * 3600))
    start_play(rep)  # joined and dealt ten hours after the invitation
    record = rep.record
    assert replay(record).seq == len(record.entries) > 0  # kept, checked at a clock that had reached it
    monkeypatch.setenv("PBEM_NOW", str(invited + 3600))  # a reader whose clock is nine hours behind that
    with pytest.raises(IllegalMove, match="ahead of this program's clock"):
        replay(record)
    monkeypatch.setenv("PBEM_NOW", str(invited + 10 * 3600))
    assert replay(record) == fresh(record)


def test_the_least_recently_used_replays_are_dropped_beyond_so_many():
    record = from_json((EXAMPLES / "table-3-players.json").read_bytes())
    made = remembered.KEPT + 8
    for entries in range(made):
        replay(prefix(record, entries))
    kept = [remembered.recall(remembered.chain(prefix(record, n))) for n in range(made)]
    assert [rep.seq if rep else None for rep in kept] == [None] * 8 + list(range(8, made))
