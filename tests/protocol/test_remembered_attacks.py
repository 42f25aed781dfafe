"""Attacks on the replays a long-running process keeps (pbem.protocol.remembered), by those who hold valid
keys (a player, creator or referee signing whatever they like) and by a hostile mailer to the judge.

Each scenario goes through the public interface (the CLI in-process, pbem.api, the judge's library) twice:
once in one process that keeps replays, once as fresh processes would see it (nothing recalled, nothing
kept), and the two transcripts must be the same word for word. The kept run must have gone on from a kept
replay at least once, or the scenario proves nothing."""

from __future__ import annotations

import base64
import dataclasses
import functools
import gc
import hashlib
import json
import random
import struct
import threading
import tracemalloc
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.contract import DEALER
from pbem.api import legal_moves, verify_files
from pbem.cli import app
from pbem.crypto.keyring import key_dir
from pbem.crypto.wire import ssh_string
from pbem.errors import PbemError
from pbem.judge import library
from pbem.protocol import remembered
from pbem.protocol.absence import entitled
from pbem.protocol.bots import bot_turn, play_out
from pbem.protocol.replay import Replay
from pbem.protocol.session import Session
from pbem.protocol.verify import verify
from pbem.record.canonical import MAX_BYTES, canonical
from pbem.record.deadlines import parse_policy
from pbem.record.models import core_id, from_json, to_json

from clock_support import clocked
from pbem_support import identity, played_game, sessions_for
from tampering import EXAMPLES, _rechain, _signer

runner = CliRunner()
BOOK = {name: f"{name}@example.org" for name in ("ann", "ben", "cat", "dan", "ref")}


@pytest.fixture(autouse=True)
def _nothing_kept():
    remembered.forget()
    yield
    remembered.forget()


def both_ways(scenario, tmp_path: Path, monkeypatch) -> list[str]:
    """The scenario's transcript in one process that keeps replays and as fresh processes make it, each in
    its own folder and PBEM_HOME (so this machine's record of what it saw starts empty for both); asserted
    the same, with the folder's name taken out."""
    said = {}
    for mode in ("kept", "fresh"):
        where = tmp_path / mode
        where.mkdir()
        monkeypatch.setenv("PBEM_HOME", str(where / "home"))
        remembered.forget()
        recalled: list[int] = []
        with monkeypatch.context() as patch:
            if mode == "fresh":
                patch.setattr(remembered, "recall", lambda keys: None)
                patch.setattr(remembered, "keep", lambda keys, rep: None)
            else:
                real = remembered.recall

                def noting(keys, real=real, recalled=recalled):
                    found = real(keys)
                    if found is not None:
                        recalled.append(found.seq)
                    return found

                patch.setattr(remembered, "recall", noting)
            lines = scenario(where)
        said[mode] = [str(line).replace(str(where), "DIR") for line in lines]
        if mode == "kept":
            assert recalled, "the scenario never went on from a kept replay"
    assert said["kept"] == said["fresh"]
    return said["kept"]


def cli(*args) -> str:
    result = clocked(runner.invoke(app, [str(a) for a in args]))
    return f"exit {result.exit_code}: {result.output.strip()}"


def outcome(data: bytes) -> str:
    """What verify makes of a file, and that the replay it gives is of exactly that file."""
    try:
        rep = verify(from_json(data))
    except PbemError as exc:
        return f"{type(exc).__name__}: {exc}"
    assert to_json(rep.record) == to_json(from_json(data))  # the record given, not one kept before
    return f"valid, {rep.seq} entries"


def sha256_signature(who, signed: dict) -> str:
    """Another valid signature by the same key over the same payload: SSHSIG over sha256 rather than the
    sha512 pbem makes (every pbem accepts both: another signing tool), as a signer may make to get a file
    whose bytes differ from one already seen and whose meaning does not."""
    message = canonical({k: v for k, v in signed.items() if k != "signature"})
    header = ssh_string(b"pbem") + ssh_string(b"") + ssh_string(b"sha256")
    raw = who._key.sign(b"SSHSIG" + header + ssh_string(hashlib.sha256(message).digest()))
    blob = (b"SSHSIG" + struct.pack(">I", 1) + ssh_string(who.public.wire) + header
            + ssh_string(ssh_string(b"ssh-ed25519") + ssh_string(raw)))
    return base64.b64encode(blob).decode()


