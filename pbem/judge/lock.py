"""One judge process at a time in the judge's home: the git hooks of every push take turns.

git runs a push's pre-receive and post-receive in processes of their own, and two pushes a second apart
run theirs side by side. The judge's memory (what it has seen, the entries it signed and has not yet
committed) is read and written as a whole by each hook, so each holds the home for its whole run. An
exclusive `flock` on one file does it: the kernel drops it when the process ends, however it ends.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

LOCK_FILE = "git.lock"


@contextmanager
def judge_home(home: Path) -> Iterator[None]:
    """Hold the judge's home until the block ends; wait while another process holds it."""
    home.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(home / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing the last descriptor releases the lock
