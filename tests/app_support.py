"""The app as people run it, for the browser tests and the benchmark: each person with their own
PBEM_HOME (a key, the address book, a Maildir), `python -m pbem.app --no-browser` started for them,
mail through a real SMTP server (aiosmtpd) on localhost. A `Seat` acts in its app either by clicking
in a real browser (Selenium, Debian's chromium) or, to get a long game to its end quickly, through the
same HTTP requests the page's script sends."""

from __future__ import annotations

import http.client
import json
import os
import re
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pbem
from pbem.crypto import Identity
from pbem.protocol.bots import play_out
from pbem.protocol.entries import apply_entry, replay
from pbem.protocol.genesis import new_game, start
from pbem.protocol.replay import Replay
from pbem.record.models import GameFile

from mail_support import smtp_server

ROOT = Path(pbem.__file__).resolve().parent.parent


class App:
    """One running app: its URL (with the secret token), a cookie once the token is traded."""

    @staticmethod
    def environment(pbem: dict[str, str]) -> dict[str, str]:
        """This process's environment without its PBEM_ settings, with these, and pbem on the path."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
        return {**env, **pbem, "PYTHONPATH": str(ROOT)}

    @staticmethod
    def launch(env: dict[str, str], command: tuple[str, ...] = ("pbem.app",)) -> subprocess.Popen[str]:
        """The app as `pbem app --no-browser` starts it (`command`: ("pbem.cli", "app") for the command
        itself, which hands over to `python -m pbem.app`; the tests mostly skip that step's start-up)."""
        return subprocess.Popen([sys.executable, "-m", *command, "--no-browser"], env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL)

    def __init__(self, home: Path, process: subprocess.Popen[str]):
        self.home, self.process = home, process
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        found = re.search(r"open (http://127\.0\.0\.1:(\d+)/\?token=(\S+))", line)
        if not found:
            self.process.kill()
            raise RuntimeError(f"the app did not start: {line}{self.process.stderr.read() if self.process.stderr else ''}")
        self.url, self.port, self.token = found.group(1), int(found.group(2)), found.group(3)
        self.base = f"http://127.0.0.1:{self.port}"
        self.cookie: str | None = None
        self.csrf: str | None = None

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            self.process.kill()

    # -- raw HTTP, as a browser (or an attacker) sends it

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None,
                host: str | None = None) -> tuple[int, dict[str, str], bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        sent = {"Host": host or f"127.0.0.1:{self.port}", **(headers or {})}
        conn.request(method, path, body=body, headers=sent)
        response = conn.getresponse()
        data = response.read()
        conn.close()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, data

    def login(self) -> None:
        status, headers, _ = self.request("GET", f"/?token={self.token}")
        assert status == 200
        self.cookie = headers["set-cookie"].split(";")[0]
        page = self.get("/")
        self.csrf = re.search(r'name="pbem-csrf" content="([^"]+)"', page).group(1)

    def get(self, path: str) -> str:
        if self.cookie is None:
            self.login()
        status, _, data = self.request("GET", path, headers={"Cookie": self.cookie or ""})
        assert status == 200, (status, data[:300])
        return data.decode()

    def post(self, path: str, body: dict[str, Any], **extra: str) -> tuple[int, dict[str, Any]]:
        if self.cookie is None:
            self.login()
        headers = {"Cookie": self.cookie or "", "Content-Type": "application/json", "X-Pbem-Csrf": self.csrf or "",
                   "Origin": self.base, **extra}
        status, _, data = self.request("POST", path, json.dumps(body).encode(), headers)
        return status, json.loads(data)

    def game_data(self, game_id: str) -> dict[str, Any]:
        page = self.get(f"/game/{game_id}")
        block = re.search(r'<script type="application/json" id="app-data">(.*?)</script>', page, re.S).group(1)
        data: dict[str, Any] = json.loads(block.replace("<\\/", "</"))
        return data


class Table:
    """People, each with a home, a key, the address book and a Maildir; one SMTP server; their apps."""

    def __init__(self, base: Path, names: list[str], smtp_port: int, identities: dict[str, Identity] | None = None):
        from pbem.crypto.keyring import create_key
        from pbem.record.files import write_atomic
        from pbem.transport.contacts import add

        self.base, self.names, self.smtp_port = base, names, smtp_port
        self.apps: dict[str, App] = {}
        for name in names:
            with at_home(self.home(name)):
                if identities:
                    keys = self.home(name) / "keys"
                    keys.mkdir(parents=True, mode=0o700)
                    write_atomic(keys / name, identities[name].to_openssh(None), mode=0o600)
                    write_atomic(keys / f"{name}.pub", (identities[name].public.line() + "\n").encode())
                else:
                    create_key(name, None)
                for other in names:
                    add(other, self.address(other))

    def home(self, name: str) -> Path:
        return self.base / name / "home"

    def maildir(self, name: str) -> Path:
        return self.base / name / "Maildir"

    def address(self, name: str) -> str:
        return f"{name}@pbem.test"

    def env(self, name: str) -> dict[str, str]:
        return App.environment({"PBEM_HOME": str(self.home(name)), "PBEM_MAIL": str(self.maildir(name)),
                                "PBEM_SMTP": f"127.0.0.1:{self.smtp_port}", "PBEM_SMTP_SECURITY": "none"})

    def start_apps(self) -> None:
        """Every person's app, started together (each reads its URL from its own output)."""
        starting = {name: App.launch(self.env(name)) for name in self.names}
        for name, process in starting.items():
            self.apps[name] = App(self.home(name), process)

    def hand_out(self, rep: Replay) -> None:
        """Everyone in the game holds a copy of it as it stands, all of it already mailed (a game begun earlier)."""
        from pbem.transport import copies
        from pbem.transport.inbox import Copies

        for name in rep.roster:
            with at_home(self.home(name)):
                Copies(copies.folder()).put(rep)
                copies.mark_shared(rep.genesis.game_id, rep.seq)

    def stop_apps(self) -> None:
        for app in self.apps.values():
            app.stop()

    def create(self, game: str, creator: str, options: list[str] | None = None) -> str:
        """The creator makes the game with pbem (the command line) and mails the invitation."""
        from pbem.crypto import PublicKey

        env = self.env(creator)
        keys = []
        for name in self.names:
            line = (self.home(name) / "keys" / f"{name}.pub").read_text().strip()
            keys.append(f"{name}={PublicKey.parse(line).line()}")
        out = self.base / creator / "new.json"
        cli = [sys.executable, "-m", "pbem.cli"]
        players = [arg for key in keys for arg in ("--player", key)]
        opts = [arg for option in options or [] for arg in ("--option", option)]
        subprocess.run(cli + ["new", game, "-o", str(out), "--as", creator, *players, *opts], env=env, check=True,
                       capture_output=True)
        subprocess.run(cli + ["mail", str(out), "--as", creator, "--send"], env=env, check=True, capture_output=True)
        return json.loads(out.read_text())["genesis"]["game_id"]


@contextmanager
def at_home(home: Path):
    """PBEM_HOME set to `home` while the library acts for that person in this process."""
    saved = os.environ.get("PBEM_HOME")
    os.environ["PBEM_HOME"] = str(home)
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop("PBEM_HOME", None)
        else:
            os.environ["PBEM_HOME"] = saved


@contextmanager
def table(base: Path, names: list[str], identities: dict[str, Identity] | None = None):
    boxes = {f"{name}@pbem.test": base / name / "Maildir" for name in names}
    with smtp_server(boxes) as (port, _):
        people = Table(base, names, port, identities)
        try:
            yield people
        finally:
            people.stop_apps()


def owing(table: Table, game_id: str) -> tuple[str, dict[str, Any]] | None:
    """Who owes a move now, and their page's data; None when the game is over."""
    for name, app in table.apps.items():
        data = app.game_data(game_id)
        if data["over"]:
            return None
        if data["choices"]:
            return name, data
    raise AssertionError("nobody has a move to choose: " + data["next"])


def fetch_all(table: Table) -> None:
    """Everyone fetches mail (and so does what needs no decision, and sends it) until nothing new comes."""
    for _ in range(5):
        news = False
        for app in table.apps.values():
            status, answer = app.post("/inbox", {})
            assert status == 200 and answer["ok"], answer
            news = news or answer["message"] != "No new mail."
        if not news:
            return
    raise AssertionError("the mail never settles")


def wait_for(predicate: Any, timeout: float = 10) -> Any:
    end = time.monotonic() + timeout
    while True:
        value = predicate()
        if value or time.monotonic() > end:
            return value
        time.sleep(0.02)


def at_a_trap(players: list[str], identities: dict[str, Identity]) -> Replay:
    """A 2-player Sarcophagus game played by greedy bots up to its first trap: a player must give up a
    tile (the deal is new each time: games are played until one has such a trap)."""
    import random

    from pbem.protocol.session import Session

    for seed in range(40):
        rep = new_game("sarcophagus", {}, [(n, identities[n].public) for n in players], players[0],
                       identities[players[0]])
        play_out({n: Session(rep, n, identities[n]) for n in players}, "greedy", random.Random(seed))
        again = start(rep.genesis)
        for i, entry in enumerate(rep.entries):
            if again.state is not None and any(d.what == "discard" for d in again.duties()):
                return replay(GameFile.model_construct(genesis=rep.genesis, entries=rep.entries[:i]))
            apply_entry(again, entry)
    raise AssertionError("no trap in 40 games")


def deliver(maildir: Path, data: bytes) -> Path:
    """A mail delivered into a Maildir as a mail server does: written in tmp/, then renamed into new/."""
    import uuid

    for sub in ("tmp", "new", "cur"):
        (maildir / sub).mkdir(parents=True, exist_ok=True)
    name = f"{time.time():.6f}.{uuid.uuid4().hex}.pbem-test"
    (maildir / "tmp" / name).write_bytes(data)
    (maildir / "tmp" / name).rename(maildir / "new" / name)
    return maildir / "new" / name


def near_the_end(game: str, players: list[str], identities: dict[str, Identity], moves_left: int,
                 seed: int = 1) -> Replay:
    """A game played by greedy bots (each through their own session), cut back to where `moves_left`
    decisions were still to come: a real, verified game whose end is a few clicks away."""
    from pbem.protocol.session import Session

    rep = new_game(game, {}, [(n, identities[n].public) for n in players], players[0], identities[players[0]])
    import random

    play_out({n: Session(rep, n, identities[n]) for n in players}, "greedy", random.Random(seed))
    again, decisions = start(rep.genesis), []
    for i, entry in enumerate(rep.entries):
        if again.state is not None and any(d.what in ("move", "discard") for d in again.duties()):
            decisions.append(i)
        apply_entry(again, entry)
    cut = decisions[-moves_left]
    return replay(GameFile.model_construct(genesis=rep.genesis, entries=rep.entries[:cut]))
