"""The judge's whole path for one mail, in this process, for the fuzz harness (issue 32): a real `Judge`
with its Maildir and a real SMTP server (aiosmtpd on 127.0.0.1) that takes every mail it sends, an
honest game it referees beside the hostile mails, and the checks made after each mail.

    box = JudgeBox(Path(folder))
    finding = box.execute(hostile_mail_bytes)        # None, or what went wrong
    finding = box.honest_turn()                      # an honest turn mailed after it: applied and answered?

The checks, after every mail:
- alive: the judge's pass returned (an exception out of `Judge.once` is a crash; the harness takes the
  mail out of new/ and starts the judge again, as its supervisor would, and goes on);
- signed once: every place (game, entry) holds at most one entry signed by the judge, across every copy
  of its games and every mail it sent;
- no injection: no mail it sent has a header line the hostile mails carry (`X-Injected`, the marker a
  forged CR LF would start), and none names a path of the judge's machine (its home, its Maildir, the
  sandbox, the temporary folder);
- no stranger mailed: every recipient is a participant's address (the SMTP server refuses the rest and
  counts them);
- the honest game goes on: a turn mailed after the hostile one is applied, and the judge mails it on.

The corpus (`hostile`) builds mails from the honest game as it stands: header values and RFC 2047 encoded
words (a Subject that decodes to CR LF, a From naming a player's real address), MIME shapes (nesting,
attachments, wrong charsets), sizes, game ids (hosted, unknown, malformed) and turn blocks (valid,
damaged, replayed, huge entry counts, deep nesting); fuzz_support.mutate then damages some of them.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import random
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from pathlib import Path

from aiosmtpd.controller import Controller

from pbem.crypto import Identity
from pbem.crypto.keyring import create_key
from pbem.judge import config as judge_config
from pbem.judge.service import Judge
from pbem.protocol.bots import bot_turn
from pbem.protocol.genesis import new_game
from pbem.protocol.replay import Replay
from pbem.protocol.session import Session
from pbem.record.canonical import canonical
from pbem.record.models import Entry, from_json, payload_hash, to_json
from pbem.transport import armor, turns
from pbem.transport.mail import compose

from mail_support import free_port

PLAYERS = ("ann", "ben", "cat")
JUDGE = "judge"
BOOK = {n: f"{n}@example.org" for n in (*PLAYERS, JUDGE)}
MARKER = "X-Injected"
"""The header a hostile mail tries to smuggle into the judge's mail (by CR LF in a value it copies)."""


# ---------------------------------------------------------------- what the judge sent

class Outbox:
    """The SMTP server's handler: every mail the judge hands it; a recipient not in the book is refused
    (as a real server would for an unknown user) and counted."""

    def __init__(self) -> None:
        self.received: list[bytes] = []
        self.strangers: list[str] = []

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.lower() not in BOOK.values():
            self.strangers.append(address)
            return "550 no such user here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.received.append(envelope.original_content)
        return "250 Message accepted for delivery"


def entries_in(data: bytes) -> list[tuple[str, Entry]]:
    """(game id, entry) of every entry a mail carries: its turn blocks and attached game files."""

    message = message_from_bytes(data, policy=policy.default)
    found: list[tuple[str, Entry]] = []
    for part in message.walk():
        if part.is_multipart():
            continue
        content = part.get_payload(decode=True) or b""
        if part.get_content_type() == "text/plain" and not part.get_filename():
            for turn in turns.find_blocks(content.decode("utf-8", errors="replace")):
                if isinstance(turn, turns.TurnBlock):
                    found += [(turn.game_id, e) for e in turn.entries]
        elif part.get_filename():
            try:
                record = from_json(content)
            except Exception:  # noqa: BLE001 - the judge's own attachment: parsed as pbem reads it
                continue
            found += [(record.genesis.game_id, e) for e in record.entries]
    return found



# ---------------------------------------------------------------- the sandbox

@dataclass
class Finding:
    kind: str
    """crash, signed twice, injection, path, stranger, honest game stalled"""
    text: str


@dataclass
class Stats:
    executions: int = 0
    crashes: int = 0
    findings: list[Finding] = field(default_factory=list)
    honest_turns: int = 0
    games: int = 0
    sent: int = 0


