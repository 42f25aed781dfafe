"""Wall time of `pbem show` (on examples/table-3-players.json, a finished 3-player game, and on a late-game
file) and `pbem play` (the late game), cold start included, as a ratio to `python -c pass` on the same
machine. Runs are paired (the command, then `python -c pass`, in turn) and each figure is the median of
the pairs' ratios, so a machine whose speed drifts (other work on it) moves both halves of a pair alike.

    python benchmarks/cli_wall_time.py [--repeat 7]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def run_once(args: list[str], env: dict) -> float:
    start = time.perf_counter()
    subprocess.run(args, env=env, check=True, capture_output=True)
    return time.perf_counter() - start


def paired(args: list[str], env: dict, repeat: int) -> tuple[float, float]:
    """The command's median wall time, and the median ratio of each run to a `python -c pass` run beside it."""
    runs, ratios = [], []
    for _ in range(repeat):
        runs.append(run_once(args, env))
        ratios.append(runs[-1] / run_once([sys.executable, "-c", "pass"], env))
    return statistics.median(runs), statistics.median(ratios)


def late_game(workdir: Path, env: dict) -> tuple[Path, str]:
    """A demo game stopped when about 10 tiles are left, and the player who moves next."""
    pbem = [sys.executable, "-m", "pbem.cli"]
    subprocess.run(pbem + ["demo", "--dir", str(workdir), "--quiet"], env=env, check=True, capture_output=True)
    full = json.loads((workdir / "game.json").read_text())
    from pbem.protocol.verify import verify
    from pbem.record.gamefile import load

    entries = full["entries"]
    for cut in range(len(entries), 0, -1):
        full["entries"] = entries[:cut]
        path = workdir / "late.json"
        path.write_text(json.dumps(full))
        rep = verify(load(path)[0])
        duties = rep.duties()
        if duties and duties[0].what == "move" and len(rep.game.view(rep.state)["pyramid"]) <= 10:
            return path, duties[0].who
    raise SystemExit("no late-game position found")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="pbem-bench-"))
    env = {**os.environ, "PBEM_HOME": str(workdir / "home")}
    path, who = late_game(workdir, env)
    pbem = shutil.which("pbem") or sys.exit("pbem is not installed in this environment")
    base = statistics.median(run_once([sys.executable, "-c", "pass"], env) for _ in range(args.repeat))
    example = Path(__file__).resolve().parent.parent / "examples" / "table-3-players.json"
    example_show, example_ratio = paired([pbem, "show", str(example)], env, args.repeat)
    show, show_ratio = paired([pbem, "show", str(path)], env, args.repeat)
    copies = [workdir / f"play{i}.json" for i in range(args.repeat)]
    for copy in copies:
        shutil.copy(path, copy)
    plays, play_ratios = [], []
    for i, copy in enumerate(copies):
        # a home that has not seen the rest of the demo game, which would make this copy stale
        fresh = workdir / f"home{i}"
        shutil.copytree(workdir / "home" / "keys", fresh / "keys")
        plays.append(run_once([pbem, "play", str(copy), "--as", who, "--bot", "greedy"],
                              {**env, "PBEM_HOME": str(fresh)}))
        play_ratios.append(plays[-1] / run_once([sys.executable, "-c", "pass"], env))
    entries = len(json.loads(path.read_text())["entries"])
    print(f"late-game file: {entries} entries, {path.stat().st_size:,} bytes")
    print(f"python -c pass       : {base * 1e3:6.0f} ms")
    print(f"pbem show (example)  : {example_show * 1e3:6.0f} ms  ({example_ratio:.1f}x)")
    print(f"pbem show (late game): {show * 1e3:6.0f} ms  ({show_ratio:.1f}x)")
    print(f"pbem play (late game): {statistics.median(plays) * 1e3:6.0f} ms  ({statistics.median(play_ratios):.1f}x)")


if __name__ == "__main__":
    main()
