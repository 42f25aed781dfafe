"""Every cryptographic operation of pbem, and the only module that imports `cryptography`.

Formats are the standard ones so stock tools can check our work:
- identities are OpenSSH ed25519 keys (passphrase: the bcrypt KDF, as ssh-keygen does);
- signatures are SSHSIG (what `ssh-keygen -Y sign` makes and `-Y verify` checks);
- sealed blobs are age v1 with `ssh-ed25519` and `X25519` recipient stanzas (`age -d -i KEY`).
"""

from __future__ import annotations

import base64
import binascii
import functools
import hashlib
import hmac
import os
import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, NamedTuple

from cryptography.exceptions import InvalidSignature, InvalidTag
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from .ed25519 import BadPoint, check_public_key
from .errors import KeyProblem, NoPassphrase, NotForYou, SealError, WrongPassphrase

if TYPE_CHECKING:
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import x25519
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF

SIGNATURE_NAMESPACE = "pbem"


class _Lazy(NamedTuple):
    """What `_lazy` loads: serialization, HKDF-SHA256, ChaCha20-Poly1305 and X25519 from raw bytes."""

    serialization: ModuleType
    HKDF: type[HKDF]
    SHA256: type[hashes.SHA256]
    ChaCha20Poly1305: type[ChaCha20Poly1305]
    x25519_private: Callable[[bytes], x25519.X25519PrivateKey]
    x25519_public: Callable[[bytes], x25519.X25519PublicKey]


@functools.cache
def _lazy() -> _Lazy:
    """cryptography's serialization, X25519, AEAD and HKDF modules, loaded on first use: verifying a
    game needs none of them, and every command starts faster without them."""
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import x25519
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF

    return _Lazy(serialization=serialization, HKDF=HKDF, SHA256=hashes.SHA256, ChaCha20Poly1305=ChaCha20Poly1305,
                 x25519_private=x25519.X25519PrivateKey.from_private_bytes,
                 x25519_public=x25519.X25519PublicKey.from_public_bytes)
_KEY_TYPE = b"ssh-ed25519"


def _raw_public(private_key: Ed25519PrivateKey | x25519.X25519PrivateKey) -> bytes:
    """The 32 raw bytes of an Ed25519 or X25519 private key's public half."""
    ser = _lazy().serialization
    return private_key.public_key().public_bytes(ser.Encoding.Raw, ser.PublicFormat.Raw)


# ---------------------------------------------------------------- SSH wire format

