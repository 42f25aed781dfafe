"""The judge soaked (issue 32): honest games by mail through a real judge process with hostile mail among
them and the judge killed at random moments, and honest games in git pushed from several processes at once.

- By mail: `--games` Path of Pharaohs games of 3 players (greedy bots in this process, as in judge_load.py),
  played to their end through a real SMTP server (aiosmtpd on 127.0.0.1) into the judge's Maildir; the
  judge is its own process (`pbem judge run CONFIG`), killed by SIGKILL `--kills` times at random moments
  and started again each time. One mail in ten (`--hostile`) is drawn from the fuzz corpus
  (tests/judge_fuzz_support.py), made from the games as they stand.
- In git: `--git-games` games, each in its own bare repository with the judge's hooks (`pbem judge hooks`),
  pushed to by one process per player at once (each pulls, plays what it owes, pushes; a push that lost
  the race is pulled again), at most `--git-pushes` pushes each.

Prints, each of which must be 0 (exit status 1 otherwise):
- crashes: a judge process that exited on its own, a traceback in its log or in a hook's output;
- places signed twice: a (game, entry) with two different entries signed by the judge, across its copies,
  every mail it sent and every version of every game file in the repositories;
- stuck games: a mail game not over when everything stopped moving, or a git game whose referee's duty
  is owed at the tip of its branch after the last push;
- accepted turns lost: an entry the judge applied (its log says so) or a push accepted, missing from or
  different in the game as it ended;
and the 99th percentile of the time of the judge's passes that did something (logged a line: a mail read,
an entry signed, a mail sent); the judge process times each pass into a file: the same `pbem judge run`,
its `Judge.once` wrapped by a stopwatch.

    python benchmarks/judge_soak.py                 # 100 mail games, 20 git games, 50 kills: long
    python benchmarks/judge_soak.py --quick         # about a minute
    python benchmarks/judge_soak.py --games 10 --git-games 2 --kills 5 --git-pushes 10 --minutes 5

Every loop is bounded in count and in time (`--minutes` for the whole run, after which everything stops
and what is left is counted); only 127.0.0.1 is used.
"""

from __future__ import annotations

import argparse
import json
import mailbox
import os
import queue
import random
import shutil
import signal
import smtplib
import subprocess
import sys
import tempfile
import threading
import time
from email import message_from_bytes, policy
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

PLAYERS = ("ann", "ben", "cat")
BOOK = {n: f"{n}@example.org" for n in [*PLAYERS, "judge"]}
GAME = "path-of-pharaohs"
QUICK = {"games": 6, "git_games": 2, "kills": 5, "git_pushes": 6, "minutes": 4.0}
STUCK = 60.0
"""Seconds a mail game may go without moving, a move owed, before it counts as stuck."""
BATCH = 16
"""The judge's batch (pbem/judge/service.py BATCH), said in the report."""
IDLE = 60.0
"""Seconds a git player goes on while nobody pushes (every process owes nothing, or waits) before it stops."""


# ---------------------------------------------------------------- the judge's process, with a stopwatch

def run_judge(config: str, times: str) -> None:
    """`pbem judge run CONFIG`, each pass timed into `times`: its seconds, and 1 when it did something (it
    logged a line: applied, refused, signed, mailed...), 0 for a pass that found nothing to do."""
    from pbem.judge import cli, service

    once, log, read = service.Judge.once, service.Judge.log, service.Judge.read
    out = open(times, "a", buffering=1)  # noqa: SIM115 - open for the process's life; a line at a time
    lines = [0]
    batches: list[float] = []

    def counted(self: service.Judge, text: str) -> None:
        lines[0] += 1
        log(self, text)

    def batch(self: service.Judge, *args: object, **kwargs: object) -> int:
        batches.append(time.perf_counter())
        return read(self, *args, **kwargs)

    def timed(self: service.Judge) -> None:
        before, start = lines[0], time.perf_counter()
        batches.clear()
        try:
            once(self)
        finally:
            end = time.perf_counter()
            out.write(f"{end - start:.6f} {int(lines[0] > before)}\n")
            if lines[0] > before:  # a pass reads batches of mail until fewer come: each batch's time too
                out.writelines(f"batch {b - a:.6f}\n" for a, b in zip(batches, [*batches[1:], end]))

    service.Judge.log = counted  # type: ignore[method-assign]
    service.Judge.read = batch  # type: ignore[method-assign]
    service.Judge.once = timed  # type: ignore[method-assign]
    cli.app(["run", config])


