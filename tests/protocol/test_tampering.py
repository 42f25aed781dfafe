"""Mutated copies of the example games: every copy that means something else is rejected by name."""

import json
import random

import pytest

from pbem.errors import VerifyError

from tampering import EXAMPLES, Tally, judge, lazy_mutations

PER_KIND = 6
"""Mutations verified of each kind: every kind is tried, and a full verify costs ~30 ms, so the run over
all 2,000+ (and over the other example game too) is benchmarks/robustness.py's."""


@pytest.mark.slow
def test_every_changed_copy_is_rejected_with_a_named_error():
    raw = (EXAMPLES / "table-3-players.json").read_bytes()
    original = json.loads(raw)
    other = json.loads((EXAMPLES / "referee-2-players.json").read_bytes())
    rng = random.Random(2024)
    every = list(lazy_mutations(original, other, rng, flips=300))  # made only when sampled below
    assert len(every) > 2000
    by_kind: dict[str, list] = {}
    for kind, make in every:
        by_kind.setdefault(kind, []).append(make)
    assert set(by_kind) == {"flipped byte", "changed value", "removed entry", "duplicated entry", "swapped entries",
                            "spliced from another game", "signature moved", "author renamed", "opening changed",
                            "sealed blob replaced", "commitment swapped", "reordered entries"}
    tally = Tally()
    for kind, copies in by_kind.items():
        for make in rng.sample(copies, min(PER_KIND, len(copies))):
            judge(raw, make(), kind, tally)
    assert tally.crashes == []
    assert tally.changed == []
    assert tally.tried == sum(min(PER_KIND, len(c)) for c in by_kind.values()) >= 60
    assert sum(tally.rejected.values()) >= tally.tried - 3  # the rest: equivalent, or the game minus its last entry
    assert set(tally.rejected) >= {"BadSignature", "BadSequence", "RecordError"}


def test_a_rejection_names_entry_author_and_reason():
    raw = (EXAMPLES / "table-3-players.json").read_bytes()
    data = json.loads(raw)
    data["entries"][10]["author"] = "mallory"
    from pbem.protocol.verify import verify
    from pbem.record.models import from_json

    try:
        verify(from_json(json.dumps(data).encode()))
    except VerifyError as exc:
        assert str(exc) == "entry 11 by mallory: 'mallory' is not in the roster"
        assert (exc.seq, exc.author) == (11, "mallory")
    else:
        raise AssertionError("accepted")


@pytest.mark.slow
def test_a_malicious_signer_re_signing_with_their_own_key_is_caught():
    """One forgery of every kind and mode (the full run of 1000+ is benchmarks/robustness.py)."""
    from tampering import judge_resigned, resigned_mutations

    raw = (EXAMPLES / "table-3-players.json").read_bytes()
    other = json.loads((EXAMPLES / "referee-2-players.json").read_bytes())
    every = list(resigned_mutations(json.loads(raw), other, random.Random(7)))
    assert len(every) >= 500
    one_each = {}
    for kind, mode, build in random.Random(7).sample(every, len(every)):
        one_each.setdefault((kind, mode), build)
    assert {kind for kind, _ in one_each} == {"false value", "false reveal", "another game's salt", "another game's blobs",
                                              "another coin's commitment", "replayed entry", "reordered entries",
                                              "false deal"}
    tally = Tally()
    for (kind, _), build in one_each.items():
        judge_resigned(raw, build(), kind, tally)
    assert (tally.changed, tally.crashes, tally.equivalent) == ([], [], 0)
    assert sum(tally.rejected.values()) == len(one_each) >= 11


@pytest.mark.slow
def test_a_path_of_pharaohs_record_re_signed_by_a_cheater_is_rejected_by_name():
    """The malicious signer over a Path of Pharaohs record: a false card shown or discarded, another
    game's salt, a card sealed to another hand, a false deal, replayed and reordered entries, one of each
    (every mutation of both records, and every forgery: benchmarks/robustness.py --game path-of-pharaohs)."""
    from tampering import GAMES, judge_resigned, resigned_mutations

    table, referee = (EXAMPLES / name for name in GAMES["path-of-pharaohs"])
    raw, rng = table.read_bytes(), random.Random(5)
    every = list(resigned_mutations(json.loads(raw), json.loads(referee.read_bytes()), rng))
    one_each = {}
    for kind, mode, build in rng.sample(every, len(every)):
        one_each.setdefault((kind, mode), build)
    assert {kind for kind, _ in one_each} == {"false card", "another game's salt", "another hand's card", "replayed entry",
                                              "reordered entries", "false deal"}
    tally = Tally()
    for (kind, _), build in one_each.items():
        judge_resigned(raw, build(), kind, tally)
    assert (tally.changed, tally.crashes) == ([], [])
    assert sum(tally.rejected.values()) + tally.equivalent == tally.tried == len(one_each) == 10
    assert tally.equivalent <= 2  # reordered entries the rules allow in either order
