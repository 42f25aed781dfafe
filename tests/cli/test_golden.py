"""Golden transcripts: four whole 3-player games (Sarcophagus and Path of Pharaohs, each in table and in
referee mode) typed at the CLI, compared byte for byte with the recordings in tests/cli/golden/.

Each script runs `pbem` in-process as a user types it, every participant with their own PBEM_HOME under
one temporary folder, and records for every command: the command, its exit code, its stdout and stderr
(the folder's path replaced by <TMP>; a long output by its SHA-256), and every file under the folder that
the command made, changed or removed (mode and SHA-256 of its content, the folder's path in it replaced
by <TMP>). The recording proves that a change meant to keep behaviour (the redesign of issue 20) kept it.

Regenerate after a deliberate change of behaviour, then review the diff of tests/cli/golden/:

    PBEM_UPDATE_GOLDEN=1 PYTHONPATH=$PWD python -m pytest tests/cli/test_golden.py -n0

Determinism comes from the test side only, patched where the standard library and `cryptography` draw
randomness and read the clock (never a pbem module, so pbem's modules can move freely):
- randomness: `random`'s own generator, seeded before each command (the boundaries of multipart mails),
  `os.urandom` (salts, nonces, join contributions, seeds, age file keys and ephemeral X25519
  scalars, the OpenSSH key file's check bytes), `random.SystemRandom` (and so `secrets`), and
  `Ed25519PrivateKey.generate` / `X25519PrivateKey.generate` (OpenSSL's generator, not os.urandom): one
  stream per command, derived from the script's name and the command's number;
- time: `time.time` and `time.time_ns` read a clock that moves one minute per command (or as far as a
  script says), TZ=UTC for mail Date headers, and `os.replace` stamps the file it puts in place with that
  clock (the status cache records files' modification times);
- bots play with `--seed`; the umask is 022.
"""

from __future__ import annotations

import difflib
import functools
import hashlib
import os
import random
import re
import shlex
import stat
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import typer.main
import typer.testing
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
from typer.testing import CliRunner, Result

from pbem.cli import app

pytestmark = pytest.mark.slow

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("PBEM_UPDATE_GOLDEN") == "1"
EPOCH = 1_767_225_600  # 2026-01-01 00:00:00 UTC
STEP = 60  # seconds the clock moves before each command
INLINE_BYTES = 12_000  # a longer output is recorded by its hash
TOKEN = "<TMP>"
runner = CliRunner()


# ---------------------------------------------------------------- determinism

class Entropy:
    """Deterministic bytes: SHA-256 in counter mode over a label that each command resets."""

    def __init__(self) -> None:
        self.label = "start"
        self.count = 0

    def reset(self, label: str) -> None:
        self.label, self.count = label, 0
        random.seed(label)  # the module's own generator: the boundaries of multipart mails

    def __call__(self, n: int) -> bytes:
        out = b""
        while len(out) < n:
            self.count += 1
            out += hashlib.sha256(f"{self.label}:{self.count}".encode()).digest()
        return out[:n]


class Clock:
    def __init__(self) -> None:
        self.now = EPOCH

    def time(self) -> float:
        return float(self.now)

    def time_ns(self) -> int:
        return self.now * 1_000_000_000


