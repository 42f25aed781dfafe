"""Which public keys pbem accepts: published vectors parse; small-order, non-canonical and off-curve points,
other key types and one key in two seats are refused, and the small-order forgery is played and caught."""

import base64
import json
import random
import struct

import pytest
from typer.testing import CliRunner

from engine.sarcophagus.driver import deal
from engine.sarcophagus.hidden import layout_tiles
from pbem import crypto
from pbem.cli import app
from pbem.crypto import PublicKey, ed25519
from pbem.errors import BadGenesis, KeyProblem
from pbem.protocol import remembered
from pbem.protocol.genesis import new_game
from pbem.protocol.session import Session
from pbem.protocol.verify import verify
from pbem.record.models import from_json, to_json

from pbem_support import identity

runner = CliRunner()

RFC8032_PUBLIC_KEYS = [  # RFC 8032 section 7.1: TEST 1, 2, 3, 1024, SHA(abc)
    "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
    "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
    "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
    "278117fc144c72340f67d0f2316e8386ceffbf2b2428c9c51fef7c597f1d426e",
    "ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf",
]
# The 8 points of small order, canonically encoded (as in libsodium's blocklist and "Taming the many EdDSAs")
SMALL_ORDER = [
    "0100000000000000000000000000000000000000000000000000000000000000",  # the identity
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # order 2
    "0000000000000000000000000000000000000000000000000000000000000000",  # order 4
    "0000000000000000000000000000000000000000000000000000000000000080",
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",  # order 8
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
]
# Non-canonical encodings of small-order points: x = 0 with the sign bit set, or y >= p
NON_CANONICAL = {
    "0100000000000000000000000000000000000000000000000000000000000080": "x is 0 but its sign bit is set",
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff": "x is 0 but its sign bit is set",
    "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f": "y is not below 2^255 - 19",
    "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f": "y is not below 2^255 - 19",
    "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff": "y is not below 2^255 - 19",
}


def key_line(raw: bytes) -> str:
    wire = struct.pack(">I", 11) + b"ssh-ed25519" + struct.pack(">I", len(raw)) + raw
    return "ssh-ed25519 " + base64.b64encode(wire).decode()


def refusal(raw: bytes) -> str:
    with pytest.raises(KeyProblem) as caught:
        PublicKey.parse(key_line(raw))
    return str(caught.value)


@pytest.mark.parametrize("hex_key", RFC8032_PUBLIC_KEYS)
def test_published_keys_parse(hex_key):
    assert PublicKey.parse(key_line(bytes.fromhex(hex_key))).raw.hex() == hex_key


def test_generated_keys_parse():
    for n in range(1, 30):
        me = crypto.Identity.from_seed(bytes([n]) * 32, comment="me")
        assert PublicKey.parse(me.public.line()) == me.public


def test_every_small_order_point_is_refused():
    # the list is exactly the subgroup of order 8: the multiples of one point of order 8
    generator = ed25519.decode(bytes.fromhex(SMALL_ORDER[4]))
    point, multiples = ed25519._IDENTITY, set()
    for _ in range(8):
        z = pow(point[2], ed25519.P - 2, ed25519.P)
        x, y = point[0] * z % ed25519.P, point[1] * z % ed25519.P
        multiples.add((y | (x & 1) << 255).to_bytes(32, "little").hex())
        point = ed25519._add(point, (*generator, 1, generator[0] * generator[1] % ed25519.P))
    assert multiples == set(SMALL_ORDER)
    for hex_key in SMALL_ORDER:
        assert refusal(bytes.fromhex(hex_key)) == ("the ssh-ed25519 public key is a small-order point (one of the 8 "
                                                   "that accept forged signatures): it cannot be anyone's key")


@pytest.mark.parametrize("hex_key,why", NON_CANONICAL.items())
def test_non_canonical_encodings_are_refused(hex_key, why):
    assert refusal(bytes.fromhex(hex_key)) == f"the ssh-ed25519 public key is not canonically encoded ({why}): " \
                                              "it cannot be anyone's key"


def test_a_valid_key_plus_a_small_order_point_is_refused():
    good = ed25519.decode(bytes.fromhex(RFC8032_PUBLIC_KEYS[0]))
    torsion = ed25519.decode(bytes.fromhex(SMALL_ORDER[4]))
    x, y, z, _ = ed25519._add((*good, 1, good[0] * good[1] % ed25519.P),
                              (*torsion, 1, torsion[0] * torsion[1] % ed25519.P))
    inverse = pow(z, ed25519.P - 2, ed25519.P)
    x, y = x * inverse % ed25519.P, y * inverse % ed25519.P
    assert "has a small-order component" in refusal((y | (x & 1) << 255).to_bytes(32, "little"))


def test_a_key_with_any_small_order_component_is_refused_as_the_group_order_says():
    """The prime-order test (X25519's multiplication by a scalar that is -1 modulo L) decides as [L]P = identity
    does, multiplied out here: for keys plus each of the 8 small-order points."""
    generator = ed25519.decode(bytes.fromhex(SMALL_ORDER[4]))
    torsion = [ed25519._IDENTITY]
    for _ in range(7):
        torsion.append(ed25519._add(torsion[-1], (*generator, 1, generator[0] * generator[1] % ed25519.P)))
    for n in range(1, 6):
        good = ed25519.decode(crypto.Identity.from_seed(bytes([n]) * 32, comment="me").public.raw)
        for component in torsion:
            x, y, z, _ = ed25519._add((*good, 1, good[0] * good[1] % ed25519.P), component)
            inverse = pow(z, ed25519.P - 2, ed25519.P)
            x, y = x * inverse % ed25519.P, y * inverse % ed25519.P
            in_group = ed25519._is_identity(ed25519._multiply(ed25519.L, (x, y, 1, x * y % ed25519.P)))
            assert in_group == (component == ed25519._IDENTITY)
            assert ed25519._in_prime_order_group(y) == in_group


