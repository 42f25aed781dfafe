"""Fuzzing every path outside input enters pbem by (tests/fuzz_support.py), for as long as asked, and the
hostile inputs of issue 21 at growing sizes (the time must grow with the size, not its square).

    python benchmarks/fuzz_inputs.py [--executions N] [--minutes M] [--seed S] [--progress MINUTES] [--scaling]

Each path gets the same share of the time (the cheap ones run more often). Prints, for each path:
executions, crashes (any exception but pbem's own errors), hangs (over the time bound for the input's size,
twice in a row), inputs that changed a file, executions a second, and the slowest input per KB.
Crashing or hanging inputs are written to ./fuzz-findings/ to replay. Exit status 1 if any.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))

from fuzz_support import Sandbox, bound, execute, mutate, random_ops, sandbox  # noqa: E402


class Tally:
    def __init__(self) -> None:
        self.runs: Counter[str] = Counter()
        self.crashes: Counter[str] = Counter()
        self.hangs: Counter[str] = Counter()
        self.changed: Counter[str] = Counter()
        self.seconds: Counter[str] = Counter()
        self.slowest: dict[str, tuple[float, int]] = {}
        self.kinds: dict[str, Counter[str]] = {}


def fuzz(box: Sandbox, executions: int, deadline: float, rng: random.Random, progress: float | None,
         findings: Path) -> Tally:
    tally = Tally()
    started = last = time.monotonic()
    before = box.snapshot()
    done = 0
    while done < executions and time.monotonic() < deadline:
        path = min(box.paths, key=lambda p: tally.seconds[p.name])  # each path the same time: cheap ones run more
        seed = rng.choice(path.seeds)
        data = seed if rng.random() < 0.01 else mutate(seed, random_ops(rng, path.tokens))
        outcome = execute(box, path, data, before)
        if outcome.hang:  # a shared machine pauses now and then: a hang must be one again
            outcome.hang = execute(box, path, data, before).hang
        done += 1
        tally.runs[path.name] += 1
        tally.seconds[path.name] += outcome.seconds
        per_kb = outcome.seconds / (1 + len(data) / 1024)
        if per_kb > tally.slowest.get(path.name, (0.0, 0))[0] / (1 + tally.slowest.get(path.name, (0.0, 0))[1] / 1024):
            tally.slowest[path.name] = (outcome.seconds, len(data))
        bad = []
        if outcome.crash:
            tally.crashes[path.name] += 1
            tally.kinds.setdefault(path.name, Counter())[outcome.crash] += 1
            bad.append("crash")
        if outcome.hang:
            tally.hangs[path.name] += 1
            bad.append("hang")
        if outcome.changed:
            tally.changed[path.name] += 1
            tally.kinds.setdefault(path.name, Counter())["changed " + ", ".join(outcome.changed)] += 1
            before = box.snapshot()
            bad.append("changed")
        if bad:
            findings.mkdir(exist_ok=True)
            (findings / f"{path.name.replace(' ', '-')}-{'-'.join(bad)}-{done}.bin").write_bytes(data)
        if progress and time.monotonic() - last > progress * 60:
            last = time.monotonic()
            print(f"  {done} executions in {last - started:.0f} s; crashes {sum(tally.crashes.values())}, hangs "
                  f"{sum(tally.hangs.values())}, files changed {sum(tally.changed.values())}", flush=True)
    return tally


def report(tally: Tally, seconds: float) -> None:
    print(f"{'path':<14} {'executions':>10} {'crashes':>8} {'hangs':>6} {'changed':>8} {'exec/s':>7}  slowest per KB")
    for name in tally.runs:
        runs = tally.runs[name]
        slow, size = tally.slowest.get(name, (0.0, 0))
        print(f"{name:<14} {runs:>10} {tally.crashes[name]:>8} {tally.hangs[name]:>6} {tally.changed[name]:>8} "
              f"{runs / max(tally.seconds[name], 1e-9):>7.0f}  {slow * 1000:.1f} ms for {size} bytes "
              f"(bound {bound(size):.1f} s)")
    total = sum(tally.runs.values())
    print(f"{'total':<14} {total:>10} {sum(tally.crashes.values()):>8} {sum(tally.hangs.values()):>6} "
          f"{sum(tally.changed.values()):>8} {total / max(seconds, 1e-9):>7.0f}  ({seconds:.0f} s of wall time)")
    for name, kinds in tally.kinds.items():
        for kind, count in kinds.most_common(5):
            print(f"  {name}: {count} x {kind}")


def scaling() -> None:
    """The inputs issue 21 found, at growing sizes: seconds for pbem inbox's reading of one mail."""
    from pbem.transport import inbox

    def nested(size: int) -> bytes:
        depth = size // 40
        head = "".join(f'Content-Type: multipart/mixed; boundary="b{i}"\n\n--b{i}\n' for i in range(depth))
        return f"Subject: x\n{head}\nhello\n".encode()

    cases = {
        "armor BEGIN lines, no END": lambda n: b"Subject: x\n\n" + b"-----BEGIN PBEM TURN-----\n" * (n // 26),
        "nested MIME parts": nested,
        "a long Content-Disposition": lambda n: b"Content-Disposition: attachment; filename=\"x" + b";" * n + b"\n\nhi\n",
        "many parameters": lambda n: b"Content-Type: text/plain; " + b"a=b;" * (n // 4) + b"\n\nhi\n",
        "empty MIME parts": lambda n: b'Content-Type: multipart/mixed; boundary="b"\n\n' + b"--b\n\n" * (n // 5),
        "base64 text": lambda n: b"Content-Transfer-Encoding: base64\n\n" + b"QUJD\n" * (n // 5),
    }
    sizes = [100_000, 400_000, 1_600_000, 6_400_000]
    print(f"{'one mail of':<28}" + "".join(f"{size // 1000:>9} KB" for size in sizes) + "   (seconds)")
    for name, make in cases.items():
        times = []
        for size in sizes:
            data = make(size)
            start = time.perf_counter()
            inbox.items("x", data)
            times.append(time.perf_counter() - start)
        print(f"{name:<28}" + "".join(f"{t:>12.3f}" for t in times))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--executions", type=int, default=20_000, help="executions in all (shared by the paths)")
    parser.add_argument("--minutes", type=float, default=None, help="stop after this long, whatever the count")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--progress", type=float, default=None, help="a line every this many minutes")
    parser.add_argument("--scaling", action="store_true", help="also time issue 21's inputs at growing sizes")
    args = parser.parse_args()
    if args.scaling:
        scaling()
    with tempfile.TemporaryDirectory(prefix="pbem-fuzz-") as folder:
        box = sandbox(Path(folder))
        start = time.monotonic()
        deadline = start + args.minutes * 60 if args.minutes else float("inf")
        tally = fuzz(box, args.executions, deadline, random.Random(args.seed), args.progress, Path("fuzz-findings"))
        report(tally, time.monotonic() - start)
    if sum(tally.crashes.values()) or sum(tally.hangs.values()) or sum(tally.changed.values()):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
