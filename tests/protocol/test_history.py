"""What a machine remembers of a game, and `verify` over many files: older and forked copies are caught
whichever command read the newer one, a damaged history fails closed, and every file is reported."""

import base64
import json
import re
import shutil
import subprocess

import pytest

from pbem.protocol.verify import compare
from pbem.record.canonical import canonical
from pbem.record.models import from_json, payload

from cli_support import pbem
from engine_support import layout_with

needs_ssh_keygen = pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="ssh-keygen is not installed")


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """v0 (the new game), v1 and v2 (one turn each), v2b (v1 answered again: a fork at entry len(v1)+1),
    and another game; every file made through the CLI, then the history made on the way forgotten."""
    base = tmp_path_factory.mktemp("history")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PBEM_HOME", str(base / "home"))
        mp.delenv("PBEM_PASSPHRASE", raising=False)
        mp.chdir(base)
        for name in ("ann", "ben"):
            assert pbem("key", "new", name, "--no-passphrase").exit_code == 0
        layout = layout_with({"1a": "sun-3", "2a": "moon-4"}).to_names()
        (base / "layout.json").write_text(json.dumps({**layout, "first": "ben"}))
        for out in ("v0.json", "other.json"):
            created = pbem("new", "sarcophagus", "-o", out, "--as", "ann", "--player", "ann", "--player", "ben",
                           "--layout", "layout.json")
            assert created.exit_code == 0, created.output
        assert pbem("play", "v0.json", "--as", "ben", "3", "2@2a", "-o", "v1.json").exit_code == 0
        assert pbem("play", "v1.json", "--as", "ann", "3", "2@2a", "-o", "v2.json").exit_code == 0
        shutil.rmtree(base / "home" / "games")
        assert pbem("play", "v1.json", "--as", "ann", "3", "2@2b", "-o", "v2b.json").exit_code == 0
        shutil.rmtree(base / "home" / "games")
    return base