class JudgeProcess:
    """The mail judge as its own process, killed (SIGKILL) and started again; an exit of its own is a crash."""

    def __init__(self, config: Path, times: Path):
        self.config, self.times, self.log = config, times, config.parent / "judge.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.kills = self.crashes = self.starts = 0
        self.lock = threading.Lock()

    def start(self) -> None:
        import pbem

        env = {**os.environ, "PYTHONPATH": str(Path(pbem.__file__).resolve().parent.parent)}
        env.pop("PBEM_NOW", None)
        with self.log.open("ab") as log:
            self.process = subprocess.Popen([sys.executable, __file__, "--run-judge", str(self.config), str(self.times)],
                                            stdout=log, stderr=log, env=env)
        self.starts += 1

    def wait_started(self, limit: float = 60) -> None:
        deadline = time.monotonic() + limit
        while self.log.read_text(errors="replace").count(" started: ") < self.starts and time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                return
            time.sleep(0.02)

    def check(self) -> None:
        """A judge that exited by itself: counted, and started again."""
        with self.lock:
            if self.process is not None and self.process.poll() is not None:
                self.crashes += 1
                with self.log.open("a") as log:
                    log.write(f"soak: the judge exited by itself with status {self.process.returncode}\n")
                self.start()
                self.wait_started()

    def kill(self) -> None:
        with self.lock:
            if self.process is None:
                return
            if self.process.poll() is not None:
                self.crashes += 1
            else:
                self.process.send_signal(signal.SIGKILL)
                self.process.wait()
                self.kills += 1
            self.start()
            self.wait_started()

    def stop(self) -> None:
        with self.lock:
            if self.process is not None:
                if self.process.poll() is not None:
                    self.crashes += 1
                else:
                    self.process.terminate()
                    try:
                        self.process.wait(30)
                    except subprocess.TimeoutExpired:
                        self.process.kill()
                        self.process.wait()
                        self.crashes += 1
                self.process = None


# ---------------------------------------------------------------- mail: the server and the players

class Server:
    """The SMTP server's handler: mail for the judge into its Maildir; the judge's own mail kept, and
    handed to the players. The time of each turn mail's delivery and of the judge's first answer to it."""

    def __init__(self, maildir: Path):
        self.maildir = mailbox.Maildir(maildir, create=True)
        self.from_judge: list[bytes] = []
        self.to_players: queue.Queue[bytes] = queue.Queue()

    async def handle_DATA(self, server, session, envelope):
        data = envelope.original_content
        if envelope.mail_from == BOOK["judge"]:
            self.from_judge.append(data)
            self.to_players.put(data)
        elif BOOK["judge"] in envelope.rcpt_tos:
            self.maildir.add(data)
        return "250 OK"


class Table:
    """What the fuzz corpus draws its mails from (tests/judge_fuzz_support.Corpus): one of the games as it
    stands, the turns its players mailed, a player's last mail."""

    def __init__(self, judge_key, game: str):
        self.judge_key, self.game = judge_key, game
        self.rep = None
        self.history: dict[str, list[bytes]] = {}
        self.last_honest: bytes | None = None