class JudgeBox:
    """The judge's home, Maildir and key under `root`, an SMTP server, and an honest game of three players
    the judge referees (a new one when it ends)."""

    def __init__(self, root: Path, seed: int = 1, game: str = "path-of-pharaohs", contacts: bool = True):
        self.root = root
        self.rng = random.Random(seed)
        self.game = game
        root.mkdir(parents=True, exist_ok=True)
        self.home, self.maildir = root / "judge-home", root / "judge-mail"
        for sub in ("new", "cur", "tmp"):
            (self.maildir / sub).mkdir(parents=True, exist_ok=True)
        os.environ["PBEM_HOME"] = str(self.home)
        os.environ.pop("PBEM_PASSPHRASE", None)
        os.environ.pop("PBEM_GAMES", None)
        os.environ.pop("PBEM_NOW", None)
        self.judge_key = create_key(JUDGE, None)[1].public
        self.ids = {n: Identity.from_seed(bytes([i + 1]) * 32, comment=n) for i, n in enumerate(PLAYERS)}
        self.outbox = Outbox()
        self.port = free_port()
        self.controller = Controller(self.outbox, hostname="127.0.0.1", port=self.port, server_hostname="localhost")
        self.controller.start()
        self.config = root / "judge.toml"
        contacts_toml = "".join(f'{n} = "{BOOK[n]}"\n' for n in PLAYERS) if contacts else ""  # else learned
        self.config.write_text(f'home = "{self.home}"\nkey = "{self.home / "keys" / JUDGE}"\naddress = "{BOOK[JUDGE]}"\n'
                               f'[mailbox]\nmaildir = "{self.maildir}"\npoll_seconds = 1\n'
                               f'[smtp]\nserver = "127.0.0.1:{self.port}"\nsecurity = "none"\n[contacts]\n{contacts_toml}')
        self.log: list[str] = []
        self.now = float(int(time.time()))
        """The judge's clock: an hour and a second on at every pass, so that every refused mail from a
        participant's address is answered (at most one answer an hour to an address), and its answer's path
        runs each time."""
        self.judge = self._start()
        self.secrets = [str(root), str(self.home), str(self.maildir), tempfile.gettempdir().rstrip("/") + "/pbem",
                        str(Path.home()) + "/"]
        """What no mail of the judge's may name: its machine's paths."""
        self.signed: dict[tuple[str, int], set[str]] = {}
        self.read_upto = 0
        self.copy_stamps: dict[Path, int] = {}
        self.stats = Stats()
        self.counter = 0
        self.games: dict[str, Replay] = {}
        self.history: dict[str, list[bytes]] = {}
        """Every turn block and game file the honest game has carried: the corpus replays them."""
        self.rep: Replay | None = None
        self.corpus: Corpus | None = None
        self.last_honest: bytes | None = None
        """A player's last honest mail: the corpus replays and forwards it."""
        self.new_game()

    def close(self) -> None:
        self.controller.stop()

    def _start(self) -> Judge:
        return Judge(judge_config.load(self.config), log=self.log.append, clock=lambda: self.now)

    # ------------------------------------------------------------ the honest game

    def _deliver(self, data: bytes, tag: str) -> Path:
        self.counter += 1
        path = self.maildir / "new" / f"{self.counter:09d}.{tag}"
        tmp = self.maildir / "tmp" / path.name
        tmp.write_bytes(data)
        os.replace(tmp, path)
        return path

    def new_game(self) -> None:
        """A new honest game: ann makes it with the judge as referee, joins and mails the invitation."""
        rep = new_game(self.game, {}, [(n, self.ids[n].public) for n in PLAYERS], "ann", self.ids["ann"],
                       (JUDGE, self.judge_key))
        Session(rep, "ann", self.ids["ann"]).automatic()
        self.rep = rep
        self.games[rep.genesis.game_id] = rep
        self.history[rep.genesis.game_id] = [to_json(rep.record).encode()]
        self.stats.games += 1
        data = bytes(compose(rep, "ann", None, book=BOOK))
        self._deliver(data, "honest")
        self.sent_up = rep.seq

    def _apply_sent(self, mails: list[bytes]) -> None:
        """The players read the judge's mails into their game (as `pbem inbox` would)."""
        for data in mails:
            body = message_from_bytes(data, policy=policy.default).get_body(("plain",))
            for turn in turns.find_blocks(body.get_content() if body is not None else ""):
                if isinstance(turn, turns.TurnBlock) and turn.game_id in self.games:
                    rep = self.games[turn.game_id]
                    try:
                        grown = turns.extend(rep, turn)
                    except Exception:  # noqa: BLE001 - the judge mailed what does not extend: said by the checks
                        continue
                    if grown is not None:
                        self.games[turn.game_id] = grown
                        if self.rep is not None and turn.game_id == self.rep.genesis.game_id:
                            self.rep = grown
                    self.history.setdefault(turn.game_id, []).append(
                        canonical(turn.model_dump(exclude_none=True)))

    def honest_turn(self) -> Finding | None:
        """The player who owes plays and mails the judge; the judge's pass must apply it and mail it on
        (or, with nothing owed by a player, the judge's own duties). A new game when this one is over."""
        rep = self.rep
        assert rep is not None
        owed = [d.who for d in rep.duties() if d.who in PLAYERS]
        if not rep.duties():
            self.new_game()
            return self.run_pass("honest invitation", expect=self.rep.genesis.game_id)
        if not owed:  # the judge owes: a pass does it (the mail that made it owed was answered already)
            return self.run_pass("judge's duty", expect=rep.genesis.game_id)
        before = rep.seq
        bot_turn(Session(rep, owed[0], self.ids[owed[0]]), "greedy", self.rng)
        if rep.seq == before:
            return Finding("honest game stalled", f"{owed[0]} owes but could not play at entry {before}")
        data = bytes(compose(rep, owed[0], before, book=BOOK))
        self.history[rep.genesis.game_id].append(canonical(turns.make(rep, before).model_dump(exclude_none=True)))
        self._deliver(data, "honest")
        self.last_honest = data
        self.stats.honest_turns += 1
        return self.run_pass("honest turn", expect=rep.genesis.game_id, upto=rep.seq)

    # ------------------------------------------------------------ one mail

    def execute(self, data: bytes) -> Finding | None:
        """One hostile mail into new/, one pass of the judge, the checks."""
        self.stats.executions += 1
        self._deliver(data, "fuzz")
        return self.run_pass("hostile mail")

    def run_pass(self, what: str, expect: str | None = None, upto: int | None = None) -> Finding | None:
        before = len(self.outbox.received)
        finding = None
        self.now += 3601
        try:
            self.judge.once()
        except Exception as exc:  # noqa: BLE001 - what the harness looks for
            self.stats.crashes += 1
            finding = Finding("crash", f"{what}: {_where(exc)}")
            for path in list((self.maildir / "new").iterdir()):  # its supervisor's part: the mail out, a restart
                if path.name.endswith(".fuzz"):
                    os.replace(path, self.maildir / "cur" / (path.name + ":2,S"))
            self.judge = self._start()
            try:
                self.judge.once()
            except Exception as again:  # noqa: BLE001 - the restarted judge fails too: said once
                finding = Finding("crash", f"{what}, after a restart: {_where(again)}")
        sent = self.outbox.received[before:]
        self.stats.sent += len(sent)
        problem = self.check(sent)
        finding = finding or problem
        if expect is not None:
            finding = finding or self._answered(expect, sent, upto)
        else:
            self._apply_sent(sent)
        if finding is not None:
            self.stats.findings.append(finding)
        return finding

    def _answered(self, game_id: str, sent: list[bytes], upto: int | None) -> Finding | None:
        """Applied: the judge's copy holds entry `upto`. Answered: once the players have read what it
        mailed, the judge owes nothing in the game."""
        self._apply_sent(sent)
        copy = next((self.home / "games-files").glob(f"*-{game_id[:8]}*.json"), None)
        held = len(json.loads(copy.read_bytes())["entries"]) if copy is not None else -1
        if upto is not None and held < upto:
            return Finding("honest game stalled", f"entry {upto} of {game_id[:8]} not applied (the judge's copy "
                           f"stops at {held}); judge log: {self.log[-3:]}")
        rep = self.games[game_id]
        owed = [d for d in rep.duties() if d.who not in PLAYERS]  # the referee's (DEALER's) duties
        if owed:
            return Finding("honest game stalled", f"the judge owes {owed[0].what} at entry {rep.seq} of "
                           f"{game_id[:8]} and mailed nothing for it; judge log: {self.log[-3:]}")
        return None

    # ------------------------------------------------------------ the checks

    def check(self, sent: list[bytes]) -> Finding | None:
        found: Finding | None = None
        if self.outbox.strangers:
            found = Finding("stranger", f"the judge mailed {self.outbox.strangers}")
            self.outbox.strangers.clear()
        for data in sent:
            head = data.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]
            if any(line.lower().startswith(MARKER.lower().encode()) for line in head.splitlines()):
                found = found or Finding("injection", f"a header line {MARKER} in a mail the judge sent: {head[:2000]!r}")
            text = data.decode("utf-8", errors="replace")
            decoded = _decoded(data)
            for secret in self.secrets:
                if secret in text or secret in decoded:
                    found = found or Finding("path", f"{secret!r} in a mail the judge sent: {data[:2000]!r}")
            for game_id, entry in entries_in(data):
                if entry.author == JUDGE:
                    found = found or self._note(game_id, entry.seq, payload_hash(entry), "a mail")
        for copy in (self.home / "games-files").glob("*.json"):
            stamp = copy.stat().st_mtime_ns
            if self.copy_stamps.get(copy) == stamp:
                continue
            self.copy_stamps[copy] = stamp
            record = json.loads(copy.read_bytes())
            game_id = record["genesis"]["game_id"]
            for raw in record["entries"]:
                if raw.get("author") == JUDGE:
                    entry = Entry.model_validate(raw)
                    found = found or self._note(game_id, entry.seq, payload_hash(entry), copy.name)
        return found

    def _note(self, game_id: str, seq: int, digest: str, where: str) -> Finding | None:
        known = self.signed.setdefault((game_id, seq), set())
        known.add(digest)
        if len(known) > 1:
            return Finding("signed twice", f"game {game_id[:8]} entry {seq}: {len(known)} versions signed by the "
                           f"judge (seen in {where})")
        return None