@pytest.fixture
def steady(monkeypatch):
    """Randomness and time from (Entropy, Clock), patched at the standard library and cryptography."""
    entropy, clock = Entropy(), Clock()
    real_replace = os.replace

    def getrandbits(self, k: int) -> int:
        return int.from_bytes(entropy((k + 7) // 8), "big") >> (-k % 8) if k else 0

    def stamped_replace(src, dst, *args, **kwargs):
        real_replace(src, dst, *args, **kwargs)
        os.utime(dst, ns=(clock.time_ns(), clock.time_ns()), follow_symlinks=False)

    monkeypatch.setattr(os, "urandom", entropy)
    monkeypatch.setattr(random.SystemRandom, "getrandbits", getrandbits)
    monkeypatch.setattr(random.SystemRandom, "random", lambda self: (getrandbits(self, 53) * 2.0 ** -53))
    monkeypatch.setattr(random.SystemRandom, "randbytes", lambda self, n: entropy(n))
    monkeypatch.setattr(Ed25519PrivateKey, "generate",
                        classmethod(lambda cls: Ed25519PrivateKey.from_private_bytes(entropy(32))))
    monkeypatch.setattr(X25519PrivateKey, "generate",
                        classmethod(lambda cls: X25519PrivateKey.from_private_bytes(entropy(32))))
    monkeypatch.setattr(time, "time", clock.time)
    monkeypatch.setattr(time, "time_ns", clock.time_ns)
    monkeypatch.setattr(os, "replace", stamped_replace)
    monkeypatch.setattr(os, "fsync", lambda fd: None)  # durability is not under test here; syncing costs seconds
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    # typer builds the click command from the app on every invoke (12 ms, a tenth of this test): build it once
    monkeypatch.setattr(typer.testing, "_get_command", functools.cache(typer.main.get_command), raising=False)
    umask, state = os.umask(0o022), random.getstate()
    try:
        yield entropy, clock
    finally:
        os.umask(umask)
        random.setstate(state)
        monkeypatch.undo()
        time.tzset()


# ---------------------------------------------------------------- the transcript

class Transcript:
    """Runs commands as participants in one folder and writes down everything they did."""

    def __init__(self, name: str, root: Path, entropy: Entropy, clock: Clock):
        self.name, self.root, self.entropy, self.clock = name, root, entropy, clock
        self.roots = sorted({str(root), os.path.realpath(root)}, key=len, reverse=True)
        self.lines: list[str] = []
        self.files = self._snapshot()
        self.count = 0
        self.next: list[str] = []  # who owes next, from the last "Next: WHO (WHAT: ...)" printed
        self.what = ""
        self.entries = 0  # the last entry written to game.json
        self.over = False

    def clean(self, text: str) -> str:
        for path in self.roots:
            text = text.replace(path, TOKEN)
        return text

    def _snapshot(self) -> dict[str, str]:
        found = {}
        for folder, dirs, files in os.walk(self.root):
            dirs.sort()
            for name in sorted(files) + [d for d in dirs if os.path.islink(os.path.join(folder, d))]:
                path = os.path.join(folder, name)
                where = os.path.relpath(path, self.root)
                if os.path.islink(path):
                    found[where] = f"link -> {self.clean(os.readlink(path))}"
                    continue
                data = Path(path).read_bytes()
                for root in self.roots:
                    data = data.replace(root.encode(), TOKEN.encode())
                found[where] = f"{stat.S_IMODE(os.lstat(path).st_mode):o} {hashlib.sha256(data).hexdigest()}"
        return found

    def _output(self, mark: str, text: str) -> None:
        if not text:
            return
        text = self.clean(text)
        if len(text) > INLINE_BYTES:
            self.lines.append(f"{mark} sha256 {hashlib.sha256(text.encode()).hexdigest()} "
                              f"({len(text.encode())} bytes, {text.count(chr(10))} lines)")
            return
        body = text[:-1] if text.endswith("\n") else text
        self.lines += [f"{mark} {line}".rstrip(" ") if line else mark for line in body.split("\n")]
        if not text.endswith("\n"):
            self.lines.append(f"{mark}\\ no newline at end")

    def note(self, text: str) -> None:
        self.lines.append(f"# {text}")

    def mkdir(self, folder: str) -> None:
        (self.root / folder).mkdir()
        self.note(f"mkdir {folder}")

    def advance(self, seconds: int) -> None:
        self.clock.now += seconds
        self.note(f"{seconds} s pass")

    def run(self, who: str, *args: str, env: dict[str, str | None] | None = None, expect: int | None = 0
            ) -> Result:
        """`pbem ARGS` typed by `who` (their PBEM_HOME) in the folder; `expect`: the exit code it must have
        (None: any), so that a script that goes astray stops where it does."""
        self.count += 1
        self.clock.now += STEP
        self.entropy.reset(f"{self.name}:{self.count}")
        home = {"PBEM_HOME": str(self.root / f"home-{who}"), **(env or {})}
        shown = " ".join(f"{k}={shlex.quote(v)}" for k, v in (env or {}).items() if v is not None)
        self.lines.append("")
        self.lines.append(self.clean(f"[{who}] {shown + ' ' if shown else ''}$ pbem {shlex.join(args)}"))
        result = runner.invoke(app, list(args), env=home)
        self.lines.append(f"exit {result.exit_code}")
        self._output("|", result.stdout)
        self._output("!", result.stderr)
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            self.lines.append(f"exception {type(result.exception).__name__}: {self.clean(str(result.exception))}")
        files = self._snapshot()
        for path in sorted(set(files) | set(self.files)):
            if path not in files:
                self.lines.append(f"- {path}")
            elif path not in self.files:
                self.lines.append(f"+ {files[path]} {path}")
            elif files[path] != self.files[path]:
                self.lines.append(f"~ {files[path]} {path}")
        self.files = files
        wrote = re.search(r"^Wrote game\.json \(entr(?:y|ies) (?:\d+-)?(\d+)\)", result.stdout, re.M)
        self.entries = int(wrote.group(1)) if wrote else self.entries
        for line in result.stdout.splitlines():
            if line.startswith("Next: "):
                who, _, rest = line[len("Next: "):].partition(" (")
                self.next, self.what = who.split(", "), rest.split(":")[0]
            elif line.startswith("Game over: "):
                self.over = True
        if expect is not None:
            assert result.exit_code == expect, "\n".join(self.lines[-40:])
        return result

    def text(self) -> str:
        return "\n".join(self.lines).lstrip("\n") + "\n"


# ---------------------------------------------------------------- script parts

def setup(t: Transcript, people: list[str], book_of: str) -> dict[str, str]:
    """Everyone makes a key (with their mail address); `book_of` adds the others to the address book.
    Returns each public key line, as the others receive it."""
    lines = {}
    for person in people:
        made = t.run(person, "key", "new", person, "--no-passphrase", "--email", f"{person}@example.org")
        lines[person] = made.stdout.splitlines()[-1]
    for person in people:
        if person != book_of:
            t.run(book_of, "contact", "add", person, f"{person}@example.org")
    t.run(book_of, "contact", "list")
    return lines


def players(lines: dict[str, str], creator: str, names: list[str]) -> list[str]:
    return [arg for n in names for arg in ("--player", n if n == creator else f"{n}={lines[n]}")]


def example_move(t: Transcript, who: str) -> str:
    """Ask without a move (no terminal: an error that names a legal one), then that move as typed."""
    asked = t.run(who, "play", "game.json", "--as", who, expect=None)
    assert asked.exit_code in (1, 3), asked.output
    found = re.search(rf"'pbem play game\.json --as {who} (.+?)'", asked.output)
    assert found, asked.output
    return found.group(1)


def play_on(t: Transcript, referee: str | None, seed: int, until: Callable[[], bool] = lambda: False,
            limit: int = 400) -> int:
    """Whoever owes next acts, the players by the greedy bot, until the game ends or `until()`."""
    while not t.over and not until():
        limit -= 1
        assert limit > 0, "the game does not end"
        who = t.next[0]
        if who == referee:
            t.run(who, "referee", "game.json", "--as", who)
        else:
            seed += 1
            t.run(who, "play", "game.json", "--as", who, "--bot", "greedy", "--seed", str(seed), expect=None)
    return seed


def deliver(t: Transcript, eml: str, to: list[str]) -> None:
    """The mail arrives in each receiver's Maildir (new/, named by its order of arrival)."""
    data = (t.root / eml).read_bytes()
    for person in to:
        box = t.root / f"maildir-{person}"
        for sub in ("cur", "new", "tmp"):
            (box / sub).mkdir(parents=True, exist_ok=True)
        count = len(list((box / "new").iterdir()))
        (box / "new" / f"{count + 1:04d}.golden").write_bytes(data)
    t.note(f"{eml} delivered to {', '.join(f'maildir-{p}' for p in to)}")


def errors(t: Transcript, outsider_home: str, illegal: str) -> None:
    """A move that does not parse, one against the rules, the right move out of turn, a stranger's --as and
    a key this home does not hold."""
    mover = t.next[0]
    idle = next(p for p in ("ann", "ben", "cat") if p != mover)
    move = example_move(t, mover)
    t.run(mover, "play", "game.json", "--as", mover, "9@9z", expect=1)
    t.run(mover, "play", "game.json", "--as", mover, illegal, expect=1)
    t.run(idle, "play", "game.json", "--as", idle, move, expect=1)
    t.run(outsider_home, "show", "game.json", "--as", "dan", expect=1)
    t.run(outsider_home, "show", "game.json", "--as", mover, expect=1)


def finish(t: Transcript, looker: str, other: str) -> None:
    """What anyone does with a finished game: verify, read, show, page, export, armor."""
    t.run(looker, "verify", "game.json")
    t.run(looker, "log", "game.json")
    t.run(looker, "show", "game.json")
    t.run(other, "show", "game.json", "--as", other)
    t.run(looker, "html", "game.json")
    t.run(other, "html", "game.json", "--as", other, "-o", f"{other}.html")
    t.run(looker, "armor", "game.json", "-o", "game.txt")
    t.run(other, "dearmor", "game.txt", "-o", "back.json")
    t.run(other, "verify", "game.txt", "back.json")


# ---------------------------------------------------------------- the four scripts

def sarcophagus_table(t: Transcript) -> None:
    keys = setup(t, ["ann", "ben", "cat"], "ann")
    t.run("ann", "key", "list")
    t.run("ann", "key", "show", "ann")
    t.run("ann", "new", "sarcophagus", "-o", "game.json", "--as", "ann",
          *players(keys, "ann", ["ann", "ben", "cat"]), "--late-after", "72h")
    t.run("ann", "show", "game.json")
    t.mkdir("mail")
    t.run("ann", "mail", "game.json", "--as", "ann", "-o", "mail/01.eml")
    deliver(t, "mail/01.eml", ["ben", "cat"])
    t.run("ben", "inbox", "maildir-ben")  # ben owes his join: inbox says so (and status exits 1)
    t.run("cat", "inbox", "maildir-cat")
    t.run("ben", "status", expect=1)
    t.run("ann", "play", "game.json", "--as", "ann", "1@1a", expect=1)  # joining is not done yet
    t.run("ben", "play", "game.json", "--as", "ben")
    t.run("cat", "play", "game.json", "--as", "cat", expect=None)
    for _ in range(2):
        who = t.next[0]
        t.run(who, "play", "game.json", "--as", who, example_move(t, who), expect=None)
    errors(t, "ann", "0@6f")
    t.run("ann", "show", "game.json", "--json")
    seed = play_on(t, None, 100, until=lambda: t.entries >= 50)
    t.run("ann", "mail", "game.json", "--as", "ann", "-o", "mail/02.eml")
    deliver(t, "mail/02.eml", ["ben", "cat"])
    t.run("ben", "inbox", "maildir-ben", expect=None)
    t.advance(4 * 24 * 3600)
    t.run("ann", "show", "game.json")
    t.run("ben", "status", expect=None)
    t.run("ben", "status", "--at", str(EPOCH), expect=None)
    t.run("cat", "status", "--json", expect=None)
    play_on(t, None, seed)
    finish(t, "ann", "ben")
    t.run("ann", "export", "game.json", "exported")
    t.run("ann", "mail", "game.json", "--as", "ann", "-o", "mail/03.eml")
    deliver(t, "mail/03.eml", ["ben", "cat"])
    t.run("ben", "inbox", "maildir-ben")
    t.run("cat", "inbox", "maildir-cat", "--again")
    t.run("cat", "verify", "game.json", *sorted(str(p.relative_to(t.root)) for p in
                                                 (t.root / "home-cat" / "games-files").glob("*.json")))
    t.run("cat", "status")


def sarcophagus_referee(t: Transcript) -> None:
    keys = setup(t, ["ann", "ben", "cat", "ref"], "ann")
    t.run("ann", "new", "sarcophagus", "-o", "game.json", "--as", "ann",
          *players(keys, "ann", ["ann", "ben", "cat"]), "--referee", f"ref={keys['ref']}")
    t.run("ann", "referee", "game.json", "--as", "ann", expect=1)  # ann is no referee
    t.run("ann", "show", "game.json", "--json")
    play_on(t, "ref", 200, until=lambda: t.what == "move")
    for _ in range(3):
        who = t.next[0]
        if who == "ref":
            t.run("ref", "referee", "game.json", "--as", "ref")
            continue
        move = example_move(t, who)
        t.run(who, "play", "game.json", "--as", who, move, move, expect=None)  # the second may wait
    t.run("ref", "show", "game.json", "--as", "ref")
    t.run("ben", "show", "game.json", "--as", "ben", "--json")
    seed = play_on(t, "ref", 300, until=lambda: t.entries >= 60)
    if t.next[0] == "ref":
        t.run("ref", "referee", "game.json", "--as", "ref")
    errors(t, "ref", "0@6f")
    play_on(t, "ref", seed)
    t.run("ref", "referee", "game.json", "--as", "ref")  # nothing owed
    t.run("ref", "html", "game.json", "--as", "ref", "-o", "ref.html")
    finish(t, "cat", "ann")
    t.run("ann", "export", "game.json", "exported", "--entry", "0")
    t.mkdir("mail")
    t.run("ann", "mail", "game.json", "--as", "ann", "-o", "mail/01.eml")
    deliver(t, "mail/01.eml", ["ref", "ben"])
    t.run("ref", "inbox", "maildir-ref")
    t.run("ben", "inbox", str(t.root / "mail"))
    t.run("ben", "status")


def pharaohs_table(t: Transcript) -> None:
    keys = setup(t, ["ann", "ben", "cat"], "ben")
    t.run("ann", "new", "path-of-pharaohs", "-o", "game.json", "--as", "ann",
          *players(keys, "ann", ["ann", "ben", "cat"]))
    t.run("ann", "play", "game.json", "--as", "ann", expect=0)  # the creator owes nothing now
    t.run("ben", "play", "game.json", "--as", "ben")
    t.mkdir("mail")
    t.run("ben", "mail", "game.json", "--as", "ben", "-o", "mail/01.eml")
    t.run("cat", "play", "game.json", "--as", "cat", expect=None)
    for _ in range(2):
        who = t.next[0]
        t.run(who, "play", "game.json", "--as", who, example_move(t, who), expect=None)
    errors(t, "cat", "T@dan")
    t.run("cat", "show", "game.json", "--as", "cat")
    seed = play_on(t, None, 400, until=lambda: t.entries >= 40)
    t.run("ben", "mail", "game.json", "--as", "ben", "-o", "mail/02.eml")
    t.run("ann", "inbox", "mail", expect=None)
    t.run("ann", "show", "game.json", "--as", "ann", "--json")
    play_on(t, None, seed)
    finish(t, "ben", "cat")
    t.run("cat", "export", "game.json", "exported", "--entry", "5")
    t.run("ben", "armor", "game.json")
    t.run("ben", "mail", "game.json", "--as", "ben", "-o", "mail/03.eml")
    t.run("ann", "inbox", "mail")
    t.run("ann", "status", "--json")


def pharaohs_referee(t: Transcript) -> None:
    keys = setup(t, ["ann", "ben", "cat", "ref"], "ref")
    t.run("ann", "key", "new", "spare", expect=1)  # no passphrase given, no terminal
    t.run("ann", "key", "new", "spare", env={"PBEM_PASSPHRASE": "correct horse"})
    t.run("ben", "key", "add", "other", "--from", "home-ann/keys/spare", env={"PBEM_PASSPHRASE": "wrong"},
          expect=1)
    t.run("ben", "key", "add", "other", "--from", "home-ann/keys/spare", env={"PBEM_PASSPHRASE": "correct horse"})
    t.run("ref", "new", "path-of-pharaohs", "-o", "game.json", "--as", "ref",
          *players(keys, "ref", ["ann", "ben", "cat"]), "--referee", "ref=ref", "--late-after", "2d")
    t.run("ref", "show", "game.json")
    t.mkdir("mail")
    t.run("ref", "mail", "game.json", "--as", "ref", "-o", "mail/01.eml")
    deliver(t, "mail/01.eml", ["ann", "ben", "cat"])
    for person in ("ann", "ben", "cat"):
        t.run(person, "inbox", "maildir-" + person, expect=None)
    seed = play_on(t, "ref", 500, until=lambda: t.what == "move")
    who = t.next[0]
    t.run(who, "play", "game.json", "--as", who, example_move(t, who), expect=None)
    errors(t, "ben", "W6@3")
    seed = play_on(t, "ref", seed, until=lambda: t.entries >= 50)
    t.run("ref", "mail", "game.json", "--as", "ref", "-o", "mail/02.eml")
    deliver(t, "mail/02.eml", ["ann", "ben", "cat"])
    t.run("cat", "inbox", "maildir-cat", expect=None)
    t.advance(3 * 24 * 3600)
    t.run("cat", "status", expect=None)
    t.run("ref", "show", "game.json", "--as", "ref", "--json")
    play_on(t, "ref", seed)
    finish(t, "ref", "cat")
    t.run("ref", "export", "game.json", "exported")
    t.run("ref", "dearmor", "game.txt")
    t.run("ann", "play", "game.json")  # --as left out: her home holds the key of only one participant, hers


SCRIPTS = {"sarcophagus-table": sarcophagus_table, "sarcophagus-referee": sarcophagus_referee,
           "pharaohs-table": pharaohs_table, "pharaohs-referee": pharaohs_referee}


@pytest.mark.parametrize("name", SCRIPTS)
def test_golden_transcript(name, tmp_path, monkeypatch, steady):
    entropy, clock = steady
    for variable in ("PBEM_PASSPHRASE", "PBEM_GAMES", "PBEM_MAIL", "MAIL", "PBEM_SMTP", "PBEM_SMTP_USER",
                     "PBEM_SMTP_SECURITY", "PBEM_SMTP_PASSWORD", "XDG_DATA_HOME", "FORCE_COLOR"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("TERM", "dumb")
    monkeypatch.setenv("COLUMNS", "100")
    root = tmp_path / "play"
    root.mkdir()
    monkeypatch.chdir(root)
    t = Transcript(name, root, entropy, clock)
    SCRIPTS[name](t)
    assert t.over
    got = t.text()
    golden = GOLDEN / f"{name}.txt"
    if UPDATE:
        golden.parent.mkdir(exist_ok=True)
        golden.write_text(got)
        return
    assert golden.exists(), f"no recording {golden}: make it with PBEM_UPDATE_GOLDEN=1 (see this module's docstring)"
    want = golden.read_text()
    if got != want:
        diff = "".join(list(difflib.unified_diff(want.splitlines(True), got.splitlines(True), str(golden),
                                                 "this run"))[:200])
        pytest.fail(f"the transcript differs from {golden} (PBEM_UPDATE_GOLDEN=1 records it anew):\n{diff}")
