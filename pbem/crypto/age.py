"""Sealing in the age v1 format, with `ssh-ed25519` and `X25519` recipient stanzas, so that
`age -d -i KEY` opens a player's own sealed values."""

from __future__ import annotations

import base64
import binascii
import functools
import hmac
import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cryptography.exceptions import InvalidTag

from engine.frozen import Frozen
from pbem.crypto.keys import Identity, PublicKey
from pbem.crypto.wire import crypto_library, raw_public, sha256
from pbem.errors import KeyProblem, NotForYou, SealError

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

_AGE_INTRO = b"age-encryption.org/v1\n"


_SSH_LABEL = b"age-encryption.org/v1/ssh-ed25519"


_X25519_LABEL = b"age-encryption.org/v1/X25519"


_CHUNK = 64 * 1024


_P = 2**255 - 19


def _hkdf(ikm: bytes, salt: bytes, info: bytes, length: int = 32) -> bytes:
    return crypto_library().HKDF(crypto_library().SHA256(), length, salt or None, info).derive(ikm)


def _x25519(scalar: bytes, point: bytes) -> bytes:
    return _exchange(crypto_library().x25519_private(scalar), point)


@functools.lru_cache(maxsize=64)
def _opener_private(scalar: bytes) -> X25519PrivateKey:
    """The X25519 private key of an opener's own fixed scalar (its key's, or its ssh tweak), made once: making
    one costs as much as the exchange it is for, and a command opens a blob for every card in a hand."""
    return crypto_library().x25519_private(scalar)


def _exchange(private: X25519PrivateKey, point: bytes) -> bytes:
    try:
        return private.exchange(crypto_library().x25519_public(point))
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


@functools.lru_cache(maxsize=64)
def ed25519_to_x25519_public(raw: bytes) -> bytes:
    """The Montgomery u-coordinate of an Edwards point: u = (1 + y) / (1 - y) (RFC 7748). Remembered for the
    few keys of a game: the inverse costs 0.1 ms in Python, and opening each sealed value asked it again."""
    y = int.from_bytes(raw, "little") & ((1 << 255) - 1)
    if y >= _P or y == 1:
        raise KeyProblem("the ed25519 public key cannot be used for encryption")
    u = (1 + y) * pow(1 - y, _P - 2, _P) % _P
    return u.to_bytes(32, "little")


class X25519Recipient(Frozen):
    """A native age X25519 recipient: the table key of a table-mode game."""

    public: bytes


class X25519Identity:
    """A native age X25519 identity (32 random bytes)."""

    def __init__(self, secret: bytes):
        if len(secret) != 32:
            raise SealError("an X25519 secret is 32 bytes")
        self.secret = secret
        self.recipient = X25519Recipient(raw_public(crypto_library().x25519_private(secret)))

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


def addressed_exactly(blob: bytes, keys: Sequence[PublicKey], native: int = 0) -> bool:
    """Whether an age file's header has an ssh-ed25519 stanza for each of these keys (its tag) and
    `native` stanzas besides, no more: addressed_to for each key and recipient_count, the header read once."""
    stanzas = _parse_header(blob)[0]
    tags = {args[1] for args, _ in stanzas if len(args) == 3 and args[0] == b"ssh-ed25519"}
    return len(stanzas) == len(keys) + native and all(_ssh_tag(key) in tags for key in keys)


def recipient_count(blob: bytes) -> int:
    """How many recipient stanzas an age file's header has."""
    return len(_parse_header(blob)[0])


def _ssh_tweak(public: PublicKey) -> bytes:
    return _hkdf(b"", public.wire, _SSH_LABEL)


def _wrap(file_key: bytes, recipient: PublicKey | X25519Recipient) -> bytes:
    ephemeral = os.urandom(32)
    share = raw_public(crypto_library().x25519_private(ephemeral))
    if isinstance(recipient, PublicKey):
        their = ed25519_to_x25519_public(recipient.raw)
        secret = _x25519(_ssh_tweak(recipient), _x25519(ephemeral, their))
        label, args = _SSH_LABEL, [b"ssh-ed25519", _ssh_tag(recipient), _b64(share)]
    else:
        their = recipient.public
        secret = _x25519(ephemeral, their)
        label, args = _X25519_LABEL, [b"X25519", _b64(share)]
    key = _hkdf(secret, share + their, label)
    body = crypto_library().ChaCha20Poly1305(key).encrypt(b"\x00" * 12, file_key, None)
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
    payload_key = crypto_library().ChaCha20Poly1305(_hkdf(file_key, nonce, b"payload"))
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
        secret = _exchange(_opener_private(_ssh_tweak(identity.public)),
                           _exchange(_opener_private(identity.x25519_scalar()), share))
        label = _SSH_LABEL
    else:
        if len(args) != 2 or args[0] != b"X25519":
            return None
        share = _unb64(args[1])
        ours = identity.recipient.public
        secret = _exchange(_opener_private(identity.secret), share)
        label = _X25519_LABEL
    if len(share) != 32 or len(body) != 32:
        raise SealError("sealed blob: malformed stanza")
    try:
        return crypto_library().ChaCha20Poly1305(_hkdf(secret, share + ours, label)).decrypt(b"\x00" * 12, body, None)
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


OPENED_KEPT = 4096
"""Blobs opened at most kept in `_opened`, the least recently used dropped first."""

OPENED_SIZE = 4096
"""Only a blob this small or smaller is kept (a sealed value, a seed, a table key: some hundreds of bytes), so
what is kept stays under 17 MB of blobs whatever a sender seals."""

_opened: OrderedDict[tuple[bytes, bytes], bytes] = OrderedDict()
_opened_lock = threading.Lock()  # the app serves requests on threads


def unseal(blob: bytes, identity: Identity | X25519Identity) -> bytes:
    """Open an age v1 file with an Identity (ssh-ed25519) or an X25519Identity.

    What opening gives is a function of the blob's exact bytes and the opener's private key alone, so a
    blob opened once is not opened again (X25519 twice, HKDF, ChaCha20-Poly1305 and the header's MAC: some
    80 microseconds): a process that reads a game again after every turn (the judge, the app, the library,
    a bot) opened every sealed value in its hand again each time. Kept in memory only, by the blob and the
    opener's private scalar; a blob that does not open is not kept, and any other byte is another blob."""
    scalar = identity.x25519_scalar() if isinstance(identity, Identity) else b"X25519" + identity.secret
    memo = (scalar, blob)
    with _opened_lock:
        opened = _opened.get(memo)
        if opened is not None:
            _opened.move_to_end(memo)
            return opened
    opened = _open(blob, identity)
    if len(blob) <= OPENED_SIZE:
        with _opened_lock:
            _opened[memo] = opened
            while len(_opened) > OPENED_KEPT:
                _opened.popitem(last=False)
    return opened


def _open(blob: bytes, identity: Identity | X25519Identity) -> bytes:
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
    cipher = crypto_library().ChaCha20Poly1305(_hkdf(file_key, nonce, b"payload"))
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

