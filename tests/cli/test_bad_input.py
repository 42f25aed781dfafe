"""Bad input to the commands: each gets one `Error: ...` line and a non-zero exit."""

import base64
import shutil
import subprocess

import pytest
from typer.testing import CliRunner

from pbem.cli import app
from pbem.record.canonical import canonical
from pbem.record.models import payload, to_json

from pbem_support import identity, played_game

runner = CliRunner()


@pytest.fixture
def game(tmp_path, monkeypatch):
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("PBEM_PASSPHRASE", raising=False)
    monkeypatch.chdir(tmp_path)
    for name in ("ann", "ben"):
        runner.invoke(app, ["key", "new", name, "--no-passphrase"])
    runner.invoke(app, ["new", "sarcophagus", "-o", "g.json", "--as", "ann", "--player", "ann", "--player", "ben"])
    return tmp_path


def one_error(args, starts):
    result = runner.invoke(app, args)
    assert result.exit_code == 1, result.output
    assert result.output.startswith("Error: " + starts) and result.output.count("\n") == 1, result.output
    return result.output


def test_truncated_key_file(game):
    key = game / "home" / "keys" / "ann"
    key.write_bytes(key.read_bytes()[:150])
    one_error(["play", "g.json", "--as", "ann", "0"], "key ann is not a readable OpenSSH private key")


def test_key_file_readable_by_others(game):
    key = game / "home" / "keys" / "ann"
    key.chmod(0o644)
    one_error(["play", "g.json", "--as", "ann", "0"], f"key file {key} is readable by others: run 'chmod 600 {key}'")


@pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="ssh-keygen is not installed")
def test_key_of_another_type(game):
    rsa = game / "rsa"
    subprocess.run(["ssh-keygen", "-q", "-t", "rsa", "-b", "1024", "-N", "", "-f", str(rsa)], check=True)
    one_error(["play", "g.json", "--as", "ann", "--key", str(rsa), "0"], "key rsa is not an ed25519 key")
    one_error(["new", "sarcophagus", "-o", "h.json", "--as", "ann", "--player", "ann", "--player",
               f"ben={rsa}.pub"], "--player ben: ssh-rsa keys are not supported: pbem uses ssh-ed25519 keys only")


def test_bad_new_arguments(game):
    one_error(["new", "chess", "-o", "h.json", "--as", "ann", "--player", "ann", "--player", "ben"],
              "unknown game 'chess' (known: path-of-pharaohs, sarcophagus)")
    one_error(["new", "sarcophagus", "-o", "h.json", "--as", "ann", "--player", "ann", "--player", "ben",
               "--option", "two_player=triple"], "option two_player is one of pooled, seats, not 'triple'")
    one_error(["new", "sarcophagus", "-o", "h.json", "--as", "ann", "--player", "ann", "--player", "ben",
               "--option", "speed"], "option 'speed': write KEY=VALUE")
    one_error(["new", "sarcophagus", "-o", "g.json", "--as", "ann", "--player", "ann", "--player", "ben"],
              "g.json already exists (use --force to replace it)")
    one_error(["new", "sarcophagus", "-o", "h.json", "--as", "ben", "--player", "ann", "--player", "cat"],
              "--as ben: you must be one of the players or the referee")
    one_error(["new", "sarcophagus", "-o", "h.json", "--as", "ann", "--player", "ann"],
              "Sarcophagus is for 2 to 4 players, not 1")  # said before any key is read
    (game / "layout.json").write_text('{"pyramid": {"1a": "sun-3"}, "sarcophagus": {}}')
    one_error(["new", "sarcophagus", "-o", "h.json", "--as", "ann", "--player", "ann", "--player", "ben",
               "--layout", "layout.json"], "layout layout.json: no tile given for 2a (give all 21 pyramid tiles")


def test_a_signed_genesis_of_an_unknown_game(tmp_path):
    rep = played_game("table", finish=False)
    body = {**payload(rep.genesis), "game": "chess"}
    signature = base64.b64encode(identity(rep.genesis.author).sign(canonical(body))).decode()
    data = to_json(rep.record).replace('"game": "sarcophagus"', '"game": "chess"')
    data = data.replace(rep.genesis.signature, signature)
    (tmp_path / "chess.json").write_text(data)
    result = runner.invoke(app, ["verify", str(tmp_path / "chess.json")])
    assert result.output == (f"Error: {tmp_path / 'chess.json'}: the genesis by ann: unknown game 'chess' "
                             "(known: path-of-pharaohs, sarcophagus)\n")


def test_invalid_notation_and_a_huge_file(game, monkeypatch):
    one_error(["play", "g.json", "--as", "ben", "place four"], "'place four' is not a move")
    from pbem.record import canonical as canon

    monkeypatch.setattr(canon, "MAX_BYTES", 1000)
    one_error(["verify", "g.json"], "g.json: file is ")
