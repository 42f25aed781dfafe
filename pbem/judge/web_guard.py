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

from collections.abc import Callable
from urllib.parse import urlsplit

from starlette.concurrency import run_in_threadpool

from pbem.api.http_guard import (
    ASGIApp,
    Receive,
    Scope,
    Send,
    cookie_named,
    cross_site,
    policy,
    reply,
    screened,
    secure_headers,
    wrong_token,
)

COOKIE = "pbem-web"


def cookie_of(headers: dict[str, str]) -> str | None:
    return cookie_named(headers, COOKIE)


def authority(url: str) -> str:
    """The Host a browser sends for `url`, and the authority of its Origin: the name in lower case, the port
    only when it is not the scheme's own (--url https://Pbem.Example.org:443 is pbem.example.org)."""
    parts = urlsplit(url)
    name = (parts.hostname or "").lower()
    name = f"[{name}]" if ":" in name else name
    port = parts.port
    return name if port is None or port == {"http": 80, "https": 443}.get(parts.scheme) else f"{name}:{port}"


def session_cookie(value: str, secure: bool) -> str:
    """Lax, not Strict: a link opened from a mail (a notice, an invitation) must bring the session along;
    every change still needs the anti-forgery token, which no other site can read."""
    return f"{COOKIE}={value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=31536000" + ("; Secure" if secure else "")


class WebGuard:
    """ASGI middleware: refuses what the module docstring says, before the routes see it."""

    def __init__(self, app: ASGIApp, public_url: str, import_map_hash: str, csrf_of: Callable[[str | None], str | None]):
        self.app, self.csrf_of = app, csrf_of
        self.host = authority(public_url)
        self.origin = f"{urlsplit(public_url).scheme}://{self.host}"
        self.headers = secure_headers(policy(import_map_hash))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        passed = await screened(scope, receive, send, self.app, self.host, "this server", self.headers)
        if passed is None:
            return
        headers, secured = passed
        if scope["method"] == "POST":
            refused = await self.post_refusal(headers)
            if refused is not None:
                await reply(secured, 403, refused, as_json=True)
                return
        await self.app(scope, receive, secured)

    async def post_refusal(self, headers: dict[str, str]) -> str | None:
        """Why a POST is refused, or None: a forged one from another page fails at least one check (the
        page session's token is looked up only for a POST that passes the others)."""
        refused = cross_site(headers, self.origin, "this site's page")
        if refused is not None:
            return refused
        return wrong_token(headers, await run_in_threadpool(self.csrf_of, cookie_of(headers)))
