"""The fuzz harness over every path outside input enters pbem by (issue 21), shared by tests/project/test_fuzz_inputs.py
(hypothesis, a few seconds in CI) and benchmarks/fuzz_inputs.py (hours, printing the figures).

Each path has seeds (valid inputs of its kind), a dictionary of tokens worth splicing in, and a `run`
that feeds one input to the library function the command calls, in a sandbox: a PBEM_HOME with ann's key,
an address book, and ann's copy of a started game, already up to date with everything the seeds carry.
One execution passes when:
- it ends in a value or a clean error (PbemError, or the engine's RuleError): never another exception;
- it takes at most `bound(len(input))` seconds: a constant plus a time per byte (no hang, nothing quadratic);
- no file of the sandbox changed (but the inbox's index of mails read): a refused input writes nothing,
  and an accepted one brings nothing the sandbox lacks (the seeds are known, a new entry needs a signature).
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from engine.contract import RuleError
from pbem.errors import PbemError
from pbem.judge import config as judge_config
from pbem.protocol.replay import Replay
from pbem.protocol.seen import remember
from pbem.record.canonical import canonical
from pbem.record.gamefile import armor as armor_game
from pbem.record.gamefile import dearmor, save
from pbem.record.models import to_json
from pbem.transport import armor, contacts, copies, inbox, mail, turns

from pbem_support import identity, played_game

CLEAN = (PbemError, RuleError)
SECONDS, SECONDS_PER_BYTE = 2.0, 20e-6
"""The time bound of one execution: generous against a shared machine, far below any hang or quadratic
blow-up this guards against (149 s for 400 KB of armor lines; 204 s for a 400 KB header)."""


def bound(size: int) -> float:
    return SECONDS + SECONDS_PER_BYTE * size


# ---------------------------------------------------------------- mutation

def mutate(seed: bytes, ops: list[tuple[int, int, bytes]]) -> bytes:
    """Apply edits to a seed; each op is (where, kind, bytes): flip a bit, overwrite, insert, delete a run,
    duplicate a run (up to 64 times: long inputs), or splice in the bytes. Total: any list is valid, so
    hypothesis can shrink one."""
    data = bytearray(seed)
    for where, kind, chunk in ops:
        at = where % (len(data) + 1)
        kind %= 6
        if kind == 0 and data:
            data[min(at, len(data) - 1)] ^= 1 << (where >> 8) % 8
        elif kind == 1:
            data[at:at + len(chunk)] = chunk
        elif kind == 2:
            data[at:at] = chunk
        elif kind == 3:
            del data[at:at + 1 + (where >> 8) % 64]
        elif kind == 4:
            run = bytes(data[at:at + 1 + (where >> 8) % 32])
            data[at:at] = run * (1 + (where >> 16) % 64)
        else:
            data[at:at] = chunk * (1 + (where >> 8) % 256)
    return bytes(data)


def random_ops(rng: random.Random, tokens: list[bytes]) -> list[tuple[int, int, bytes]]:
    ops = []
    for _ in range(rng.choice((1, 1, 2, 3, 4, 8))):
        chunk = rng.choice(tokens) if tokens and rng.random() < 0.6 else rng.randbytes(rng.randrange(1, 9))
        ops.append((rng.getrandbits(32), rng.randrange(6), chunk))
    return ops


# ---------------------------------------------------------------- the sandbox

@dataclass
class Path_:
    """One input path: what it is called, its seeds and tokens, and what feeds an input in."""

    name: str
    seeds: list[bytes]
    tokens: list[bytes]
    run: Callable[[bytes], object]


@dataclass
class Sandbox:
    root: Path
    rep: Replay
    paths: list[Path_] = field(default_factory=list)

    @property
    def home(self) -> Path:
        return self.root / "home"

    @property
    def games(self) -> Path:
        return self.root / "games"

    def snapshot(self) -> dict[str, tuple[int, int, int]]:
        """Every file but the inputs and the inbox's index: its inode, size and modification time."""
        out = {}
        for folder, _, names in os.walk(self.root):
            for name in names:
                path = Path(folder) / name
                if path.parent.name == "inputs" or name == ".inbox-read":
                    continue
                info = path.lstat()
                out[str(path)] = (info.st_ino, info.st_size, info.st_mtime_ns)
        return out

    def path(self, name: str) -> Path_:
        return next(p for p in self.paths if p.name == name)


MAIL_TOKENS = [b"\n", b"\r\n", b"\n\n", b"--", b"=\n", b"> ", b"Content-Type: multipart/mixed; boundary=\"b\"\n",
               b"Content-Type: message/rfc822\n", b"Content-Transfer-Encoding: base64\n",
               b"Content-Transfer-Encoding: quoted-printable\n", b"Content-Disposition: attachment; filename=\"g.json\"\n",
               b"charset=\"", b"filename*0*=", b";", b"\"", b"=?utf-8?b?", b"From ", b"\n--b\n", b"\n--b--\n",
               b"-----BEGIN PBEM TURN-----\n", b"-----END PBEM TURN-----\n", b"-----BEGIN PBEM GAME-----\n",
               b"-----END PBEM GAME-----\n", b"application/json", b"{", b"[", b"\x00", b"\xff"]