class Players:
    """Every player of every mail game, in this process: each reads the judge's mails into the game and
    plays what it owes at once, mailing the judge and, in the headers, the others."""

    def __init__(self, games: int, judge_key, port: int, rng: random.Random, table: Table):
        from pbem.crypto import Identity
        from pbem.protocol.genesis import new_game
        from pbem.protocol.session import Session

        self.ids = {n: Identity.generate(n) for n in PLAYERS}
        self.port, self.rng, self.table = port, rng, table
        self.reps = {}
        self.sent = 0
        for _ in range(games):
            rep = new_game(GAME, {}, [(n, self.ids[n].public) for n in PLAYERS], "ann", self.ids["ann"],
                           ("judge", judge_key))
            Session(rep, "ann", self.ids["ann"]).automatic()
            self.reps[rep.genesis.game_id] = rep
        self.moved = time.monotonic()
        self.last = dict.fromkeys(self.reps, self.moved)
        """When each game last moved (a judge's entry read, or a player's sent)."""

    def send(self, data: bytes) -> None:
        with smtplib.SMTP("127.0.0.1", self.port, timeout=60) as smtp:
            smtp.sendmail(BOOK["ann"], [BOOK["judge"]], data)

    def invite(self) -> None:
        from pbem.record.models import to_json
        from pbem.transport.mail import compose

        for game_id, rep in self.reps.items():
            self.table.history[game_id] = [to_json(rep.record).encode()]
            self._mail(compose(rep, "ann", None, book=BOOK).as_bytes(policy=policy.SMTP))

    def _mail(self, data: bytes) -> None:
        self.send(data)
        self.sent += 1
        self.table.last_honest = data

    def answer(self, data: bytes) -> None:
        """Apply a mail of the judge's; then each player who owes plays and mails."""
        from pbem.protocol.bots import bot_turn
        from pbem.protocol.session import Session
        from pbem.record.canonical import canonical
        from pbem.transport import turns
        from pbem.transport.mail import compose

        body = message_from_bytes(data, policy=policy.default).get_body(("plain",))
        for turn in turns.find_blocks(body.get_content() if body is not None else ""):
            if not isinstance(turn, turns.TurnBlock) or turn.game_id not in self.reps:
                continue
            rep = self.reps[turn.game_id]
            grown = turns.extend(rep, turn)
            if grown is not None:
                rep = self.reps[turn.game_id] = grown
                self.moved = self.last[turn.game_id] = time.monotonic()
            for _ in range(200):
                owed = [d.who for d in rep.duties() if d.who in PLAYERS]
                if not owed:
                    break
                before = rep.seq
                bot_turn(Session(rep, owed[0], self.ids[owed[0]]), "greedy", self.rng)
                if rep.seq == before:
                    break
                self.table.history[turn.game_id].append(canonical(turns.make(rep, before).model_dump(exclude_none=True)))
                self._mail(compose(rep, owed[0], before, book=BOOK).as_bytes(policy=policy.SMTP))
                self.moved = self.last[turn.game_id] = time.monotonic()

    def unfinished(self) -> list[str]:
        return [g for g, rep in self.reps.items() if rep.duties()]

    def stuck(self, quiet: float = STUCK) -> list[str]:
        """The games not over that have not moved for `quiet` seconds (one cut short by --minutes while it
        was still moving is not stuck: said apart)."""
        now = time.monotonic()
        return [g for g in self.unfinished() if now - self.last[g] > quiet]


def hostile_mail(corpus, players: Players, rng: random.Random) -> bytes:
    from judge_fuzz_support import hostile

    game_id = rng.choice(list(players.reps))
    players.table.rep = players.reps[game_id]
    return hostile(corpus, rng)


def mail_soak(base: Path, games: int, kills: int, hostile_share: float, rng: random.Random,
              deadline: float) -> dict[str, object]:
    from aiosmtpd.controller import Controller

    from pbem.crypto.keyring import create_key

    from judge_fuzz_support import Corpus
    from mail_support import free_port

    home = base / "judge-home"
    os.environ["PBEM_HOME"] = str(home)
    judge_key = create_key("judge", None)[1].public
    handler = Server(base / "judge-mail")
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port, server_hostname="localhost")
    controller.start()
    config = base / "judge.toml"
    config.write_text(f'home = "{home}"\nkey = "{home / "keys" / "judge"}"\naddress = "{BOOK["judge"]}"\n'
                      f'[mailbox]\nmaildir = "{base / "judge-mail"}"\npoll_seconds = 1\n'
                      f'[smtp]\nserver = "127.0.0.1:{port}"\nsecurity = "none"\n')
    table = Table(judge_key, GAME)
    players = Players(games, judge_key, port, rng, table)
    corpus = Corpus(table)  # type: ignore[arg-type]
    judge = JudgeProcess(config, base / "pass-times.txt")
    judge.start()
    judge.wait_started()
    hostile = 0
    done, over = threading.Event(), threading.Event()

    def killer() -> None:
        """The kills spread over the games' time (7 s a game in the full run; 3 s between kills on average
        there), each at a random moment; those left when every game is over, at once (an idle judge's: a
        random wait there only waited)."""
        killer_rng = random.Random(rng.getrandbits(32))
        mean = max(0.5, 1.5 * games / max(kills, 1))
        while judge.kills < kills and not done.is_set() and time.monotonic() < deadline:
            over.wait(killer_rng.uniform(0.05, 2 * mean))
            if done.is_set():
                return
            judge.kill()

    thread = threading.Thread(target=killer, daemon=True)
    try:
        players.invite()
        thread.start()
        while time.monotonic() < deadline:
            judge.check()
            if not players.unfinished():
                over.set()  # the kills left, now
                if judge.kills >= kills:
                    break  # every game over, every kill done (those left when the games end: an idle judge's)
            if time.monotonic() - players.moved > STUCK and judge.kills >= kills:
                break  # nothing moved for a minute, the kills done: what is left is stuck
            try:
                data = handler.to_players.get(timeout=0.1)
            except queue.Empty:
                continue
            sent = players.sent
            players.answer(data)
            for _ in range(players.sent - sent):  # one mail in ten a hostile one
                if rng.random() < hostile_share / (1 - hostile_share):
                    data = hostile_mail(corpus, players, rng)
                    try:
                        players.send(data)
                    except smtplib.SMTPException:  # bare LF lines, over 1000 bytes: delivered as a lenient server would
                        handler.maildir.add(data)
                    hostile += 1
        done.set()
        over.set()
        thread.join(60)
        judge.stop()
    finally:
        done.set()
        over.set()
        controller.stop()
        if judge.process is not None:
            judge.process.kill()
    return check_mail(base, home, handler, players, judge, hostile)


