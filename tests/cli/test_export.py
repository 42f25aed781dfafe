"""`pbem export`: an entry's signature checks with the stock ssh-keygen, and its sealed blob opens with
rage (and age where installed), running the very commands pbem prints."""

import hashlib
import json
import shutil
import subprocess

import pytest

from pbem.crypto import PublicKey, sha256
from pbem.protocol.commitments import commit
from pbem.record.canonical import canonical
from pbem.record.models import from_json, payload

from cli_support import pbem
from engine_support import layout_with

needs_ssh_keygen = pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="ssh-keygen is not installed")


@pytest.fixture
def game(tmp_path, monkeypatch):
    """ann and ben, two turns played: entry 8 is ann's second coin (#3 = 2 on 2a); entry 1 is ben's join."""
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("PBEM_PASSPHRASE", raising=False)
    monkeypatch.chdir(tmp_path)
    for name in ("ann", "ben"):
        assert pbem("key", "new", name, "--no-passphrase").exit_code == 0
    (tmp_path / "layout.json").write_text(json.dumps({**layout_with({"1a": "sun-3", "2a": "moon-4"}).to_names(),
                                                      "first": "ben"}))
    assert pbem("new", "sarcophagus", "-o", "g.json", "--as", "ann", "--player", "ann", "--player", "ben",
                "--layout", "layout.json").exit_code == 0
    assert pbem("play", "g.json", "--as", "ben", "3", "2@2a").exit_code == 0
    assert pbem("play", "g.json", "--as", "ann", "3", "2@2a").exit_code == 0
    return tmp_path


def run_printed(command: str, cwd):
    return subprocess.run(command, shell=True, cwd=cwd, capture_output=True, text=True)


@needs_ssh_keygen
def test_an_entry_and_its_sealed_coin_checked_by_stock_tools(game):
    exported = pbem("export", "g.json", "out", "--entry", "8")
    key = game / "home" / "keys" / "ann"
    assert (exported.exit_code, exported.output) == (0, (
        "out/entry-8.json, out/entry-8.json.sig, out/allowed_signers: to check the signature by ann, run\n"
        "  ssh-keygen -Y verify -f out/allowed_signers -I ann -n pbem -s out/entry-8.json.sig < out/entry-8.json\n"
        "out/entry-8-coin-3.age: the opening of ann's 2nd coin, sealed to ann; to open it, run\n"
        f"  age -d -i {key} out/entry-8-coin-3.age\n"))
    check, open_coin = exported.output.splitlines()[1].strip(), exported.output.splitlines()[3].strip()
    good = run_printed(check, game)
    assert good.returncode == 0, good.stderr
    assert good.stdout.startswith('Good "pbem" signature for ann with ED25519 key SHA256:')
    signed = (game / "out" / "entry-8.json").read_bytes()
    (game / "out" / "entry-8.json").write_bytes(signed.replace(b'"@2a"', b'"@2b"'))
    assert run_printed(check, game).returncode != 0  # one changed byte, and the stock tool refuses it
    # the opening inside the blob is the coin's value and salt, and matches the commitment on record
    pyrage = pytest.importorskip("pyrage", reason="pyrage (rage's Python binding) is a test-only dependency")
    opened = json.loads(pyrage.decrypt((game / "out" / "entry-8-coin-3.age").read_bytes(),
                                       [pyrage.ssh.Identity.from_buffer(key.read_bytes())]))
    record = from_json((game / "g.json").read_bytes())
    entry, ann = record.entries[7], PublicKey.parse(record.genesis.players[0].key)
    assert opened["value"] == 2 and opened["key"] == "#3" and opened["game"] == sha256(canonical(payload(record.genesis))).hex()
    genesis_hash = sha256(canonical(payload(record.genesis))).hex()  # a coin is bound to the genesis and its owner
    assert commit(genesis_hash, ann.raw.hex(), "#3", opened["value"], opened["salt"]) == entry.commitments["#3"]
    # the chain, as docs/security.md checks it: prev is the SHA-256 of the entry before's exported bytes
    assert pbem("export", "g.json", "out", "--entry", "7").exit_code == 0
    assert hashlib.sha256((game / "out" / "entry-7.json").read_bytes()).hexdigest() == entry.prev
    if shutil.which("age"):
        by_age = run_printed(open_coin, game)
        assert by_age.returncode == 0 and json.loads(by_age.stdout) == opened, by_age.stderr


@needs_ssh_keygen
def test_the_genesis_and_the_table_key(game):
    exported = pbem("export", "g.json", "out", "--entry", "0")
    assert exported.exit_code == 0
    lines = exported.output.splitlines()
    assert lines[0] == "out/genesis.json, out/genesis.json.sig, out/allowed_signers: to check the signature by ann, run"
    assert run_printed(lines[1].strip(), game).returncode == 0
    assert lines[2] == ("out/genesis-dealer.age: the dealer's secret (a joint deal's seed, or a chosen deal's tiles "
                        "and salts), sealed to the table key (its secret is in genesis-table_key.age; age takes it "
                        "only as an AGE-SECRET-KEY line, so this one has no one-line command)")
    assert lines[3] == "out/genesis-table_key.age: the table key's secret, sealed to ann, ben; to open it, run"
    pyrage = pytest.importorskip("pyrage", reason="pyrage (rage's Python binding) is a test-only dependency")
    ben = pyrage.ssh.Identity.from_buffer((game / "home" / "keys" / "ben").read_bytes())
    assert len(json.loads(pyrage.decrypt((game / "out" / "genesis-table_key.age").read_bytes(), [ben]))["table_key"]) \
        == 64
    assert (game / "out" / "allowed_signers").read_text().splitlines()[1] == \
        'ben namespaces="pbem" ' + json.loads((game / "g.json").read_text())["genesis"]["players"][1]["key"]


def test_the_last_entry_by_default_and_a_missing_one(game):
    assert pbem("export", "g.json", "out").output.startswith("out/entry-8.json, ")
    missing = pbem("export", "g.json", "out", "--entry", "9")
    assert (missing.exit_code, missing.output) == (1, "Error: --entry 9: this game has entries 0 (the genesis) to 8\n")


def test_a_hidden_item_is_named_by_whom_it_went_to_never_by_a_number(game, tmp_path):
    """Issue 25: "the opening of card #5" reads as a 5. A Path of Pharaohs card is named by the deal or the theft
    that sealed it; a coin by its owner's count (above); a record that does not replay, by its order."""
    from paths_support import EXAMPLES

    example = EXAMPLES / "pharaohs-table-4-players.json"
    dealt = pbem("export", example, "deal", "--entry", "14").output.splitlines()
    assert dealt[2] == "deal/entry-14-card-0.age: the opening of a card dealt to dan, sealed to dan; to open it, run"
    stolen = pbem("export", example, "theft", "--entry", "39").output.splitlines()
    assert stolen[2] == ("theft/entry-39-card-13.age: the opening of a card ann took from ben, sealed to ann; to open "
                         "it, run")
    record = json.loads((game / "g.json").read_text())
    record["entries"][2]["signature"] = record["entries"][2]["signature"][::-1]  # entry 3 no longer replays
    (game / "bad.json").write_text(json.dumps(record))
    unreplayed = pbem("export", "bad.json", "bad", "--entry", "8").output.splitlines()
    assert unreplayed[2] == "bad/entry-8-coin-3.age: the opening of the 4th coin placed, sealed to ann; to open it, run"