JSON_TOKENS = [b"{", b"}", b"[", b"]", b",", b":", b"\"", b"\\", b"\\u0000", b"null", b"true", b"1e9", b"-0", b"1.5",
               b"99999999999999999999", b"\"genesis\":", b"\"entries\":", b"\"format\": \"pbem/3\"", b"\"seq\":",
               b"\"author\": \"ann\\n\"", b"\"action\":", b"\"signature\":", b"\"sealed\":", b"\"\xc3\x28\"", b"\xef\xbb\xbf",
               b"[" * 64, b"{\"a\":" * 16, b"\\\"" * 16]
TEXT_TOKENS = [b"\n", b"\r", b" ", b"> ", b"-----", b"BEGIN", b"END", b" PBEM ", b"TURN", b"GAME", b"=", b"H4sI", b"AAAA",
               b"-----BEGIN PBEM TURN-----\n", b"-----END PBEM TURN-----\n", b"-----BEGIN PBEM GAME-----\n",
               b"-----END PBEM GAME-----\n"]
KEY_TOKENS = [b"\x00\x00\x00\x00", b"\xff\xff\xff\xff", b"\x00\x00\x00\x0b", b"ssh-ed25519", b"bcrypt", b"aes256-ctr",
              b"none", b"openssh-key-v1\x00", b"\n", b"="]
BOOK_TOKENS = [b"\r\n", b"\n", b"Bcc: eve@example.org", b"@", b"<", b">", b",", b"\"", b"\\r\\n", b"\\n", b"\\u000d",
               b"\\u0000", b"{", b"}", b"\"email\":", b"\"contacts\":", b"\"ann\"", b"\"x\x00\"", b"\xc3",
               b"[" * 64, b"\\\"" * 16]
TOML_TOKENS = [b"\n", b"=", b"\"", b"'''", b"[", b"]", b"[[a]]", b"{", b"}", b"home", b"key", b"address", b"[mailbox]",
               b"[smtp]", b"[contacts]", b"maildir", b"imap = \"imaps://x\"", b"poll_seconds = 1e308", b"nan", b"inf",
               b"1979-05-27T07:32:00Z", b"\\u0000", b"a.b.c.d.e.f = 1", b"[" * 32, b"{a=" * 32, b"\x00"]


def _encrypted_key(seed: bytes, passphrase: bytes) -> bytes:
    """An OpenSSH key file under a passphrase, as `pbem key new` writes one but with one round of bcrypt,
    not 16: the seed is read without a passphrase (a clean error before any KDF), so its rounds only cost
    the sandbox's making, 0.1 s of its 0.12."""
    from cryptography.hazmat.primitives import serialization as ser
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    encryption = ser.PrivateFormat.OpenSSH.encryption_builder().kdf_rounds(1).build(passphrase)
    return Ed25519PrivateKey.from_private_bytes(seed).private_bytes(ser.Encoding.PEM, ser.PrivateFormat.OpenSSH,
                                                                   encryption)