def stored_games(base: Path) -> tuple[list[Path], list[str]]:
    """Every game the judge's store holds, written out as game files (Store.export), and its copies in
    games-files/ (the store's cache) beside them; a store that cannot be read is said, and the copies used."""
    from pbem.judge import config as settings

    loaded = settings.load(base / "judge.toml")
    copies = sorted(loaded.games.glob("*.json"))
    try:
        from pbem.judge.store import open_store

        store = open_store(loaded.database, loaded.games, loaded.home)
        try:
            return copies + store.export(base / "exported"), []
        finally:
            store.db.close()
    except Exception as exc:  # noqa: BLE001 - the store's API is young: the copies still tell
        return copies, [f"the judge's store could not be exported ({type(exc).__name__}: {exc}): its copies checked"]


def check_mail(base: Path, home: Path, handler: Server, players: Players, judge: JudgeProcess,
               hostile: int) -> dict[str, object]:
    from pbem.record.models import Entry, payload_hash

    from judge_fuzz_support import entries_in

    log = judge.log.read_text(errors="replace")
    tracebacks = log.count("Traceback (most recent call last)")
    signed: dict[tuple[str, int], set[str]] = {}
    for data in handler.from_judge:
        for game_id, entry in entries_in(data):
            if entry.author == "judge":
                signed.setdefault((game_id, entry.seq), set()).add(payload_hash(entry))
    finals: dict[str, list[dict]] = {}
    copies, note = stored_games(base)
    for copy in copies:
        record = json.loads(copy.read_bytes())
        finals[record["genesis"]["game_id"]] = record["entries"]
        for raw in record["entries"]:
            if raw.get("author") == "judge":
                entry = Entry.model_validate(raw)
                signed.setdefault((record["genesis"]["game_id"], entry.seq), set()).add(payload_hash(entry))
    twice = {k: v for k, v in signed.items() if len(v) > 1}
    stuck = players.stuck()
    moving = [g for g in players.unfinished() if g not in stuck]
    lost = 0
    shorts = {g[:8]: g for g in players.reps}
    accepted: dict[str, int] = {}
    for line in log.splitlines():  # "... applied 1a2b3c4d entries 5-7 to path-of-pharaohs-1a2b3c4d.json"
        words = line.split()
        if len(words) > 4 and words[1] == "applied" and words[3] == "entries" and words[2] in shorts:
            last = int(words[4].split("-")[-1])
            accepted[shorts[words[2]]] = max(accepted.get(shorts[words[2]], 0), last)
    for game_id, upto in accepted.items():
        final = [payload_hash(Entry.model_validate(raw)) for raw in finals.get(game_id, [])]
        mine = [payload_hash(e) for e in players.reps[game_id].entries]
        for seq in range(1, upto + 1):
            if seq > len(final) or (seq <= len(mine) and final[seq - 1] != mine[seq - 1]):
                lost += 1
    times, batches = [], []
    for line in (base / "pass-times.txt").read_text().splitlines() if (base / "pass-times.txt").exists() else []:
        first, second = line.split()
        if first == "batch":
            batches.append(float(second))
        elif second == "1":
            times.append(float(first))
    times.sort()
    batches.sort()
    return {"games": len(players.reps), "mails": players.sent, "hostile": hostile, "kills": judge.kills,
            "crashes": judge.crashes + tracebacks, "twice": len(twice), "stuck": len(stuck), "lost": lost,
            "times": times, "batches": batches, "from_judge": len(handler.from_judge),
            "detail": note + [f"{len(moving)} mail games still moving when --minutes ran out (not counted as stuck)"
                              for _ in moving[:1]] + [f"mail game {g[:8]} stuck at entry {players.reps[g].seq}: "
                       f"{[(d.who, d.what) for d in players.reps[g].duties()][:2]}" for g in stuck[:5]]
            + [f"signed twice: game {k[0][:8]} entry {k[1]}" for k in list(twice)[:5]]}


