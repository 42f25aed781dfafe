"""Every test runs with its own PBEM_HOME: no test reads or writes the keys and game histories of the
person running the suite (commands that read a game record what they saw there)."""

import pytest


@pytest.fixture(autouse=True)
def _own_pbem_home(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("PBEM_HOME", str(tmp_path_factory.mktemp("pbem-home")))


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A user's working folder for CLI tests: its own PBEM_HOME under it, no passphrase set, the current
    directory."""
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("PBEM_PASSPHRASE", raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path