def sandbox(root: Path) -> Sandbox:
    """ann's home and copy of a started game (ann, ben, cat), and a path for every kind of input.
    Sets PBEM_HOME (and clears PBEM_PASSPHRASE): call it where the environment may change (a test
    with monkeypatch, a benchmark)."""
    root.mkdir(parents=True, exist_ok=True)
    os.environ["PBEM_HOME"] = str(root / "home")
    os.environ.pop("PBEM_PASSPHRASE", None)
    os.environ.pop("PBEM_GAMES", None)
    inputs = root / "inputs"
    inputs.mkdir(exist_ok=True)
    rep = played_game("table", finish=False, started=True)
    box = Sandbox(root, rep)
    keys = box.home / "keys"
    keys.mkdir(parents=True, exist_ok=True, mode=0o700)
    ann = identity("ann")
    (keys / "ann").write_bytes(ann.to_openssh(None))
    (keys / "ann").chmod(0o600)
    (keys / "ann.pub").write_text(ann.public.line() + "\n")
    book = {"contacts": {n: {"email": f"{n}@example.org"} for n in ("ann", "ben", "cat")}}
    (box.home / "contacts.json").write_text(json.dumps(book, indent=2) + "\n")
    box.games.mkdir(exist_ok=True)
    save(copies.path_for(box.games, rep.genesis), rep.record)
    remember(rep)
    copies.mark_shared(rep.genesis.game_id, rep.seq)

    game_json = to_json(rep.record).encode()
    turn = turns.make(rep, max(0, rep.seq - 3))
    turn_json = canonical(turn.model_dump(exclude_none=True))
    block = turns.to_block(turn).encode()
    book_for = {n: f"{n}@example.org" for n in ("ann", "ben", "cat")}
    mails = [bytes(mail.compose(rep, "ben", rep.seq - 3, attach=attach, book=book_for)) for attach in (False, True)]
    key_files = [ann.to_openssh(None), _encrypted_key(b"\x05" * 32, b"pw"), (ann.public.line() + "\n").encode()]
    config = (b'home = "h"\nkey = "k"\naddress = "judge@example.org"\n[mailbox]\nmaildir = "m"\npoll_seconds = 5\n'
              b'[smtp]\nserver = "smtp.example.org:587"\nsecurity = "starttls"\nuser = "j@example.org"\n'
              b'[contacts]\nann = "ann@example.org"\n')

    def write(name: str, data: bytes, mode: int = 0o644) -> Path:
        path = inputs / name
        path.write_bytes(data)
        path.chmod(mode)
        return path

    def game_file(data: bytes) -> object:
        from pbem.api import open_game

        return open_game(write("game.json", data))

    def turn_block(data: bytes) -> object:
        found = turns.find_blocks(armor.wrap(turns.LABEL, data))
        return [turns.extend(rep, t) for t in found if isinstance(t, turns.TurnBlock)]

    def armored_text(data: bytes) -> object:
        text = data.decode("utf-8", errors="replace")
        return armor.find(text, "TURN"), armor.find(text, "GAME"), _or_error(dearmor, data)

    def whole_mail(data: bytes) -> object:
        return inbox.read([write("mail.eml", data)], box.games, again=True)

    def key_file(data: bytes) -> object:
        from pbem.crypto.keyring import load_identity, read_public

        path = write("key", data, 0o600)
        return _or_error(load_identity, str(path)), _or_error(read_public, str(path))

    def address_book(data: bytes) -> object:
        (box.home / "contacts.json").write_bytes(data)
        try:
            loaded = contacts.load()
            for address in loaded.values():
                assert "\r" not in address and "\n" not in address, f"a line break in an address: {address!r}"
            return mail.compose(rep, "ann", rep.seq - 1, book=loaded)
        finally:
            (box.home / "contacts.json").write_text(json.dumps(book, indent=2) + "\n")
            os.utime(box.home / "contacts.json", ns=(0, 0))

    def configuration(data: bytes) -> object:
        return judge_config.load(write("judge.toml", data))

    os.utime(box.home / "contacts.json", ns=(0, 0))  # restored by the address-book path: the same time each time
    box.paths = [
        Path_("game file", [game_json, armor_game(game_json.decode()).encode()], JSON_TOKENS, game_file),
        Path_("turn block", [turn_json], JSON_TOKENS, turn_block),
        Path_("armored text", [block, armor_game(game_json.decode()).encode(), b"> " + block.replace(b"\n", b"\n> ")],
              TEXT_TOKENS, armored_text),
        Path_("whole mail", mails, MAIL_TOKENS, whole_mail),
        Path_("key file", key_files, KEY_TOKENS, key_file),
        Path_("address book", [json.dumps(book).encode()], BOOK_TOKENS, address_book),
        Path_("config", [config], TOML_TOKENS, configuration),
    ]
    return box


def _or_error(call: Callable[..., object], *args: object) -> object:
    try:
        return call(*args)
    except CLEAN as exc:
        return exc


# ---------------------------------------------------------------- one execution

@dataclass
class Outcome:
    seconds: float
    crash: str | None = None
    hang: bool = False
    changed: list[str] = field(default_factory=list)


def execute(box: Sandbox, path: Path_, data: bytes, before: dict[str, tuple[int, int, int]]) -> Outcome:
    """Feed one input; what went wrong, if anything (a crash names the exception and where it rose)."""
    start = time.perf_counter()
    crash = None
    try:
        path.run(data)
    except CLEAN:
        pass
    except Exception as exc:  # noqa: BLE001 - what the harness looks for
        tb = exc.__traceback__
        while tb is not None and tb.tb_next is not None:
            tb = tb.tb_next
        where = f"{tb.tb_frame.f_code.co_filename}:{tb.tb_lineno}" if tb else "?"
        crash = f"{type(exc).__name__}: {str(exc)[:200]} at {where}"
    seconds = time.perf_counter() - start
    after = box.snapshot()
    changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    return Outcome(seconds, crash, seconds > bound(len(data)), changed)


def check(box: Sandbox, path: Path_, data: bytes) -> None:
    """One execution as a test: an AssertionError saying what went wrong."""
    before = box.snapshot()
    outcome = execute(box, path, data, before)
    assert outcome.crash is None, f"{path.name}: {outcome.crash}"
    assert not outcome.hang, f"{path.name}: {outcome.seconds:.1f} s for {len(data)} bytes"
    assert outcome.changed == [], f"{path.name}: changed {outcome.changed}"
