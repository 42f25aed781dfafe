"""`pbem judge web`: the judge serves browser seats (Starlette, uvicorn) beside its mail, in one process on
one store. Every request passes the guard first (web_guard.py); every change goes through the judge
(web_judge.py), under its one lock. See docs/web.md.

    GET  /join/TOKEN                  an invitation: the page makes a key and takes the seat
    POST /api/join                    {token, key, address}: the seat taken (once), the game made when full
    GET  /new/TOKEN                   a creator link: the form that makes a table (docs/web.md)
    POST /api/new                     {token, game, seats, options}: a table, as pbem judge invite makes one
    GET  /play/TABLE/SEAT             a seat's game page (its session must hold the seat)
    GET  /api/play/TABLE/SEAT         the seat's view, and the entries it may sign
    POST /api/play/TABLE/SEAT/entry   {entry}: an entry the page signed, read as a mail turn; the seat's view after it
    POST /api/play/TABLE/SEAT/hold    {signature}: a browser that imported the seat's key holds the seat
    GET  /api/play/TABLE/SEAT/events  server-sent events: the game moved on
    GET  /api/play/TABLE/SEAT/record  the game file, for pbem verify
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

import uvicorn
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from pbem import api
from pbem.api import browser
from pbem.api.http_guard import TooLarge, bounded_body
from pbem.judge import library, web_creators, web_pages, web_tables
from pbem.judge.config import Config
from pbem.judge.web_assets import Assets
from pbem.judge.web_changes import watch_outside
from pbem.judge.web_guard import WebGuard, cookie_of, session_cookie
from pbem.judge.web_judge import Refused, WebJudge
from pbem.judge.web_tables import HostedTable

MAX_REQUEST_BYTES = 1 << 20
"""An entry with every coin of a game sealed is some kilobytes; more is an attack."""
HEARTBEAT = 15.0
LOOK_AGAIN = 5.0
"""How often the judge looks for what another process changed in the store (another judge), while any page is
open, for all the pages at once; this process's changes wake the pages' streams as they commit."""
NO_STORE = {"cache-control": "no-store"}
T = TypeVar("T")


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


class JoinBody(_Strict):
    token: str = Field(min_length=20, max_length=100)
    key: str = Field(min_length=20, max_length=500)
    address: str | None = Field(default=None, max_length=200)


class NewBody(_Strict):
    token: str = Field(min_length=20, max_length=100)
    game: str = Field(max_length=100)
    seats: list[str] = Field(max_length=20)
    options: list[str] = Field(default_factory=list, max_length=20)


class EntryBody(_Strict):
    entry: dict[str, Any]


class HoldBody(_Strict):
    signature: str = Field(min_length=20, max_length=1000)


async def _body(request: Request, model: type[T]) -> T:
    return model.model_validate(json.loads(await bounded_body(request, MAX_REQUEST_BYTES)))  # type: ignore[attr-defined, no-any-return]


def _refused(status: int, text: str) -> JSONResponse:
    return JSONResponse({"ok": False, "message": text}, status, headers=NO_STORE)


def make_app(judge: WebJudge, assets: Assets, stopping: threading.Event) -> WebGuard:
    secure = judge.public_url.startswith("https://")

    def locked(func: Callable[..., T], *args: Any) -> T:
        with judge.lock:
            return func(*args)

    async def call(func: Callable[..., T], *args: Any) -> T:
        return await run_in_threadpool(locked, func, *args)

    async def session(request: Request, make: bool = True) -> tuple[str, str, bool]:
        """The page session the cookie names (its value, its anti-forgery token), or a new one (True): made
        only for a page that needs one (an invitation not used yet, a seat's page), so that whoever requests
        other addresses fills no table."""
        value = cookie_of({k.lower(): v for k, v in request.headers.items()})
        csrf = await call(web_tables.csrf_of, judge.store, value) if value else None
        if value and csrf:
            return value, csrf, False
        if not make:
            return "", "", False
        made, token = await call(web_tables.login, judge.store, judge.clock())
        return made, token, True

    def page(html: str, value: str, new: bool, status: int = 200) -> HTMLResponse:
        response = HTMLResponse(html, status, headers=NO_STORE)
        if new:
            response.headers.append("set-cookie", session_cookie(value, secure))
        return response

    async def home(request: Request) -> Response:
        value, csrf, new = await session(request, make=False)
        return page(web_pages.message(assets, csrf, "pbem judge", "Open the invitation link you were given to "
                                      "take your seat, or the link to your game."), value, new)

    async def join_page(request: Request) -> Response:
        found = await call(web_tables.invitation, judge.store, request.path_params["token"])
        value, csrf, new = await session(request, make=found is not None and not found[2])
        if found is None:
            return page(web_pages.message(assets, csrf, "Not an invitation", "This link is not an invitation this "
                                          "judge gave: check it was copied whole."), value, new, 404)
        table, seat, used = found
        if used:
            if await call(web_tables.holds, judge.store, value, table.table_id, seat):
                return Response(status_code=303, headers={"location": f"/play/{table.table_id}/{seat}", **NO_STORE})
            return page(web_pages.message(assets, csrf, "Invitation used", "This invitation took its seat already: "
                                          "a link takes one seat, once. Ask whoever sent it for a new one."),
                        value, new, 410)
        names = [s.name for s in table.seats]
        taken = [s.name for s in table.seats if s.key]
        html = web_pages.join(assets, csrf, table.table_id, seat, _title(table), names, taken)
        return page(html, value, new)

    async def join(request: Request) -> Response:
        body = await _body(request, JoinBody)
        value = cookie_of({k.lower(): v for k, v in request.headers.items()}) or ""
        try:
            table = await call(web_tables.claim, judge.store, body.token, body.key, body.address or None, value,
                               judge.clock())
        except library.PbemError as exc:
            return _refused(409, str(exc))
        judge.changes.bump()
        seat = next(s.name for s in table.seats if s.key and browser.same_key(s.key, body.key))
        judge.log(f"table {table.table_id}: {seat} took their seat in a browser")
        if table.full:
            await run_in_threadpool(judge.make_game, table.table_id)
        return JSONResponse({"ok": True, "play": f"/play/{table.table_id}/{seat}"}, headers=NO_STORE)

    async def new_page(request: Request) -> Response:
        good = await call(web_creators.good, judge.store, request.path_params["token"])
        value, csrf, new = await session(request, make=good)
        if not good:
            return page(web_pages.message(assets, csrf, "Not a creator link", "This link is not one with which this "
                                          "judge makes tables, or it was revoked."), value, new, 404)
        return page(web_pages.new_table(assets, csrf, web_creators.games()), value, new)

    async def new(request: Request) -> Response:
        body = await _body(request, NewBody)
        try:
            table, tokens = await call(web_creators.make_table, judge.store, body.token, body.game, body.seats,
                                       body.options, judge.clock())
        except web_creators.NotACreator as exc:
            return _refused(404, str(exc))
        except library.PbemError as exc:
            return _refused(400, str(exc))
        judge.changes.bump()
        judge.log(f"table {table.table_id}: {table.game} with {', '.join(body.seats)}, made by a creator link")
        links = {name: f"{judge.public_url.rstrip('/')}/join/{token}" for name, token in tokens.items()}
        return JSONResponse({"ok": True, "table": table.table_id, "links": links}, headers=NO_STORE)

    async def seat_of(request: Request) -> tuple[HostedTable, str] | Response:
        """The table and seat of a /play address, when this request's session holds the seat."""
        table_id, seat = request.path_params["table"], request.path_params["seat"]
        value = cookie_of({k.lower(): v for k, v in request.headers.items()})
        table = await call(web_tables.table, judge.store, table_id)
        if table is None or table.seat(seat) is None:
            return _refused(404, "no such seat here")
        if not await call(web_tables.holds, judge.store, value, table_id, seat):
            return _refused(403, f"this browser does not hold {seat}'s seat: import {seat}'s key file here")
        return table, seat

    async def play_page(request: Request) -> Response:
        table = await call(web_tables.table, judge.store, request.path_params["table"])
        seat = request.path_params["seat"]
        value, csrf, new = await session(request, make=table is not None and table.seat(seat) is not None)
        if table is None or table.seat(seat) is None:
            return page(web_pages.message(assets, csrf, "No such game", "There is no such seat here."), value, new, 404)
        return page(web_pages.play(assets, csrf, table.table_id, seat, _title(table), table.game), value, new)

    async def state(request: Request) -> Response:
        found = await seat_of(request)
        if isinstance(found, Response):
            if found.status_code == 404:
                return found
            table = await call(web_tables.table, judge.store, request.path_params["table"])
            place = table.seat(request.path_params["seat"]) if table else None
            return JSONResponse({"ok": True, "holds": False, "key": place.key if place else None}, headers=NO_STORE)
        table, seat = found
        place = table.seat(seat)
        if table.game_id is None and table.full:  # its making failed (logged) or was cut short: again
            await run_in_threadpool(judge.make_game, table.table_id)
            table = await call(web_tables.table, judge.store, table.table_id) or table
        if table.game_id is None:
            return JSONResponse({"ok": True, "holds": True, "started": False, "key": place.key if place else None,
                                 "seats": [{"name": s.name, "taken": bool(s.key)} for s in table.seats]},
                                headers=NO_STORE)
        data = await run_in_threadpool(judge.page, table, seat)
        return JSONResponse({"ok": True, "holds": True, "started": True, **data}, headers=NO_STORE)

    async def entry(request: Request) -> Response:
        found = await seat_of(request)
        if isinstance(found, Response):
            return found
        table, seat = found
        body = await _body(request, EntryBody)
        try:
            seq = await run_in_threadpool(judge.post, table, seat, body.entry)
        except Refused as exc:
            return _refused(409, f"the judge did not apply it: {exc}")
        except library.PbemError as exc:
            return _refused(400, str(exc))
        try:  # the seat's view after it, which the page draws without asking again
            view = await run_in_threadpool(judge.page, table, seat)
        except Exception as exc:  # noqa: BLE001 (the entry stands: the page asks for its view itself)
            judge.log(f"error in the view after {seat}'s entry: {type(exc).__name__}: {exc}")
            return JSONResponse({"ok": True, "seq": seq}, headers=NO_STORE)
        return JSONResponse({"ok": True, "seq": seq, "state": {"ok": True, "holds": True, "started": True, **view}},
                            headers=NO_STORE)

    async def hold(request: Request) -> Response:
        table_id, seat = request.path_params["table"], request.path_params["seat"]
        body = await _body(request, HoldBody)
        value = cookie_of({k.lower(): v for k, v in request.headers.items()}) or ""
        table = await call(web_tables.table, judge.store, table_id)
        csrf = await call(web_tables.csrf_of, judge.store, value)
        place = table.seat(seat) if table else None
        if table is None or place is None or place.key is None or csrf is None:
            return _refused(404, "no such seat here")
        if not browser.holds_key(place.key, browser.hold_message(table_id, seat, csrf), body.signature):
            return _refused(403, f"that signature is not by {seat}'s key")
        await call(web_tables.hold, judge.store, value, table_id, seat)
        return JSONResponse({"ok": True}, headers=NO_STORE)

    async def started_game(request: Request) -> str | Response:
        """The game of a /play address whose seat this request's session holds, once every seat is taken."""
        found = await seat_of(request)
        if isinstance(found, Response):
            return found
        if found[0].game_id is None:
            return _refused(404, "the game has not started: every seat must be taken first")
        return found[0].game_id

    async def record(request: Request) -> Response:
        game_id = await started_game(request)
        if isinstance(game_id, Response):
            return game_id
        name, data = await run_in_threadpool(judge.record_file, game_id)
        return Response(data, media_type="application/json",
                        headers={"content-disposition": f'attachment; filename="{name}"', **NO_STORE})

    async def genesis(request: Request) -> Response:
        game_id = await started_game(request)
        if isinstance(game_id, Response):
            return game_id
        return JSONResponse(await run_in_threadpool(judge.genesis, game_id), headers=NO_STORE)

    def mark(table_id: str) -> str:
        table = web_tables.table(judge.store, table_id)
        if table is None:
            return "gone"
        if table.game_id is None:
            return f"seats {sum(1 for s in table.seats if s.key)}"
        with judge.store.db.transaction() as tx:
            held = judge.store.held(tx, table.game_id)
        return f"entries {held.seq if held else 0}"

    async def events(request: Request) -> Response:
        found = await seat_of(request)
        if isinstance(found, Response):
            return found
        table = found[0]

        async def stream() -> Any:
            """Woken by the judge's changes (web_changes.py: this process's as they commit, other processes'
            by the judge's one look), it looks at its table then; it ends when the page goes or the judge stops."""
            seen, last, quiet = -1, "", time.monotonic()
            with judge.changes.watched():
                while not stopping.is_set() and not await request.is_disconnected():
                    if judge.changes.count != seen:
                        seen = judge.changes.count  # read before the look: none missed
                        now = await call(mark, table.table_id)
                        if now != last:
                            last, quiet = now, time.monotonic()
                            yield f"data: {now}\n\n"
                    if time.monotonic() - quiet >= HEARTBEAT:
                        quiet = time.monotonic()
                        yield ": still here\n\n"
                    await asyncio.wait([judge.changes.moved(seen)], timeout=max(quiet + HEARTBEAT - time.monotonic(), 0))

        return StreamingResponse(stream(), media_type="text/event-stream", headers=NO_STORE)

    async def static(request: Request) -> Response:
        asset = assets.get(request.url.path)
        if asset is None:
            return Response("not found", 404, media_type="text/plain")
        return Response(asset.data, media_type=asset.kind, headers={"cache-control": "public, max-age=31536000, immutable"})

    def guarded(handler: Callable[[Request], Any]) -> Callable[[Request], Any]:
        async def run(request: Request) -> Response:
            try:
                return await handler(request)  # type: ignore[no-any-return]
            except TooLarge:
                return _refused(413, "refused: too large")
            except (ValidationError, ValueError) as exc:
                return _refused(400, f"refused: not what this page sends ({type(exc).__name__})")
            except Exception as exc:  # noqa: BLE001 (one request never stops the judge: the operator reads why)
                judge.log(f"error in {request.method} {request.url.path}: unexpected {type(exc).__name__}: {exc}")
                return _refused(500, "the judge could not do this (it logged why)")
        return run

    routes = [
        Route("/", guarded(home)), Route("/join/{token}", guarded(join_page)),
        Route("/api/join", guarded(join), methods=["POST"]),
        Route("/new/{token}", guarded(new_page)), Route("/api/new", guarded(new), methods=["POST"]),
        Route("/play/{table}/{seat}", guarded(play_page)), Route("/api/play/{table}/{seat}", guarded(state)),
        Route("/api/play/{table}/{seat}/entry", guarded(entry), methods=["POST"]),
        Route("/api/play/{table}/{seat}/hold", guarded(hold), methods=["POST"]),
        Route("/api/play/{table}/{seat}/events", guarded(events)),
        Route("/api/play/{table}/{seat}/record", guarded(record)),
        Route("/api/play/{table}/{seat}/genesis", guarded(genesis)),
        Route("/static/{path:path}", static), Route("/favicon.ico", lambda request: Response(status_code=204)),
    ]
    return WebGuard(Starlette(routes=routes), judge.public_url, assets.import_map_hash,
                    lambda value: locked(web_tables.csrf_of, judge.store, value))


def _title(table: HostedTable) -> str:
    return f"{api.game_title(table.game)} ({', '.join(s.name for s in table.seats)})"


def _mail_loop(judge: WebJudge, stopping: threading.Event) -> None:
    """The judge's mail, as `pbem judge run` reads it, until the server stops."""
    while not stopping.is_set():
        try:
            judge.once()
        except Exception as exc:  # noqa: BLE001 (the last guard: a pass that failed is logged, the next one runs)
            judge.log(f"error in a pass: unexpected {type(exc).__name__}: {exc}")
            stopping.wait(5)
        judge.wait(judge.config.poll)


class _Server(uvicorn.Server):
    """Uvicorn's server, whose signal to stop also ends the pages' event streams at once (uvicorn waits for
    open responses, up to its graceful timeout, and a stream never ends by itself)."""

    def __init__(self, config: uvicorn.Config, judge: WebJudge, stopping: threading.Event):
        super().__init__(config)
        self.judge, self.stopping = judge, stopping

    def handle_exit(self, sig: int, frame: Any) -> None:
        self.stopping.set()
        self.judge.changes.bump()
        super().handle_exit(sig, frame)


def serve(config: Config, host: str, port: int, url: str | None) -> None:
    """Serve until SIGINT or SIGTERM; the judge's mail read all along."""
    # IPPROTO_TCP named, not 0: asyncio sets TCP_NODELAY only on connections of a socket that names it, and
    # without it a response written in two parts (uvicorn: headers, then body) waited for the browser's
    # delayed ACK, about 40 ms a request
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)  # from now on a connection waits for the server rather than being refused
    bound = sock.getsockname()[1]
    where = f"http://{host if ':' not in host else f'[{host}]'}:{bound}"
    judge = WebJudge(config, url or where)
    stopping = threading.Event()
    app = make_app(judge, Assets(), stopping)
    judge.log(f"started: {judge.identity.public.line()}, web pages on {where} for {judge.public_url}, mail from "
              f"{config.imap or config.spool}")
    mail = threading.Thread(target=_mail_loop, args=(judge, stopping), name="pbem-judge-mail", daemon=True)
    mail.start()
    watch_outside(judge.changes, judge.lock, lambda: web_tables.store_mark(judge.store), stopping, LOOK_AGAIN, judge.log)
    server = _Server(uvicorn.Config(app, log_level="warning", lifespan="off", timeout_graceful_shutdown=2, ws="none",
                                    access_log=False), judge, stopping)
    try:
        server.run(sockets=[sock])
    finally:
        stopping.set()
        judge.stopping = True
        mail.join(30)
        judge.log("stopped")