# ---------------------------------------------------------------- git: bare repositories, hooks, pushers

def git(cwd: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0"}
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, env=env, timeout=300)
    if check and done.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)}: {done.stderr.strip()}")
    return done


def git_setup(base: Path, games: int) -> list[Path]:
    """A judge's home and key for the hooks; per game a bare repository with the hooks installed and a
    game made and pushed by ann (the judge joins it in post-receive); a clone per player and game."""
    from judge_support import cli, ok

    judge_home = base / "git-judge-home"
    judge_pub = ok(cli(judge_home, 0, "key", "new", "judge", "--no-passphrase")).splitlines()[-1]
    config = base / "git-judge.toml"
    config.write_text(f'home = "{judge_home}"\nkey = "{judge_home / "keys" / "judge"}"\naddress = "judge@example.org"\n')
    keys = {n: ok(cli(base / "git-players" / n, 0, "key", "new", n, "--no-passphrase")).splitlines()[-1] for n in PLAYERS}
    repos = []
    for i in range(games):
        origin = base / "git" / f"game-{i}.git"
        git(base, "init", "-q", "--bare", "-b", "main", str(origin))
        ok(cli(judge_home, 0, "judge", "hooks", origin, config))
        for name in PLAYERS:
            work = base / "git-players" / name / f"game-{i}"
            git(base, "clone", "-q", str(origin), str(work))
            git(work, "config", "user.name", name)
            git(work, "config", "user.email", f"{name}@example.org")
        ann = base / "git-players" / "ann" / f"game-{i}"
        (ann / "games").mkdir()
        ok(cli(base / "git-players" / "ann", 0, "new", GAME, "-o", ann / "games" / "game.json", "--as", "ann",
               *[f"--player={n}={keys[n]}" for n in PLAYERS], f"--referee=judge={judge_pub}"))
        git(ann, "add", "-A")
        git(ann, "commit", "-qm", "a new game")
        made = git(ann, "push", "-q", "origin", "HEAD:main", check=False)
        if made.returncode != 0:
            raise RuntimeError(f"the first push of game {i} was refused: {made.stderr}")
        repos.append(origin)
    return repos


def git_player(base: str, name: str, games: int, pushes: int, deadline: float, seed: int, out: str) -> None:
    """One player's process: round after round over the games, pull, play what is owed, push; each push
    and its outcome a line of `out` (JSON)."""
    from pbem import api

    from judge_support import cli

    rng = random.Random(seed)
    home = Path(base) / "git-players" / name
    os.environ["PBEM_HOME"] = str(home)
    done = 0
    started = time.time()
    logs = [Path(out).with_name(f"git-{o}.jsonl") for o in PLAYERS]
    others = [str(log) for log in logs if log.name != Path(out).name]

    def quiet() -> float:
        """Seconds since anyone pushed (their logs' last change), or since this process started."""
        return time.time() - max([started] + [log.stat().st_mtime for log in logs if log.exists()])

    with open(out, "a", buffering=1) as log:
        while done < pushes and time.monotonic() < deadline and quiet() < IDLE:
            moved = False
            over = 0
            for i in rng.sample(range(games), games):
                if done >= pushes or time.monotonic() >= deadline:
                    break
                work = home / f"game-{i}"
                git(work, "fetch", "-q", "origin", check=False)
                git(work, "reset", "-q", "--hard", "origin/main", check=False)
                path = work / "games" / "game.json"
                try:
                    rep = api.open_game(path)
                except Exception as exc:  # noqa: BLE001 - said in the report, not a reason to stop
                    log.write(json.dumps({"game": i, "error": f"open: {exc}"}) + "\n")
                    continue
                owed = {d.who for d in rep.duties()}
                over += not owed
                if name not in owed:
                    continue
                before = rep.seq
                played = cli(home, 0, "play", path, "--as", name, "--bot", "greedy", "--seed", str(rng.randrange(99)))
                if played.exit_code != 0:
                    log.write(json.dumps({"game": i, "error": f"play: {played.output[-500:]}"}) + "\n")
                    continue
                record = json.loads(path.read_bytes())
                git(work, "add", "-A")
                git(work, "commit", "-qm", f"{name} plays", check=False)
                pushed = git(work, "push", "-q", "origin", "HEAD:main", check=False)
                done += 1
                moved = True
                log.write(json.dumps({"game": i, "player": name, "ok": pushed.returncode == 0, "after": before,
                                      "entries": record["entries"][before:], "stderr": pushed.stderr[-4000:]}) + "\n")
            if over == games or (not moved and all(Path(f"{o}.done").exists() for o in others)):
                break  # every game over, or nobody else left to move one
            if not moved:
                time.sleep(0.2 + rng.random() * 0.3)  # nothing owed here now: the others' pushes, the judge's
    Path(f"{out}.done").touch()


