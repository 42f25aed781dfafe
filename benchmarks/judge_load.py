"""The judge under an open-loop load (issue 33): turn mails offered at a fixed rate, not players answering at
once. Four-player Path of Pharaohs games are set up first (a warm-up at full speed: invitations, joins and
the judge's deal, until every game owes a player's move), then every 1/rate s the sender takes a game whose
player owes a move (a queue of ready games, filled as the judge's replies arrive and are applied by the
players: greedy bots in this process, who play a game's move as soon as it is owed and keep the mail until
its slot) and mails it to the judge through a real SMTP server (aiosmtpd) into the judge's Maildir; a slot
with no game ready is counted as missed. The judge is its own process (`pbem judge run`), its home on disk.

    python benchmarks/judge_load.py [--games 1000] [--rate 20] [--seconds 180]
    python benchmarks/judge_load.py --find-rate          # the highest rate with a 99th percentile under 2 s
    python benchmarks/judge_load.py --flat               # the judge's time per turn at entries 10, 50, 100, 150
    python benchmarks/judge_load.py --database postgresql --judges 2 --kill-every 30
    python benchmarks/judge_load.py --game               # one whole 4-player game, players through the CLI
    python benchmarks/judge_load.py --crash 20           # the same, the judge killed (SIGKILL) 20 times on the way

Each phase is bounded in time and stops by itself; everything listens on 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import collections
import mailbox
import math
import os
import queue
import random
import shutil
import smtplib
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.parser import BytesHeaderParser
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from aiosmtpd.controller import Controller

from pbem.crypto import Identity
from pbem.crypto.keyring import create_key
from pbem.protocol.bots import bot_turn
from pbem.protocol.genesis import new_game
from pbem.protocol.session import Session
from pbem.transport import turns
from pbem.transport.mail import compose, message_id, send

from judge_support import JudgeProcess  # noqa: E402

PLAYERS = ["ann", "ben", "cat", "dan"]
BOOK = {n: f"{n}@example.org" for n in [*PLAYERS, "judge"]}
JUDGE = BOOK["judge"]
HEADERS = BytesHeaderParser(policy=policy.compat32)


def percentile(values: list[float], q: float) -> float:
    """Nearest rank: the smallest value with at least q of them at or below it."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)] if ordered else float("nan")


def vm_hwm(pid: int) -> int | None:
    """A process's peak resident memory (VmHWM), in kB."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return None


def cpu_seconds(pid: int) -> float:
    """A process's user and system CPU time so far."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def load_average() -> str:
    """The machine's load average, and how much of the last minute runnable tasks waited for a CPU (PSI):
    other work on the machine slows the judge down by that much."""
    try:
        text = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "unknown"
    try:
        some = Path("/proc/pressure/cpu").read_text().split()[2].split("=")[1]
        return f"{text}, CPU pressure {some}%"
    except (OSError, IndexError):
        return text


# ---------------------------------------------------------------- the mail server and the players

class Post:
    """The SMTP server's handler: mail for the judge into its Maildir (delivery noted by Message-ID); the
    judge's own mail kept (for the places it signed) and handed to the players with its arrival time."""

    def __init__(self, maildir: Path):
        self.maildir = mailbox.Maildir(maildir, create=True)
        self.delivered: dict[str, float] = {}
        self.from_judge: list[bytes] = []
        self.events: queue.Queue[tuple] = queue.Queue()

    async def handle_DATA(self, server, session, envelope):
        data = envelope.original_content
        if envelope.mail_from == JUDGE:
            self.from_judge.append(data)
            self.events.put(("reply", time.monotonic(), data))
        elif JUDGE in envelope.rcpt_tos:
            name = str(HEADERS.parsebytes(data)["Message-ID"]).strip()
            self.maildir.add(data)
            self.delivered[name] = time.monotonic()
        return "250 OK"


@dataclass
class Turn:
    """A player's move, played and mailed-to-be: sent in its slot."""

    game_id: str
    data: bytes
    name: str  # its Message-ID
    seq: int  # its last entry
    digest: str  # that entry's hash in the chain
    answered_by_judge: bool  # whether the referee owes something after it (else the next player does)


