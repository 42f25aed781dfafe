"""A newcomer's first hour (issue 15): each rough edge run as the user ran it, with the exact message
and exit code."""

import pytest
from typer.testing import CliRunner

from pbem.cli import app

from test_cli import write_layout

runner = CliRunner()


def pbem(*args, input=None):
    return runner.invoke(app, [str(a) for a in args], input=input)


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("PBEM_PASSPHRASE", raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def refereed(home):
    """A referee-mode game between ann (first) and ben, refereed by ref, on the fixed layout
    (1a sun-3, 2a moon-4, 2b arms-4)."""
    for name in ("ann", "ben", "ref"):
        assert pbem("key", "new", name, "--no-passphrase").exit_code == 0
    layout = write_layout(home / "layout.json", "ann")
    created = pbem("new", "sarcophagus", "-o", "game.json", "--as", "ref", "--player", "ann", "--player", "ben",
                   "--referee", "ref", "--layout", layout)
    assert created.exit_code == 0, created.output
    return home


def test_the_referee_settles_a_tie_break_and_the_report_names_who_signed(refereed):
    pbem("play", "game.json", "--as", "ann", "3")
    pbem("referee", "game.json", "--as", "ref")
    pbem("play", "game.json", "--as", "ann", "1@1a")
    tied = pbem("play", "game.json", "--as", "ben", "2", "0@1a")
    assert tied.output.splitlines()[-1] == "Next: ref (open: open the coins of ann on 1a for the tie-break)"
    settled = pbem("referee", "game.json", "--as", "ref")
    assert settled.output.splitlines()[0] == "  ref opens #0=3, #1=1"
    assert "        ref opens #0=3, #1=1" in pbem("log", "game.json").output.splitlines()