def _string(data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + data


class _Wire:
    """Reads SSH wire-format fields; any shortfall is a ValueError."""

    def __init__(self, data: bytes):
        self.data, self.at = data, 0

    def take(self, n: int) -> bytes:
        if self.at + n > len(self.data):
            raise ValueError("truncated")
        out = self.data[self.at:self.at + n]
        self.at += n
        return out

    def uint32(self) -> int:
        return int.from_bytes(self.take(4), "big")

    def string(self) -> bytes:
        return self.take(self.uint32())

    def end(self) -> None:
        if self.at != len(self.data):
            raise ValueError("trailing bytes")


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def random_bytes(n: int) -> bytes:
    return os.urandom(n)


# ---------------------------------------------------------------- keys

@dataclass(frozen=True)
class PublicKey:
    """An ssh-ed25519 public key."""

    raw: bytes
    comment: str = ""

    @classmethod
    def parse(cls, line: str) -> PublicKey:
        """From an OpenSSH public key line: `ssh-ed25519 AAAA... comment`. Refuses other key types and
        any 32 bytes that are not a sound Ed25519 key (see pbem/ed25519.py)."""
        parts = line.strip().split(None, 2)
        if len(parts) >= 2 and parts[0] != "ssh-ed25519" and (parts[0].startswith(("ssh-", "ecdsa-", "sk-"))):
            raise KeyProblem(f"{parts[0]} keys are not supported: pbem uses ssh-ed25519 keys only "
                             "(make one with 'pbem key new NAME' or 'ssh-keygen -t ed25519')")
        if len(parts) < 2 or parts[0] != "ssh-ed25519":
            raise KeyProblem("not an ssh-ed25519 public key line (expected 'ssh-ed25519 AAAA...')")
        try:
            wire = _Wire(base64.b64decode(parts[1], validate=True))
            kind, raw = wire.string(), wire.string()
            wire.end()
        except (ValueError, binascii.Error):
            raise KeyProblem("the ssh-ed25519 public key is not valid base64 key data") from None
        if kind != _KEY_TYPE or len(raw) != 32:
            raise KeyProblem("the ssh-ed25519 public key data is malformed")
        try:
            check_public_key(raw)
        except BadPoint as exc:
            raise KeyProblem(f"the ssh-ed25519 public key is {exc}: it cannot be anyone's key") from None
        return cls(raw, parts[2] if len(parts) > 2 else "")

    @property
    def wire(self) -> bytes:
        return _string(_KEY_TYPE) + _string(self.raw)

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
        raw = _raw_public(key)
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
        try:
            key = _lazy().serialization.load_ssh_private_key(data, passphrase)
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
        ser = _lazy().serialization
        encryption = ser.BestAvailableEncryption(passphrase) if passphrase else ser.NoEncryption()
        return self._key.private_bytes(ser.Encoding.PEM, ser.PrivateFormat.OpenSSH, encryption)

    @property
    def seed(self) -> bytes:
        ser = _lazy().serialization
        return self._key.private_bytes(ser.Encoding.Raw, ser.PrivateFormat.Raw, ser.NoEncryption())

    def sign(self, message: bytes, namespace: str = SIGNATURE_NAMESPACE) -> bytes:
        """An SSHSIG signature blob (binary; `armor_signature` for ssh-keygen's text form)."""
        signed = _sshsig_signed_data(namespace, message)
        signature = _string(_KEY_TYPE) + _string(self._key.sign(signed))
        return (b"SSHSIG" + struct.pack(">I", 1) + _string(self.public.wire) + _string(namespace.encode())
                + _string(b"") + _string(b"sha512") + _string(signature))

    def x25519_scalar(self) -> bytes:
        """The X25519 private scalar age derives from an ed25519 key (before clamping)."""
        return hashlib.sha512(self.seed).digest()[:32]


# ---------------------------------------------------------------- SSHSIG

def _sshsig_signed_data(namespace: str, message: bytes) -> bytes:
    return (b"SSHSIG" + _string(namespace.encode()) + _string(b"") + _string(b"sha512")
            + _string(hashlib.sha512(message).digest()))


class SignatureInvalid(Exception):
    """Raised by verify_signature; the caller turns it into a domain error with context."""


def verify_signature(public: PublicKey, message: bytes, blob: bytes, namespace: str = SIGNATURE_NAMESPACE) -> None:
    """Check an SSHSIG blob over `message` by `public` in `namespace`; raises SignatureInvalid."""
    try:
        wire = _Wire(blob)
        if wire.take(6) != b"SSHSIG" or wire.uint32() != 1:
            raise SignatureInvalid("not an SSHSIG v1 signature")
        signer = wire.string()
        ns, _reserved, hash_alg, signature = wire.string(), wire.string(), wire.string(), wire.string()
        wire.end()
        inner = _Wire(signature)
        kind, raw = inner.string(), inner.string()
        inner.end()
    except ValueError:
        raise SignatureInvalid("malformed SSHSIG signature") from None
    if signer != public.wire:
        raise SignatureInvalid("signed by a different key")
    if ns != namespace.encode():
        raise SignatureInvalid(f"signature namespace is {ns.decode(errors='replace')!r}, not {namespace!r}")
    if hash_alg not in (b"sha512", b"sha256") or kind != _KEY_TYPE or len(raw) != 64:
        raise SignatureInvalid("unsupported signature type")
    digest = hashlib.new(hash_alg.decode(), message).digest()
    signed = b"SSHSIG" + _string(ns) + _string(_reserved) + _string(hash_alg) + _string(digest)
    try:
        Ed25519PublicKey.from_public_bytes(public.raw).verify(raw, signed)
    except InvalidSignature:
        raise SignatureInvalid("signature does not match") from None


def armor_signature(blob: bytes) -> str:
    """The `-----BEGIN SSH SIGNATURE-----` text that ssh-keygen reads and writes."""
    body = base64.b64encode(blob).decode()
    lines = [body[i:i + 70] for i in range(0, len(body), 70)]
    return "-----BEGIN SSH SIGNATURE-----\n" + "\n".join(lines) + "\n-----END SSH SIGNATURE-----\n"


def unarmor_signature(text: str) -> bytes:
    lines = [line.strip() for line in text.strip().splitlines()]
    if not lines or lines[0] != "-----BEGIN SSH SIGNATURE-----" or lines[-1] != "-----END SSH SIGNATURE-----":
        raise ValueError("not an armored SSH signature")
    return base64.b64decode("".join(lines[1:-1]), validate=True)


# ---------------------------------------------------------------- age v1

_AGE_INTRO = b"age-encryption.org/v1\n"
_SSH_LABEL = b"age-encryption.org/v1/ssh-ed25519"
_X25519_LABEL = b"age-encryption.org/v1/X25519"
_CHUNK = 64 * 1024
_P = 2**255 - 19


def _hkdf(ikm: bytes, salt: bytes, info: bytes, length: int = 32) -> bytes:
    return _lazy().HKDF(_lazy().SHA256(), length, salt or None, info).derive(ikm)


def _x25519(scalar: bytes, point: bytes) -> bytes:
    lazy = _lazy()
    try:
        return lazy.x25519_private(scalar).exchange(lazy.x25519_public(point))
    except ValueError:
        raise SealError("sealed blob: degenerate key share") from None


def _b64(data: bytes) -> bytes:
    return base64.b64encode(data).rstrip(b"=")


def _unb64(text: bytes) -> bytes:
    """age's base64: standard alphabet, no padding, canonical."""
    if b"=" in text or b"\r" in text:
        raise SealError("sealed blob: bad base64")
    try:
        data = base64.b64decode(text + b"=" * (-len(text) % 4), validate=True)
    except binascii.Error:
        raise SealError("sealed blob: bad base64") from None
    if _b64(data) != text:
        raise SealError("sealed blob: non-canonical base64")
    return data


def ed25519_to_x25519_public(raw: bytes) -> bytes:
    """The Montgomery u-coordinate of an Edwards point: u = (1 + y) / (1 - y) (RFC 7748)."""
    y = int.from_bytes(raw, "little") & ((1 << 255) - 1)
    if y >= _P or y == 1:
        raise KeyProblem("the ed25519 public key cannot be used for encryption")
    u = (1 + y) * pow(1 - y, _P - 2, _P) % _P
    return u.to_bytes(32, "little")


@dataclass(frozen=True)
class X25519Recipient:
    """A native age X25519 recipient: the table key of a table-mode game."""

    public: bytes


class X25519Identity:
    """A native age X25519 identity (32 random bytes)."""

    def __init__(self, secret: bytes):
        if len(secret) != 32:
            raise SealError("an X25519 secret is 32 bytes")
        self.secret = secret
        self.recipient = X25519Recipient(_raw_public(_lazy().x25519_private(secret)))

    @classmethod
    def generate(cls) -> X25519Identity:
        return cls(os.urandom(32))


def _ssh_tag(public: PublicKey) -> bytes:
    return _b64(sha256(public.wire)[:4])


def addressed_to(blob: bytes, public: PublicKey) -> bool:
    """Whether an age file's header has an ssh-ed25519 stanza for this key (its tag). Anyone can check
    this; only the key's holder can tell whether the stanza really opens."""
    stanzas = _parse_header(blob)[0]
    return any(len(args) == 3 and args[0] == b"ssh-ed25519" and args[1] == _ssh_tag(public) for args, _ in stanzas)


def recipient_count(blob: bytes) -> int:
    """How many recipient stanzas an age file's header has."""
    return len(_parse_header(blob)[0])


def _ssh_tweak(public: PublicKey) -> bytes:
    return _hkdf(b"", public.wire, _SSH_LABEL)


def _wrap(file_key: bytes, recipient: PublicKey | X25519Recipient) -> bytes:
    ephemeral = os.urandom(32)
    share = _raw_public(_lazy().x25519_private(ephemeral))
    if isinstance(recipient, PublicKey):
        their = ed25519_to_x25519_public(recipient.raw)
        secret = _x25519(_ssh_tweak(recipient), _x25519(ephemeral, their))
        label, args = _SSH_LABEL, [b"ssh-ed25519", _ssh_tag(recipient), _b64(share)]
    else:
        their = recipient.public
        secret = _x25519(ephemeral, their)
        label, args = _X25519_LABEL, [b"X25519", _b64(share)]
    key = _hkdf(secret, share + their, label)
    body = _lazy().ChaCha20Poly1305(key).encrypt(b"\x00" * 12, file_key, None)
    return b"-> " + b" ".join(args) + b"\n" + _wrap_lines(_b64(body))


def _wrap_lines(text: bytes) -> bytes:
    lines = [text[i:i + 64] for i in range(0, len(text), 64)]
    if not lines or len(lines[-1]) == 64:
        lines.append(b"")
    return b"\n".join(lines) + b"\n"


def seal(plaintext: bytes, recipients: Sequence[PublicKey | X25519Recipient]) -> bytes:
    """An age v1 file of `plaintext` for PublicKey (ssh-ed25519) and X25519Recipient recipients."""
    if not recipients:
        raise SealError("nobody to seal to")
    file_key = os.urandom(16)
    header = _AGE_INTRO + b"".join(_wrap(file_key, r) for r in recipients) + b"---"
    mac = hmac.new(_hkdf(file_key, b"", b"header"), header, "sha256").digest()
    nonce = os.urandom(16)
    payload_key = _lazy().ChaCha20Poly1305(_hkdf(file_key, nonce, b"payload"))
    chunks = [plaintext[i:i + _CHUNK] for i in range(0, len(plaintext), _CHUNK)] or [b""]
    body = b"".join(payload_key.encrypt(i.to_bytes(11, "big") + (b"\x01" if i == len(chunks) - 1 else b"\x00"),
                                        chunk, None) for i, chunk in enumerate(chunks))
    return header + b" " + _b64(mac) + b"\n" + nonce + body


def _parse_header(blob: bytes) -> tuple[list[tuple[list[bytes], bytes]], bytes, bytes, bytes]:
    """(stanzas as (args, body)), the MACed header bytes, the MAC, the payload."""
    if not blob.startswith(_AGE_INTRO):
        raise SealError("sealed blob: not an age v1 file")
    at = len(_AGE_INTRO)
    stanzas: list[tuple[list[bytes], bytes]] = []
    while True:
        end = blob.find(b"\n", at)
        if end < 0:
            raise SealError("sealed blob: truncated header")
        line = blob[at:end]
        if line.startswith(b"--- "):
            mac = _unb64(line[4:])
            return stanzas, blob[:at + 3], mac, blob[end + 1:]
        if not line.startswith(b"-> "):
            raise SealError("sealed blob: malformed header")
        args = line[3:].split(b" ")
        if not all(args):
            raise SealError("sealed blob: malformed stanza")
        at = end + 1
        body = b""
        while True:
            end = blob.find(b"\n", at)
            if end < 0:
                raise SealError("sealed blob: truncated stanza")
            line = blob[at:end]
            at = end + 1
            if len(line) > 64:
                raise SealError("sealed blob: stanza line too long")
            body += line
            if len(line) < 64:
                break
        stanzas.append((args, _unb64(body)))


def _unwrap(args: list[bytes], body: bytes, identity: Identity | X25519Identity) -> bytes | None:
    if isinstance(identity, Identity):
        if len(args) != 3 or args[0] != b"ssh-ed25519" or args[1] != _ssh_tag(identity.public):
            return None
        share = _unb64(args[2])
        ours = ed25519_to_x25519_public(identity.public.raw)
        secret = _x25519(_ssh_tweak(identity.public), _x25519(identity.x25519_scalar(), share))
        label = _SSH_LABEL
    else:
        if len(args) != 2 or args[0] != b"X25519":
            return None
        share = _unb64(args[1])
        ours = identity.recipient.public
        secret = _x25519(identity.secret, share)
        label = _X25519_LABEL
    if len(share) != 32 or len(body) != 32:
        raise SealError("sealed blob: malformed stanza")
    try:
        return _lazy().ChaCha20Poly1305(_hkdf(secret, share + ours, label)).decrypt(b"\x00" * 12, body, None)
    except InvalidTag:
        return None


def recipients(blob: bytes, keys: dict[str, PublicKey]) -> list[str]:
    """Who an age file says it is sealed to: the names whose key tag an ssh-ed25519 stanza carries (a
    4-byte hint, not a proof), and "the table key" for an X25519 stanza."""
    names = []
    for args, _ in _parse_header(blob)[0]:
        if args[0] == b"X25519":
            names.append("the table key")
        elif args[0] == b"ssh-ed25519" and len(args) == 3:
            names += [name for name, key in keys.items() if _ssh_tag(key) == args[1]] or ["an unknown key"]
    return names


def unseal(blob: bytes, identity: Identity | X25519Identity) -> bytes:
    """Open an age v1 file with an Identity (ssh-ed25519) or an X25519Identity."""
    stanzas, header, mac, payload = _parse_header(blob)
    file_key = None
    for args, body in stanzas:
        file_key = _unwrap(args, body, identity)
        if file_key is not None:
            break
    if file_key is None:
        raise NotForYou("this sealed blob is not for your key")
    expected = hmac.new(_hkdf(file_key, b"", b"header"), header, "sha256").digest()
    if not hmac.compare_digest(mac, expected):
        raise SealError("sealed blob: header MAC does not match (tampered)")
    if len(payload) < 16 + 16:
        raise SealError("sealed blob: truncated payload")
    nonce, payload = payload[:16], payload[16:]
    cipher = _lazy().ChaCha20Poly1305(_hkdf(file_key, nonce, b"payload"))
    out, counter = [], 0
    while True:
        chunk, payload = payload[:_CHUNK + 16], payload[_CHUNK + 16:]
        last = not payload
        try:
            out.append(cipher.decrypt(counter.to_bytes(11, "big") + (b"\x01" if last else b"\x00"), chunk, None))
        except InvalidTag:
            raise SealError("sealed blob: payload does not decrypt (tampered or truncated)") from None
        if last:
            if not out[-1] and counter:
                raise SealError("sealed blob: empty last chunk")
            return b"".join(out)
        counter += 1
