"""Helpers for tests of the command line as a user types it: one runner, a fixed deal, keys, games made and
played up to a point, and a terminal read until it shows what is awaited."""

from __future__ import annotations

import json
import os
import select
import time
from pathlib import Path

from click.testing import Result
from typer.testing import CliRunner

from pbem.cli import app

from engine_support import layout_with

runner = CliRunner()
# A fixed deal: the tiles the CLI tests' boards and moves name.
LAYOUT = layout_with({"1a": "sun-3", "2a": "moon-4", "2b": "arms-4", "3a": "crown-2", "3b": "crown-ace"})


def pbem(*args, input=None) -> Result:
    return runner.invoke(app, [str(a) for a in args], input=input)


def make_keys(*names: str) -> None:
    for name in names:
        assert pbem("key", "new", name, "--no-passphrase").exit_code == 0


def write_layout(path: Path, first: str) -> Path:
    data = LAYOUT.to_names()
    data["first"] = first
    path.write_text(json.dumps(data))
    return path


def new_game(home, players=("ann", "ben"), first="ben", extra=(), join=True):
    """A game with a chosen deal, everyone joined (unless `join` is false)."""
    make_keys(*players)
    layout = write_layout(home / "layout.json", first)
    args = ["new", "sarcophagus", "-o", "game.json", "--as", players[0], "--layout", layout, *extra]
    for p in players:
        args += ["--player", p]
    result = pbem(*args)
    assert result.exit_code == 0, result.output
    if join:
        for p in players[1:]:  # each joins (exit 3 when the joiner then owes the first move)
            assert pbem("play", "game.json", "--as", p).exit_code in (0, 3)
    return result


def two_coins_played(tmp_path, monkeypatch):
    """ann and ben, ben first; ben has placed 3 on 1a and 2 on 2a, and three tiles were revealed."""
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.chdir(tmp_path)
    for name in ("ann", "ben"):
        assert pbem("key", "new", name, "--no-passphrase").exit_code == 0
    layout = tmp_path / "layout.json"
    layout.write_text(json.dumps({**LAYOUT.to_names(), "first": "ben"}))
    assert pbem("new", "sarcophagus", "-o", "game.json", "--as", "ann", "--layout", layout,
                "--player", "ann", "--player", "ben").exit_code == 0
    assert pbem("play", "game.json", "--as", "ben", "3", "2@2a").exit_code == 0
    return tmp_path / "game.json"


def copy_of(tmp_path: Path, name: str) -> Path:
    """`name`'s copy of the one Sarcophagus game in their home (tmp_path/NAME, as the `table` fixture makes)."""
    (found,) = (tmp_path / name / "games-files").glob("sarcophagus-*.json")
    return found


def read_until(fd, marker: bytes, timeout: float = 20.0, start: bytes = b"") -> bytes:
    """What a terminal (the pty's side `fd`) shows up to and including `marker`, after `start` (what was
    read already: a marker may come in two reads)."""
    out = start
    end = time.monotonic() + timeout
    while marker not in out:
        ready, _, _ = select.select([fd], [], [], max(0.0, end - time.monotonic()))
        if not ready:
            raise AssertionError(f"timed out waiting for {marker!r}; got {out[-500:]!r}")
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    return out
