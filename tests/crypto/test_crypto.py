"""The crypto module against published vectors and stock tools (ssh-keygen, pyrage)."""

import os
import shutil
import subprocess

import pytest

from pbem import crypto
from pbem.crypto import Identity, PublicKey, X25519Identity, seal, unseal
from pbem.errors import KeyProblem, NoPassphrase, NotForYou, SealError, WrongPassphrase

needs_ssh_keygen = pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="ssh-keygen is not installed")

RFC8032_SEED = bytes.fromhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")


def test_rfc8032_test_1_public_key():
    assert Identity.from_seed(RFC8032_SEED).public.raw.hex() == \
        "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"


@pytest.mark.parametrize("seed,x25519_public,x25519_secret", [
    # libsodium test/default/ed25519_convert
    ("421151a459faeade3d247115f94aedae42318124095afabe4d1451a559faedee",
     "f1814f0e8ff1043d8a44d25babff3cedcae6c22c3edaa48f857ae70de2baae50",
     "8052030376d47112be7f73ed7a019293dd12ad910b654455798b4667d73de166"),
    (RFC8032_SEED.hex(), "d85e07ec22b0ad881537c2f44d662d1a143cf830c57aca4305d85c7a90f6b62e", None),
])
def test_ed25519_to_x25519_conversion_vectors(seed, x25519_public, x25519_secret):
    me = Identity.from_seed(bytes.fromhex(seed))
    assert crypto.ed25519_to_x25519_public(me.public.raw).hex() == x25519_public
    if x25519_secret:
        scalar = bytearray(me.x25519_scalar())
        scalar[0] &= 248
        scalar[31] = (scalar[31] & 127) | 64
        assert bytes(scalar).hex() == x25519_secret
        assert X25519Identity(bytes(scalar)).recipient.public.hex() == x25519_public


def test_public_key_line_round_trip_and_fingerprint():
    me = Identity.from_seed(RFC8032_SEED, comment="me")
    line = me.public.line()
    assert line.startswith("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI") and line.endswith(" me")
    assert PublicKey.parse(line) == me.public
    assert me.public.fingerprint().startswith("SHA256:")
    for bad in ["ssh-rsa AAAA", "ssh-ed25519 !!!", "ssh-ed25519 AAAAB3NzaC1yc2EAAAADAQABAAABAQ", ""]:
        with pytest.raises(KeyProblem):
            PublicKey.parse(bad)


def test_sshsig_round_trip_and_namespace():
    me = Identity.generate()
    blob = me.sign(b"payload")
    crypto.verify_signature(me.public, b"payload", blob)
    with pytest.raises(crypto.SignatureInvalid, match="namespace is 'pbem', not 'other'"):
        crypto.verify_signature(me.public, b"payload", blob, namespace="other")
    with pytest.raises(crypto.SignatureInvalid, match="does not match"):
        crypto.verify_signature(me.public, b"payload!", blob)
    with pytest.raises(crypto.SignatureInvalid, match="different key"):
        crypto.verify_signature(Identity.generate().public, b"payload", blob)
    assert crypto.unarmor_signature(crypto.armor_signature(blob)) == blob


def _write_key(tmp_path, identity, passphrase=None, name="me"):
    path = tmp_path / name
    path.write_bytes(identity.to_openssh(passphrase))
    path.chmod(0o600)
    (tmp_path / f"{name}.pub").write_text(identity.public.line() + "\n")
    return path


@needs_ssh_keygen
def test_ssh_keygen_accepts_our_signature_and_we_accept_its(tmp_path):
    me = Identity.generate(comment="me")
    message = tmp_path / "entry.json"
    message.write_bytes(b'{"seq":1}')
    (tmp_path / "entry.json.sig").write_text(crypto.armor_signature(me.sign(message.read_bytes())))
    (tmp_path / "allowed").write_text(f"me@pbem {me.public.line()}\n")
    ok = subprocess.run(["ssh-keygen", "-Y", "verify", "-f", str(tmp_path / "allowed"), "-I", "me@pbem", "-n", "pbem",
                         "-s", str(tmp_path / "entry.json.sig")], stdin=message.open("rb"), capture_output=True,
                        text=True)
    assert ok.returncode == 0, ok.stderr
    assert 'Good "pbem" signature for me@pbem' in ok.stdout
    wrong = subprocess.run(["ssh-keygen", "-Y", "verify", "-f", str(tmp_path / "allowed"), "-I", "me@pbem", "-n",
                            "git", "-s", str(tmp_path / "entry.json.sig")], stdin=message.open("rb"),
                           capture_output=True)
    assert wrong.returncode != 0
    key = _write_key(tmp_path, me)
    (tmp_path / "entry.json.sig").unlink()
    subprocess.run(["ssh-keygen", "-Y", "sign", "-f", str(key), "-n", "pbem", str(message)], check=True,
                   capture_output=True)
    theirs = crypto.unarmor_signature((tmp_path / "entry.json.sig").read_text())
    crypto.verify_signature(me.public, message.read_bytes(), theirs)