@pytest.fixture
def game(made, tmp_path, monkeypatch):
    for path in made.iterdir():
        (shutil.copytree if path.is_dir() else shutil.copy)(path, tmp_path / path.name)
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("PBEM_PASSPHRASE", raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def seqs(path) -> int:
    return len(json.loads(path.read_text())["entries"])


def history(game) -> list[str]:
    [found] = (game / "home" / "games").iterdir()
    return json.loads(found.read_text())["hashes"]


def test_a_shown_file_is_remembered_and_an_older_copy_refused(game):
    v1, v2 = seqs(game / "v1.json"), seqs(game / "v2.json")
    shown = pbem("show", "v2.json")
    assert shown.exit_code == 0 and "Warning" not in shown.output
    before = (game / "v1.json").read_bytes()
    stale = pbem("play", "v1.json", "--as", "ann", "3")
    assert (stale.exit_code, stale.output) == (1, f"Error: this file stops at entry {v1}, but entry {v2} of this "
                                               f"game was already seen here: use the newer file: {game / 'v2.json'}\n")
    assert (game / "v1.json").read_bytes() == before
    older = pbem("show", "v1.json")
    assert older.exit_code == 0
    assert older.output.splitlines()[0] == (f"Warning: v1.json: this file stops at entry {v1}, but entry {v2} of "
                                            f"this game was already seen here: use the newer file: {game / 'v2.json'}")
    checked = pbem("verify", "v1.json")
    assert checked.exit_code == 0
    assert checked.output.splitlines()[1] == older.output.splitlines()[0]
    assert len(history(game)) == v2 + 1  # reading the older copies did not take the history back


def test_verify_remembers_too_and_the_history_never_goes_back(game):
    assert pbem("verify", "v2.json", "v0.json").exit_code == 0
    assert len(history(game)) == seqs(game / "v2.json") + 1
    assert pbem("play", "v0.json", "--as", "ben", "3").output.startswith("Error: this file stops at entry ")


def test_a_copy_forked_from_what_was_seen(game):
    fork_at = seqs(game / "v1.json") + 1
    message = (f"this file's entry {fork_at} differs from the one already seen here: the game has forked "
               "(compare both files with 'pbem verify OLD NEW')")
    assert pbem("log", "v2.json").exit_code == 0
    checked = pbem("verify", "v2b.json")
    assert checked.exit_code == 1
    assert checked.output.splitlines()[1:] == [f"Error: v2b.json: {message}"]
    shown = pbem("show", "v2b.json")
    assert shown.exit_code == 0 and shown.output.splitlines()[0] == f"Warning: v2b.json: {message}"
    assert pbem("play", "v2b.json", "--as", "ben", "3").output == f"Error: {message}\n"
    assert len(history(game)) == seqs(game / "v2.json") + 1


@pytest.mark.parametrize("content,why", [
    ('{"hashes": []}', '"hashes" must be a non-empty list of entry hashes'),
    ('{"hashes": ["zz"]}', '"hashes" must be a non-empty list of entry hashes'),
    ("{", "not JSON"),
])
def test_a_damaged_history_fails_closed_and_says_how_to_reset_it(game, content, why):
    assert pbem("show", "v1.json").exit_code == 0
    [path] = (game / "home" / "games").iterdir()
    path.write_text(content)
    expected = (f"Error: the history file {path} is damaged ({why}): delete it to reset what this machine "
                "remembers of the game (older or forked copies then go unnoticed until it is rebuilt)\n")
    before = (game / "v1.json").read_bytes()
    for args in (["play", "v1.json", "--as", "ann", "3"], ["show", "v1.json"], ["verify", "v1.json"]):
        result = pbem(*args)
        assert (result.exit_code, result.output) == (1, expected), args
    assert (game / "v1.json").read_bytes() == before and path.read_text() == content
    path.unlink()
    assert pbem("play", "v1.json", "--as", "ann", "3").exit_code == 3  # the first coin: the turn goes on


def test_verify_reports_every_file_and_compares_every_pair(game):
    data = json.loads((game / "v2.json").read_text())
    data["entries"][-1]["action"] = "@2b"
    (game / "bad.json").write_text(json.dumps(data))
    (game / "x.json").write_text("not a game")
    result = pbem("verify", "v2.json", "bad.json", "missing.json", "other.json", "x.json", "v1.json", "v2b.json")
    assert result.exit_code == 1
    n2, n1 = seqs(game / "v2.json"), seqs(game / "v1.json")
    lines = result.output.splitlines()
    assert [re.split(r" entr(?:y|ies)\.", line)[0] for line in lines] == [
        f"v2.json: valid, in progress, {n2}",
        f"Error: bad.json: entry {n2} by ann: signature does not match",
        "Error: no such file: missing.json",
        f"other.json: valid, in progress, {seqs(game / 'other.json')}",
        "Error: x.json: not valid JSON (line 1, column 1: Expecting value)",
        f"v1.json: valid, in progress, {n1}",
        f"v2b.json: valid, in progress, {seqs(game / 'v2b.json')}",
        f"Error: v2.json and v2b.json: entry {n1 + 1} by ann: ann signed two different entries for seq {n1 + 1}: "
        "'@1a' in both, with different commitments, sealed values or openings",
    ]
    assert pbem("verify", "v0.json", "other.json", "v2.json").exit_code == 0


@needs_ssh_keygen
def test_the_same_move_signed_twice_is_not_a_fork(game):
    """ssh-keygen re-signs an entry's payload with SHA-256 instead of SHA-512: other signature bytes, one move."""
    record = from_json((game / "v2.json").read_bytes())
    last = record.entries[-1]
    (game / "entry").write_bytes(canonical(payload(last)))
    subprocess.run(["ssh-keygen", "-q", "-Y", "sign", "-f", str(game / "home" / "keys" / "ann"), "-n", "pbem",
                    "-O", "hashalg=sha256", str(game / "entry")], check=True, capture_output=True)
    armored = (game / "entry.sig").read_text().splitlines()[1:-1]
    signature = base64.b64encode(base64.b64decode("".join(armored))).decode()
    assert signature != last.signature
    data = json.loads((game / "v2.json").read_text())
    data["entries"][-1]["signature"] = signature
    (game / "resigned.json").write_text(json.dumps(data))
    assert compare(record, from_json((game / "resigned.json").read_bytes())) is None
    both = pbem("verify", "v2.json", "resigned.json", "v1.json")
    assert both.exit_code == 0 and "Error" not in both.output and "Warning" not in both.output, both.output


def test_looking_works_where_nothing_can_be_written(game, monkeypatch):
    from pbem.protocol import seen

    def read_only(path, data, mode=0o644):
        raise PermissionError(13, "Permission denied", str(path))
    monkeypatch.setattr(seen, "write_atomic", read_only)
    path = game / "home" / "games" / f"{json.loads((game / 'v1.json').read_text())['genesis']['game_id']}.json"
    warning = f"Warning: cannot record this version in {path}: Permission denied"
    shown = pbem("show", "v1.json")
    assert shown.exit_code == 0 and shown.output.splitlines()[0] == warning
    checked = pbem("verify", "v1.json")
    assert checked.exit_code == 0 and checked.output.splitlines()[1] == warning
    played = pbem("play", "v1.json", "--as", "ann", "3")
    assert (played.exit_code, played.output) == (1, f"Error: Permission denied: {path}\n")
