"""Signatures in the SSHSIG format: what `ssh-keygen -Y sign` makes and `ssh-keygen -Y verify` checks."""

from __future__ import annotations

import base64
import hashlib
from typing import Protocol

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from pbem.crypto.wire import KEY_TYPE, Wire, ssh_string

SIGNATURE_NAMESPACE = "pbem"


class SignerKey(Protocol):
    """What checking a signature needs of a public key (keys.PublicKey is one; keys.py signs with this
    module, so this module names no class of it)."""

    @property
    def raw(self) -> bytes: ...

    @property
    def wire(self) -> bytes: ...


def sshsig_signed_data(namespace: str, message: bytes) -> bytes:
    return (b"SSHSIG" + ssh_string(namespace.encode()) + ssh_string(b"") + ssh_string(b"sha512")
            + ssh_string(hashlib.sha512(message).digest()))


class SignatureInvalid(Exception):
    """Raised by verify_signature; the caller turns it into a domain error with context."""


def verify_signature(public: SignerKey, message: bytes, blob: bytes, namespace: str = SIGNATURE_NAMESPACE) -> None:
    """Check an SSHSIG blob over `message` by `public` in `namespace`; raises SignatureInvalid."""
    try:
        wire = Wire(blob)
        if wire.take(6) != b"SSHSIG" or wire.uint32() != 1:
            raise SignatureInvalid("not an SSHSIG v1 signature")
        signer = wire.ssh_string()
        ns, _reserved, hash_alg, signature = wire.ssh_string(), wire.ssh_string(), wire.ssh_string(), wire.ssh_string()
        wire.end()
        inner = Wire(signature)
        kind, raw = inner.ssh_string(), inner.ssh_string()
        inner.end()
    except ValueError:
        raise SignatureInvalid("malformed SSHSIG signature") from None
    if signer != public.wire:
        raise SignatureInvalid("signed by a different key")
    if ns != namespace.encode():
        raise SignatureInvalid(f"signature namespace is {ns.decode(errors='replace')!r}, not {namespace!r}")
    if hash_alg not in (b"sha512", b"sha256") or kind != KEY_TYPE or len(raw) != 64:
        raise SignatureInvalid("unsupported signature type")
    digest = hashlib.new(hash_alg.decode(), message).digest()
    signed = b"SSHSIG" + ssh_string(ns) + ssh_string(_reserved) + ssh_string(hash_alg) + ssh_string(digest)
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

