"""Private keys, passphrases and unopened coin values never show up where they should not."""

import base64
import json
import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from pbem.cli import app
from pbem.crypto import Identity

pytestmark = pytest.mark.slow

runner = CliRunner()
PASSPHRASE = "tr0ub4dor&3-sekrit"


def test_no_secret_in_output_errors_or_the_game_file(tmp_path, monkeypatch):
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("PBEM_PASSPHRASE", PASSPHRASE)
    monkeypatch.chdir(tmp_path)
    outputs = []

    def run(*args):
        result = runner.invoke(app, list(args))
        outputs.append(result.output)
        return result

    for name in ("ann", "ben"):
        assert run("key", "new", name).exit_code == 0
    assert run("new", "sarcophagus", "-o", "g.json", "--as", "ann", "--player", "ann", "--player", "ben").exit_code == 0
    for _ in range(6):
        duty = json.loads(runner.invoke(app, ["show", "g.json", "--json"]).output)["duties"][0]
        run("play", "g.json", "--as", "ann" if duty["who"] == "dealer" else duty["who"], "--bot", "greedy")
    run("play", "g.json", "--as", "ann", "9@9z")
    monkeypatch.setenv("PBEM_PASSPHRASE", "wrong " + PASSPHRASE)
    assert run("play", "g.json", "--as", "ann", "0").output == "Error: wrong passphrase for key ann\n"
    monkeypatch.setenv("PBEM_PASSPHRASE", PASSPHRASE)
    outputs.append(runner.invoke(app, ["show", "g.json"]).output)
    game_text = (tmp_path / "g.json").read_text()
    secrets = [PASSPHRASE]
    for name in ("ann", "ben"):
        identity = Identity.from_openssh((tmp_path / "home" / "keys" / name).read_bytes(), PASSPHRASE.encode())
        secrets += [identity.seed.hex(), base64.b64encode(identity.seed).decode()[:20],
                    (tmp_path / "home" / "keys" / name).read_text().splitlines()[1][:40]]
    for secret in secrets:
        for text in outputs + [game_text]:
            assert secret not in text
    # unopened coin values: the public view and the file hold none; the sealed openings are ciphertext
    public = json.loads(runner.invoke(app, ["show", "g.json", "--json"]).output)
    coins = [c for spot in public["pyramid"].values() for c in spot["coins"]]
    opened = {int(pair.split("=")[0][1:]) for entry in json.loads(game_text)["entries"]
              if entry["action"].startswith("open") for pair in entry["action"].split()[1:]}
    assert coins and all(c["value"] is None or c["slot"] in opened for c in coins)
    assert '"value"' not in game_text and "salt" not in game_text


def test_a_crash_prints_no_local_values(tmp_path):
    """typer's pretty tracebacks are off: on a bug they would print every frame's locals, a passphrase
    among them. A bug is planted where `pbem key list` reads the keys, with a passphrase in a local."""
    assert app.pretty_exceptions_enable is False
    planted = ("import pbem.cli, pbem.api\n"
               "def list_keys():\n"
               f"    passphrase = {PASSPHRASE!r}\n"
               "    raise RuntimeError('a bug')\n"
               "pbem.api.list_keys = list_keys\n"
               "pbem.cli.main()\n")
    crashed = subprocess.run([sys.executable, "-c", planted, "key", "list"], capture_output=True, text=True,
                             env={**os.environ, "PBEM_HOME": str(tmp_path)}, timeout=60, check=False)
    assert crashed.returncode == 1
    assert crashed.stderr.strip().endswith("RuntimeError: a bug")
    assert PASSPHRASE not in crashed.stderr + crashed.stdout
