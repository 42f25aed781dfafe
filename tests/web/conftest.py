"""Fixtures of the judge web's tests: one folder in memory and one judge web serving from it for a module's
tests, and one Node.js process for the browser's JavaScript."""

import pytest

from judge_support import memory_folder
from web_client_support import WebJudge
from web_support import Node, shared_node


@pytest.fixture(scope="module")
def base():
    """A folder in memory where the machine has it, for the judge's home and the players' (a module's tests share it)."""
    yield from memory_folder()


@pytest.fixture(scope="module")
def judge(base):
    """pbem judge web serving from `base`, started once for a module's tests."""
    with WebJudge(base) as running:
        yield running


@pytest.fixture(scope="module")
def js() -> Node:
    return shared_node()
