"""No input may produce a traceback: every parser answers with a value or a domain error."""

import json
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from engine.contract import RuleError
from pbem.cli import app
from pbem.crypto import Identity, PublicKey, unseal
from pbem.errors import PbemError
from pbem.protocol.verify import verify
from pbem.record.gamefile import BEGIN, END, dearmor
from pbem.record.models import from_json

from tampering import EXAMPLES

EXAMPLE = json.loads((EXAMPLES / "table-3-players.json").read_bytes())
ME = Identity.from_seed(b"\x07" * 32)


def must_not_crash(call, *args):
    try:
        call(*args)
    except (PbemError, RuleError):
        pass


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**60, 2**60) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=400))
def test_game_file_reader_on_random_bytes(data):
    must_not_crash(from_json, data)
    must_not_crash(dearmor, BEGIN.encode() + b"\n" + data + b"\n" + END.encode())


@settings(max_examples=300)
@given(json_values)
@pytest.mark.slow
def test_game_file_reader_on_random_json(value):
    must_not_crash(from_json, json.dumps(value).encode())
    must_not_crash(from_json, json.dumps({"genesis": {"format": "pbem/3", "x": value}, "entries": value}).encode())


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["genesis", "entry"]), st.text(max_size=8), json_values)
@pytest.mark.slow
def test_game_file_reader_on_a_real_game_with_one_field_replaced(where, key, value):
    data = json.loads(json.dumps(EXAMPLE))
    target = data["genesis"] if where == "genesis" else data["entries"][3]
    target[key or "author"] = value
    must_not_crash(lambda raw: verify(from_json(raw)), json.dumps(data).encode())


@settings(max_examples=300)
@given(st.text(max_size=120))
@pytest.mark.slow
def test_public_key_lines(text):
    must_not_crash(PublicKey.parse, text)
    must_not_crash(PublicKey.parse, "ssh-ed25519 " + text)


@settings(max_examples=300)
@given(st.binary(max_size=300))
@pytest.mark.slow
def test_sealed_blobs_and_key_files(data):
    must_not_crash(unseal, data, ME)
    must_not_crash(unseal, b"age-encryption.org/v1\n" + data, ME)
    must_not_crash(Identity.from_openssh, data, None)
    must_not_crash(Identity.from_openssh, b"-----BEGIN OPENSSH PRIVATE KEY-----\n" + data, b"pw")


@pytest.mark.slow
def test_the_command_line_on_garbage_files_never_shows_a_traceback(tmp_path):
    cases = [b"", b"\x00" * 50, b"[" * 100000, b'{"genesis": ' * 50, json.dumps({"genesis": {"format": "pbem/3"},
             "entries": []}).encode(), b"9" * 5000, (BEGIN + "\n!!!\n" + END).encode()]
    env = {"PBEM_HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}
    runner = CliRunner()
    for i, data in enumerate(cases):
        path = tmp_path / f"case{i}.json"
        path.write_bytes(data)
        # a real process for verify (what a user sees on stderr); show and log read the file the same way,
        # in this process (an escaping exception would be result.exception, not the SystemExit of an error)
        done = subprocess.run([sys.executable, "-m", "pbem.cli", "verify", str(path)], capture_output=True, text=True,
                              env=env, check=False)
        assert done.returncode == 1, (data[:40], done.stderr)
        assert done.stderr.startswith("Error: ") and done.stderr.count("\n") == 1, done.stderr
        assert "Traceback" not in done.stderr + done.stdout
        for command in ("show", "log"):
            shown = runner.invoke(app, [command, str(path)], env=env)
            assert (shown.exit_code, type(shown.exception)) == (1, SystemExit), (data[:40], shown.exception)
            assert shown.output.startswith("Error: ") and shown.output.count("\n") == 1, shown.output