@dataclass
class Round:
    rate: float
    seconds: float
    offered: int = 0
    missed: int = 0
    sent: int = 0
    to_players: int = 0  # turns after which the next player owes, not the judge: no reply expected
    waits: list[float] = field(default_factory=list)
    unanswered: int = 0
    wall: float = 0.0
    span: float = 0.0  # from the first slot to the last reply
    players_cpu: float = 0.0
    judges_cpu: float = 0.0

    def achieved(self) -> float:
        """Turns handled a second: those sent and answered, from the first slot to the last reply."""
        return (self.sent - self.unanswered) / self.span if self.span > 0 else 0.0

    def line(self) -> str:
        w = self.waits
        achieved = self.achieved()
        return (f"offered {self.offered} turns at {self.rate:g}/s for {self.seconds:g} s: missed slots {self.missed}, "
                f"sent {self.sent} ({self.to_players} answered by the next player, not the judge), replies {len(w)}, "
                f"unanswered {self.unanswered}; delivery to reply: median {statistics.median(w) if w else float('nan'):.3f} s, "
                f"99th percentile {percentile(w, 0.99):.3f} s, max {max(w) if w else float('nan'):.3f} s; "
                f"{achieved:.1f} turns a second achieved; CPU: players (this process) {self.players_cpu:.0%} of a core, "
                f"judges {self.judges_cpu:.0%}")


class Players:
    """Every player of every game, in this process: a thread applies the judge's mails to each game and plays
    the move a player owes at once (a greedy bot), keeping it in the queue of ready games until its slot.
    Joins (the warm-up) are mailed at once."""

    def __init__(self, games: int, judge_key, post: Post, port: int, seed: int = 1):
        self.post, self.port, self.rng = post, port, random.Random(seed)
        self.ids = {n: Identity.generate(n) for n in PLAYERS}
        self.reps = {}
        for _ in range(games):
            rep = new_game("path-of-pharaohs", {}, [(n, self.ids[n].public) for n in PLAYERS], "ann",
                           self.ids["ann"], ("judge", judge_key))
            Session(rep, "ann", self.ids["ann"]).automatic()
            self.reps[rep.genesis.game_id] = rep
        self.ready: collections.deque[Turn] = collections.deque()
        self.held: set[str] = set()  # games with a turn in the queue
        self.awaiting: dict[str, tuple[int, str, float]] = {}  # game -> (last entry sent, Message-ID, sent at)
        self.waits: list[tuple[float, float]] = []  # (sent at, delivery to reply)
        self.sent: list[tuple[str, int, str]] = []  # (game, last entry, its hash) of every turn mailed
        self.over = 0
        self.errors: list[str] = []
        self.stopping = threading.Event()
        self.local = threading.local()  # an SMTP connection per thread (the sender's, the players')
        self.thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(30)

    def invite(self) -> None:
        for rep in self.reps.values():
            send(compose(rep, "ann", None, book=BOOK), f"127.0.0.1:{self.port}", "none")

    def mail(self, data: bytes) -> None:
        """To the judge only: the other players are in this process."""
        for attempt in range(3):
            try:
                if getattr(self.local, "smtp", None) is None:
                    self.local.smtp = smtplib.SMTP("127.0.0.1", self.port, timeout=60)
                self.local.smtp.sendmail(BOOK["ann"], [JUDGE], data)
                return
            except (smtplib.SMTPException, OSError):
                self.local.smtp = None
                if attempt == 2:
                    raise

    def _run(self) -> None:
        while not self.stopping.is_set():
            try:
                event = self.post.events.get(timeout=0.2)
            except queue.Empty:
                continue
            try:
                if event[0] == "reply":
                    self._reply(event[1], event[2])
                else:
                    self._next(event[1])
            except Exception as exc:  # noqa: BLE001  (counted and printed: the load goes on)
                self.errors.append(f"{type(exc).__name__}: {exc}")

    def _reply(self, arrived: float, data: bytes) -> None:
        body = message_from_bytes(data, policy=policy.default).get_body(("plain",))
        for turn in turns.find_blocks(body.get_content() if body is not None else ""):
            if not isinstance(turn, turns.TurnBlock) or turn.game_id not in self.reps:
                continue
            last = turn.entries[-1].seq if turn.entries else turn.after
            waited = self.awaiting.get(turn.game_id)
            if waited is not None and last > waited[0]:
                del self.awaiting[turn.game_id]
                self.waits.append((waited[2], arrived - self.post.delivered.get(waited[1], waited[2])))
            grown = turns.extend(self.reps[turn.game_id], turn)
            if grown is not None:
                self.reps[turn.game_id] = grown
            self._next(turn.game_id)

    def _next(self, game_id: str) -> None:
        """Whatever a player owes in the game: a join mailed at once, a move played into the queue."""
        if game_id in self.held:
            return
        while True:
            rep = self.reps[game_id]
            duties = rep.duties()
            if not duties:
                self.over += 1
                return
            if any(d.who not in PLAYERS for d in duties):
                return  # the judge's turn
            who = duties[0].who
            before = rep.seq
            bot_turn(Session(rep, who, self.ids[who]), "greedy", self.rng)
            if rep.seq == before:
                return
            msg = compose(rep, who, before, book=BOOK).as_bytes(policy=policy.SMTP)
            if duties[0].what == "join":
                self.mail(msg)
                continue
            after = rep.duties()
            self.held.add(game_id)
            self.ready.append(Turn(game_id, msg, message_id(rep, rep.seq), rep.seq, rep.hashes[rep.seq],
                                   any(d.who not in PLAYERS for d in after) or not after))
            return

    def take(self) -> Turn | None:
        try:
            turn = self.ready.popleft()
        except IndexError:
            return None
        self.held.discard(turn.game_id)
        return turn


