"""Which 32-byte strings are acceptable Ed25519 public keys, decided in pure Python (RFC 8032 5.1.3).

OpenSSL checks a signature as [S]B == R + [k]A without asking what A is. For a small-order A (one of
the 8 torsion points) the signature R = identity, S = 0 passes for any message, so a roster key of that
kind lets anyone sign "as" its seat. pbem takes a key only if it is the canonical encoding of a point
on the curve, in the prime-order subgroup (which rules out the torsion points and every point with a
torsion component); every key `ssh-keygen` or pbem generates is one."""

from __future__ import annotations

import functools

P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493  # the order of the base point
D = -121665 * pow(121666, P - 2, P) % P
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
    if not _is_identity(_multiply(L, point)):
        raise BadPoint("not in the Ed25519 prime-order group (it has a small-order component)")
