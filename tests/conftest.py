"""Every test runs with its own PBEM_HOME: no test reads or writes the keys and game histories of the
person running the suite (commands that read a game record what they saw there). And every test leaves
the environment as it found it: the judge sets PBEM_HOME and PBEM_NOW for its whole process, as it
should, and a test that runs one in-process must not hand its clock to the next test on that worker."""

import os
from datetime import timedelta

import pytest
from hypothesis import settings

# A hypothesis example over two seconds is a hang to report (hostile input must not hang a reader); the
# library's default of 200 ms failed tests on a shared machine at a load of 12, where nothing hung.
settings.register_profile("suite", deadline=timedelta(seconds=2))
settings.load_profile("suite")


@pytest.fixture(autouse=True)
def _own_pbem_home(tmp_path_factory, monkeypatch):
    before = dict(os.environ)
    monkeypatch.setenv("PBEM_HOME", str(tmp_path_factory.mktemp("pbem-home")))
    yield
    os.environ.clear()
    os.environ.update(before)


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A user's working folder for CLI tests: its own PBEM_HOME under it, no passphrase set, the current
    directory."""
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("PBEM_PASSPHRASE", raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path
