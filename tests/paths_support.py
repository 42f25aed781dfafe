"""Where the project's own files are, for tests in any folder of tests/: the checkout's root and what lies in it."""

from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
EXAMPLES = ROOT / "examples"
BENCHMARKS = ROOT / "benchmarks"
DOCS = ROOT / "docs"