def test_points_off_the_curve_and_other_key_types_are_refused():
    off_curve = next(y for y in range(2, 100) if not _on_curve(y))
    assert refusal(off_curve.to_bytes(32, "little")) == \
        "the ssh-ed25519 public key is not a point on the Ed25519 curve: it cannot be anyone's key"
    with pytest.raises(KeyProblem, match=r"^ssh-rsa keys are not supported: pbem uses ssh-ed25519 keys only"):
        PublicKey.parse("ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ rsa@host")
    with pytest.raises(KeyProblem, match=r"^ecdsa-sha2-nistp256 keys are not supported"):
        PublicKey.parse("ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTY=")
    with pytest.raises(KeyProblem, match="data is malformed"):
        PublicKey.parse(key_line(bytes(31)))


def _on_curve(y: int) -> bool:
    try:
        ed25519.decode(y.to_bytes(32, "little"))
        return True
    except ed25519.BadPoint:
        return False


# ---------------------------------------------------------------- the attack, played

IDENTITY_POINT = bytes.fromhex(SMALL_ORDER[0])


class Forger:
    """Signs 'as' the identity point without any private key: R = identity, S = 0 (OpenSSL accepts it)."""

    def __init__(self):
        self.public = PublicKey(IDENTITY_POINT, "mallory")

    def sign(self, message: bytes, namespace: str = "pbem") -> bytes:
        def string(data: bytes) -> bytes:
            return struct.pack(">I", len(data)) + data
        signature = string(b"ssh-ed25519") + string(IDENTITY_POINT + bytes(32))
        return (b"SSHSIG" + struct.pack(">I", 1) + string(self.public.wire) + string(namespace.encode())
                + string(b"") + string(b"sha512") + string(signature))


def forged_game(monkeypatch) -> bytes:
    """A referee-mode game with mallory's seat on the identity point, and a placement 'signed' by it,
    built while the key check is switched off (as pbem was before it had one)."""
    with monkeypatch.context() as patched:
        patched.setattr(crypto.keys, "check_public_key", lambda raw: None)
        ref = identity("ref")
        forger = Forger()
        rep = new_game("sarcophagus", {}, [("mallory", forger.public), ("ann", identity("ann").public)], "ref", ref,
                       ("ref", ref.public), layout_tiles(deal(random.Random(1))), "mallory")
        Session(rep, "mallory", forger).join()  # a join "signed" by the identity point
        data = to_json(rep.record).encode()
        assert verify(from_json(data)).entries[-1].author == "mallory"  # without the check, the forged entry passes
    remembered.forget()  # what a program without the check verified says nothing about pbem's own program
    return data


def test_a_small_order_key_and_its_forged_entries_are_refused(monkeypatch, tmp_path):
    data = forged_game(monkeypatch)
    with pytest.raises(BadGenesis, match=r"^the genesis by ref: mallory's key: the ssh-ed25519 public key is a "
                                         r"small-order point"):
        verify(from_json(data))
    (tmp_path / "forged.json").write_bytes(data)
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    checked = runner.invoke(app, ["verify", str(tmp_path / "forged.json")])
    assert checked.exit_code == 1
    assert f"{tmp_path / 'forged.json'}: the genesis by ref: mallory's key: the ssh-ed25519 public key is a " \
           "small-order point" in checked.output
    mallory = json.loads(data)["genesis"]["players"][0]["key"]
    created = runner.invoke(app, ["new", "sarcophagus", "-o", str(tmp_path / "new.json"), "--as", "ref",
                                  "--referee", f"ref={identity('ref').public.line()}",
                                  "--player", f"mallory={mallory}", "--player", f"ann={identity('ann').public.line()}"])
    assert (created.exit_code, created.output) == (1, "Error: --player mallory: the ssh-ed25519 public key is a "
                                                   "small-order point (one of the 8 that accept forged signatures): "
                                                   "it cannot be anyone's key\n")
    assert not (tmp_path / "new.json").exists()


def test_one_key_in_two_seats_is_refused_at_creation(tmp_path, monkeypatch):
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    assert runner.invoke(app, ["key", "new", "ann", "--no-passphrase"]).exit_code == 0
    twice = runner.invoke(app, ["new", "sarcophagus", "-o", "g.json", "--as", "ann", "--player", "ann",
                                "--player", "ben=ann"])
    assert (twice.exit_code, twice.output) == (1, "Error: ann and ben are given the same key: each participant "
                                               "needs a key of their own\n")
    as_referee = runner.invoke(app, ["new", "sarcophagus", "-o", "g.json", "--as", "ann", "--player", "ann",
                                     "--player", f"ben={identity('ben').public.line()}", "--referee", "ref=ann"])
    assert as_referee.output == "Error: ann and ref are given the same key: each participant needs a key of their own\n"
    assert not (tmp_path / "g.json").exists()