# ---------------------------------------------------------------- a bench: server, judges, players

class Bench:
    def __init__(self, games: int, judges: int = 1, database: str = "sqlite", shm: bool = False, seed: int = 1,
                 url: str | None = None):
        where = "/dev/shm" if shm and os.access("/dev/shm", os.W_OK) else None
        self.base = Path(tempfile.mkdtemp(prefix="pbem-judge-load-", dir=where))
        self.cluster = None
        self._pg = None
        if database == "postgresql" and url:
            self.url = url
        elif database == "postgresql":
            from postgres_support import postgres_cluster

            self._pg = postgres_cluster()
            self.cluster = self._pg.__enter__()
            self.url = self.cluster.new_database()
        else:
            self.url = None
        os.environ["PBEM_HOME"] = str(self.base / "key-home")
        key_path, identity = create_key("judge", None)
        from mail_support import free_port

        self.port = free_port()
        self.post = Post(self.base / "judge-mail")
        self.controller = Controller(self.post, hostname="127.0.0.1", port=self.port, server_hostname="localhost")
        self.controller.start()
        self.judges = []
        for n in range(judges):
            folder = self.base / f"judge-{n + 1}"
            folder.mkdir()
            config = folder / "judge.toml"
            db = f'database = "{self.url}"\n' if self.url else ""
            config.write_text(f'{db}home = "{folder / "home"}"\nkey = "{key_path}"\naddress = "{JUDGE}"\n'
                              f'[mailbox]\nmaildir = "{self.base / "judge-mail"}"\npoll_seconds = 1\n'
                              f'[smtp]\nserver = "127.0.0.1:{self.port}"\nsecurity = "none"\n')
            self.judges.append(JudgeProcess(config))
        self.peaks: list[int] = []
        self.gone_cpu = 0.0
        """The CPU seconds of judge processes killed or stopped: counted, or a restart makes the judges' CPU fall."""
        started = time.monotonic()
        self.players = Players(games, identity.public, self.post, self.port, seed)
        print(f"{games} four-player Path of Pharaohs games, {judges} judge{'s' if judges > 1 else ''} on "
              f"{'PostgreSQL' if self.url else 'SQLite'} ({'/dev/shm' if where else 'disk'}); games made in "
              f"{time.monotonic() - started:.1f} s; load average {load_average()}", flush=True)
        for judge in self.judges:
            judge.start()
        for judge in self.judges:
            judge.wait_started()
        self.players.start()

    def note_peaks(self) -> None:
        for judge in self.judges:
            if judge.process is not None:
                peak = vm_hwm(judge.process.pid)
                if peak:
                    self.peaks.append(peak)

    def handled(self) -> int:
        """Mails the judges have read and set aside (the Maildir's cur/)."""
        return len(os.listdir(self.base / "judge-mail" / "cur"))

    def drain(self, limit: float) -> None:
        """Until the judges have read every mail (none left in new/, or none read for 15 s), at most `limit` s."""
        new = self.base / "judge-mail" / "new"
        end, last, still = time.monotonic() + limit, -1, time.monotonic()
        while time.monotonic() < end:
            left = len(os.listdir(new))
            if left == 0 and not self.players.awaiting:
                return
            if left != last:
                last, still = left, time.monotonic()
            elif time.monotonic() - still > 15:
                return
            time.sleep(0.1)

    def judges_cpu(self) -> float:
        """The CPU seconds of every judge process so far, those gone included."""
        return self.gone_cpu + sum(cpu_seconds(j.process.pid) for j in self.judges if j.process is not None)

    def note_gone(self, judge) -> None:
        """A judge about to be killed or stopped: its CPU so far is kept."""
        if judge.process is not None:
            self.gone_cpu += cpu_seconds(judge.process.pid)

    def warm_up(self, limit: float) -> None:
        """Invitations, joins and deals at full speed, until every game owes a player's move."""
        started = time.monotonic()
        self.players.invite()
        games = len(self.players.reps)
        while len(self.players.ready) < games - self.players.over and time.monotonic() - started < limit \
                and not self.players.errors:
            time.sleep(0.05)
        took = time.monotonic() - started
        print(f"warm-up: {len(self.players.ready)} of {games} games owe a player's move after {took:.1f} s "
              f"({len(self.post.delivered)} mails to the judge, {len(self.post.from_judge)} from it, "
              f"{(len(self.post.delivered) + len(self.post.from_judge)) / took:.1f} mails/s); "
              f"load average {load_average()}", flush=True)

    def measure(self, rate: float, seconds: float, drain: float = 30.0, during=None) -> Round:
        """Offer a turn every 1/rate s for `seconds` (`during(elapsed)` called between slots), then wait for
        the replies (at most `drain` s)."""
        players, result = self.players, Round(rate, seconds)
        first_wait = len(players.waits)
        slots = int(rate * seconds)
        cpu0, judge0, started = time.process_time(), self.judges_cpu(), time.monotonic()
        for i in range(slots):
            at = started + i / rate
            now = time.monotonic()
            if at > now:
                time.sleep(at - now)
            if during is not None:
                during(time.monotonic() - started)
            result.offered += 1
            turn = players.take()
            if turn is None:
                result.missed += 1
                continue
            if turn.answered_by_judge:
                players.awaiting[turn.game_id] = (turn.seq, turn.name, time.monotonic())
            else:
                result.to_players += 1
            players.mail(turn.data)
            players.sent.append((turn.game_id, turn.seq, turn.digest))
            result.sent += 1
            if not turn.answered_by_judge:
                self.post.events.put(("sent", turn.game_id))
        end = time.monotonic() + drain
        while players.awaiting and time.monotonic() < end:
            time.sleep(0.1)
        self.note_peaks()
        result.wall = time.monotonic() - started
        result.players_cpu = (time.process_time() - cpu0) / result.wall
        result.judges_cpu = (self.judges_cpu() - judge0) / result.wall
        result.waits = [w for _, w in players.waits[first_wait:]]
        result.unanswered = len(players.awaiting)
        last = max((s + w for s, w in players.waits[first_wait:]), default=started)
        result.span = last - started
        players.awaiting.clear()  # late replies are not counted in the next round
        return result

    def close(self) -> None:
        self.note_peaks()
        self.players.stop()
        for judge in self.judges:
            judge.stop()
        self.controller.stop()
        if self._pg is not None:
            self._pg.__exit__(None, None, None)
        shutil.rmtree(self.base, ignore_errors=True)

    def peak(self) -> str:
        return f"{max(self.peaks) / 1024:.0f} MB" if self.peaks else "unknown"


