"""The app's routes (Starlette) and its run (uvicorn on 127.0.0.1, a free port). Every request passes
the Guard first (guard.py); every call into pbem goes through library.py."""

from __future__ import annotations

import asyncio
import getpass
import json
import signal
import socket
import sys
import tempfile
import webbrowser
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from pbem.api.http_guard import TooLarge, bounded_body
from pbem.app import library, pages
from pbem.app.guard import Guard
from pbem.app.library import PbemError, RuleError
from pbem.app.state import (
    SMTP_KEY,
    AppState,
    do_inbox,
    do_move,
    do_new,
    do_send,
    do_unlock,
    game_data,
    history_frames,
    home_data,
    locked,
)
from pbem.app.watch import Watcher

HOST = "127.0.0.1"


_STATIC = {"app.js": "text/javascript; charset=utf-8", "app.css": "text/css; charset=utf-8", "icon.svg": "image/svg+xml"}


_NO_STORE = {"cache-control": "no-store"}


_KEEP = {"cache-control": "private, max-age=86400"}
"""Script, style and icon: their addresses name the run (pages.RUN), so a browser may keep them."""
MAX_REQUEST_BYTES = 1 << 20  # a move, a new game's roster or a passphrase: far less; more is an attack


HEARTBEAT = 15.0
"""Seconds between two comments on a quiet event stream (so that a dead connection is noticed)."""


def make_app(state: AppState, port: int, stopping: Any = None) -> Guard:
    """The routes behind the Guard; `stopping` (a threading.Event) ends the pages' event streams."""
    csrf = state.keys.csrf

    def flash_for(path: str) -> str | None:
        return state.flash.pop(path, None)

    async def home(request: Request) -> Response:
        games, problems, folder, invite = await run_in_threadpool(home_data, state)
        return HTMLResponse(pages.home(csrf, games, problems, state.locked, flash_for("/"), folder, invite),
                            headers=_NO_STORE)

    async def games_table(request: Request) -> Response:
        """The list of games alone, for the page's live update (the notice of the page stays)."""
        games, problems, folder, _ = await run_in_threadpool(home_data, state)
        return HTMLResponse(pages.games_area(games, problems, folder), headers=_NO_STORE)

    async def events(request: Request) -> Response:
        """Server-sent events: each change after the one the page was drawn at (or the last one this
        stream sent, when the browser reconnects), as one JSON object a message."""
        given = request.headers.get("last-event-id") or request.query_params.get("since") or "0"
        number = int(given) if given.isdigit() and len(given) < 12 else 0
        if number > state.live.count:  # drawn by an earlier run of the app: from now on
            number = state.live.count

        async def stream() -> Any:
            nonlocal number
            yield "retry: 1000\n\n"
            quiet = 0.0
            while not (stopping is not None and stopping.is_set()):
                found = state.live.since(number)
                for number, change in found:
                    yield f"id: {number}\ndata: {json.dumps(change, separators=(',', ':'))}\n\n"
                quiet = 0.0 if found else quiet + 0.2
                if quiet >= HEARTBEAT:
                    quiet = 0.0
                    yield ": quiet\n\n"
                    if await request.is_disconnected():
                        return
                await asyncio.sleep(0.2)

        return StreamingResponse(stream(), media_type="text/event-stream", headers=_NO_STORE)

    async def game(request: Request) -> Response:
        game_id, since = request.path_params["game_id"], request.query_params.get("since", "")
        try:
            info, data, log, defs = await run_in_threadpool(
                locked, lambda s, g: game_data(s, g, int(since) if since.isdigit() and len(since) < 7 else None),
                state, game_id)
        except (PbemError, RuleError) as exc:
            return HTMLResponse(pages.refusal(csrf, str(exc)), status_code=404, headers=_NO_STORE)
        return HTMLResponse(pages.game(csrf, info, data, log, defs, flash_for(f"/game/{game_id}"), state.locked),
                            headers=_NO_STORE)

    async def history(request: Request) -> Response:
        game_id = request.path_params["game_id"]
        try:
            frames = await run_in_threadpool(locked, history_frames, state, game_id)
        except (PbemError, RuleError) as exc:
            return JSONResponse({"ok": False, "message": str(exc)}, status_code=404, headers=_NO_STORE)
        return JSONResponse({"ok": True, "frames": frames}, headers=_NO_STORE)

    def action(work: Callable[[Request, dict[str, Any]], str]) -> Callable[[Request], Any]:
        async def endpoint(request: Request) -> Response:
            try:
                body = json.loads(await bounded_body(request, MAX_REQUEST_BYTES) or b"{}")
                if not isinstance(body, dict):
                    raise ValueError
            except TooLarge:
                return JSONResponse({"ok": False, "message": f"refused: a request over {MAX_REQUEST_BYTES:,} bytes"}, 413)
            except (ValueError, RecursionError):  # RecursionError: JSON nested deeper than Python's stack
                return JSONResponse({"ok": False, "message": "refused: the request is not a JSON object"}, 400)
            try:
                text = await run_in_threadpool(work, request, body)
            except library.MovedOn as exc:
                return JSONResponse({"ok": False, "movedOn": True, "message": str(exc)}, 409, headers=_NO_STORE)
            except (PbemError, RuleError) as exc:
                return JSONResponse({"ok": False, "message": f"{exc}. Nothing was written."}, 400, headers=_NO_STORE)
            except OSError as exc:
                return JSONResponse({"ok": False, "message": f"{exc.strerror or exc}"}, 500, headers=_NO_STORE)
            return JSONResponse({"ok": True, "message": text}, headers=_NO_STORE)
        return endpoint

    def static_file(name: str) -> Response:
        if name not in _STATIC:
            return Response("not found", 404)
        text = resources.files("pbem.app").joinpath("static", name).read_bytes()
        return Response(text, media_type=_STATIC[name], headers=_KEEP)

    async def static(request: Request) -> Response:
        return static_file(request.path_params["name"])

    async def game_static(request: Request) -> Response:
        name, kind = request.path_params["name"], request.path_params["kind"]
        if name not in library.game_names() or kind not in ("js", "css"):
            return Response("not found", 404)
        text = library.replay_asset(name, "." + kind)
        return Response(text, media_type=f"text/{'javascript' if kind == 'js' else 'css'}; charset=utf-8",
                        headers=_KEEP)

    routes = [
        Route("/", home), Route("/games", games_table), Route("/events", events),
        Route("/game/{game_id}", game), Route("/game/{game_id}/history", history),
        Route("/game/{game_id}/move", action(lambda r, b: do_move(state, r.path_params["game_id"], b, True)),
              methods=["POST"]),
        Route("/game/{game_id}/automatic", action(lambda r, b: do_move(state, r.path_params["game_id"], b, False)),
              methods=["POST"]),
        Route("/game/{game_id}/send", action(lambda r, b: do_send(state, r.path_params["game_id"])), methods=["POST"]),
        Route("/inbox", action(lambda r, b: do_inbox(state, b.get("page", "/"))), methods=["POST"]),
        Route("/unlock", action(lambda r, b: do_unlock(state, b)), methods=["POST"]),
        Route("/new", action(lambda r, b: do_new(state, b)), methods=["POST"]),
        Route("/static/game/{name}.{kind}", game_static), Route("/static/{name}", static),
        Route("/favicon.ico", lambda request: static_file("icon.svg")),
    ]
    return Guard(Starlette(routes=routes), HOST, port, state.keys)