@needs_ssh_keygen
@pytest.mark.slow
def test_openssh_key_files_interoperate_with_ssh_keygen(tmp_path):
    me = Identity.generate()
    key = _write_key(tmp_path, me, b"s3cret")
    out = subprocess.run(["ssh-keygen", "-y", "-P", "s3cret", "-f", str(key)], capture_output=True, text=True)
    assert out.stdout.split()[:2] == me.public.line().split()[:2]
    made = tmp_path / "made"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "pw", "-C", "x", "-f", str(made)], check=True)
    loaded = Identity.from_openssh(made.read_bytes(), b"pw")
    assert loaded.public.line().split()[:2] == (tmp_path / "made.pub").read_text().split()[:2]
    with pytest.raises(WrongPassphrase):
        Identity.from_openssh(made.read_bytes(), b"nope")
    with pytest.raises(NoPassphrase):
        Identity.from_openssh(made.read_bytes(), None)
    rsa = tmp_path / "rsa"
    subprocess.run(["ssh-keygen", "-q", "-t", "rsa", "-b", "1024", "-N", "", "-f", str(rsa)], check=True)
    with pytest.raises(KeyProblem, match="not an ed25519 key"):
        Identity.from_openssh(rsa.read_bytes(), None)
    with pytest.raises(KeyProblem, match="not a readable OpenSSH private key"):
        Identity.from_openssh(made.read_bytes()[:200], b"pw")


def test_age_round_trips_and_refusals():
    me, other = Identity.generate(), Identity.generate()
    table = X25519Identity.generate()
    big = os.urandom(150_000)  # three STREAM chunks
    blob = seal(big, [me.public, table.recipient])
    assert unseal(blob, me) == big
    assert unseal(blob, table) == big
    with pytest.raises(NotForYou):
        unseal(blob, other)
    for at in (30, len(blob) // 2, len(blob) - 1):
        tampered = bytearray(blob)
        tampered[at] ^= 1
        with pytest.raises(SealError):
            unseal(bytes(tampered), me)
    with pytest.raises(SealError):
        unseal(blob[:-10], me)
    assert unseal(seal(b"", [me.public]), me) == b""


def test_a_blob_opened_once_opens_from_memory_for_that_private_key_and_no_other_byte(monkeypatch):
    """The memo of opened blobs (age.unseal): the same bytes and the same private key (the key read again
    included) give what they gave without opening again; another key, or any byte changed, is opened (and
    refused) as if nothing were kept; at most OPENED_KEPT are kept, and no blob over OPENED_SIZE bytes."""
    from pbem.crypto import age

    opened, really = [], age._open
    monkeypatch.setattr(age, "_open", lambda blob, who: opened.append(blob) or really(blob, who))
    me, other, table = Identity.generate(), Identity.generate(), X25519Identity.generate()
    blob = seal(b'{"value": 3}', [me.public, table.recipient])
    assert [unseal(blob, me), unseal(blob, Identity.from_seed(me.seed)), unseal(blob, table)] == [b'{"value": 3}'] * 3
    assert opened == [blob, blob]  # once with the ed25519 key, once with the table key
    for _ in range(2):
        with pytest.raises(NotForYou):
            unseal(blob, other)
    for at in range(len(blob)):
        tampered = bytearray(blob)
        tampered[at] ^= 1
        with pytest.raises(SealError):
            unseal(bytes(tampered), me)
    assert len(opened) == 4 + len(blob)
    monkeypatch.setattr(age, "OPENED_KEPT", 3)
    small = [seal(b"%d" % n, [me.public]) for n in range(5)]
    large = seal(os.urandom(age.OPENED_SIZE), [me.public])
    assert [unseal(b, me) for b in [*small, large, large]][-1] == unseal(large, me)
    assert len(age._opened) == 3 and all(b in small for _, b in age._opened)
    assert opened[-8:] == [*small, large, large, large]


def test_age_interoperates_with_rage_both_ways():
    pyrage = pytest.importorskip("pyrage", reason="pyrage (rage's Python binding) is a test-only dependency")
    me = Identity.generate(comment="me")
    ours = seal(b"coin #3 = 4", [me.public])
    theirs_identity = pyrage.ssh.Identity.from_buffer(me.to_openssh(None))
    assert pyrage.decrypt(ours, [theirs_identity]) == b"coin #3 = 4"
    big = os.urandom(100_000)
    assert pyrage.decrypt(seal(big, [me.public]), [theirs_identity]) == big
    theirs = pyrage.encrypt(b"from rage", [pyrage.ssh.Recipient.from_str(me.public.line())])
    assert unseal(theirs, me) == b"from rage"
    x = pyrage.x25519.Identity.generate()
    from_rage_x = pyrage.encrypt(b"table secret", [x.to_public()])
    # our X25519 identity needs the raw scalar: decode rage's Bech32 secret
    assert unseal(from_rage_x, X25519Identity(_bech32_data(str(x)))) == b"table secret"
    ours_x = seal(b"to rage", [crypto.X25519Recipient(_bech32_data(str(x.to_public())))])
    assert pyrage.decrypt(ours_x, [x]) == b"to rage"


def _bech32_data(text: str) -> bytes:
    """Bech32 payload bytes (test helper: age writes X25519 keys in Bech32)."""
    charset = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
    data = text.lower().rsplit("1", 1)[1][:-6]
    bits = acc = 0
    out = bytearray()
    for ch in data:
        acc = (acc << 5) | charset.index(ch)
        bits += 5
        if bits >= 8:
            bits -= 8
            out.append((acc >> bits) & 0xFF)
    return bytes(out)