def load(games: int, rate: float, seconds: float, shm: bool) -> None:
    bench = Bench(games, shm=shm)
    try:
        bench.warm_up(max(120.0, games * 0.6))
        result = bench.measure(rate, seconds)
        print(f"{result.line()}; judge's peak memory (VmHWM) {bench.peak()}; load average {load_average()}")
        print(f"the judge's database: {database_size(bench)}; {duplicates(bench)}")
        report_errors(bench)
    finally:
        bench.close()


def find_rate(games: int, seconds: float, start: float, step: float, limit: float, shm: bool) -> None:
    """Rounds of rising rate until the 99th percentile reaches `limit` (or replies fall behind)."""
    bench = Bench(games, shm=shm)
    best = None
    try:
        bench.warm_up(max(120.0, games * 0.6))
        rate = start
        for _ in range(12):
            result = bench.measure(rate, seconds)
            print(f"round: {result.line()}; load average {load_average()}", flush=True)
            good = (len(result.waits) > 0 and percentile(result.waits, 0.99) < limit and result.unanswered == 0
                    and result.missed <= 0.05 * result.offered)
            if not good:
                break
            best = rate
            rate += step
        print(f"highest rate with a 99th percentile under {limit:g} s: "
              f"{f'{best:g} turns a second' if best is not None else f'none (not even {start:g}/s)'}; "
              f"judge's peak memory (VmHWM) {bench.peak()}")
        report_errors(bench)
    finally:
        bench.close()


