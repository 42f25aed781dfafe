"""Which 32-byte strings are acceptable Ed25519 public keys, decided in Python (RFC 8032 5.1.3).

OpenSSL checks a signature as [S]B == R + [k]A without asking what A is. For a small-order A (one of
the 8 torsion points) the signature R = identity, S = 0 passes for any message, so a roster key of that
kind lets anyone sign "as" its seat. pbem takes a key only if it is the canonical encoding of a point
on the curve, in the prime-order subgroup (which rules out the torsion points and every point with a
torsion component); every key `ssh-keygen` or pbem generates is one. The one long multiplication this
takes, by the group's order, is left to OpenSSL's X25519 (in Python: some 13 M instructions a key)."""

from __future__ import annotations

import functools

from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey

P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493  # the order of the base point
_MINUS_ONE = (8 * L - 8 * pow(8, -1, L)).to_bytes(32, "little")
"""An X25519 scalar that is -1 modulo L and 0 modulo 8, and that X25519's clamping leaves as it is (a multiple
of 8 between 2^254 and 2^255): times it, a point P + T of the curve's group (the group of order 8L: P in the
prime-order subgroup, T of order dividing 8) is -P, whose X25519 coordinate is P's."""
D = -121665 * pow(121666, -1, P) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)
Point = tuple[int, int, int, int]
"""A point in extended coordinates."""

_IDENTITY: Point = (0, 1, 1, 0)  # extended coordinates (X, Y, Z, T), x = X/Z, y = Y/Z, xy = T/Z


class BadPoint(ValueError):
    """Why 32 bytes are not an acceptable public key; the message completes 'the key is ...'."""


def decode(raw: bytes) -> tuple[int, int]:
    """The point (x, y) that `raw` encodes; BadPoint if none does, or not canonically."""
    if len(raw) != 32:
        raise BadPoint("not 32 bytes long")
    number = int.from_bytes(raw, "little")
    sign, y = number >> 255, number & ((1 << 255) - 1)
    if y >= P:
        raise BadPoint("not canonically encoded (y is not below 2^255 - 19)")
    u, v = (y * y - 1) % P, (D * y * y + 1) % P
    x = u * pow(v, 3, P) * pow(u * pow(v, 7, P), (P - 5) // 8, P) % P  # a square root of u/v, if any
    if v * x * x % P == (-u) % P:
        x = x * SQRT_M1 % P
    if v * x * x % P != u:
        raise BadPoint("not a point on the Ed25519 curve")
    if x == 0 and sign:
        raise BadPoint("not canonically encoded (x is 0 but its sign bit is set)")
    if x & 1 != sign:
        x = P - x
    return x, y


def _add(p: Point, q: Point) -> Point:
    """Point addition on the twisted Edwards curve -x^2 + y^2 = 1 + d x^2 y^2 (add-2008-hwcd-3)."""
    x1, y1, z1, t1 = p
    x2, y2, z2, t2 = q
    a = (y1 - x1) * (y2 - x2) % P
    b = (y1 + x1) * (y2 + x2) % P
    c = 2 * D * t1 * t2 % P
    dd = 2 * z1 * z2 % P
    e, f, g, h = b - a, dd - c, dd + c, b + a
    return e * f % P, g * h % P, f * g % P, e * h % P


def _double(p: Point) -> Point:
    """2p, cheaper than _add(p, p) (dbl-2008-hwcd with a = -1)."""
    x1, y1, z1, _ = p
    a, b, c = x1 * x1 % P, y1 * y1 % P, 2 * z1 * z1 % P
    h = a + b
    e, g = h - (x1 + y1) ** 2 % P, a - b
    f = c + g
    return e * f % P, g * h % P, f * g % P, e * h % P


def _multiply(scalar: int, point: Point) -> Point:
    result = _IDENTITY
    for bit in bin(scalar)[2:]:
        result = _double(result)
        if bit == "1":
            result = _add(result, point)
    return result


def _is_identity(point: Point) -> bool:
    x, y, z, _ = point
    return x % P == 0 and (y - z) % P == 0


@functools.cache
def check_public_key(raw: bytes) -> None:
    """BadPoint unless `raw` is a canonical point of the prime-order subgroup (never the identity)."""
    x, y = decode(raw)
    point = (x, y, 1, x * y % P)
    if _is_identity(_multiply(8, point)):
        raise BadPoint("a small-order point (one of the 8 that accept forged signatures)")
    if not _in_prime_order_group(y):
        raise BadPoint("not in the Ed25519 prime-order group (it has a small-order component)")


def _in_prime_order_group(y: int) -> bool:
    """Whether the point with this y (on the curve, not of small order) is in the prime-order subgroup:
    [L] times it is the identity. The curve's group is cyclic of order 8L, so the point is P + T, P in the
    subgroup and T of order dividing 8; times _MINUS_ONE it is -P, whose X25519 coordinate is P's. The
    point's own, u = (1 + y) / (1 - y) (RFC 7748), comes out unchanged exactly when T is the identity:
    P + T = -P would make T = -2P, of order L."""
    u = ((1 + y) * pow(1 - y, -1, P) % P).to_bytes(32, "little")  # y != 1: the identity is of small order
    times = X25519PrivateKey.from_private_bytes(_MINUS_ONE).exchange(X25519PublicKey.from_public_bytes(u))
    return times == u
