"""`pbem NAME ...` builds only the command NAME (pbem.cli.narrowed: typer turns every parameter of every
command into click's as it starts), and says exactly what the whole command line says."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from pbem.cli import app, command_names, narrowed

from paths_support import ROOT

runner = CliRunner()


@pytest.mark.slow
def test_every_command_alone_says_what_the_whole_command_line_says():
    names = command_names(app)
    assert {"show", "play", "new", "mail", "inbox", "demo", "key", "contact", "app", "judge"} <= set(names)
    for name in names:
        alone = narrowed(app, name)
        assert alone is not app
        assert len(alone.registered_commands) + len(alone.registered_groups) == 1
        wrong = [] if name == "judge" else [[name, "--no-such-option"]]  # the judge takes any: it runs pbem.judge
        for args in [[name, "--help"], *wrong]:
            whole, narrow = runner.invoke(app, args), runner.invoke(alone, args)
            assert (narrow.exit_code, narrow.output) == (whole.exit_code, whole.output), args


def test_help_and_unknown_names_get_the_whole_command_line():
    for asked in ("", "--help", "sho", "keys"):
        assert narrowed(app, asked) is app
    assert "Did you mean 'show'?" in runner.invoke(app, ["sho"]).output


@pytest.mark.slow
def test_the_pbem_command_is_narrowed_and_says_the_same(tmp_path):
    env = {**os.environ, "PBEM_HOME": str(tmp_path / "home")}
    game = str(ROOT / "examples" / "table-3-players.json")
    run = subprocess.run([sys.executable, "-m", "pbem.cli", "show", game], capture_output=True, text=True, env=env)
    whole = runner.invoke(app, ["show", game], env={"PBEM_HOME": str(tmp_path / "home2")})
    assert (run.returncode, run.stdout) == (whole.exit_code, whole.output)
    assert run.stdout.endswith("Game over: ann 29, ben 9, cat 19; ann wins\n")
