"""Compile the engine's hot modules with mypyc, in place: an optional speed-up for playouts and search.

    python benchmarks/compile_engine.py           # build (mypyc comes with mypy; needs gcc and Python's headers)
    python benchmarks/compile_engine.py --clean   # remove what it built: back to the pure engine

Each module's extension sits next to its .py, and Python imports it first; the rules stay the same
Python source (mypy strict checks them, mypyc compiles them unchanged), so the plain install, CI and
every test run without a compiler. git ignores the built files. Build again after editing a compiled
module: Python would import the old extension (tests/engines/test_compiled_engine.py fails on a stale build).

The playout benchmarks say which engine they ran and print a checksum of seeded games; `--pure` runs
them on the pure modules even where the compiled ones are built, so the two compare side by side:

    python benchmarks/engine_playouts.py && python benchmarks/engine_playouts.py --pure   # same checksum
"""

from __future__ import annotations

import argparse
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import tempfile
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent

MODULES = (
    "engine.lazy", "engine.ismcts",
    "engine.sarcophagus.pieces", "engine.sarcophagus.geometry", "engine.sarcophagus.state",
    "engine.sarcophagus.actions", "engine.sarcophagus.events", "engine.sarcophagus.scoring",
    "engine.sarcophagus.deal", "engine.sarcophagus.knowledge", "engine.sarcophagus.duties", "engine.sarcophagus.legality",
    "engine.sarcophagus.play", "engine.sarcophagus.rules", "engine.sarcophagus.playout", "engine.sarcophagus.driver",
    "engine.sarcophagus.search",
    "engine.path_of_pharaohs.cards", "engine.path_of_pharaohs.state", "engine.path_of_pharaohs.actions",
    "engine.path_of_pharaohs.events", "engine.path_of_pharaohs.knowledge", "engine.path_of_pharaohs.board",
    "engine.path_of_pharaohs.duties", "engine.path_of_pharaohs.legality", "engine.path_of_pharaohs.builds",
    "engine.path_of_pharaohs.choices", "engine.path_of_pharaohs.legal_acts", "engine.path_of_pharaohs.play",
    "engine.path_of_pharaohs.rules", "engine.path_of_pharaohs.playout",
    "engine.path_of_pharaohs.lean_table", "engine.path_of_pharaohs.lean_game", "engine.path_of_pharaohs.lean",
    "engine.path_of_pharaohs.lean_greedy",
)
"""The modules that playouts and the search bot spend their time in, for both games (an interpreted
class cannot subclass a compiled one: engine.lazy's LazySequence takes both games' rules with it). The
rest of the engine (notation, views, hidden information, the contract) and pbem/ import them as they
import the pure ones. Not Path of Pharaohs's driver (its tests give a driver an attribute of their own,
which a compiled class refuses), nor its search (a compiled subclass of random.Random crashes)."""

GROUP = "engine.native"
"""mypyc puts the compiled code of every module into one shared library, `engine/native__mypyc`; each
module's own extension is a small shim that loads its part."""


def source(module: str) -> Path:
    return ROOT / (module.replace(".", "/") + ".py")


def built_files() -> list[Path]:
    """Every extension module under engine/: the engine is pure Python, so each is one this script built
    (for MODULES as they are, or as they were when it last ran)."""
    return sorted({path for suffix in importlib.machinery.EXTENSION_SUFFIXES for path in (ROOT / "engine").rglob(f"*{suffix}")})


def compiled_modules() -> list[str]:
    """Which of MODULES this process has imported from a compiled extension."""
    return [name for name in MODULES if name in sys.modules
            and isinstance(sys.modules[name].__loader__, importlib.machinery.ExtensionFileLoader)]


def engine_build() -> str:
    """The engine this process runs, as the benchmarks print it."""
    return "compiled by mypyc" if compiled_modules() else "pure Python"


class _PureEngine(importlib.abc.MetaPathFinder):
    """Finds MODULES' .py sources ahead of the extensions built next to them."""

    def find_spec(self, name: str, path: Sequence[str] | None, target: ModuleType | None = None) -> ModuleSpec | None:
        return importlib.util.spec_from_file_location(name, source(name)) if name in MODULES else None


def prefer_pure_engine() -> None:
    """Import the pure modules even where compiled ones are built (call it before the engine is imported)."""
    if any(name in sys.modules for name in MODULES):
        raise RuntimeError("the engine is already imported")
    sys.meta_path.insert(0, _PureEngine())


def clean() -> None:
    for path in built_files():
        path.unlink()
        print(f"removed {path.relative_to(ROOT)}")


def build() -> None:
    try:
        from mypyc.build import mypycify
        from setuptools import Distribution
    except ImportError:
        sys.exit("Error: mypyc (it comes with mypy) and setuptools are needed: pip install -e '.[test]'")
    clean()
    os.chdir(ROOT)  # the extensions land next to their sources, found from here
    with tempfile.TemporaryDirectory() as temp:
        # mypy reads the project's settings from pyproject.toml; its overrides name modules not compiled here
        paths = ["--no-warn-unused-configs"] + [str(source(module).relative_to(ROOT)) for module in MODULES]
        extensions = mypycify(paths, target_dir=temp, group_name=GROUP)
        dist = Distribution({"name": "engine-native", "ext_modules": extensions})
        command = dist.get_command_obj("build_ext")
        # in place, and nothing left in build/ (a wheel built later would pack extensions found there)
        command.inplace, command.build_temp, command.build_lib = True, temp, temp
        dist.run_command("build_ext")
    for path in built_files():
        print(f"built {path.relative_to(ROOT)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clean", action="store_true", help="remove the compiled modules instead")
    args = parser.parse_args()
    clean() if args.clean else build()


if __name__ == "__main__":
    main()