def _decoded(data: bytes) -> str:
    """A mail's text as its reader sees it (quoted-printable and base64 undone)."""
    try:
        message = message_from_bytes(data, policy=policy.default)
        parts = [p.get_payload(decode=True) or b"" for p in message.walk() if not p.is_multipart()]
        return b"\n".join(parts).decode("utf-8", errors="replace") + "\n".join(str(v) for v in message.values())
    except Exception:  # noqa: BLE001 - a mail the judge sent that Python cannot read back: said elsewhere
        return ""


def _where(exc: BaseException) -> str:
    """The exception and where it rose: the last frame, and the last frame in pbem's own code."""
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return repr(exc)
    last = frames[-1]
    ours = next((f for f in reversed(frames) if "/pbem/" in f.filename), last)
    via = f" (from {ours.filename}:{ours.lineno} {ours.name})" if ours is not last else ""
    return f"{type(exc).__name__}: {str(exc)[:300]} at {last.filename}:{last.lineno}{via}"



# ---------------------------------------------------------------- the hostile corpus

CRLF_WORDS = [
    "=?utf-8?q?turn=0D=0AX-Injected=3A_yes?=",
    "=?utf-8?b?" + base64.b64encode(b"turn\r\nX-Injected: yes").decode() + "?=",
    "=?iso-8859-1?q?a=0AX-Injected=3A_yes?=",
    "=?utf-8?q?=0D=0A=0D=0AX-Injected=3A_body?=",
    "=?us-ascii?Q?x=0DX-Injected:_cr-only?=",
    "=?utf-8?q?a?= =?utf-8?q?=0D=0AX-Injected=3A_split?=",
    "=?unknown-8bit?q?=0D=0AX-Injected=3A_unknown?=",
    "=?utf-7?q?+AA0ACg-X-Injected:_utf7?=",
    "=?utf-8?b?!!notbase64?=",
    "=?utf-8?q?" + "=E2=80=AE" * 40 + "?=",
]
"""Encoded words (RFC 2047) whose text holds CR or LF: copied into a header of the judge's, they start one."""

