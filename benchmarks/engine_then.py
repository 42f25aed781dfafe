"""Path of Pharaohs' full rules as they were at a past commit, played beside today's in a child process:
a yardstick that moves with the machine as today's engine does.

Issue 26 gave its aims in games a second "on one core of this machine" (1,050 three-player and 750
four-player games by the full rules, 2,000 four-player games by the lean playout) when the engine of its
day, commit c988bcb, played 335 and 245. Machines differ from day to day and the one we share is often
loaded, but that engine is in git: measured in the same minutes on the same core, the aims are 3.13
and 3.06 times its speed for the full rules and 8.16 times for the lean playout at 4 players.

    python benchmarks/pop_playouts.py --then c988bcb   # or --then issue-26

The commit's `engine/` is taken out of git (`git archive`) into a temporary folder; a child Python
process imports it from there and, for each round it is asked for, plays seeded random games act by act
(its driver's `play` with its `random_policy`, as pop_playouts.py's "random" rows do today's) for the
CPU time asked and answers with the games, acts and CPU seconds it played.

    python benchmarks/engine_then.py --serve ENGINE_FOLDER PLAYERS   # the child's side (one line a round)
"""

from __future__ import annotations

import inspect
import random
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = ["ann", "ben", "cat", "dan", "eve", "fay"]
ISSUE_26_COMMIT = "c988bcb5ba5f7b441f5cb922b7e80c87d07f11d2"
"""The engine of issue 26's day."""
ISSUE_26_AIMS = {3: 1050 / 335, 4: 750 / 245}
"""The full rules' aims in issue 26, as times the speed of the engine of its day on the same machine."""
ISSUE_26_LEAN_AIM = 2000 / 245
"""The lean playout's aim at 4 players, likewise."""


def resolve(revision: str) -> str:
    """The full name of a commit, or the reason it names none."""
    found = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}"],
                           capture_output=True, text=True, check=False)
    if found.returncode:
        raise SystemExit(f"Error: {revision!r} is not a commit of this repository")
    return found.stdout.strip()


class EngineThen:
    """A child process playing random games by the full rules of `commit`, a round at a time."""

    def __init__(self, commit: str, n_players: int):
        self.commit = commit
        self._folder = tempfile.TemporaryDirectory(prefix="pbem-engine-")
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "engine"], capture_output=True,
                                 check=False)
        if archive.returncode:
            self._folder.cleanup()
            raise SystemExit(f"Error: cannot take engine/ out of git at {commit!r}: "
                             f"{archive.stderr.decode(errors='replace').strip()}")
        with tarfile.open(fileobj=BytesIO(archive.stdout)) as tar:
            tar.extractall(self._folder.name, filter="data")
        self._child = subprocess.Popen(
            [sys.executable, __file__, "--serve", self._folder.name, str(n_players)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def round(self, seconds: float) -> tuple[int, int, float]:
        """Play for `seconds` of the child's CPU time: (games, acts, CPU seconds)."""
        assert self._child.stdin is not None and self._child.stdout is not None
        self._child.stdin.write(f"{seconds}\n")
        answer = self._child.stdout.readline().split()
        if len(answer) != 3:
            raise SystemExit(f"Error: the engine of {self.commit} stopped (exit code {self._child.poll()})")
        games, acts, elapsed = answer
        return int(games), int(acts), float(elapsed)

    def close(self) -> None:
        if self._child.stdin is not None:
            self._child.stdin.close()
        self._child.wait()
        self._folder.cleanup()

    def __enter__(self) -> EngineThen:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def serve(folder: str, n_players: int) -> None:
    """The child: import the engine in `folder`, then one line in (CPU seconds), one line out per round."""
    sys.path.insert(0, folder)
    from engine.path_of_pharaohs.driver import FullInformation, random_policy, shuffled_deck
    from engine.path_of_pharaohs.state import Options

    players = PLAYERS[:n_players]
    policies = dict.fromkeys(players, random_policy)
    # the engines of some days take report=False (no events), as today's benchmark plays
    quiet = {"report": False} if "report" in inspect.signature(FullInformation.play).parameters else {}
    rng = random.Random(n_players)
    for line in sys.stdin:
        seconds, games, acts = float(line), 0, 0
        start = time.process_time()
        while (elapsed := time.process_time() - start) < seconds:
            game = FullInformation(Options(), players, shuffled_deck(Options(), rng), rng.choice(players), rng)
            game.play(policies, rng, **quiet)
            games, acts = games + 1, acts + len(game.log)
        print(games, acts, elapsed, flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] != ["--serve"] or len(sys.argv) != 4:
        raise SystemExit(__doc__)
    serve(sys.argv[2], int(sys.argv[3]))
