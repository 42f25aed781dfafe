"""The optional compiled engine (benchmarks/compile_engine.py): what it compiles is real, mypy-strict
engine code, and where it is built it plays exactly as the pure engine. Building it needs a compiler,
so the suite never builds it: the comparison runs on a machine where a developer has."""

import dataclasses
import importlib.util
import inspect
import subprocess
import sys
import tomllib

import pytest

from paths_support import ROOT

_spec = importlib.util.spec_from_file_location("compile_engine", ROOT / "benchmarks" / "compile_engine.py")
assert _spec and _spec.loader
compile_engine = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(compile_engine)


def test_the_compiled_modules_are_engine_modules_that_mypy_checks_strictly():
    """mypyc compiles what mypy strict accepts: mypy is strict on every module, with no override that
    loosens one; a module renamed or moved fails here."""
    mypy = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert mypy["strict"] is True and "overrides" not in mypy and {"engine", "pbem"} <= set(mypy["files"])
    for name in compile_engine.MODULES:
        assert name.startswith("engine.") and importlib.util.find_spec(name) is not None, name
        assert compile_engine.source(name).is_file(), name


def pure(name: str):
    """A fresh import of a module from its source, even where the compiled one is built (which hides
    its signatures)."""
    spec = importlib.util.spec_from_file_location(f"{name}_pure", compile_engine.source(name))
    assert spec and spec.loader
    module = sys.modules[spec.name] = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return module


def test_the_written_out_state_init_takes_every_field_in_order():
    """State spells out its __init__ for the compiled build: it must stay the one the dataclass would make."""
    State = pure("engine.sarcophagus.state").State
    parameters = inspect.signature(State.__init__).parameters
    fields = dataclasses.fields(State)
    assert list(parameters)[1:] == [f.name for f in fields]
    missing = {dataclasses.MISSING: inspect.Parameter.empty}
    assert [p.default for p in parameters.values()][1:] == [missing.get(f.default, f.default) for f in fields]


def checksum(script: str, *args: str) -> tuple[str, str]:
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / script), "--checksum", *args],
                          capture_output=True, text=True, timeout=120, check=True)
    engine, digest = done.stdout.splitlines()
    return engine, digest


@pytest.mark.skipif(not compile_engine.built_files(), reason="the compiled engine is not built here")
@pytest.mark.parametrize("script", ["engine_playouts.py", "pop_playouts.py"])
def test_the_compiled_engine_plays_the_seeded_games_as_the_pure_one(script):
    """(A build older than its sources fails here too: build it again, or remove it with --clean.)"""
    compiled, pure = checksum(script), checksum(script, "--pure")
    assert (compiled[0], pure[0]) == ("engine: compiled by mypyc", "engine: pure Python")
    assert compiled[1] == pure[1]


@pytest.mark.skipif(not compile_engine.built_files(), reason="the compiled engine is not built here")
def test_the_compiled_engine_is_newer_than_every_source_it_compiles():
    """Python imports a built extension ahead of its source, edited or not: a stale build would test old rules."""
    built = min(path.stat().st_mtime for path in compile_engine.built_files())
    newer = [name for name in compile_engine.MODULES if compile_engine.source(name).stat().st_mtime > built]
    assert not newer, f"edited since benchmarks/compile_engine.py built them (build again, or --clean): {newer}"