HEADER_TOKENS = [b"\r\n", b"\n", b"\r", b"\r\nX-Injected: yes", b"\nX-Injected: yes\n", b"=?utf-8?q?", b"=0D=0A", b"?=",
                 b"=?utf-8?b?", b"DQpYLUluamVjdGVkOiB5ZXM=", b"ann@example.org", b"<ann@example.org>", b"\"ann\" <",
                 b"judge@example.org", b"Auto-Submitted: no\r\n", b"Subject: ", b"From: ", b"Message-ID: <",
                 b"charset=\"utf-7\"", b"charset=\"x-unknown\"", b"charset=\"utf-16\"", b"\xff\xfe", b"\xc3\x28",
                 b"/etc/passwd", b"../../", b"%s%n", b"\x00"]


def _fold(lines: list[str], eol: str) -> str:
    return eol.join(lines) + eol


class Corpus:
    """Hostile mails made from the honest game as it stands (its history of turns and files)."""

    def __init__(self, box: JudgeBox):
        self.box = box
        strangers = {n: Identity.from_seed(bytes([0x40 + i]) * 32, comment=n) for i, n in enumerate(PLAYERS)}
        rep = new_game(box.game, {}, [(n, strangers[n].public) for n in PLAYERS], "ann", strangers["ann"],
                       (JUDGE, box.judge_key))
        Session(rep, "ann", strangers["ann"]).automatic()
        self.stranger_game = to_json(rep.record).encode()
        self.made: dict[tuple[str, int, int], bytes] = {}
        self.wrapped: dict[tuple[str, str], str] = {}
        """Turns of the honest game as it stands, made once (by game, its length, the entry they follow)."""
        """A stranger's game naming the judge its referee, its players named as ours (other keys)."""

    # ------------------------------------------------------------ headers

    def sender(self, rng: random.Random) -> str:
        return rng.choice([
            "ann <ann@example.org>", "ben@example.org", "\"cat\" <cat@example.org>",  # a player's real address, forged
            "eve <eve@evil.example>", "judge@example.org", "<>", "", "ann <ann@example.org>, eve@evil.example",
            "=?utf-8?q?ann=0D=0AX-Injected=3A_from?= <ann@example.org>", "ann <ann@example.org\r\n X-Injected: fold>",
            "ann@example.org (=?utf-8?q?=0D=0AX-Injected=3A_comment?=)", "\"a\\\"nn\" <ann@example.org>",
            "ann <ann@example.org> <ben@example.org>", "x" * 2000 + "@example.org", "ann <ann@[127.0.0.1]>",
            f"{rng.choice(CRLF_WORDS)} <ann@example.org>"])

    def subject(self, rng: random.Random) -> str:
        rep = self.box.rep
        normal = f"[pbem {self.box.game} {rep.genesis.game_id[:8]}] #{rep.seq}" if rep else "[pbem] #1"
        return rng.choice([normal, rng.choice(CRLF_WORDS), normal + " " + rng.choice(CRLF_WORDS), "Re: " + normal,
                           "", "x" * rng.choice((100, 1000, 20_000)), "=?utf-8?q?" + "a" * 5000 + "?=",
                           "\u202egnp.exe", "turn\r\n X-Injected: folded-continuation"])

    def headers(self, rng: random.Random, eol: str) -> list[str]:
        to = rng.choice(["judge@example.org", "judge <judge@example.org>", "", "undisclosed-recipients:;"])
        lines = [f"From: {self.sender(rng)}", f"To: {to}", f"Subject: {self.subject(rng)}"]
        if rng.random() < 0.5:
            lines.append("Cc: " + rng.choice(["ann@example.org, ben@example.org", "eve@evil.example",
                                              "=?utf-8?q?ann=0D=0AX-Injected=3A_cc?= <ann@example.org>"]))
        if rng.random() < 0.7:
            lines.append("Message-ID: " + rng.choice([f"<{rng.getrandbits(64):x}@evil.example>",
                                                     "<a@b>\r\nX-Injected: message-id", rng.choice(CRLF_WORDS),
                                                     "<" + "m" * 3000 + "@x>", "", "no-brackets"]))
        if rng.random() < 0.3:
            lines.append("In-Reply-To: " + rng.choice(["<x@y>", rng.choice(CRLF_WORDS), "<<<>>>"]))
        if rng.random() < 0.2:
            lines.append("Auto-Submitted: " + rng.choice(["no", "auto-replied", "NO ", rng.choice(CRLF_WORDS)]))
        if rng.random() < 0.03:
            lines += [f"X-Filler-{i}: {'y' * 60}" for i in range(rng.choice((10, 10, 10, 1000)))]
        if rng.random() < 0.2:
            lines.append("Date: " + rng.choice(["Thu, 01 Jan 1970 00:00:00 +0000", "Fri, 31 Dec 9999 23:59:59 -2359",
                                                "tomorrow", ""]))
        rng.shuffle(lines)
        return lines

    # ------------------------------------------------------------ bodies: turn blocks and game files

    def known(self, rng: random.Random) -> bytes:
        history = self.box.history.get(self.box.rep.genesis.game_id, []) if self.box.rep else []
        return rng.choice(history) if history else self.stranger_game

    def turn_json(self, rng: random.Random) -> bytes:
        """A turn's JSON: replayed, re-aimed at another game id, forged entries, huge, deeply nested."""
        rep = self.box.rep
        kind = rng.randrange(9)
        if kind == 0 or rep is None or rep.seq < 2:
            return self.known(rng)  # a replayed turn (or file): valid, known
        after = rng.choice((rng.randrange(0, rep.seq), rep.seq - 1, rep.seq - 1))
        key = (rep.genesis.game_id, rep.seq, after)
        if key not in self.made:
            if len(self.made) > 64:
                self.made.clear()
            self.made[key] = canonical(turns.make(rep, after).model_dump(exclude_none=True))
        turn = json.loads(self.made[key])
        if kind == 1:
            turn["game_id"] = rng.choice([f"{rng.getrandbits(128):032x}", "0" * 32, "A" * 32, "x", "",
                                          turn["game_id"] + "\r\nX-Injected: id", "../" * 10, turn["game_id"][:31]])
        elif kind == 2:  # an entry re-signed by nobody: the judge's name on it, or a player's, its text changed
            entry = rng.choice(turn["entries"])
            entry["author"] = rng.choice([JUDGE, *PLAYERS, "eve", "judge\r\nX-Injected: author"])
        elif kind == 3:
            turn["after"] = rng.choice([0, rep.seq, rep.seq + 1, 100_000, -1, 2**63])
        elif kind == 4:  # huge entry counts
            count = rng.choice((10_000, 10_001)) if rng.random() < 0.1 else rng.choice((50, 200, 2_000))
            turn["entries"] = turn["entries"][:1] * count
        elif kind == 5:  # deep nesting
            depth = rng.choice((100, 1_000, 100_000))
            return (b'{"format":"pbem-turn/1","game_id":"' + rep.genesis.game_id.encode() + b'","entries":'
                    + b"[" * depth + b"]" * depth + b"}")
        elif kind == 6:
            turn["prev"] = f"{rng.getrandbits(256):064x}"
        elif kind == 7:
            turn["entries"] = list(reversed(turn["entries"]))
        else:
            return self.stranger_game if rng.random() < 0.5 else self.history_file(rep)
        return json.dumps(turn).encode()

    def history_file(self, rep: Replay) -> bytes:
        key = (rep.genesis.game_id, rep.seq, -1)
        if key not in self.made:
            self.made[key] = to_json(rep.record).encode()
        return self.made[key]

    def wrap(self, label: str, data: bytes) -> str:
        """armor.wrap, the large ones made once (gzip is most of a huge turn's cost)."""
        if len(data) < 100_000:
            return armor.wrap(label, data)
        key = (label, hashlib.sha256(data).hexdigest())
        if key not in self.wrapped:
            if len(self.wrapped) > 16:
                self.wrapped.clear()
            self.wrapped[key] = armor.wrap(label, data)
        return self.wrapped[key]

    def body(self, rng: random.Random) -> str:
        """Text around zero or more armored blocks."""
        parts = [rng.choice(["Hello judge,", "", "> quoted\n> text", "-----BEGIN PBEM TURN-----"])]
        for _ in range(rng.choice((0, 1, 1, 1, 2, 3))):
            block = self.wrap(rng.choice([turns.LABEL, turns.LABEL, "GAME"]), self.turn_json(rng))
            shape = rng.randrange(6)
            if shape == 0:  # damaged: a character of its base64 changed
                at = rng.randrange(30, max(31, len(block) - 30))
                block = block[:at] + rng.choice("A/+=!") + block[at + 1:]
            elif shape == 1:  # quoted by a mail client
                block = "> " + block.replace("\n", "\n> ")
            elif shape == 2:
                block = block[: len(block) // 2]  # cut
            parts.append(block)
        if rng.random() < 0.02:
            parts.append("junk " * rng.choice((2_000, 2_000, 20_000, 200_000)))  # sizes
        return "\n".join(parts) + "\n"

    # ------------------------------------------------------------ MIME shapes

    def mail(self, rng: random.Random) -> bytes:
        eol = rng.choice(["\r\n", "\n"])
        head = self.headers(rng, eol)
        shape = rng.randrange(7)
        charset = rng.choice(["utf-8", "us-ascii", "utf-7", "x-unknown", "utf-16", "iso-2022-jp", "\"utf-8"])
        text = self.body(rng)
        if shape == 0:  # plain text
            return (_fold(head + [f"Content-Type: text/plain; charset={charset}"], eol) + eol + text).encode(
                "utf-8", errors="surrogateescape")
        if shape == 1:  # base64 or quoted-printable body, sometimes broken
            cte = rng.choice(["base64", "quoted-printable"])
            raw = text.encode()
            coded = base64.encodebytes(raw).decode() if cte == "base64" else _qp(raw)
            if rng.random() < 0.3:
                coded = coded.replace("A", "!", 3)
            return (_fold(head + [f"Content-Type: text/plain; charset={charset}", f"Content-Transfer-Encoding: {cte}"],
                          eol) + eol + coded).encode()
        if shape == 2:  # the game file attached (its charset, its name, its encoding chosen badly)
            data = self.turn_json(rng) if rng.random() < 0.3 else self.known(rng)
            name = rng.choice(["game.json", "../../judge-home/games-files/x.json", "g\r\nX-Injected: fn.json",
                               "=?utf-8?q?=0D=0AX-Injected=3A_fn?=.json", "a" * 300 + ".json", ""])
            attach = base64.encodebytes(data).decode()
            return _fold(head + ["MIME-Version: 1.0", 'Content-Type: multipart/mixed; boundary="b1"'], eol).encode() + (
                f"{eol}--b1{eol}Content-Type: text/plain; charset={charset}{eol}{eol}{text}{eol}--b1{eol}"
                f"Content-Type: application/json; charset={charset}; name=\"{name}\"{eol}"
                f"Content-Disposition: attachment; filename=\"{name}\"{eol}Content-Transfer-Encoding: base64{eol}{eol}"
                f"{attach}{eol}--b1--{eol}").encode()
        if shape == 3:  # multipart nesting
            depth = rng.choice((2, 3, 10, 60, 300))
            opening = "".join(f'Content-Type: multipart/mixed; boundary="n{i}"{eol}{eol}--n{i}{eol}' for i in range(depth))
            closing = "".join(f"{eol}--n{i}--{eol}" for i in reversed(range(depth)))
            return (_fold(head, eol) + opening + f"Content-Type: text/plain{eol}{eol}" + text + closing).encode()
        if shape == 4:  # a forwarded mail: message/rfc822 holding a player's own mail
            inner = self.box.last_honest or b"Subject: x\r\n\r\nnothing\r\n"
            return _fold(head + ['Content-Type: multipart/mixed; boundary="f"'], eol).encode() + (
                f"{eol}--f{eol}Content-Type: message/rfc822{eol}{eol}").encode() + inner + f"{eol}--f--{eol}".encode()
        if shape == 5:  # a player's honest mail, replayed with forged headers
            inner = self.box.last_honest or b"Subject: x\r\n\r\nnothing\r\n"
            split = inner.find(b"\n\n") if b"\r\n\r\n" not in inner else inner.find(b"\r\n\r\n")
            rest = inner[split:] if split >= 0 else inner
            kept = [line for line in inner[:max(split, 0)].decode(errors="replace").splitlines()
                    if line.split(":")[0].lower() in ("content-type", "mime-version", "content-transfer-encoding")]
            return _fold(head + kept, "\r\n").encode() + rest
        return (_fold(head, eol) + eol + text).encode()  # no MIME headers at all


def _qp(raw: bytes) -> str:
    import quopri

    return quopri.encodestring(raw).decode()


def hostile(corpus: Corpus, rng: random.Random, mutate_share: float = 0.4) -> bytes:
    """One hostile mail: a structured one, and in `mutate_share` of them its bytes damaged further."""
    from fuzz_support import MAIL_TOKENS, mutate, random_ops

    data = corpus.mail(rng)
    if rng.random() < mutate_share:
        data = mutate(data, random_ops(rng, MAIL_TOKENS + HEADER_TOKENS))
    return data
