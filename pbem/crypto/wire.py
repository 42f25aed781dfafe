"""The SSH wire format (strings, a reader), hashes and randomness, and `cryptography` imported once,
when first needed (the CLI's start-up stays fast)."""

from __future__ import annotations

import functools
import hashlib
import os
import struct
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

if TYPE_CHECKING:
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import x25519
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF


class _Lazy(NamedTuple):
    """What `crypto_library` loads: HKDF-SHA256, ChaCha20-Poly1305 and X25519 from raw bytes. (cryptography's
    serialization is imported, plainly, in the few functions that write or read a key's bytes.)"""

    HKDF: type[HKDF]
    SHA256: type[hashes.SHA256]
    ChaCha20Poly1305: type[ChaCha20Poly1305]
    x25519_private: Callable[[bytes], x25519.X25519PrivateKey]
    x25519_public: Callable[[bytes], x25519.X25519PublicKey]


@functools.cache
def crypto_library() -> _Lazy:
    """cryptography's X25519, AEAD and HKDF modules, loaded on first use: verifying a game needs none of
    them, and every command starts faster without them."""
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import x25519
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF

    return _Lazy(HKDF=HKDF, SHA256=hashes.SHA256, ChaCha20Poly1305=ChaCha20Poly1305,
                 x25519_private=x25519.X25519PrivateKey.from_private_bytes,
                 x25519_public=x25519.X25519PublicKey.from_public_bytes)


KEY_TYPE = b"ssh-ed25519"


def raw_public(private_key: Ed25519PrivateKey | x25519.X25519PrivateKey) -> bytes:
    """The 32 raw bytes of an Ed25519 or X25519 private key's public half."""
    from cryptography.hazmat.primitives import serialization as ser  # on first use: verifying needs none of it

    return private_key.public_key().public_bytes(ser.Encoding.Raw, ser.PublicFormat.Raw)


def ssh_string(data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + data


class Wire:
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

    def ssh_string(self) -> bytes:
        return self.take(self.uint32())

    def end(self) -> None:
        if self.at != len(self.data):
            raise ValueError("trailing bytes")


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def random_bytes(n: int) -> bytes:
    return os.urandom(n)

