"""The app's protections, in front of every request, the way Jupyter guards its local server.

- Host: only the loopback name and port the server bound (`127.0.0.1:PORT`); any other Host is 403,
  so a web page whose DNS name was rebound to 127.0.0.1 reaches nothing.
- The secret: the URL the app prints carries a token; its use is traded for a cookie (HttpOnly,
  SameSite=Strict, named for the port: two apps on one machine keep their own), and the token leaves
  the address bar as the page goes on to /. No cookie, no page: 403. The browser is opened on a file
  readable by this user only that leads to the URL, so the token is in no program's command line.
- Changes of state: only POST, only with a JSON body (a cross-origin page cannot send one without a
  preflight, which is never answered: no CORS), from this origin (Origin and Sec-Fetch-Site checked
  when the browser sends them), carrying the anti-forgery token of the pages in a header.
- Every response forbids framing, sniffing, referrers and caching of pages, and sets a strict
  Content-Security-Policy: scripts and styles only from this server's own files, no inline script,
  nothing from elsewhere.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from urllib.parse import parse_qs

from pbem.api.http_guard import (
    ASGIApp,
    Receive,
    Scope,
    Send,
    cookie_named,
    cross_site,
    policy,
    reply,
    same_secret,
    screened,
    secure_headers,
    wrong_token,
)

HEADERS = secure_headers(policy())


_ONWARD = (b'<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=/">'
           b'<title>pbem app</title></head><body><p><a href="/">Your games</a></p></body></html>')
"""What the token's first use answers: the cookie, and on to the games without the token in the address."""


@dataclass
class SessionSecrets:
    """The three secrets of one run of the app, made at start and never written anywhere."""

    token: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    """In the URL the app prints; traded once for the cookie."""
    session: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    """The cookie's value."""
    csrf: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    """The anti-forgery token, in every page, sent back in a header with every POST."""


class Guard:
    """ASGI middleware: refuses what the module docstring says, before the app sees it."""

    def __init__(self, app: ASGIApp, host: str, port: int, keys: SessionSecrets):
        self.app, self.keys = app, keys
        self.host = f"{host}:{port}"
        self.origin = f"http://{self.host}"
        self.cookie = f"pbem-app-{port}"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        passed = await screened(scope, receive, send, self.app, self.host, "this app", HEADERS)
        if passed is None:
            return
        headers, secured = passed
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        if "token" in query:
            if not same_secret(query["token"][0], self.keys.token):
                await reply(secured, 403, "Forbidden: this is not the link the app printed. Open the link on "
                                           "the terminal where you started pbem app.")
                return
            # A page, not a redirect: the browser then goes on from this origin, so the Strict cookie goes
            # with it even when the link was opened from elsewhere (a file, a terminal, another program).
            cookie = (f"{self.cookie}={self.keys.session}; Path=/; HttpOnly; SameSite=Strict").encode()
            await secured({"type": "http.response.start", "status": 200,
                           "headers": [(b"content-type", b"text/html; charset=utf-8"), (b"set-cookie", cookie),
                                       (b"cache-control", b"no-store"), (b"content-length", str(len(_ONWARD)).encode())]})
            await secured({"type": "http.response.body", "body": _ONWARD})
            return
        if not same_secret(self.cookie_value(headers), self.keys.session):
            await reply(secured, 403, "Forbidden: open the link that pbem app printed on its terminal (it "
                                       "holds the secret that lets this browser in).")
            return
        if scope["method"] == "POST":
            refused = self.post_refusal(headers)
            if refused is not None:
                await reply(secured, 403, refused, as_json=True)
                return
        await self.app(scope, receive, secured)

    def cookie_value(self, headers: dict[str, str]) -> str | None:
        return cookie_named(headers, self.cookie)

    def post_refusal(self, headers: dict[str, str]) -> str | None:
        """Why a POST is refused, or None: a forged one from another page fails at least one check."""
        return cross_site(headers, self.origin, "this app's page") or wrong_token(headers, self.keys.csrf)
