"""The fuzz harness (tests/fuzz_support.py) over every input path, with a small fixed budget: each path
gets its seeds and some dozens of mutations of them. benchmarks/fuzz_inputs.py runs it for hours."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzz_support import Sandbox, check, mutate, sandbox

PATHS = ["game file", "turn block", "armored text", "whole mail", "key file", "address book", "config"]


@pytest.fixture(scope="module")
def box(tmp_path_factory) -> Sandbox:
    return sandbox(tmp_path_factory.mktemp("fuzz"))


@pytest.fixture(autouse=True)
def _home(box, monkeypatch):
    monkeypatch.setenv("PBEM_HOME", str(box.home))
    monkeypatch.delenv("PBEM_PASSPHRASE", raising=False)
    monkeypatch.delenv("PBEM_GAMES", raising=False)


def ops(tokens):
    return st.lists(st.tuples(st.integers(0, 2**32 - 1), st.integers(0, 5),
                              st.binary(min_size=1, max_size=8) | st.sampled_from(tokens)), max_size=6)


@pytest.mark.parametrize("name", PATHS)
def test_every_seed_passes(box, name):
    """The seeds themselves: a value or a clean error, nothing changed (they are known already)."""
    path = box.path(name)
    for seed in path.seeds:
        check(box, path, seed)


@pytest.mark.parametrize("name", PATHS)
def test_mutated_inputs_never_crash_hang_or_change_a_file(box, name):
    path = box.path(name)

    @settings(max_examples=25, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(st.integers(0, len(path.seeds) - 1), ops(path.tokens))
    def one(seed, edits):
        check(box, path, mutate(path.seeds[seed], edits))

    one()