def git_soak(base: Path, games: int, pushes: int, deadline: float, seed: int) -> tuple[list[Path], list]:
    import multiprocessing

    repos = git_setup(base, games)
    logs = [base / f"git-{n}.jsonl" for n in PLAYERS]
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=git_player, args=(str(base), n, games, pushes, deadline, seed + i, str(log)))
               for i, (n, log) in enumerate(zip(PLAYERS, logs))]
    for worker in workers:
        worker.start()
    return repos, workers


def check_git(base: Path, repos: list[Path]) -> dict[str, object]:
    from pbem import api
    from pbem.record.models import Entry, payload_hash

    pushes = [json.loads(line) for n in PLAYERS if (base / f"git-{n}.jsonl").exists()
              for line in (base / f"git-{n}.jsonl").read_text().splitlines()]
    accepted = [p for p in pushes if p.get("ok")]
    crashes = sum("Traceback" in p.get("stderr", "") for p in pushes)
    errors = [p["error"] for p in pushes if "error" in p]
    twice = stuck = lost = 0
    detail = [f"git player error: {e[:300]}" for e in errors[:3]]
    detail += [f"git hook traceback: {p['stderr'][-600:]}" for p in pushes if "Traceback" in p.get("stderr", "")][:2]
    for i, origin in enumerate(repos):
        signed: dict[int, set[str]] = {}
        for sha in git(origin, "log", "--format=%H", "main", "--", "games/game.json").stdout.split():
            shown = git(origin, "show", f"{sha}:games/game.json", check=False)
            if shown.returncode != 0:
                continue
            for raw in json.loads(shown.stdout)["entries"]:
                if raw.get("author") == "judge":
                    signed.setdefault(raw["seq"], set()).add(payload_hash(Entry.model_validate(raw)))
        twice += sum(len(v) > 1 for v in signed.values())
        tip = json.loads(git(origin, "show", "main:games/game.json").stdout)
        final = base / f"git-final-{i}.json"
        final.write_text(json.dumps(tip))
        rep = api.open_game(final)
        if any(d.who not in PLAYERS for d in rep.duties()):
            stuck += 1
            detail.append(f"git game {i} stuck: the referee owes {[(d.who, d.what) for d in rep.duties()][:2]} "
                          f"at entry {rep.seq}")
        for push in (p for p in accepted if p["game"] == i):
            for offset, entry in enumerate(push["entries"]):
                seq = push["after"] + offset + 1
                if seq > len(tip["entries"]) or tip["entries"][seq - 1] != entry:
                    lost += 1
                    detail.append(f"git game {i}: {push['player']}'s accepted entry {seq} lost")
    return {"pushes": len(pushes), "accepted": len(accepted), "crashes": crashes, "twice": twice, "stuck": stuck,
            "lost": lost, "detail": detail}


# ---------------------------------------------------------------- the run

def percentile(values: list[float], share: float) -> float:
    return values[int(share * (len(values) - 1))] if values else float("nan")


