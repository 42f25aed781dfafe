"""Fixtures of the protocol's tests."""

import pytest

from absence_support import Clock


@pytest.fixture
def clock(monkeypatch):
    """The time every program signs at (PBEM_NOW), moved on by hand: absence_support.Clock, at T0."""
    return Clock(monkeypatch)