def _dealt_by(rep: Replay, name: str) -> Replay:
    """The table's deal duty done by `name` (at a table any player's program may do it)."""
    Session(rep, name, identity(name)).automatic()
    return rep


@functools.cache
def forks() -> dict[str, bytes]:
    """A Sarcophagus table game up to its first move (`before`), and continuations of it, every entry validly
    signed by who may sign it: `honest`, the mover's first legal coin and then the reveal the table owes, done
    by the mover's program; `equivocated`, the mover's last legal coin at the same seq; `diverged`, the same
    coin with the reveal signed by another player (two authors at one seq)."""
    before = played_game(finish=False)
    mover = before.duties()[0].who
    other = next(name for name in before.players if name != mover)
    coins = legal_moves(Session(before, mover, identity(mover)))

    def then(coin) -> Replay:
        rep = before.fork()
        Session(rep, mover, identity(mover)).act(coin)
        assert rep.duties()[0].who == DEALER
        return rep

    moved = then(coins[0])
    made = {"before": before, "honest": _dealt_by(moved.fork(), mover), "equivocated": then(coins[-1]),
            "diverged": _dealt_by(moved.fork(), other)}
    return {name: to_json(rep.record).encode() for name, rep in made.items()}


def written(where: Path) -> dict[str, Path]:
    paths = {}
    for name, data in forks().items():
        paths[name] = where / f"{name}.json"
        paths[name].write_bytes(data)
    return paths


def test_a_fork_handed_to_one_cli_process_is_refused_as_separate_processes_refuse_it(tmp_path, monkeypatch):
    def scenario(where: Path) -> list[str]:
        files = written(where)
        said = [cli("verify", files[name]) for name in ("before", "honest", "equivocated", "diverged", "before")]
        return said + [cli("verify", files["honest"], files["equivocated"], files["diverged"])]

    said = both_ways(scenario, tmp_path, monkeypatch)
    assert said[0].startswith("exit 0") and said[1].startswith("exit 0")
    assert "entry 5 differs from the one already seen here: the game has forked" in said[2]
    assert "entry 6 differs from the one already seen here: the game has forked" in said[3]
    assert not said[2].startswith("exit 0") and not said[3].startswith("exit 0")
    assert "signed two different entries for seq 5" in said[5] and "fork at entry 6" in said[5]


def test_a_fork_handed_to_the_library_in_one_process_is_refused_as_separate_processes_refuse_it(tmp_path,
                                                                                               monkeypatch):
    def scenario(where: Path) -> list[str]:
        files = written(where)
        said = []
        for names in (["before"], ["honest"], ["equivocated"], ["diverged"], ["honest", "diverged"], ["before"]):
            report = verify_files([files[name] for name in names])
            said.append(f"{[str(c.path) for c in report.valid]} {report.failures} {report.warnings}")
        for name in ("honest", "equivocated", "diverged"):
            said.append(outcome(forks()[name]))
        return said

    said = both_ways(scenario, tmp_path, monkeypatch)
    assert "entry 5 differs from the one already seen here" in said[2]
    assert "entry 6 differs from the one already seen here" in said[3]
    assert "fork at entry 6" in said[4]
    assert said[6:] == ["valid, 6 entries", "valid, 5 entries", "valid, 6 entries"]  # each alone is a valid file


def _mail(where: Path, name: str, rep: Replay, sender: str, after: int | None) -> Path:
    path = where / f"{name}.eml"
    path.write_bytes(library.api.compose_mail(rep, sender, after, attach=after is None, book=BOOK).as_bytes())
    return path