def several(games: int, judges: int, database: str, kill_every: float, rate: float, seconds: float,
            saturate: float, shm: bool, saturate_seconds: float = 20, url: str | None = None) -> None:
    """Judges of their own, one Maildir, one database; the last judge killed (SIGKILL) every `kill_every` s
    and restarted. Then the throughput of all the judges beside one, at an offered `saturate` a second."""
    bench = Bench(games, judges=judges, database=database, shm=shm, url=url)
    victim = bench.judges[-1]
    kills = [0]

    def killer(elapsed: float) -> None:
        if kill_every and elapsed >= (kills[0] + 1) * kill_every:
            bench.note_peaks()
            bench.note_gone(victim)
            victim.kill()
            victim.start()
            kills[0] += 1

    try:
        bench.warm_up(max(180.0, games * 0.8))
        result = bench.measure(rate, seconds, drain=90.0, during=killer)
        print(f"{result.line()}; {kills[0]} kills", flush=True)
        speed = {}
        for count in sorted({judges, 1}, reverse=True):  # all the judges, then one: each saturated
            for judge in bench.judges[count:]:
                bench.note_peaks()
                bench.note_gone(judge)
                judge.stop()
            bench.judges = bench.judges[:count]
            bench.drain(300)
            before, started = bench.handled(), time.monotonic()
            offered = bench.measure(saturate, saturate_seconds, drain=0)
            speed[count] = (bench.handled() - before) / (time.monotonic() - started)
            left = len(os.listdir(bench.base / "judge-mail" / "new"))
            print(f"{count} judge{'s' if count > 1 else ''} offered {saturate:g} turns a second for "
                  f"{saturate_seconds:g} s: {speed[count]:.1f} turn mails handled a second ({offered.sent} sent, "
                  f"{offered.missed} slots missed for want of a ready game, {left} mails unread at the end: "
                  f"saturated only if some were)", flush=True)
        bench.drain(300)
        bench.players.stop()
        for judge in bench.judges:
            bench.note_peaks()
            judge.stop()
        from judge_support import signed_by

        places = signed_by(list(bench.post.from_judge), "judge")
        twice = sum(1 for hashes in places.values() if len(hashes) > 1)
        lost, missing = lost_turns(bench)
        w = result.waits or [float("nan")]
        print(f"{judges} judges on {database}, one killed every {kill_every:g} s ({kills[0]} kills) under {rate:g} "
              f"turns a second for {seconds:g} s: 99th percentile {percentile(w, 0.99):.3f} s (median "
              f"{statistics.median(w):.3f} s, max {max(w):.3f} s, {len(result.waits)} replies, "
              f"{result.unanswered} unanswered); places signed twice: {twice} of {len(places)}; turns lost: {lost} "
              f"of {len(bench.players.sent)} ({missing} not in the database); throughput at an offered "
              f"{saturate:g}/s: {judges} judges {speed[judges]:.1f} turns/s, 1 judge {speed[1]:.1f} turns/s; peak memory "
              f"per judge (VmHWM) {bench.peak()}; load average {load_average()}")
        print(f"the judges' database: {database_size(bench)}; {duplicates(bench)}")
        report_errors(bench)
    finally:
        bench.close()


def lost_turns(bench: Bench) -> tuple[int, int]:
    """Turns mailed to the judge whose last entry is in neither the final database nor any reply of the
    judge's (and how many are not in the database)."""
    from pbem.judge.database import Database

    url = bench.url or str(bench.judges[0].config.parent / "home" / "judge.db")
    db = Database(url)
    with db.transaction() as tx:
        held = {(str(g), int(s)): str(h) for g, s, h in tx.all("SELECT game_id, seq, hash FROM entries")}
    db.close()
    replied: set[tuple[str, int]] = set()
    for data in bench.post.from_judge:
        body = message_from_bytes(data, policy=policy.default).get_body(("plain",))
        for turn in turns.find_blocks(body.get_content() if body is not None else ""):
            if isinstance(turn, turns.TurnBlock):
                replied.update((turn.game_id, e.seq) for e in turn.entries)
    missing = [(g, s) for g, s, h in bench.players.sent if held.get((g, s)) != h]
    return sum(1 for k in missing if k not in replied), len(missing)


