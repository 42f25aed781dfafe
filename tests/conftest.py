"""Every test runs with its own PBEM_HOME: no test reads or writes the keys and game histories of the
person running the suite (commands that read a game record what they saw there). And every test leaves
the environment as it found it: the judge sets PBEM_HOME and PBEM_NOW for its whole process, as it
should, and a test that runs one in-process must not hand its clock to the next test on that worker."""

import os
import tempfile
from datetime import timedelta
from pathlib import Path

import pytest
import typer.main
import typer.testing
from hypothesis import settings

from pbem.protocol import remembered

# A hypothesis example over two seconds is a hang to report (hostile input must not hang a reader); the
# library's default of 200 ms failed tests on a shared machine at a load of 12, where nothing hung.
settings.register_profile("suite", deadline=timedelta(seconds=2))
settings.load_profile("suite")



def _built_once(build):
    """Typer's test runner builds the click command from the Typer app again for every call (about 25 ms for
    pbem's, a third of a short command's time in a test); `pbem` itself builds it once per process. Built
    once per app here, as in use: no test changes an app after it is made."""
    built = {}

    def command(app):
        if app not in built:
            built[app] = build(app)
        return built[app]
    return command


typer.testing._get_command = _built_once(typer.main.get_command)  # type: ignore[attr-defined]

MEMORY = Path("/dev/shm")


def pytest_configure(config):
    """Every test's files in memory where the machine has it (tmp_path, tempfile, the pbem processes a test
    starts), unless TMPDIR or --basetemp already says where. The product writes each copy with fsync, and on
    the project's shared machine (ext4 with online discard) a file's fsync costs about 4 ms and its unlink
    2.6 ms, against 0.07 and 0.01 in memory: test_cli alone made 1,200 fsyncs, and each pytest run deleted
    the files of the run three before it. What is tested is the same: tmpfs renames and fsyncs as a disk
    does, and pytest still numbers its folders there (pytest-of-USER/pytest-N), so runs at once do not clash."""
    if os.environ.get("TMPDIR") or config.option.basetemp or not (MEMORY.is_dir() and os.access(MEMORY, os.W_OK)):
        return
    os.environ["TMPDIR"] = str(MEMORY)  # the xdist workers and every subprocess inherit it
    tempfile.tempdir = str(MEMORY)  # this process may have asked tempfile already


@pytest.fixture(autouse=True)
def _own_pbem_home(tmp_path_factory):
    """Set and restored without monkeypatch, so that this runs last: a test's monkeypatch, undone before it,
    may put back a value an in-process judge had set (its injected clock, PBEM_NOW), which must not reach the
    next test."""
    before = dict(os.environ)
    os.environ["PBEM_HOME"] = str(tmp_path_factory.mktemp("pbem-home"))
    yield
    os.environ.clear()
    os.environ.update(before)


@pytest.fixture(autouse=True)
def _nothing_remembered():
    """Each test's replays its own: a replay kept by one (pbem.protocol.remembered) was verified by that
    test's program, which may have had a check switched off to forge a file the next one must refuse."""
    yield
    remembered.forget()


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A user's working folder for CLI tests: its own PBEM_HOME under it, no passphrase set, the current
    directory."""
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("PBEM_PASSPHRASE", raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture(scope="session")
def chromium_session():
    """One headless Chromium per test process, started by the first browser test (tests/chromium_support.py);
    `.get()` hands it over as a new browser. Skipped with the reason where no browser is installed."""
    from chromium_support import CHROMIUM, DRIVER, Shared

    if not (CHROMIUM and DRIVER):
        pytest.skip("no browser: install Debian's chromium and chromium-driver (apt-get install -y chromium "
                    "chromium-driver)")
    pytest.importorskip("selenium.webdriver", reason="selenium is in the test extra: pip install '.[test]'")
    shared = Shared()
    yield shared
    shared.quit()


@pytest.fixture
def browser(chromium_session):
    """The process's Chromium as a new browser for one test: one blank tab, no cookies, an empty console."""
    yield chromium_session.get()
    chromium_session.release()


@pytest.fixture(scope="session")
def postgres():
    """A throwaway PostgreSQL cluster (tests/postgres_support.py), one per test process, started by the first
    test that asks for it; each test makes its own database in it (`new_database`)."""
    from postgres_support import postgres_cluster

    with postgres_cluster() as cluster:
        yield cluster


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def judge_database(request, tmp_path):
    """The URL of a new, empty judge database of each kind: a SQLite file, a PostgreSQL database (in the slow
    tier: the first asks for a cluster, seconds to start)."""
    if request.param == "sqlite":
        return str(tmp_path / "judge.db")
    return request.getfixturevalue("postgres").new_database()


def pytest_collection_modifyitems(items):
    """The modules with the most slow tests first, each module's tests kept together and in order: the
    whole games, servers and browsers start while the other worker takes the quick tests, instead of the
    last of them starting near the end and leaving one worker alone at it (pytest-xdist's worksteal hands
    each worker a run of the list and lets an idle one take from the end of another's). Every worker
    orders the same collection the same way, as xdist requires."""
    modules: dict[str, list[pytest.Item]] = {}
    for item in items:
        modules.setdefault(item.nodeid.split("::")[0], []).append(item)

    def slow_tests(tests: list[pytest.Item]) -> int:
        return sum(item.get_closest_marker("slow") is not None for item in tests)

    ordered = sorted(modules.values(), key=slow_tests, reverse=True)  # stable: ties keep collection order
    items[:] = [item for tests in ordered for item in tests]
