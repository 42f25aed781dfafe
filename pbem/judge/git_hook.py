"""A git hook's process (`pbem judge pre-receive CONFIG`, `post-receive`): the judge's configuration, one
transaction of its store holding its lock for the repository, the hook's work, its lines to the pusher.

git starts one for every push, and most pushes change no game file: the process starts without typer
(__main__.py comes here straight) and loads the library only once a game file is to be read; a pre-receive
that sees no game file changed reads the configuration (without pydantic, when it is plainly valid: config.py),
takes the lock and lists the files, no more. Post-receive calls pbem.api itself, never the mail side that
pbem/judge/library.py loads.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from pbem.errors import error_text

if TYPE_CHECKING:
    from pbem.judge.config import Config

HOOKS = ("pre-receive", "post-receive")

Updates = list[tuple[str, str, str]]
Signed = Callable[[str, dict[int, str]], None]
"""Records the places the judge signs in a game, in its store: refused (with all of the hook's work) when
any was signed before, by any process."""


def run_hook(name: str, config: Path) -> int:
    """Run the hook `name` (pre-receive or post-receive) on git's lines on stdin, in one transaction of the
    judge's store holding its lock for this repository (hooks of pushes a second apart take turns, on any
    machine sharing the store); print its lines to the pusher, one line per problem and no path of the
    judge's machine in any. Returns the exit status: 1 when it refuses or fails. An unexpected failure is
    one line too, its traceback kept in the judge's home (git-hooks.log)."""
    from pbem.judge import config as settings
    from pbem.judge.git import private

    repo = Path(os.environ.get("GIT_DIR", ".")).resolve()
    hidden = [config, config.resolve(), repo, Path(tempfile.gettempdir()).resolve(), Path(sys.prefix)]
    home: Path | None = None
    lines: list[str] = []
    refused = True
    try:
        loaded = settings.load(config)
        home = loaded.home
        hidden += [loaded.home, loaded.key]
        os.environ["PBEM_HOME"] = str(loaded.home)
        if name == "pre-receive":
            from pbem.judge.database import Database

            with Database(loaded.database).transaction(lock=[f"git {repo}"]):
                lines, refused = _pre_receive(loaded, repo, _updates())
        else:
            from pbem.judge.store import open_store

            store = open_store(loaded.database, loaded.games, loaded.home)
            with store.db.transaction(lock=[f"git {repo}"]) as tx:
                lines, refused = _post_receive(loaded, repo, _updates(),
                                               lambda game_id, places: store.sign(tx, game_id, places, time.time()))
    except Exception as exc:  # noqa: BLE001  (a hook must never show a pusher a traceback)
        text = error_text(exc)
        if text is None:
            text = f"the judge failed on this push ({type(exc).__name__}): its log on the server says more"
            _keep_traceback(home)
        lines = [f"Error: {text}"]
    for line in lines:
        sys.stderr.write(private(line, hidden) + "\n")
    sys.stderr.flush()
    return 1 if refused else 0


def _updates() -> Updates:
    """git's lines on a hook's input: OLD NEW REF."""
    found = []
    for line in sys.stdin.buffer.read().decode(errors="surrogateescape").splitlines():
        parts = line.split()
        if len(parts) == 3:
            found.append((parts[0], parts[1], parts[2]))
    return found


def _pre_receive(loaded: Config, repo: Path, updates: Updates) -> tuple[list[str], bool]:
    from pbem.judge.pre_receive import pre_receive

    problems = pre_receive(repo, updates, loaded.git.games)
    return [f"Error: {problem}" for problem in problems], bool(problems)


def _post_receive(loaded: Config, repo: Path, updates: Updates, signed: Signed) -> tuple[list[str], bool]:
    from pbem.judge.post_receive import post_receive

    log: list[str] = []
    made = post_receive(repo, updates, loaded.key, loaded.home, f"refs/heads/{loaded.git.branch}", loaded.git.games,
                        log, signed)
    return log + ([f"judge: committed {made[:12]}: pull to see it"] if made else []), False


def _keep_traceback(home: Path | None) -> None:
    """The traceback of a failure the pusher only hears of, appended to the judge's home's git-hooks.log."""
    import traceback

    if home is None:
        return
    try:
        with open(home / "git-hooks.log", "a", encoding="utf-8", errors="backslashreplace") as out:
            out.write(traceback.format_exc())
    except OSError:
        pass
