"""docs/library.md runs as written: its Python blocks, in order, in one namespace, in a fresh home."""

import contextlib
import io
import re

import pytest

from paths_support import DOCS

pytestmark = pytest.mark.slow

DOC = DOCS / "library.md"


def test_the_library_walkthrough_runs_and_finishes_a_verified_game(monkeypatch, tmp_path):
    monkeypatch.setenv("PBEM_HOME", str(tmp_path))  # the doc sets its own; this keeps the test's home clean after
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)
    assert len(blocks) == 4
    namespace: dict[str, object] = {}
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        for block in blocks:
            exec(compile(block, str(DOC), "exec"), namespace)
    lines = printed.getvalue().splitlines()
    assert lines[0].startswith("Next: ben (join: join the game")
    assert any(line.startswith("refused: 5@6f: the first coin of a turn goes on the forced tile") for line in lines)
    assert re.search(r"^\d+ legal moves, e\.g\. \d@1a$", printed.getvalue(), re.M)
    assert namespace["report"].valid[0].game.over  # type: ignore[attr-defined]
