"""`pbem play` with no moves, on a terminal: it shows the board and the legal moves, and asks."""

import json
import os
import pty
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from pbem.cli import app

from cli_support import read_until, write_layout

pytestmark = pytest.mark.slow


def test_the_prompt_takes_moves_and_reports_mistakes(tmp_path, monkeypatch):
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    for name in ("ann", "ben"):
        runner.invoke(app, ["key", "new", name, "--no-passphrase"])
    layout = write_layout(tmp_path / "layout.json", "ben")
    assert runner.invoke(app, ["new", "sarcophagus", "-o", "g.json", "--as", "ann", "--player", "ann", "--player",
                               "ben", "--layout", str(layout)]).exit_code == 0
    main, child = pty.openpty()
    env = {**os.environ, "PBEM_HOME": str(tmp_path / "home"), "COLUMNS": "100"}
    proc = subprocess.Popen([sys.executable, "-m", "pbem.cli", "play", "g.json", "--as", "ben"], stdin=child,
                            stdout=child, stderr=child, env=env, cwd=tmp_path)
    os.close(child)
    prompt = b"Your move (empty to stop): "
    dialogue = [  # (what is typed, what the screen must then show, what to wait for)
        (None, [b"Your hand (ben): 0 0 1 1 2 2 3 3 4 4 5 5",
                b"Your coins: 0 1 2 3 4 5. The first coin goes on 1a: type its value, e.g. 0"], prompt),
        (b"9\n", [b"Error: '9': a coin value is 0 to 5, not '9'"], prompt),
        (b"3\n", [b"Your coins: 0 1 2 3 4 5. Tiles with room: 1a 2a 2b. Type e.g. 0@1a",
                   b"Your hand (ben): 0 0 1 1 2 2 3 4 4 5 5"], prompt),
        (b"2@2a\n", [b"Wrote g.json (entries 1-6)."], b"Next: ann"),
    ]
    try:
        for typed, expected, until in dialogue:
            if typed:
                os.write(main, typed)
            screen = read_until(main, until)
            for text in expected:
                assert text in screen, (text, screen[-400:])
        assert proc.wait(timeout=20) == 0
    finally:
        proc.kill()
        os.close(main)
    record = json.loads((tmp_path / "g.json").read_text())
    assert [e["action"] for e in record["entries"]][2:] == ["@1a", "reveal 2a=moon-4 2b=arms-4", "@2a",
                                                           "reveal 3a=crown-2 3b=crown-ace"]


def test_path_of_pharaohs_at_the_prompt_shows_the_hand_and_takes_stop(tmp_path, monkeypatch):
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    for name in ("ann", "ben", "cat"):
        runner.invoke(app, ["key", "new", name, "--no-passphrase"])
    assert runner.invoke(app, ["new", "path-of-pharaohs", "-o", "g.json", "--as", "ann", "--player", "ann",
                               "--player", "ben", "--player", "cat"]).exit_code == 0
    for name in ("ben", "cat"):  # the joins: 3 if the deal then draws the joiner to move first
        assert runner.invoke(app, ["play", "g.json", "--as", name]).exit_code in (0, 3)
    mover = json.loads(runner.invoke(app, ["show", "g.json", "--json"]).output)["turn"]
    main, child = pty.openpty()
    env = {**os.environ, "PBEM_HOME": str(tmp_path / "home"), "COLUMNS": "100"}
    proc = subprocess.Popen([sys.executable, "-m", "pbem.cli", "play", "g.json", "--as", mover], stdin=child,
                            stdout=child, stderr=child, env=env, cwd=tmp_path)
    os.close(child)
    prompt = b"Your move (empty to stop): "
    try:
        screen = read_until(main, prompt)
        assert b"Your hand (5 cards): " in screen and b"Or stop to end your turn." in screen
        os.write(main, b"9@3\n")  # a 9 on level 3, before level 2 is built: refused, asked again
        assert b"Error: " in read_until(main, prompt)
        os.write(main, b"stop\n")
        screen = read_until(main, prompt)  # three cards drawn: eight in hand, a discard is owed
        assert b"discard" in screen
        os.write(main, b"\n")
        screen = read_until(main, b"Next: ")
        assert b"Wrote g.json" in screen and f"Next: {mover} (discard".encode() in screen
        assert proc.wait(timeout=20) == 3  # stopped at the prompt owing a discard: written, more owed
    finally:
        proc.kill()
        os.close(main)
    record = json.loads((tmp_path / "g.json").read_text())
    last = [e["action"] for e in record["entries"]][-2:]
    assert last[0] == "stop" and last[1].startswith(f"deal {mover} #") and len(last[1].split()) == 5
