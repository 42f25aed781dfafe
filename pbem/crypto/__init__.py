"""The crypto layer: every cryptographic operation of pbem, and the only package that imports
`cryptography`. Formats are the standard ones, so stock tools can check our work:
- identities are OpenSSH ed25519 keys (passphrase: the bcrypt KDF, as ssh-keygen does): keys.py;
- signatures are SSHSIG (what `ssh-keygen -Y sign` makes and `-Y verify` checks): sshsig.py;
- sealed blobs are age v1 with `ssh-ed25519` and `X25519` recipient stanzas (`age -d -i KEY`): age.py;
- the keyring: the key directory, passphrases, importing an existing key: keyring.py.

May import: pbem.errors and pbem.record (files). Nothing above it.
The names below are the layer's surface; the rest is private to its modules.
"""

from pbem.crypto.age import (
    X25519Identity,
    X25519Recipient,
    addressed_exactly,
    addressed_to,
    ed25519_to_x25519_public,
    recipient_count,
    recipients,
    seal,
    unseal,
)
from pbem.crypto.keys import Identity, PublicKey
from pbem.crypto.sshsig import SIGNATURE_NAMESPACE, SignatureInvalid, armor_signature, unarmor_signature, verify_signature
from pbem.crypto.wire import random_bytes, sha256

__all__ = [
    "SIGNATURE_NAMESPACE", "Identity", "PublicKey", "SignatureInvalid", "X25519Identity", "X25519Recipient",
    "addressed_exactly", "addressed_to", "armor_signature", "ed25519_to_x25519_public", "random_bytes",
    "recipient_count", "recipients", "seal", "sha256", "unarmor_signature", "unseal", "verify_signature",
]