def free_socket() -> socket.socket:
    # IPPROTO_TCP named, not 0: asyncio sets TCP_NODELAY only on connections of a socket that names it, and
    # without it a response written in two parts (uvicorn: headers, then body) waited for the browser's
    # delayed ACK, about 40 ms a request
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((HOST, 0))
    return sock


def url_for(state: AppState, sock: socket.socket) -> str:
    """The link that lets a browser in: the loopback address, the port, the secret token."""
    return f"http://{HOST}:{sock.getsockname()[1]}/?token={state.keys.token}"


def serve(state: AppState, sock: socket.socket, on_ready: Callable[[str], None]) -> None:
    """Serve until interrupted; `on_ready` gets the URL with the secret token once the socket listens."""

    port = sock.getsockname()[1]
    watcher = Watcher(state)
    config = uvicorn.Config(make_app(state, port, watcher.stopping), log_level="warning", access_log=False,
                            server_header=False, lifespan="off", timeout_graceful_shutdown=2, ws="none")
    server = uvicorn.Server(config)
    url = url_for(state, sock)
    original, original_shutdown = server.startup, server.shutdown

    async def startup(sockets: list[socket.socket] | None = None) -> None:
        await original(sockets)
        watcher.start()
        on_ready(url)

    async def shutdown(sockets: list[socket.socket] | None = None) -> None:
        watcher.stop()  # the pages' event streams end, so that the server stops at once
        await original_shutdown(sockets)

    server.startup = startup  # type: ignore[method-assign]
    server.shutdown = shutdown  # type: ignore[method-assign]
    try:
        server.run(sockets=[sock])
    finally:
        watcher.stop()


def start(open_browser: bool = True) -> None:
    """`pbem app`: unlock the keys (a passphrase asked on the terminal, if there is one), listen on
    127.0.0.1 on a free port, print the URL with its secret, open it in the browser."""
    state = AppState()
    interactive = sys.stdin is not None and sys.stdin.isatty()

    def ask(name: str) -> bytes | None:
        if not interactive:
            return None
        what = f"SMTP password for {name[len(SMTP_KEY):]}" if name.startswith(SMTP_KEY) else f"Passphrase for your key {name}"
        return getpass.getpass(f"{what}: ").encode()

    state.unlock_all(ask)
    sock = free_socket()

    def ready(url: str) -> None:
        locked = f" (to unlock in the page: {', '.join(state.locked)})" if state.locked else ""
        print(f"pbem app: open {url}{locked}", flush=True)
        print("Keep that link to yourself: it lets a browser act with your keys. Ctrl-C stops the app.", flush=True)
        if open_browser:
            webbrowser.open(opener.as_uri())

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # stopped by a signal too, the file below goes
    with tempfile.TemporaryDirectory(prefix="pbem-app-") as private:  # 0700: this user only
        opener = Path(private) / "open.html"  # the token in a file, not on a browser's command line (Jupyter's way)
        link = url_for(state, sock)
        opener.write_text(f'<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url={link}">'
                          f'<title>pbem app</title><a href="{link}">Open pbem app</a>\n')
        opener.chmod(0o600)
        serve(state, sock, ready)

