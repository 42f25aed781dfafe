"""Fuzzing every path outside input enters pbem by (tests/fuzz_support.py), for as long as asked, and the
hostile inputs of issue 21 at growing sizes (the time must grow with the size, not its square).

    python benchmarks/fuzz_inputs.py [--executions N] [--minutes M] [--seed S] [--progress MINUTES] [--scaling]
    python benchmarks/fuzz_inputs.py --judge [--executions N] [--minutes M] [--honest-every K] [--recycle R] [--jobs J]

Each path gets the same share of the time (the cheap ones run more often). Prints, for each path:
executions, crashes (any exception but pbem's own errors), hangs (over the time bound for the input's size,
twice in a row), inputs that changed a file, executions a second, and the slowest input per KB.
Crashing or hanging inputs are written to ./fuzz-findings/ to replay. Exit status 1 if any.

--judge fuzzes the judge's whole path for one mail instead (tests/judge_fuzz_support.py): a real Judge and
its Maildir in this process, a real SMTP server on 127.0.0.1, an honest game beside the hostile mails. Each
execution is one hostile mail and one pass of the judge; after each, the judge must be alive (its pass
returned), have signed no place twice, have mailed no header line a hostile mail smuggled in, no path of
its machine and no stranger. After every K-th (--honest-every, default 1) an honest turn is mailed and
must be applied and answered: what a hostile mail did to the judge's memory stays there, so a game it
stalled is caught at the next honest turn, and the K mails before it are written out. The sandbox starts
anew every R executions (--recycle), and after a stall, so that its folders stay small. Prints executions,
crashes (distinct places), findings by kind, honest turns and games, executions a second; --jobs J runs J
such processes at once (a million executions: --executions 1000000 --jobs 2 --honest-every 20, hours).
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


def fuzz_judge(executions: int, deadline: float, seed: int, honest_every: int, recycle: int, progress: float | None,
               findings: Path, log=print, game: str = "path-of-pharaohs") -> dict[str, float]:
    """The judge's path for one mail, `executions` times or until `deadline`; the figures it printed."""
    import shutil

    from judge_fuzz_support import Corpus, JudgeBox, hostile

    rng = random.Random(seed)
    kinds: Counter[str] = Counter()
    places: Counter[str] = Counter()
    first: dict[str, str] = {}
    done = crashes = slow = honest = games = sent = boxes = 0
    started = last = time.monotonic()
    spent = 0.0
    with tempfile.TemporaryDirectory(prefix="pbem-judge-fuzz-", dir=_memory()) as folder:
        while done < executions and time.monotonic() < deadline:
            boxes += 1
            box = JudgeBox(Path(folder) / f"box-{boxes}", seed=rng.getrandbits(32), game=game)
            try:
                corpus = Corpus(box)
                box.run_pass("the invitation", expect=box.rep.genesis.game_id)
                recent: list[bytes] = []
                stalled = False
                for _ in range(recycle):
                    if done >= executions or time.monotonic() >= deadline or stalled:
                        break
                    data = hostile(corpus, rng)
                    recent = [*recent[-(honest_every - 1):], data] if honest_every > 1 else [data]
                    start = time.perf_counter()
                    finding = box.execute(data)
                    seconds = time.perf_counter() - start
                    spent += seconds
                    done += 1
                    if seconds > bound(len(data)):
                        slow += 1
                        _keep(findings, f"judge-slow-{done}", [data])
                    if finding is not None:
                        crashes += finding.kind == "crash"
                        where = finding.text.split(" in a mail")[0][:300]
                        kinds[finding.kind] += 1
                        places[f"{finding.kind}: {where}"] += 1
                        if places[f"{finding.kind}: {where}"] == 1:
                            name = f"judge-{finding.kind.replace(' ', '-')}-{done}"
                            first[f"{finding.kind}: {where}"] = _keep(findings, name, [data])
                    if done % honest_every == 0:
                        finding = box.honest_turn()
                        honest += 1
                        if finding is not None:
                            kinds[finding.kind] += 1
                            key = f"{finding.kind}: {finding.text.split(';')[0][:200]}"
                            places[key] += 1
                            if places[key] == 1:
                                first[key] = _keep(findings, f"judge-{finding.kind.replace(' ', '-')}-{done}", recent)
                            stalled = finding.kind == "honest game stalled"
                    if progress and time.monotonic() - last > progress * 60:
                        last = time.monotonic()
                        log(f"  {done} executions in {last - started:.0f} s; crashes {crashes}, findings "
                            f"{sum(kinds.values()) - crashes}", flush=True)
                games += box.stats.games
                sent += box.stats.sent
            finally:
                box.close()
                shutil.rmtree(box.root, ignore_errors=True)
    seconds = time.monotonic() - started
    log(f"judge, one mail a pass: {done} executions, {crashes} crashes, "
        f"{sum(kinds.values()) - crashes} other findings, {slow} over the time bound; {honest} honest turns in "
        f"{games} games, {sent} mails sent by the judge; {done / max(seconds, 1e-9):.0f} executions/s "
        f"({done / max(spent, 1e-9):.0f} in the judge's passes; {seconds:.0f} s)")
    for kind, count in sorted(kinds.items()):
        log(f"  {kind}: {count}")
    for key, count in places.most_common(20):
        log(f"  {count} x {key}  [{first.get(key, '')}]")
    return {"executions": done, "crashes": crashes, "findings": sum(kinds.values()), "slow": slow, "honest": honest,
            "seconds": seconds}


