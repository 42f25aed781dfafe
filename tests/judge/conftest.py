"""Fixtures of the judge's tests: a folder for the judge's home and the players' (in memory where the machine
has it), and a game hosted by the judge."""

import pytest

from git_support import git_table
from judge_support import hosted_game, memory_folder


@pytest.fixture
def base():
    yield from memory_folder()


@pytest.fixture
def hosted(base, monkeypatch):
    """ann's 3-player game hosted by the judge, its invitation not read yet (judge_support.hosted_game)."""
    yield from hosted_game(base, monkeypatch, ["ann", "ben", "cat"])


@pytest.fixture
def table(tmp_path, monkeypatch):
    """A bare repository with the judge's hooks, three players' clones, and a Path of Pharaohs game in
    referee mode made and pushed by ann: the judge joined it in its post-receive (git_support.git_table)."""
    return git_table(tmp_path, monkeypatch)