def database_size(bench: Bench) -> str:
    """The judge's database on disk (SQLite: the file and its WAL; PostgreSQL: the database), and its
    checkpoints' share."""
    from pbem.judge.database import Database

    try:
        if bench.url:
            db = Database(bench.url)
            with db.transaction() as tx:
                row = tx.one("SELECT pg_database_size(current_database())")
                total = int(row[0]) if row else 0
        else:
            home = bench.judges[0].config.parent / "home"
            total = sum(p.stat().st_size for p in home.glob("judge.db*"))
            db = Database(str(home / "judge.db"))
        with db.transaction() as tx:
            row = tx.one("SELECT COUNT(*), COALESCE(SUM(LENGTH(state)), 0) FROM checkpoints")
            entries = tx.one("SELECT COUNT(*), COALESCE(SUM(LENGTH(body)), 0) FROM entries")
            outbox = tx.one("SELECT COUNT(*), COALESCE(SUM(LENGTH(message)), 0) FROM outbox")
        db.close()
    except Exception as exc:  # noqa: BLE001  (a figure missing is said, the run still counts)
        return f"unknown ({exc})"
    count, state = (int(row[0]), int(row[1])) if row else (0, 0)
    parts = [f"{int(n or 0)} {what}, {int(size or 0) / 1e6:.0f} MB" for what, (n, size) in
             (("entries", entries or (0, 0)), ("outbox mails", outbox or (0, 0)))]
    return f"{total / 1e6:.0f} MB ({count} checkpoints, {state / 1e6:.0f} MB; {'; '.join(parts)})"


def duplicates(bench: Bench) -> str:
    """Mails the judges sent more than once (the same Message-ID: the same entries, mailed again)."""
    names = collections.Counter(str(HEADERS.parsebytes(data)["Message-ID"]).strip() for data in bench.post.from_judge)
    return (f"mails from the judge {len(bench.post.from_judge)}, of them sent again (a Message-ID seen before) "
            f"{sum(n - 1 for n in names.values())}")


def report_errors(bench: Bench) -> None:
    if bench.players.errors:
        print(f"players' errors: {len(bench.players.errors)}, first: {bench.players.errors[0]}")


# ---------------------------------------------------------------- the time per turn by entry number