def soak(games: int, git_games: int, kills: int, git_pushes: int, minutes: float, hostile_share: float,
         seed: int, keep: bool = False) -> int:
    started = time.monotonic()
    deadline = started + minutes * 60
    base = Path(tempfile.mkdtemp(prefix="pbem-judge-soak-", dir="/dev/shm" if os.access("/dev/shm", os.W_OK) else None))
    rng = random.Random(seed)
    print(f"judge soak: {games} mail games, {git_games} git games, {kills} kills, at most {minutes:g} minutes "
          f"(in {base})", flush=True)
    workers = []
    repos: list[Path] = []
    try:
        if git_games:
            repos, workers = git_soak(base, git_games, git_pushes, deadline, seed)
        mail = mail_soak(base, games, kills, hostile_share, rng, deadline) if games else None
        for worker in workers:
            worker.join(max(1.0, deadline - time.monotonic() + 30))
            if worker.is_alive():
                worker.terminate()
                worker.join()
        gits = check_git(base, repos) if git_games else {"pushes": 0, "accepted": 0, "crashes": 0, "twice": 0,
                                                          "stuck": 0, "lost": 0, "detail": []}
    finally:
        for worker in workers:
            if worker.is_alive():
                worker.terminate()
        if not keep:
            shutil.rmtree(base, ignore_errors=True)
    mail = mail or {"games": 0, "mails": 0, "hostile": 0, "kills": 0, "crashes": 0, "twice": 0, "stuck": 0,
                    "lost": 0, "times": [], "batches": [], "from_judge": 0, "detail": []}
    times = mail["times"]
    figures = {k: mail[k] + gits[k] for k in ("crashes", "twice", "stuck", "lost")}  # type: ignore[operator]
    print(f"mail: {mail['games']} games of {len(PLAYERS)} players, {mail['mails']} turn mails and {mail['hostile']} "
          f"hostile ones to the judge, {mail['from_judge']} mails from it; judge killed {mail['kills']} times")
    print(f"git: {git_games} games, {gits['pushes']} pushes from {len(PLAYERS)} processes, {gits['accepted']} accepted")
    for line in mail["detail"] + gits["detail"]:  # type: ignore[operator]
        print(f"  {line}")
    print(f"crashes: {figures['crashes']}")
    print(f"places signed twice: {figures['twice']}")
    print(f"stuck games: {figures['stuck']}")
    print(f"accepted turns lost: {figures['lost']}")
    print(f"pass time: 99th percentile {percentile(times, 0.99) * 1000:.1f} ms, median "  # type: ignore[arg-type]
          f"{percentile(times, 0.5) * 1000:.1f} ms, of {len(times)} passes that did something")  # type: ignore[arg-type]
    batches = mail["batches"]
    print(f"batch time (a pass reads batches of {BATCH} mails until fewer come): 99th percentile "
          f"{percentile(batches, 0.99) * 1000:.1f} ms, median {percentile(batches, 0.5) * 1000:.1f} ms, "  # type: ignore[arg-type]
          f"of {len(batches)} batches")
    print(f"({time.monotonic() - started:.0f} s)")
    return 1 if any(figures.values()) else 0


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="mail games (default 100)")
    parser.add_argument("--git-games", type=int, default=20, help="git games (default 20)")
    parser.add_argument("--kills", type=int, default=50, help="SIGKILLs of the mail judge (default 50)")
    parser.add_argument("--git-pushes", type=int, default=200, help="pushes per player process at most (default 200)")
    parser.add_argument("--minutes", type=float, default=90.0, help="the whole run at most (default 90)")
    parser.add_argument("--hostile", type=float, default=0.1, help="the share of hostile mails (default 0.1)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true",
                        help=f"a small run, about a minute: {', '.join(f'{k}={v}' for k, v in QUICK.items())}")
    parser.add_argument("--keep", action="store_true", help="keep the folder (logs, copies, repositories)")
    parser.add_argument("--run-judge", nargs=2, metavar=("CONFIG", "TIMES"), help=argparse.SUPPRESS)
    return parser


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    """The settings: --quick's in place of the sizes, a share checked."""
    parse = parser()
    args = parse.parse_args(argv)
    if args.quick:
        for key, value in QUICK.items():
            setattr(args, key, value)
    if not 0 <= args.hostile < 1:
        parse.error("--hostile is a share: at least 0, below 1")
    if min(args.games, args.git_games, args.kills, args.git_pushes) < 0 or args.minutes <= 0:
        parse.error("the sizes are counts (0 or more) and --minutes is positive")
    return args


def main() -> None:
    args = arguments()
    if args.run_judge:
        run_judge(*args.run_judge)
        return
    sys.exit(soak(args.games, args.git_games, args.kills, args.git_pushes, args.minutes, args.hostile, args.seed,
                  args.keep))


if __name__ == "__main__":
    main()
