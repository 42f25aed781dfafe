"""Players who only play and mail (through the CLI, as people type it), and a judge beside them: the
helpers shared by the judge's tests and benchmarks/judge_load.py."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import typer.main
import typer.testing
from typer.testing import CliRunner

from pbem.cli import app
from pbem.judge.cli import app as judge_app

runner = CliRunner()


def memory_folder():
    """In memory where the machine has it: every copy is written with fsync (the test is about mail)."""
    shm = Path("/dev/shm")
    path = Path(tempfile.mkdtemp(prefix="pbem-judge-", dir=shm if shm.is_dir() and os.access(shm, os.W_OK) else None))
    yield path
    shutil.rmtree(path, ignore_errors=True)
_command = typer.main.get_command(app)


def fast_cli(monkeypatch) -> None:
    """Typer's runner rebuilds the command for every call (~25 ms): build each app's once."""
    built = {id(app): _command}
    original = typer.testing._get_command
    monkeypatch.setattr(typer.testing, "_get_command", lambda a: built.setdefault(id(a), original(a)))


def cli(home: Path, port: int, *args: object):
    """A pbem command as a user types it (`pbem judge ...` runs the judge's own command line, in this process)."""
    env = {"PBEM_HOME": str(home), "PBEM_SMTP": f"127.0.0.1:{port}", "PBEM_SMTP_SECURITY": "none",
           "PBEM_PASSPHRASE": None, "PBEM_GAMES": None, "PBEM_SMTP_USER": None}
    if args and args[0] == "judge":
        return runner.invoke(judge_app, [str(a) for a in args[1:]], env=env)
    return runner.invoke(app, [str(a) for a in args], env=env)


def ok(result) -> str:
    assert result.exit_code == 0, result.output
    return str(result.output)


def write_config(base: Path, port: int, maildir: Path | None = None, imap: str | None = None, poll: float = 0.2
                 ) -> Path:
    """A judge.toml: its home under `base`, its key made there, mail from `maildir` (or IMAP) looked at every
    `poll` seconds, SMTP on port."""
    home = base / "judge-home"
    ok(cli(home, port, "key", "new", "judge", "--no-passphrase"))
    box = f'imap = "{imap}"' if imap else f'maildir = "{maildir}"'
    config = base / "judge.toml"
    config.write_text(f'home = "{home}"\nkey = "{home / "keys" / "judge"}"\naddress = "judge@example.org"\n'
                      f'[mailbox]\n{box}\npoll_seconds = {poll}\n'
                      f'[smtp]\nserver = "127.0.0.1:{port}"\nsecurity = "none"\n')
    return config


def judge_key(base: Path) -> str:
    return (base / "judge-home" / "keys" / "judge.pub").read_text().strip()


def setup_players(base: Path, port: int, names: list[str]) -> dict[str, str]:
    """Each player's key and address book (every player and the judge); their public keys by name."""
    keys = {}
    for name in names:
        keys[name] = ok(cli(base / name, port, "key", "new", name, "--no-passphrase")).splitlines()[-1]
        for other in [*names, "judge"]:
            ok(cli(base / name, port, "contact", "add", other, f"{other}@example.org"))
    return keys


def start_game(base: Path, port: int, game: str, names: list[str], keys: dict[str, str], out: Path,
               *extra: str) -> None:
    """The first player makes a referee-mode game with the judge as referee, and mails it."""
    roster = [f"--player={n}={keys[n]}" for n in names]
    ok(cli(base / names[0], port, "new", game, "-o", out, "--as", names[0], *roster,
           f"--referee=judge={judge_key(base)}", *extra))
    ok(cli(base / names[0], port, "mail", out, "--as", names[0], "--send"))


def mail_count(box: Path) -> int:
    return sum(len(os.listdir(box / sub)) for sub in ("new", "cur") if (box / sub).is_dir())


def players_act(base: Path, port: int, names: list[str], seen: dict[str, int], skip: set[str] = frozenset()) -> int:
    """Each player with new mail reads it and plays what they owe (a greedy bot), sending by SMTP; those
    in `skip` read and never answer. How many played."""
    acted = 0
    for name in names:
        box = base / "mail" / name
        count = mail_count(box)
        if count == seen.get(name, -1):
            continue
        seen[name] = count
        read = ok(cli(base / name, port, "inbox", box))
        for line in read.splitlines():
            if line.startswith("    pbem play ") and name not in skip:
                words = line.split()
                ok(cli(base / name, port, "play", words[2], "--as", name, "--bot", "greedy", "--seed", "1", "--send"))
                acted += 1
    return acted


def play_by_mail(base: Path, port: int, names: list[str], judge_once, limit: int | None = None) -> int:
    """Players and the judge (one pass each round) until nobody has anything to do, or `limit` plays."""
    seen: dict[str, int] = {}
    plays = 0
    while limit is None or plays < limit:
        judge_once()
        played = players_act(base, port, names, seen)
        plays += played
        if not played and not any((base / "mail" / "judge" / "new").iterdir()):
            break
    judge_once()  # what the last plays mailed
    return plays


class JudgeProcess:
    """The judge as its own process (pbem judge run CONFIG), to be killed and restarted."""

    def __init__(self, config: Path):
        import subprocess
        import sys

        self.config, self.log = config, config.parent / "judge.log"
        self._subprocess, self._python = subprocess, sys.executable
        self.process: subprocess.Popen[bytes] | None = None
        self.kills = 0

    def start(self) -> None:
        import pbem

        source = str(Path(pbem.__file__).resolve().parent.parent)
        env = {**os.environ, "PYTHONPATH": source}
        where = os.environ.get("PBEM_JUDGE_PROFILE")  # a file: the judge runs under cProfile, written on stop
        profile = ["-m", "cProfile", "-o", where] if where else []
        with self.log.open("ab") as log:
            self.process = self._subprocess.Popen([self._python, *profile, "-m", "pbem.judge", "run", str(self.config)],
                                                  stdout=log, stderr=log, env=env)

    def wait_started(self, limit: float = 120) -> None:
        """Until the running judge has logged its start (and so read its configuration and key)."""
        import time

        deadline = time.monotonic() + limit
        while self.log.read_text().count(" started: ") < self.kills + 1 and time.monotonic() < deadline:
            time.sleep(0.02)

    def kill(self) -> None:
        """SIGKILL: no handler runs, nothing is flushed or closed."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.kills += 1
            self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(30)
            self.process = None


def signed_by(received: list[bytes], author: str) -> dict[tuple[str, int], set[str]]:
    """Every entry `author` signed in the mails an SMTP server took: (game id, seq) -> its payload hashes."""
    from email import message_from_bytes, policy

    from pbem.record.models import payload_hash
    from pbem.transport import turns

    found: dict[tuple[str, int], set[str]] = {}
    for data in received:
        message = message_from_bytes(data, policy=policy.default)
        body = message.get_body(("plain",))
        for turn in turns.find_blocks(body.get_content() if body is not None else ""):
            if isinstance(turn, turns.TurnBlock):
                for entry in turn.entries:
                    if entry.author == author:
                        found.setdefault((turn.game_id, entry.seq), set()).add(payload_hash(entry))
    return found


def hosted_game(base: Path, monkeypatch, names: list[str], extra_boxes: dict[str, Path] | None = None):
    """A pytest fixture's body: ann's Path of Pharaohs game among `names` with the judge as referee and the
    default deadlines, mailed to the judge's Maildir (not read yet), a real SMTP server running (delivering
    also to `extra_boxes`). Yields its config, the SMTP port and server, the judge's Maildir, the players'
    keys, the game's id and its genesis hash."""
    from types import SimpleNamespace

    from pbem import api

    from mail_support import smtp_server

    fast_cli(monkeypatch)
    monkeypatch.chdir(base)
    monkeypatch.delenv("PBEM_NOW", raising=False)
    boxes = {f"{n}@example.org": base / "mail" / n for n in [*names, "judge"]} | (extra_boxes or {})
    with smtp_server(boxes) as (port, server):
        keys = setup_players(base, port, names)
        config = write_config(base, port, maildir=base / "mail" / "judge")
        start_game(base, port, "path-of-pharaohs", names, keys, base / "game.json", "--deadlines", "default")
        game = api.open_game(base / "game.json")
        yield SimpleNamespace(config=config, port=port, server=server, box=base / "mail" / "judge", keys=keys,
                              game_id=game.genesis.game_id, genesis_hash=game.hashes[0])
