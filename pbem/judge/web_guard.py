"""The web client's protections, in front of every request (as pbem app's guard.py, for a server on the
internet behind a TLS reverse proxy rather than on the loopback):

- Host: only the host of the address the judge was told it is served at (`--url`); any other is 403, so a
  name rebound to the server reaches nothing.
- Methods: GET, HEAD and POST only.
- Changes of state: only POST, only with a JSON body (a cross-origin page cannot send one without a
  preflight, never answered: no CORS), from this origin (Origin and Sec-Fetch-Site, when sent), carrying
  in a header the anti-forgery token of the page session the cookie names.
- Every response forbids framing, sniffing, referrers and caching of pages, and sets a strict
  Content-Security-Policy: scripts and styles from this server's own files only (each with its integrity
  hash), the one inline script allowed by its hash being the import map of those hashes; nothing from
  any other origin.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Awaitable, Callable, MutableMapping
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import urlsplit

from starlette.concurrency import run_in_threadpool

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CSRF_HEADER = "x-pbem-csrf"
COOKIE = "pbem-web"


def policy(import_map_hash: str) -> str:
    return (f"default-src 'none'; script-src 'self' {import_map_hash}; style-src 'self'; img-src 'self'; "
            "connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'")


def cookie_of(headers: dict[str, str]) -> str | None:
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(headers.get("cookie", ""))
    except Exception:  # noqa: BLE001 (a malformed Cookie header is no cookie)
        return None
    morsel = jar.get(COOKIE)
    return morsel.value if morsel else None


def session_cookie(value: str, secure: bool) -> str:
    """Lax, not Strict: a link opened from a mail (a notice, an invitation) must bring the session along;
    every change still needs the anti-forgery token, which no other site can read."""
    return f"{COOKIE}={value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=31536000" + ("; Secure" if secure else "")


class WebGuard:
    """ASGI middleware: refuses what the module docstring says, before the routes see it."""

    def __init__(self, app: ASGIApp, public_url: str, import_map_hash: str, csrf_of: Callable[[str | None], str | None]):
        parts = urlsplit(public_url)
        self.app, self.csrf_of = app, csrf_of
        self.host = parts.netloc
        self.origin = f"{parts.scheme}://{parts.netloc}"
        self.headers = [(b"content-security-policy", policy(import_map_hash).encode()),
                        (b"x-content-type-options", b"nosniff"), (b"x-frame-options", b"DENY"),
                        (b"referrer-policy", b"no-referrer"), (b"cross-origin-opener-policy", b"same-origin"),
                        (b"cross-origin-resource-policy", b"same-origin")]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            return  # no websockets
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}

        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *self.headers]
            await send(message)

        if headers.get("host") != self.host:
            await _reply(secured, 403, f"Forbidden: this server answers only to {self.host}")
            return
        if scope["method"] not in ("GET", "HEAD", "POST"):
            await _reply(secured, 405, "Method not allowed")
            return
        if scope["method"] == "POST":
            refused = await self.post_refusal(headers)
            if refused is not None:
                await _reply(secured, 403, refused, as_json=True)
                return
        await self.app(scope, receive, secured)

    async def post_refusal(self, headers: dict[str, str]) -> str | None:
        """Why a POST is refused, or None: a forged one from another page fails at least one check."""
        if "origin" in headers and headers["origin"] != self.origin:
            return f"refused: a request from another site ({headers['origin']})"
        if headers.get("sec-fetch-site", "same-origin") != "same-origin":
            return "refused: a request from another site"
        if headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return "refused: not sent by this site's page"
        expected = await run_in_threadpool(self.csrf_of, cookie_of(headers))
        given = headers.get(CSRF_HEADER)
        if expected is None or given is None or not hmac.compare_digest(given.encode(), expected.encode()):
            return "refused: the anti-forgery token is missing or wrong (reload the page)"
        return None


async def _reply(send: Send, status: int, text: str, as_json: bool = False) -> None:
    body = json.dumps({"ok": False, "message": text}).encode() if as_json else text.encode()
    kind = b"application/json" if as_json else b"text/plain; charset=utf-8"
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", kind), (b"content-length", str(len(body)).encode()),
                            (b"cache-control", b"no-store")]})
    await send({"type": "http.response.body", "body": body})