def flat(others: int, long_games: int, no_checkpoints: bool, until: int = 0) -> None:
    """The judge in this process (pbem.judge.service.Judge, SQLite on disk): `long_games` games played to
    their end, `others` more hosted; before each turn of a long game, turns of the others are applied until
    the judge's memory of verified replays no longer holds it. Each mail's handle and referee timed."""
    from pbem.judge import config as judge_config
    from pbem.judge.service import Judge
    from pbem.judge.store import Store
    from pbem.protocol import remembered

    if no_checkpoints:
        Store.checkpoint = lambda self, tx, game, every=0: False  # type: ignore[method-assign]
    base = Path(tempfile.mkdtemp(prefix="pbem-judge-flat-"))
    os.environ["PBEM_HOME"] = str(base / "key-home")
    key_path, identity = create_key("judge", None)
    from mail_support import free_port

    port = free_port()
    post = Post(base / "judge-mail")
    controller = Controller(post, hostname="127.0.0.1", port=port, server_hostname="localhost")
    controller.start()
    config = base / "judge.toml"
    config.write_text(f'home = "{base / "home"}"\nkey = "{key_path}"\naddress = "{JUDGE}"\n[mailbox]\n'
                      f'maildir = "{base / "judge-mail"}"\npoll_seconds = 1\n[smtp]\nserver = "127.0.0.1:{port}"\n'
                      'security = "none"\n')
    judge = Judge(judge_config.load(config), log=lambda line: None)
    ids = {n: Identity.generate(n) for n in PLAYERS}
    rng = random.Random(7)
    reps = {}
    for _ in range(long_games + others):
        rep = new_game("path-of-pharaohs", {}, [(n, ids[n].public) for n in PLAYERS], "ann", ids["ann"],
                       ("judge", identity.public))
        Session(rep, "ann", ids["ann"]).automatic()
        reps[rep.genesis.game_id] = rep
    order = list(reps)
    long, rest = order[:long_games], order[long_games:]
    timings: list[tuple[int, float, float, str, int]] = []  # (first entry, handle, referee, game, verified)
    held_in_memory = [0]
    verified: list[int] = []  # entries verified from the genesis or the last replay kept, at each recall
    recall = remembered.recall

    def counted(keys):  # how far back the judge's verification starts (checkpoints make this short)
        found = recall(keys)
        verified.append(len(keys) - 1 - (found.seq if found is not None else 0))
        return found

    remembered.recall = counted

    def in_memory(rep) -> bool:
        """Whether the judge's memory of verified replays holds the game, or any part of it."""
        return any(remembered.holds(key) for key in remembered.chain(rep.record))

    def feed(game_id: str, data: bytes) -> tuple[float, float]:
        key = post.maildir.add(data)
        t0 = time.perf_counter()
        judge.handle(Path(post.maildir._path) / "new" / key)
        t1 = time.perf_counter()
        for g in sorted(judge.pending):
            judge.referee(g)
        t2 = time.perf_counter()
        judge.pending.clear()
        judge.deliver()
        while not post.events.empty():
            _, _, reply = post.events.get()
            body = message_from_bytes(reply, policy=policy.default).get_body(("plain",))
            for turn in turns.find_blocks(body.get_content() if body is not None else ""):
                if isinstance(turn, turns.TurnBlock) and turn.game_id in reps:
                    grown = turns.extend(reps[turn.game_id], turn)
                    if grown is not None:
                        reps[turn.game_id] = grown
        return t1 - t0, t2 - t1

    def step(game_id: str) -> bool:
        """The next player's turn of the game, mailed to the judge; False when nobody (but the judge) owes."""
        rep = reps[game_id]
        duties = rep.duties()
        if not duties or any(d.who not in PLAYERS for d in duties):
            return False
        who = duties[0].who
        before = rep.seq
        held = game_id in long and in_memory(rep)
        held_in_memory[0] += held
        bot_turn(Session(rep, who, ids[who]), "greedy", rng)
        mail = bytes(compose(rep, who, before, book=BOOK))
        verified.clear()
        handle, referee = feed(game_id, mail)
        if game_id in long and duties[0].what != "join" and not held:  # timed from the checkpoint only
            timings.append((before + 1, handle, referee, game_id, max(verified, default=0)))
        return True

    started = time.monotonic()
    for game_id in order:
        feed(game_id, bytes(compose(reps[game_id], "ann", None, book=BOOK)))
        while step(game_id) and reps[game_id].duties()[0].what == "join":
            pass
    print(f"{len(order)} games hosted by the judge in this process ({long_games} played to their end), set up in "
          f"{time.monotonic() - started:.0f} s{'; CHECKPOINTS OFF' if no_checkpoints else ''}; "
          f"load average {load_average()}", flush=True)
    for cycle in range(long_games * 120):
        live = [g for g in long if reps[g].duties() and not (until and reps[g].seq >= until)]
        if not live:
            break
        game_id = live[cycle % len(live)]
        for _ in range(64):  # until the judge's memory no longer holds the long game
            if not in_memory(reps[game_id]):
                break
            step(rng.choice([g for g in rest if reps[g].duties()] or rest))
        step(game_id)
    t0 = time.perf_counter()
    judge.sweep()  # what the judge does once a minute: every game's deadlines
    swept = time.perf_counter() - t0
    judge.store.db.close()
    controller.stop()
    shutil.rmtree(base, ignore_errors=True)
    print(f"one deadline sweep over the {len(order)} games (the judge does one a minute, between two batches of mail): "
          f"{swept * 1000:.0f} ms")
    print(f"{len(timings)} turns of the long games timed, from a checkpoint (not timed: {held_in_memory[0]} the "
          f"judge's memory still held); lengths {sorted(reps[g].seq for g in long)} entries")
    figures = []
    if not timings:
        print("no turn of the long games timed")
        return
    for target in (10, 50, 100, 150):
        near = sorted(timings, key=lambda t: abs(t[0] - target))[:3 * long_games]
        totals = [(t[1] + t[2]) * 1000 for t in near]
        figures.append(f"entry {target}: {statistics.median(totals):.0f} ms (turns at entries "
                       f"{min(t[0] for t in near)}-{max(t[0] for t in near)}; handle "
                       f"{statistics.median(t[1] * 1000 for t in near):.0f} ms, referee "
                       f"{statistics.median(t[2] * 1000 for t in near):.0f} ms; entries verified at most "
                       f"{max(t[4] for t in near)})")
    print("the judge's time per turn (handle + referee, median of the nearest turns): " + "; ".join(figures))
    print(f"load average {load_average()}")


# ---------------------------------------------------------------- one game through the CLI

