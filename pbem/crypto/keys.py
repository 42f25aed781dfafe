"""Keys: an ssh-ed25519 public key, and an identity (an OpenSSH private key, passphrase-protected by
the bcrypt KDF as ssh-keygen does) that signs and opens sealed values."""

from __future__ import annotations

import base64
import binascii
import hashlib
import struct

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.frozen import Frozen
from pbem.crypto.ed25519 import BadPoint, check_public_key
from pbem.crypto.sshsig import SIGNATURE_NAMESPACE, sshsig_signed_data
from pbem.crypto.wire import KEY_TYPE, Wire, raw_public, sha256, ssh_string
from pbem.errors import KeyProblem, NoPassphrase, WrongPassphrase

MAX_KDF_ROUNDS = 1024
"""bcrypt rounds a passphrase-protected key may ask for: each costs tens of milliseconds, and the count is the
file's own (a damaged or hostile file asking 2**32 would run for ever)."""
_OPENSSH_PEM = ("-----BEGIN OPENSSH PRIVATE KEY-----", "-----END OPENSSH PRIVATE KEY-----")


def _kdf_rounds(data: bytes) -> int | None:
    """The bcrypt rounds an OpenSSH private key file asks for, or None (no KDF, or not readable: the
    loader says what is wrong)."""
    text = data.decode("ascii", errors="replace")
    start = text.find(_OPENSSH_PEM[0])
    end = text.find(_OPENSSH_PEM[1], start + 1) if start >= 0 else -1
    try:
        wire = Wire(base64.b64decode("".join(text[start + len(_OPENSSH_PEM[0]):end].split()), validate=True))
        if end < 0 or wire.take(15) != b"openssh-key-v1\0":
            return None
        wire.ssh_string()  # the cipher
        if wire.ssh_string() != b"bcrypt":
            return None
        options = Wire(wire.ssh_string())
        options.ssh_string()  # the salt
        return options.uint32()
    except (ValueError, binascii.Error):
        return None


class PublicKey(Frozen):
    """An ssh-ed25519 public key."""

    raw: bytes
    comment: str = ""

    @classmethod
    def parse(cls, line: str) -> PublicKey:
        """From an OpenSSH public key line: `ssh-ed25519 AAAA... comment`. Refuses other key types and
        any 32 bytes that are not a sound Ed25519 key (see pbem/crypto/ed25519.py)."""
        parts = line.strip().split(None, 2)
        if len(parts) >= 2 and parts[0] != "ssh-ed25519" and (parts[0].startswith(("ssh-", "ecdsa-", "sk-"))):
            raise KeyProblem(f"{parts[0]} keys are not supported: pbem uses ssh-ed25519 keys only "
                             "(make one with 'pbem key new NAME' or 'ssh-keygen -t ed25519')")
        if len(parts) < 2 or parts[0] != "ssh-ed25519":
            raise KeyProblem("not an ssh-ed25519 public key line (expected 'ssh-ed25519 AAAA...')")
        try:
            wire = Wire(base64.b64decode(parts[1], validate=True))
            kind, raw = wire.ssh_string(), wire.ssh_string()
            wire.end()
        except (ValueError, binascii.Error):
            raise KeyProblem("the ssh-ed25519 public key is not valid base64 key data") from None
        if kind != KEY_TYPE or len(raw) != 32:
            raise KeyProblem("the ssh-ed25519 public key data is malformed")
        try:
            check_public_key(raw)
        except BadPoint as exc:
            raise KeyProblem(f"the ssh-ed25519 public key is {exc}: it cannot be anyone's key") from None
        return cls(raw, parts[2] if len(parts) > 2 else "")

    @property
    def wire(self) -> bytes:
        return ssh_string(KEY_TYPE) + ssh_string(self.raw)

    def line(self) -> str:
        text = "ssh-ed25519 " + base64.b64encode(self.wire).decode()
        return f"{text} {self.comment}" if self.comment else text

    def fingerprint(self) -> str:
        """As `ssh-keygen -l` prints it."""
        return "SHA256:" + base64.b64encode(sha256(self.wire)).decode().rstrip("=")

    def same_key(self, other: PublicKey) -> bool:
        return self.raw == other.raw


class Identity:
    """An ssh-ed25519 private key: signs entries and opens what was sealed to it."""

    def __init__(self, key: Ed25519PrivateKey, comment: str = ""):
        self._key = key
        raw = raw_public(key)
        self.public = PublicKey(raw, comment)

    @classmethod
    def generate(cls, comment: str = "") -> Identity:
        return cls(Ed25519PrivateKey.generate(), comment)

    @classmethod
    def from_seed(cls, seed: bytes, comment: str = "") -> Identity:
        return cls(Ed25519PrivateKey.from_private_bytes(seed), comment)

    @classmethod
    def from_openssh(cls, data: bytes, passphrase: bytes | None, name: str = "the key",
                     comment: str = "") -> Identity:
        """Load an OpenSSH private key file's bytes; names the problem if it cannot."""
        rounds = _kdf_rounds(data)
        if passphrase is not None and rounds is not None and rounds > MAX_KDF_ROUNDS:
            raise KeyProblem(f"{name} asks for {rounds} rounds of its passphrase's KDF, over the {MAX_KDF_ROUNDS} pbem "
                             "allows (ssh-keygen makes 16; -a sets more)")
        from cryptography.hazmat.primitives import serialization  # on first use: verifying needs none of it

        try:
            key = serialization.load_ssh_private_key(data, passphrase)
        except TypeError:
            if passphrase is None:
                raise NoPassphrase(f"{name} is protected by a passphrase") from None  # pbem.keys asks for it
            raise KeyProblem(f"{name} is not protected by a passphrase, but one was given") from None
        except ValueError as exc:
            if passphrase is not None and "checksum" in str(exc).lower():
                raise WrongPassphrase(f"wrong passphrase for {name}") from None
            raise KeyProblem(f"{name} is not a readable OpenSSH private key") from None
        except Exception:  # noqa: BLE001 (cryptography raises several types for corrupt key files)
            raise KeyProblem(f"{name} is not a readable OpenSSH private key") from None
        if not isinstance(key, Ed25519PrivateKey):
            raise KeyProblem(f"{name} is not an ed25519 key (pbem uses ssh-ed25519 keys only)")
        return cls(key, comment)

    def to_openssh(self, passphrase: bytes | None) -> bytes:
        from cryptography.hazmat.primitives import serialization as ser

        encryption = ser.BestAvailableEncryption(passphrase) if passphrase else ser.NoEncryption()
        return self._key.private_bytes(ser.Encoding.PEM, ser.PrivateFormat.OpenSSH, encryption)

    @property
    def seed(self) -> bytes:
        from cryptography.hazmat.primitives import serialization as ser

        return self._key.private_bytes(ser.Encoding.Raw, ser.PrivateFormat.Raw, ser.NoEncryption())

    def sign(self, message: bytes, namespace: str = SIGNATURE_NAMESPACE) -> bytes:
        """An SSHSIG signature blob (binary; `armor_signature` for ssh-keygen's text form)."""
        signed = sshsig_signed_data(namespace, message)
        signature = ssh_string(KEY_TYPE) + ssh_string(self._key.sign(signed))
        return (b"SSHSIG" + struct.pack(">I", 1) + ssh_string(self.public.wire) + ssh_string(namespace.encode())
                + ssh_string(b"") + ssh_string(b"sha512") + ssh_string(signature))

    def x25519_scalar(self) -> bytes:
        """The X25519 private scalar age derives from an ed25519 key (before clamping)."""
        return hashlib.sha512(self.seed).digest()[:32]

