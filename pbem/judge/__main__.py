"""`python -m pbem.judge ...` (what `pbem judge ...` starts): the judge's command line, pbem/judge/cli.py.
A git hook (`pre-receive CONFIG`, `post-receive CONFIG`, as install-hooks writes them) runs without it:
git starts one on every push, and typer's loading and building of the command line costs more than
most hooks' own work (git_hook.py)."""

from __future__ import annotations

import sys
from pathlib import Path

from pbem.judge.git_hook import HOOKS, run_hook


def main(argv: list[str] | None = None) -> int:
    """Run the judge's command line on `argv` (default: the process's); its exit status."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) == 2 and args[0] in HOOKS and not args[1].startswith("-"):
        return run_hook(args[0], Path(args[1]))
    from pbem.judge.cli import app

    try:
        app(args=argv, prog_name="pbem judge")
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
