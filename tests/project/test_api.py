"""pbem.api is the one door (issue 35): its `__all__` is exactly what the front ends and docs/library.md use,
each name resolves, the type checker sees the same names as run time, importing it loads nothing else, and
`pbem play --mail` reads and verifies its game once."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem import api
from pbem.cli import app

from paths_support import ROOT

FRONT_ENDS = ("pbem/cli", "pbem/app", "pbem/judge")


def names_used() -> set[str]:
    """Every `api.NAME` and `from pbem.api import NAME` of the front ends, and every `api.NAME` of the doc."""
    used: set[str] = set()
    for folder in FRONT_ENDS:
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text()
            used.update(re.findall(r"\bapi\.(\w+)", text))
            for node in ast.walk(ast.parse(text)):
                if isinstance(node, ast.ImportFrom) and node.module == "pbem.api":
                    used.update(alias.name for alias in node.names)
    used.update(re.findall(r"\bapi\.(\w+)", (ROOT / "docs" / "library.md").read_text()))
    modules = {path.stem for path in (ROOT / "pbem" / "api").glob("*.py")}
    return {name for name in used - modules if not name.startswith("__")}  # modules: `from pbem.api import browser`


@pytest.mark.slow
def test_all_is_what_the_front_ends_and_the_doc_use():
    assert sorted(api.__all__) == sorted(names_used())
    for name in api.__all__:
        assert getattr(api, name) is not None, name
    with pytest.raises(AttributeError, match="has no attribute 'take_turn'"):
        api.take_turn  # noqa: B018


def test_the_type_checker_sees_the_names_run_time_gives():
    tree = ast.parse((ROOT / "pbem" / "api" / "__init__.py").read_text())
    block = next(node for node in tree.body if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING")
    seen = {}
    for node in block.body:
        assert isinstance(node, ast.ImportFrom)
        for alias in node.names:
            seen[alias.asname] = (node.module, alias.name)
    assert seen == {name: api._WHERE[name] for name in api.__all__}


def test_importing_the_api_loads_none_of_pbem():
    loaded = subprocess.run([sys.executable, "-c", "import sys; from pbem import api; "
                             "print(sorted(m for m in sys.modules if m.startswith(('pbem', 'engine', 'pydantic'))))"],
                            capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "['pbem', 'pbem.api']"


@pytest.fixture
def counted():
    """Which files are read (pbem.record.gamefile.read_bytes: a game file, a saved mail, a copy) and how many
    records are verified (replayed), by the functions' own code, however they were imported."""
    from pbem.protocol.entries import replay
    from pbem.record.gamefile import read_bytes

    counts: dict[str, object] = {"read": [], "verified": 0}

    def watch(frame, event, arg):
        if event == "call" and frame.f_code is read_bytes.__code__:
            counts["read"].append(Path(frame.f_locals["path"]).name)
        elif event == "call" and frame.f_code is replay.__code__:
            counts["verified"] += 1

    sys.setprofile(watch)
    yield counts
    sys.setprofile(None)


def test_play_then_mail_reads_and_verifies_the_game_once(tmp_path, monkeypatch, counted):
    """`pbem play GAME --mail`, --as left out, on a game file outside the folder of copies that holds an older
    copy of it: the file is read once (not again to find who plays), verified once, and the copy kept is
    checked against the verified game without being verified again. `pbem mail GAME` the same."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBEM_GAMES", raising=False)
    runner = CliRunner()

    def pbem(home, *args):
        result = runner.invoke(app, [str(a) for a in args], env={"PBEM_HOME": str(tmp_path / home),
                                                                  "PBEM_PASSPHRASE": None, "PBEM_SEND": None})
        assert result.exit_code in (0, 3), result.output
        return result

    keys = {name: pbem(name, "key", "new", name, "--no-passphrase").output.splitlines()[-1] for name in ("ann", "ben")}
    for name in ("ann", "ben"):
        for other in ("ann", "ben"):
            pbem(name, "contact", "add", other, f"{other}@example.org")
    pbem("ann", "new", "sarcophagus", "-o", "game.json", "--as", "ann", "--player", "ann",
         f"--player=ben={keys['ben']}")
    pbem("ann", "mail", "game.json", "--as", "ann", "-o", "invitation.eml")  # ann's copy: the invitation
    pbem("ben", "play", "game.json", "--as", "ben")
    mover = json.loads(pbem("ann", "show", "game.json", "--json").output)["next"]["who"]
    if mover != "ann":
        pbem("ben", "play", "game.json", "--as", "ben", "--bot", "greedy")
    counted.update(read=[], verified=0)
    played = pbem("ann", "play", "game.json", "--bot", "greedy", "--mail")
    assert "Wrote sarcophagus-" in played.output.splitlines()[-1]
    assert counted["read"].count("game.json") == 1 and counted["verified"] == 1
    counted.update(read=[], verified=0)
    again = pbem("ann", "mail", "game.json", "--since", "0", "-o", "again.eml")  # --as left out here too
    assert again.output.startswith("Wrote again.eml to ben <ben@example.org>: ")
    assert counted["read"].count("game.json") == 1 and counted["verified"] == 1