def _judge_job(job: tuple[int, int, float, int, int, int, float | None, str]) -> tuple[dict[str, float], list[str]]:
    """One process of --jobs: its share of the executions, its own seed, sandbox and findings folder."""
    index, executions, deadline, seed, honest_every, recycle, progress, game = job
    lines: list[str] = []

    def say(line: str, flush: bool = False) -> None:
        lines.append(line)
        if progress:
            print(f"[{index}] {line}", flush=True)

    figures = fuzz_judge(executions, deadline, seed, honest_every, recycle, progress, Path(f"fuzz-findings/job-{index}"),
                         say, game)
    return figures, lines


def fuzz_judge_jobs(jobs: int, executions: int, deadline: float, seed: int, honest_every: int, recycle: int,
                    progress: float | None, game: str) -> dict[str, float]:
    """--judge over `jobs` processes at once (spawned: each its own judge, SMTP server and sandbox)."""
    import multiprocessing

    started = time.monotonic()
    shares = [executions // jobs + (i < executions % jobs) for i in range(jobs)]
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        results = pool.map(_judge_job, [(i, shares[i], deadline, seed * 1000 + i, honest_every, recycle, progress,
                                         game) for i in range(jobs)])
    for i, (_, lines) in enumerate(results):
        for line in lines if not progress else []:  # with --progress each process printed its own as it went
            print(f"[{i}] {line}")
    total = {k: sum(r[k] for r, _ in results) for k in ("executions", "crashes", "findings", "slow", "honest")}
    seconds = time.monotonic() - started
    print(f"judge, {jobs} processes: {total['executions']:.0f} executions, {total['crashes']:.0f} crashes, "
          f"{total['findings'] - total['crashes']:.0f} other findings, {total['slow']:.0f} over the time bound; "
          f"{total['honest']:.0f} honest turns; {total['executions'] / max(seconds, 1e-9):.0f} executions/s "
          f"({seconds:.0f} s)")
    return total


def _memory() -> str | None:
    import os

    return "/dev/shm" if os.access("/dev/shm", os.W_OK) else None


def _keep(findings: Path, name: str, mails: list[bytes]) -> str:
    """The input(s) of a finding, to replay: one .eml, or a folder of them (the mails before a stall)."""
    findings.mkdir(exist_ok=True)
    if len(mails) == 1:
        path = findings / f"{name}.eml"
        path.write_bytes(mails[0])
        return str(path)
    folder = findings / name
    folder.mkdir(exist_ok=True)
    for i, data in enumerate(mails):
        (folder / f"{i:04d}.eml").write_bytes(data)
    return str(folder)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--executions", type=int, default=20_000, help="executions in all (shared by the paths)")
    parser.add_argument("--minutes", type=float, default=None, help="stop after this long, whatever the count")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--progress", type=float, default=None, help="a line every this many minutes")
    parser.add_argument("--scaling", action="store_true", help="also time issue 21's inputs at growing sizes")
    parser.add_argument("--judge", action="store_true", help="fuzz the judge's whole path for one mail instead")
    parser.add_argument("--honest-every", type=int, default=1, metavar="K",
                        help="--judge: an honest turn after every K hostile mails")
    parser.add_argument("--recycle", type=int, default=2000, metavar="R",
                        help="--judge: a new sandbox every R executions")
    parser.add_argument("--game", default="path-of-pharaohs", help="--judge: the honest game's kind")
    parser.add_argument("--jobs", type=int, default=1, metavar="J",
                        help="--judge: J processes at once, each its own judge and sandbox (the executions shared)")
    args = parser.parse_args()
    if args.judge:
        start = time.monotonic()
        deadline = start + args.minutes * 60 if args.minutes else float("inf")
        if args.jobs > 1:
            figures = fuzz_judge_jobs(args.jobs, args.executions, deadline, args.seed, max(1, args.honest_every),
                                      max(1, args.recycle), args.progress, args.game)
        else:
            figures = fuzz_judge(args.executions, deadline, args.seed, max(1, args.honest_every), max(1, args.recycle),
                                 args.progress, Path("fuzz-findings"), game=args.game)
        if figures["findings"] or figures["slow"]:
            raise SystemExit(1)
        return
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
