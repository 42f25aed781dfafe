"""pbem/ is in layers (pbem/__init__.py): each module imports only its own layer and those below it, the
engine imports nothing of pbem, and no package of pbem imports in a circle. Read from the source's own
import statements, those inside functions included."""

import ast
import functools
from pathlib import Path

from paths_support import ROOT

RANK = {"pbem.errors": 0, "pbem.record": 1, "pbem.crypto": 2, "pbem.protocol": 3, "pbem.presentation": 4,
        "pbem.transport": 5, "pbem.api": 6, "pbem.cli": 7, "pbem.judge": 7, "pbem.app": 7, "pbem.web": 7}
"""Lower numbers are lower layers; the front ends (cli, judge, app) share the top and import none of each other."""


def layer(module: str) -> str | None:
    return next((name for name in sorted(RANK, key=len, reverse=True)
                 if module == name or module.startswith(name + ".")), None)


@functools.cache
def import_statements(path: Path) -> list[ast.Import | ast.ImportFrom]:
    """A file's import statements, those inside functions included: each file parsed once for every test here."""
    return [node for node in ast.walk(ast.parse(path.read_text())) if isinstance(node, (ast.Import, ast.ImportFrom))]


def imports(path: Path) -> list[str]:
    """Every pbem module a file imports (`from pbem.x import y` counts y when it is a module)."""
    found = []
    for node in import_statements(path):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith(("pbem", "engine")):
            found.append(node.module or "")
            found += [f"{node.module}.{alias.name}" for alias in node.names
                      if (ROOT / (node.module or "").replace(".", "/") / alias.name).exists()
                      or (ROOT / (node.module or "").replace(".", "/") / f"{alias.name}.py").exists()]
        elif isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if alias.name.startswith(("pbem", "engine"))]
    return found


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


MOUNTED: set[tuple[str, str]] = set()
"""Crossings allowed between front ends: none (`pbem judge` starts the judge as a process of its own)."""


def test_no_import_runs_up_a_layer_or_across_the_front_ends():
    wrong = []
    for path in sorted((ROOT / "pbem").rglob("*.py")):
        if path == ROOT / "pbem" / "__init__.py":
            continue  # the docstring only
        mine = layer(module_name(path))
        assert mine, f"{path} is in no layer: add its package to pbem/__init__.py and RANK"
        for target in imports(path):
            theirs = layer(target)
            if theirs and theirs != mine and RANK[theirs] >= RANK[mine] and (module_name(path), theirs) not in MOUNTED:
                wrong.append(f"{module_name(path)} imports {target}")
    assert wrong == []


def test_pbem_imports_are_absolute():
    """One spelling for each module, so a search finds every use."""
    relative = [f"{p}:{n.lineno}" for p in (ROOT / "pbem").rglob("*.py") for n in import_statements(p)
                if isinstance(n, ast.ImportFrom) and n.level]
    assert relative == []


def test_the_engine_imports_nothing_of_pbem():
    assert [f"{p}: {t}" for p in (ROOT / "engine").rglob("*.py") for t in imports(p) if t.startswith("pbem")] == []


def test_pbem_keeps_a_handful_of_modules_at_its_top():
    top = sorted(p.name for p in (ROOT / "pbem").glob("*.py"))
    assert len(top) <= 5, top


def test_the_command_line_calls_only_the_library_api():
    """The CLI parses, prompts and prints: every library call goes through pbem.api (errors and the
    engine's error types aside), so the judge and the app can do whatever it does."""
    allowed = ("pbem.api", "pbem.errors", "pbem.cli", "engine.contract")
    wrong = [f"{module_name(p)} imports {t}" for p in sorted((ROOT / "pbem" / "cli").rglob("*.py"))
             for t in imports(p) if not t.startswith(allowed) and t != "pbem"]
    assert wrong == []
