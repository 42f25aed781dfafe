"""CLI runs under PBEM_NOW: every command says first, on stderr, that the clock is overridden (issue 34).
Tests that set the clock check that line on every run and read the rest as before."""

from __future__ import annotations

import os
import time

from click.testing import Result


def clock_warning(now: int) -> str:
    stamp = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(now))
    return f"Warning: PBEM_NOW is set: pbem's clock stands at {stamp} (a testing override: docs/deadlines.md)\n"


def clocked(result: Result) -> Result:
    """The run as if the clock were not overridden: its warning line, checked, taken out of stderr and out
    of the output (where it comes first)."""
    now = os.environ.get("PBEM_NOW", "")
    if not now.isdigit():
        return result
    line = clock_warning(int(now)).encode()
    assert result.stderr_bytes.startswith(line) and result.output_bytes.startswith(line), result.output
    return Result(result.runner, result.stdout_bytes, result.stderr_bytes[len(line):], result.output_bytes[len(line):],
                  result.return_value, result.exit_code, result.exception, result.exc_info)