def test_a_hostile_mailer_to_the_judge_gets_the_verdicts_separate_processes_give(tmp_path, monkeypatch):
    """The judge reads each mail as it comes, in one process: the game, an honest turn, then the same
    mover's other turn, another signer's rival reveal, the whole game rolled back to before the turn, and
    the rival game attached whole. Each refused (or known) as fresh processes would."""

    def scenario(where: Path) -> list[str]:
        reps = {name: verify(from_json(data)) for name, data in forks().items()}
        seq = reps["before"].seq
        mover = reps["equivocated"].entries[-1].author
        other = reps["diverged"].entries[-1].author
        reader = next(name for name in reps["before"].players if name != mover)
        key_dir().mkdir(parents=True, exist_ok=True)
        (key_dir() / f"{reader}.pub").write_text(identity(reader).public.line() + "\n")  # whose copies these are
        mails = [_mail(where, "game", reps["before"], mover, None),
                 _mail(where, "turn", reps["honest"], mover, seq),
                 _mail(where, "other-turn", reps["equivocated"], mover, seq),
                 _mail(where, "rival-reveal", reps["diverged"], other, seq + 1),
                 _mail(where, "rolled-back", reps["before"], mover, None),
                 _mail(where, "rival-game", reps["diverged"], other, None)]
        said = []
        for mail in mails:
            read = library.read_one(str(mail), mail.read_bytes(), where / "games")
            said.append(f"{mail.name} {read.outcome.fate} {read.outcome.reason}")
            said += [f"updated {first}-{last} {path.name}" for path, first, last in read.updated.values()]
        return said

    said = both_ways(scenario, tmp_path, monkeypatch)
    text = "\n".join(said)

    assert "other-turn.eml forked" in text and "seq 5" in text
    assert "rival-reveal.eml forked" in text and "rival-game.eml forked" in text


def _regenesis(data: dict, change) -> bytes:
    """The game under a genesis changed by `change` and re-signed by its creator, with the game id it then
    has, every entry moved to that id and re-signed by its own author (as a creator and players who are
    all one cheater's keys can make)."""
    changed = json.loads(json.dumps(data))
    genesis = changed["genesis"]
    change(genesis)
    genesis["game_id"] = core_id({k: v for k, v in genesis.items() if k != "signature"})
    genesis["signature"] = base64.b64encode(_signer(genesis["author"]).sign(
        canonical({k: v for k, v in genesis.items() if k != "signature"}))).decode()
    for entry in changed["entries"]:
        entry["game_id"] = genesis["game_id"]
    _rechain(changed, 0)
    return json.dumps(changed).encode()


def _other_signature(data: dict) -> bytes:
    """The same game with its genesis signed again by its creator, over the same payload, as sha256."""
    changed = json.loads(json.dumps(data))
    genesis = changed["genesis"]
    genesis["signature"] = sha256_signature(_signer(genesis["author"]), genesis)
    return json.dumps(changed).encode()


def _under(data: dict, other: dict) -> bytes:
    """The same entries, unchanged, under another game's genesis."""
    return json.dumps({**data, "genesis": other["genesis"]}).encode()


