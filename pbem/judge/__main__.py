"""`python -m pbem.judge ...` (what `pbem judge ...` starts): the judge's command line, pbem/judge/cli.py."""

from __future__ import annotations

import sys

from pbem.judge.cli import app


def main(argv: list[str] | None = None) -> int:
    """Run the judge's command line on `argv` (default: the process's); its exit status."""
    try:
        app(args=argv, prog_name="pbem judge")
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