def whole_game(kills: int) -> None:
    """One 4-player game to its end through the CLI, the judge its own process; killed `kills` times."""
    import pytest

    from judge_support import mail_count, memory_folder, players_act, setup_players, signed_by, start_game, write_config
    from mail_support import smtp_server

    monkeypatch = pytest.MonkeyPatch()
    from judge_support import fast_cli

    fast_cli(monkeypatch)
    folder = memory_folder()
    base = next(folder)
    rng = random.Random(kills)
    boxes = {f"{n}@example.org": base / "mail" / n for n in [*PLAYERS, "judge"]}
    started = time.monotonic()
    with smtp_server(boxes) as (port, server):
        keys = setup_players(base, port, PLAYERS)
        config = write_config(base, port, maildir=base / "mail" / "judge")
        start_game(base, port, "path-of-pharaohs", PLAYERS, keys, base / "game.json")
        judge = JudgeProcess(config)
        judge.start()
        judge.wait_started()
        seen: dict[str, int] = {}
        quiet = time.monotonic()
        plays = 0
        try:
            while time.monotonic() - quiet < 10:  # nothing moved for 10 s: the game is over (or stuck)
                played = players_act(base, port, PLAYERS, seen)
                plays += played
                if played or mail_count(base / "mail" / "judge") != seen.get("judge"):
                    seen["judge"] = mail_count(base / "mail" / "judge")
                    quiet = time.monotonic()
                if judge.kills < kills and played:
                    time.sleep(rng.uniform(0.0, 0.5))
                    judge.kill()
                    judge.start()
                    judge.wait_started()
                    quiet = time.monotonic()
                time.sleep(0.1)
        finally:
            judge.stop()
        received = list(server.received)
    import json

    places = signed_by(received, "judge")
    twice = {k: v for k, v in places.items() if len(v) > 1}
    copy = next((base / "judge-home" / "games-files").glob("*.json"))
    final = json.loads(copy.read_text())
    from pbem import api

    rep = api.open_game(copy)
    same = all(json.loads(next((base / n / "games-files").glob("*.json")).read_text()) == final for n in PLAYERS)
    print(f"one 4-player Path of Pharaohs game by mail, the judge killed {judge.kills} times: {plays} runs of "
          f"pbem play, {len(final['entries'])} entries, {'over' if rep.over else 'NOT OVER'}; "
          f"{len(places)} places signed by the judge, {len(twice)} signed twice; every copy the same: {same} "
          f"({time.monotonic() - started:.0f} s)")
    monkeypatch.undo()
    if twice or not rep.over or not same:
        sys.exit(1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="active four-player games (default 1000)")
    parser.add_argument("--rate", type=float, default=20, help="turn mails offered a second (default 20)")
    parser.add_argument("--seconds", type=float, default=180, help="how long the load lasts (default 180)")
    parser.add_argument("--find-rate", action="store_true", help="the highest rate with a 99th percentile under 2 s")
    parser.add_argument("--round", type=float, default=20, help="--find-rate: seconds a round (default 20)")
    parser.add_argument("--start", type=float, default=20, help="--find-rate: the first rate (default 20)")
    parser.add_argument("--step", type=float, default=10, help="--find-rate: the rate's step (default 10)")
    parser.add_argument("--flat", action="store_true", help="the judge's time per turn at entries 10, 50, 100, 150")
    parser.add_argument("--others", type=int, default=100, help="--flat: other games hosted (default 100)")
    parser.add_argument("--long", type=int, default=3, help="--flat: games played to their end (default 3)")
    parser.add_argument("--until", type=int, default=0, help="--flat: the long games stop at this entry")
    parser.add_argument("--no-checkpoints", action="store_true", help="--flat: with the judge's checkpoints off")
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--database-url", metavar="URL", help="--database postgresql: an empty database on a running "
                        "server (the tests' cluster), not a throwaway cluster started here")
    parser.add_argument("--judges", type=int, default=1, help="judges of their own on one database and Maildir")
    parser.add_argument("--kill-every", type=float, default=0, metavar="S", help="SIGKILL the last judge every S s")
    parser.add_argument("--saturate", type=float, default=60, help="--judges: the rate offered for throughput")
    parser.add_argument("--saturate-seconds", type=float, default=20, help="--judges: each throughput round")
    parser.add_argument("--shm", action="store_true", help="the judges' homes in /dev/shm, not on disk")
    parser.add_argument("--game", action="store_true", help="one whole game through the CLI")
    parser.add_argument("--crash", type=int, default=0, metavar="N", help="... with the judge killed N times")
    args = parser.parse_args()
    if args.game or args.crash:
        whole_game(args.crash)
    elif args.flat:
        flat(args.others, args.long, args.no_checkpoints, args.until)
    elif args.find_rate:
        find_rate(args.games, args.round, args.start, args.step, 2.0, args.shm)
    elif args.judges > 1 or args.database == "postgresql" or args.kill_every:
        several(args.games, args.judges, args.database, args.kill_every, args.rate, args.seconds, args.saturate,
                args.shm, args.saturate_seconds, args.database_url)
    else:
        load(args.games, args.rate, args.seconds, args.shm)


if __name__ == "__main__":
    main()