@pytest.mark.parametrize("game", ["table-3-players.json", "pharaohs-referee-4-players.json"])
@pytest.mark.slow
def test_the_same_entries_under_another_genesis_or_signature_get_a_fresh_processs_verdict(game, tmp_path,
                                                                                         monkeypatch):
    raw = (EXAMPLES / game).read_bytes()
    honest = json.loads(raw)
    other = json.loads((EXAMPLES / "referee-2-players.json").read_bytes())

    def options(genesis):  # a valid option, the rules' default: the same play
        genesis["options"] = {"sarcophagus": {"bottom_edge_free": "true"},
                              "path-of-pharaohs": {"actions": "5,5,5,5"}}[genesis["game"]]

    def hours(genesis):
        genesis["deadline_hours"] = 48

    def policy(genesis):
        genesis["deadlines"] = parse_policy(genesis["game"], "default").model_dump(exclude_none=True)
        genesis["time"] = 1_700_000_000

    variants = {"another signature": _other_signature(honest), "another game's genesis": _under(honest, other),
                "other options": _regenesis(honest, options), "a deadline in hours": _regenesis(honest, hours),
                "a deadline policy": _regenesis(honest, policy)}

    def scenario(where: Path) -> list[str]:
        record = from_json(raw)
        for entries in range(0, len(record.entries) + 1, 7):  # honest prefixes kept, the whole game last
            verify(record.model_copy(update={"entries": record.entries[:entries]}))
        said = [outcome(raw)]
        for kind, data in variants.items():
            said.append(f"{kind}: {outcome(data)}")
            said.append(f"{kind}, again: {outcome(data)}")
        said.append(outcome(raw))
        return said

    said = both_ways(scenario, tmp_path, monkeypatch)
    print("\n".join(said))
    assert said[1:3] == [f"another signature: {said[0]}", f"another signature, again: {said[0]}"]  # one payload
    assert "another game's genesis: WrongGame" in said[3]


INVITED = 1_800_000_000
HOUR = 3600


@functools.cache
def timed_game() -> bytes:
    """A Sarcophagus game under a deadline policy whose entries were signed ten hours apart: the invitation
    at INVITED, joins and the deal ten hours later, then one move every ten hours (its last at 60 hours),
    then the next mover recorded absent, signed by the other two players at 109 and 110 hours."""
    import os

    def at(hours: int) -> None:
        os.environ["PBEM_NOW"] = str(INVITED + hours * HOUR)

    before = os.environ.get("PBEM_NOW")
    try:
        at(0)
        rep = played_game(finish=False, started=False, deadlines=parse_policy("sarcophagus", "turn=24,grace=24"))
        at(10)
        sessions = sessions_for(rep)
        while rep.duties()[0].what != "move":
            duty = rep.duties()[0]
            sessions[duty.who if duty.who in sessions else rep.players[0]].automatic()
        for hours in range(20, 70, 10):
            at(hours)
            bot_turn(sessions[rep.duties()[0].who if rep.duties()[0].who in sessions else rep.players[0]],
                     "greedy", random.Random(hours))
        late = rep.duties()[0].who
        for hours, signer in zip((109, 110), entitled(rep, late)):  # past the turn's 24 h and the grace's 24
            at(hours)
            sessions[signer].record_absence(late)
        assert rep.absences
        return to_json(rep.record).encode()
    finally:
        os.environ.pop("PBEM_NOW", None)
        if before is not None:
            os.environ["PBEM_NOW"] = before


@pytest.mark.slow
def test_a_clock_that_moves_back_gets_a_fresh_processs_verdict_at_every_time(tmp_path, monkeypatch):
    """Every prefix kept at a clock past the last entry; then the clock goes back by steps to before the
    invitation, and forward again: each verify says what a fresh process at that clock says (the first
    entry ahead of the clock named, its time, the clock), through the CLI and the library."""
    data = timed_game()
    record = from_json(data)

    def scenario(where: Path) -> list[str]:
        path = where / "game.json"
        path.write_bytes(data)
        monkeypatch.setenv("PBEM_NOW", str(INVITED + 120 * HOUR))
        for entries in range(len(record.entries) + 1):
            verify(record.model_copy(update={"entries": record.entries[:entries]}))
        said = []
        for hours in (120, 109, 108, 70, 55, 45, 25, 12, 8, 0, -2, 120, -2, 30):
            monkeypatch.setenv("PBEM_NOW", str(INVITED + hours * HOUR))
            said += [f"at {hours}: {outcome(data)}", cli("verify", path)]
        return said

    said = both_ways(scenario, tmp_path, monkeypatch)
    assert said[0] == f"at 120: valid, {len(record.entries)} entries"
    assert said[2] == f"at 109: valid, {len(record.entries)} entries"  # the absence's last time within the hour
    assert said[4].startswith(f"at 108: IllegalMove: entry {len(record.entries)} by ")  # 2 h ahead: refused
    assert "at 0: IllegalMove" in said[18] and "ahead of this program's clock" in said[18]
    assert "at -2: BadGenesis" in said[20]


