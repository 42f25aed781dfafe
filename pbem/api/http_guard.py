"""What the front ends that serve pages over HTTP refuse alike (pbem app on the loopback, pbem judge web
behind a TLS reverse proxy), decided in one place: a POST from another site or not sent by the page,
a missing or wrong anti-forgery token, the headers every response carries, the short refusals."""

from __future__ import annotations

import hmac
import json
from collections.abc import Awaitable, Callable, MutableMapping
from http.cookies import SimpleCookie
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from starlette.requests import Request

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CSRF_HEADER = "x-pbem-csrf"
"""The header a page's POST carries its anti-forgery token in."""


def policy(script_hashes: str = "") -> str:
    """The Content-Security-Policy: scripts and styles from this server's own files only (and inline
    scripts of these hashes), nothing from any other origin, no framing, no forms posted."""
    scripts = f"'self' {script_hashes}" if script_hashes else "'self'"
    return (f"default-src 'none'; script-src {scripts}; style-src 'self'; img-src 'self'; "
            "connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'")


def secure_headers(content_policy: str) -> list[tuple[bytes, bytes]]:
    """What every response carries: the policy, and no sniffing, framing, referrer or cross-origin use."""
    return [(b"content-security-policy", content_policy.encode()), (b"x-content-type-options", b"nosniff"),
            (b"x-frame-options", b"DENY"), (b"referrer-policy", b"no-referrer"),
            (b"cross-origin-opener-policy", b"same-origin"), (b"cross-origin-resource-policy", b"same-origin")]


async def screened(scope: Scope, receive: Receive, send: Send, app: ASGIApp, host: str, served_by: str,
                   response_headers: list[tuple[bytes, bytes]]) -> tuple[dict[str, str], Send] | None:
    """What both guards do first: the app's lifespan passed on, no websockets (the servers run without them:
    an upgrade is an ordinary request here), a request to another Host (a name rebound to this server) or
    by another method refused. For a request that passes: its headers
    (names in lower case) and a `send` that adds `response_headers` to every response; None when answered."""
    if scope["type"] != "http":
        if scope["type"] == "lifespan":
            await app(scope, receive, send)
        return None

    async def secured(message: Message) -> None:
        if message["type"] == "http.response.start":
            message["headers"] = [*message.get("headers", []), *response_headers]
        await send(message)

    headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
    if headers.get("host", "").lower() != host.lower():  # host names are case-insensitive
        await reply(secured, 403, f"Forbidden: {served_by} answers only to {host}")
        return None
    if scope["method"] not in ("GET", "HEAD", "POST"):
        await reply(secured, 405, "Method not allowed")
        return None
    if not scope["path"].startswith("/"):  # `GET http://other/`: a target that names a host names its own
        await reply(secured, 403, f"Forbidden: {served_by} answers only to {host}")
        return None
    return headers, secured


def same_secret(given: str | None, secret: str | None) -> bool:
    """Whether a secret sent is the one expected (compared in constant time)."""
    return given is not None and secret is not None and hmac.compare_digest(given.encode(), secret.encode())


def cross_site(headers: dict[str, str], origin: str, page: str) -> str | None:
    """Why a POST is not one this server's page sent (another site's, or not JSON), or None. `page` names
    the page in the refusal ("this app's page")."""
    if "origin" in headers and headers["origin"] != origin:
        return f"refused: a request from another site ({headers['origin']})"
    if headers.get("sec-fetch-site", "same-origin") != "same-origin":
        return "refused: a request from another site"
    if headers.get("content-type", "").split(";")[0].strip() != "application/json":
        return f"refused: not sent by {page}"
    return None


def wrong_token(headers: dict[str, str], expected: str | None) -> str | None:
    """Why a POST's anti-forgery token is refused (missing, or not the page session's), or None."""
    if not same_secret(headers.get(CSRF_HEADER), expected):
        return "refused: the anti-forgery token is missing or wrong (reload the page)"
    return None


def cookie_named(headers: dict[str, str], name: str) -> str | None:
    """The value of one cookie of the request (a malformed Cookie header holds none)."""
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(headers.get("cookie", ""))
    except Exception:  # noqa: BLE001 (a malformed Cookie header is no cookie)
        return None
    morsel = jar.get(name)
    return morsel.value if morsel else None


async def reply(send: Send, status: int, text: str, as_json: bool = False) -> None:
    """A short refusal, not stored: plain text, or JSON ({"ok": false, "message": ...}) for a page's POST."""
    body = json.dumps({"ok": False, "message": text}).encode() if as_json else text.encode()
    kind = b"application/json" if as_json else b"text/plain; charset=utf-8"
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", kind), (b"content-length", str(len(body)).encode()),
                            (b"cache-control", b"no-store")]})
    await send({"type": "http.response.body", "body": body})


class TooLarge(Exception):
    """A request body over the server's limit: refused before it is all read."""


async def bounded_body(request: Request, limit: int) -> bytes:
    """The body, read no further than `limit` bytes (a content-length can lie or be missing)."""
    if int(request.headers.get("content-length") or 0) > limit:
        raise TooLarge
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise TooLarge
        chunks.append(chunk)
    return b"".join(chunks)
