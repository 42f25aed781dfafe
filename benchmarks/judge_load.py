"""The judge under load: 200 Path of Pharaohs games of 4 players, 2,000 turn mails through a real SMTP
server (aiosmtpd) into the judge's Maildir, the judge (its own process, `pbem judge run`), and
its replies back through the SMTP server to the players, who answer at once (greedy bots, in this
process). Prints turns per second, the time from a turn mail's delivery to the judge's reply (median
and 99th percentile) and the judge's peak memory.

    python benchmarks/judge_load.py [--games 200] [--mails 2000]
    python benchmarks/judge_load.py --game        # one whole 4-player game, players through the CLI
    python benchmarks/judge_load.py --crash 20    # the same, the judge killed (SIGKILL) 20 times on the way
"""

from __future__ import annotations

import argparse
import mailbox
import os
import queue
import random
import statistics
import sys
import tempfile
import time
from email import message_from_bytes, policy
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from aiosmtpd.controller import Controller

from pbem.crypto import Identity
from pbem.crypto.keyring import create_key
from pbem.protocol.bots import bot_turn
from pbem.protocol.genesis import new_game
from pbem.protocol.session import Session
from pbem.transport import turns
from pbem.transport.mail import compose, send

from judge_support import JudgeProcess  # noqa: E402

PLAYERS = ["ann", "ben", "cat", "dan"]
BOOK = {n: f"{n}@example.org" for n in [*PLAYERS, "judge"]}


class Server:
    """The SMTP server's handler: mail for the judge into its Maildir (the delivery time noted by
    Message-ID); the judge's own mail handed to the players (its arrival time noted by In-Reply-To)."""

    def __init__(self, maildir: Path):
        self.maildir = mailbox.Maildir(maildir, create=True)
        self.delivered: dict[str, float] = {}
        self.replied: dict[str, float] = {}
        self.to_players: queue.Queue[bytes] = queue.Queue()

    async def handle_DATA(self, server, session, envelope):
        data = envelope.original_content
        message = message_from_bytes(data, policy=policy.compat32)
        if envelope.mail_from == BOOK["judge"]:
            self.replied.setdefault(str(message["In-Reply-To"]).strip(), time.monotonic())
            self.to_players.put(data)
        elif BOOK["judge"] in envelope.rcpt_tos:
            self.maildir.add(data)
            self.delivered[str(message["Message-ID"]).strip()] = time.monotonic()
        return "250 OK"


class Players:
    """Every player of every game, in this process: each applies the judge's mails to the game and
    plays what it owes at once, mailing the judge (and, in the headers, the others)."""

    def __init__(self, games: int, judge_key, port: int, budget: int, seed: int = 1):
        self.ids = {n: Identity.generate(n) for n in PLAYERS}
        self.port, self.rng, self.budget, self.sent = port, random.Random(seed), budget, 0
        self.reps = {}
        for _ in range(games):
            rep = new_game("path-of-pharaohs", {}, [(n, self.ids[n].public) for n in PLAYERS], "ann",
                           self.ids["ann"], ("judge", judge_key))
            Session(rep, "ann", self.ids["ann"]).automatic()
            self.reps[rep.genesis.game_id] = rep
        self.per_game = -(-budget // games)
        self.sent_in = dict.fromkeys(self.reps, 0)

    def invite(self) -> None:
        for rep in self.reps.values():
            self._send(compose(rep, "ann", None, book=BOOK))

    def _send(self, msg) -> None:
        send(msg, f"127.0.0.1:{self.port}", "none")

    def answer(self, data: bytes) -> None:
        """Apply a mail of the judge's; then each player who owes plays and mails."""
        body = message_from_bytes(data, policy=policy.default).get_body(("plain",))
        for turn in turns.find_blocks(body.get_content() if body is not None else ""):
            if not isinstance(turn, turns.TurnBlock) or turn.game_id not in self.reps:
                continue
            rep = self.reps[turn.game_id]
            grown = turns.extend(rep, turn)
            if grown is not None:
                rep = self.reps[turn.game_id] = grown
            while self.sent_in[turn.game_id] < self.per_game and self.sent < self.budget:
                owed = [d.who for d in rep.duties() if d.who in PLAYERS]
                if not owed:
                    break
                before = rep.seq
                bot_turn(Session(rep, owed[0], self.ids[owed[0]]), "greedy", self.rng)
                if rep.seq == before:
                    break
                self._send(compose(rep, owed[0], before, book=BOOK))
                self.sent_in[turn.game_id] += 1
                self.sent += 1


def peak_memory(pid: int) -> str:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return f"{int(line.split()[1]) / 1024:.0f} MB"
    except OSError:
        pass
    return "unknown"


def load(games: int, mails: int) -> None:
    base = Path(tempfile.mkdtemp(prefix="pbem-judge-load-", dir="/dev/shm" if os.access("/dev/shm", os.W_OK) else None))
    os.environ["PBEM_HOME"] = str(base / "judge-home")
    judge_key = create_key("judge", None)[1].public
    handler = Server(base / "judge-mail")
    from mail_support import free_port

    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port, server_hostname="localhost")
    controller.start()
    config = base / "judge.toml"
    config.write_text(f'home = "{base / "judge-home"}"\nkey = "{base / "judge-home" / "keys" / "judge"}"\n'
                      f'address = "judge@example.org"\n[mailbox]\nmaildir = "{base / "judge-mail"}"\n'
                      f'poll_seconds = 1\n[smtp]\nserver = "127.0.0.1:{port}"\nsecurity = "none"\n')
    print(f"{games} games of 4 players, {mails} turn mails; setting up...", flush=True)
    players = Players(games, judge_key, port, mails)
    judge = JudgeProcess(config)
    judge.start()
    started = time.monotonic()
    players.invite()
    quiet = time.monotonic()
    try:  # until every turn mailed has its answer, or nothing moved for a minute
        while time.monotonic() - quiet < 60:
            try:
                data = handler.to_players.get(timeout=0.5)
            except queue.Empty:
                if players.sent >= mails and time.monotonic() - quiet > 5:
                    break  # every turn sent, and nothing came back for 5 s: all answered
                continue
            quiet = time.monotonic()
            players.answer(data)
        last = max(handler.replied.values())
        memory = peak_memory(judge.process.pid) if judge.process else "unknown"
    finally:
        judge.stop()
        controller.stop()
        import shutil

        shutil.rmtree(base, ignore_errors=True)
    waits = sorted(handler.replied[m] - t for m, t in handler.delivered.items() if m in handler.replied)
    turns_in = len(handler.delivered)
    elapsed = last - started
    print(f"turn mails to the judge: {turns_in} ({games} invitations, {players.sent} turns); replies: {len(waits)}")
    print(f"turns per second: {turns_in / elapsed:.1f} ({elapsed:.1f} s from the first invitation to the last reply)")
    print(f"delivery to the judge's reply: median {statistics.median(waits):.3f} s, "
          f"99th percentile {waits[int(0.99 * (len(waits) - 1))]:.3f} s, max {waits[-1]:.3f} s")
    print(f"judge's peak memory (VmHWM): {memory}")


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
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--mails", type=int, default=2000)
    parser.add_argument("--game", action="store_true", help="one whole game through the CLI")
    parser.add_argument("--crash", type=int, default=0, metavar="N", help="... with the judge killed N times")
    args = parser.parse_args()
    if args.game or args.crash:
        whole_game(args.crash)
    else:
        load(args.games, args.mails)


if __name__ == "__main__":
    main()