def _vandalize(rep: Replay) -> list[str]:
    """Change everything a caller holding a replay can reach: every item's value and commitment, every list
    and dict, every field. Returns what it could not change (refused: the object is immutable)."""
    refused = []
    for item in list(rep.items.values()):
        for name, junk in (("value", "9"), ("commitment", "0" * 64), ("readers", ())):
            try:
                setattr(item, name, junk)
            except dataclasses.FrozenInstanceError:
                refused.append(f"item.{name}")
    for f in dataclasses.fields(rep):
        value = getattr(rep, f.name)
        if isinstance(value, (list, dict, set)):
            value.clear()
        elif f.name not in ("genesis", "game"):
            setattr(rep, f.name, None)
    return sorted(set(refused))


@pytest.mark.parametrize("game", ["table-3-players.json", "pharaohs-table-4-players.json"])
@pytest.mark.slow
def test_a_caller_that_changes_the_replay_it_was_handed_changes_no_verdict_after(game, monkeypatch):
    """A front end (the app's request thread, the judge, a library user) wrecks the replay verify handed
    it; the same record and a longer one are then verified as a fresh process verifies them. Items are
    immutable (a kept replay and its copies share them): changing one is refused, not passed on."""
    raw = (EXAMPLES / game).read_bytes()
    whole = from_json(raw)
    half = whole.model_copy(update={"entries": whole.entries[:len(whole.entries) // 2]})
    assert _vandalize(verify(half)) == ["item.commitment", "item.readers", "item.value"]
    went_on = verify(whole)
    again = verify(half)
    with monkeypatch.context() as alone:
        alone.setattr(remembered, "recall", lambda keys: None)
        assert went_on == verify(whole) and again == verify(half)


@pytest.mark.parametrize("game", ["table-3-players.json", "pharaohs-table-4-players.json"])
@pytest.mark.slow
def test_computer_players_going_on_from_a_kept_replay_change_nothing_kept(game, monkeypatch):
    """The judge and the app let computer players (greedy, and a search of a few playouts) play on from the
    replay verify handed them: the engine's states are shared with the kept replay (never changed once made,
    the engine's own rule), so the half kept, and the game they played, verify as in a fresh process."""
    whole = from_json((EXAMPLES / game).read_bytes())
    half = whole.model_copy(update={"entries": whole.entries[:len(whole.entries) // 2]})
    handed = verify(half)
    sessions = {name: Session(handed, name, _signer(name)) for name in handed.roster}
    search = handed.game.policy("mcts", None, 20)
    rng = random.Random(3)
    for _ in range(4):
        owed = handed.duties()[0].who
        bot_turn(sessions[owed if owed in sessions else handed.players[0]], search, rng)
    play_out(sessions, "greedy", rng)
    played = handed.record
    kept_half, kept_played = verify(half), verify(played)
    with monkeypatch.context() as alone:
        alone.setattr(remembered, "recall", lambda keys: None)
        assert kept_half == verify(half)
        assert kept_played == verify(played) and kept_played.over


@pytest.mark.slow
def test_threads_verifying_and_wrecking_replays_at_once_get_a_fresh_processs_verdicts(monkeypatch):
    """The app serves requests on threads: eight at once verify prefixes of one game, copies with an entry
    re-signed by its own author with other content, and the whole game, each wrecking the replay it was
    handed; every verdict is the one a fresh process gives."""
    raw = (EXAMPLES / "pharaohs-table-4-players.json").read_bytes()
    data = json.loads(raw)
    files = [json.dumps({**data, "entries": data["entries"][:n]}).encode() for n in range(0, 147, 6)] + [raw]
    for seq in (30, 90, 140):
        changed = json.loads(raw)
        changed["entries"][seq - 1]["note"] = "a word the author added later"
        _rechain(changed, seq - 1)
        files.append(json.dumps({**changed, "entries": changed["entries"][:seq + 3]}).encode())
    with monkeypatch.context() as alone:
        alone.setattr(remembered, "recall", lambda keys: None)
        alone.setattr(remembered, "keep", lambda keys, rep: None)
        fresh = [outcome(data) for data in files]
    lock = threading.Lock()
    wrecked = []

    def check(data: bytes) -> str:
        said = outcome(data)
        try:
            rep = verify(from_json(data))
        except PbemError:
            return said
        with lock:
            wrecked.append(_vandalize(rep))
        return said

    with ThreadPoolExecutor(8) as pool:
        for _ in range(3):
            assert list(pool.map(check, files)) == fresh
    assert wrecked and remembered.recall(remembered.chain(from_json(raw))) is not None


def _padded(data: dict, tag: int, size: int) -> bytes:
    """A valid game of about `size` bytes, as anyone can make one under keys of their own: every sealed blob
    padded (the header names its readers, which is all verify can check of it) and every entry re-signed."""
    changed = json.loads(json.dumps(data))
    blobs = [(entry, key) for entry in changed["entries"] for key in entry.get("sealed") or {}]
    pad = bytes([tag]) * ((size - len(json.dumps(data))) // len(blobs) // 4 * 3)
    for entry, key in blobs:
        entry["sealed"][key] = base64.b64encode(base64.b64decode(entry["sealed"][key]) + pad).decode()
    _rechain(changed, changed["entries"].index(blobs[0][0]))
    return json.dumps(changed).encode()


@pytest.mark.slow
def test_a_hostile_sender_cannot_make_the_process_keep_more_than_so_many_bytes(monkeypatch):
    """Four valid games of 1.5 MB each (sealed blobs padded, re-signed by their own keys), verified one after
    another under a bound of 3.5 MB: only the last two are kept, and the memory held after is about theirs
    (3.7 MB; without the bound all four, 7.4 MB); the honest game evicted is verified as before. The bound
    itself holds two of the largest files a process reads. (Six games proved no more than four: each one is
    a fresh verification under tracemalloc, 0.15 s.)"""
    assert remembered.KEPT_BYTES >= 2 * MAX_BYTES
    monkeypatch.setattr(remembered, "KEPT_BYTES", 3_500_000)
    raw = (EXAMPLES / "table-3-players.json").read_bytes()
    honest = from_json(raw)
    flood = [_padded(json.loads(raw), tag, 1_500_000) for tag in range(4)]
    verify(honest)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        assert [outcome(data) for data in flood] == ["valid, 127 entries"] * 4
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    kept = [remembered.recall(remembered.chain(from_json(data))) is not None for data in flood]
    assert kept == [False] * 2 + [True] * 2
    assert held < 4_500_000, held
    assert remembered.recall(remembered.chain(honest)) is None
    assert outcome(raw) == "valid, 127 entries"


def test_a_caller_that_changes_an_entry_it_holds_changes_no_record_verified_after(monkeypatch):
    """Entries are frozen models whose dicts (sealed, commitments, openings) are not: a caller changes one in
    the record it verified and one in the replay it was handed (both the objects kept). The honest file,
    verified after, comes back as itself, byte for byte, with a fresh process's verdict; the changed record
    gets a fresh process's verdict too."""
    raw = (EXAMPLES / "table-3-players.json").read_bytes()
    theirs = from_json(raw)
    handed = verify(theirs)
    sealed = [entry for entry in theirs.entries if entry.sealed]
    for entry in (sealed[0], handed.entries[theirs.entries.index(sealed[-1])]):
        entry.sealed[next(iter(entry.sealed))] = "AAAA"
    changed = to_json(theirs).encode()
    said = [outcome(raw), outcome(changed)]
    with monkeypatch.context() as alone:
        alone.setattr(remembered, "recall", lambda keys: None)
        assert said == [outcome(raw), outcome(changed)]
    assert said == ["valid, 127 entries", "BadSignature: entry 5 by ben: signature does not match"]
