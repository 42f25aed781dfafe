"""The two HTTP front ends' guards (pbem/api/http_guard.py `screened`, in front of `pbem app` and `pbem judge
web`) and the web judge's pages' event streams, attacked as a stranger or a cheating player would, in raw
HTTP over a socket (no client library to tidy the request up) to the real processes: Host variants, methods
in odd cases, an absolute-form target, two Hosts or none, a websocket upgrade; streams of seats not held,
streams cut by the hundred. Every refusal the guard makes carries the security headers and writes nothing.
The judge here is pbem judge web itself, that tells each look of its one watcher (tests/looking_web_judge.py)."""

from __future__ import annotations

import hashlib
import json
import re
import socket
import sqlite3
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app_support import App, Table
from judge_support import write_config
from web_client_support import Client, WebJudge, entry_for, seated

TESTS = Path(__file__).resolve().parent.parent
LOOK_AGAIN = 0.05
"""How often the judge here looks at the store while a page is open (the judge's own LOOK_AGAIN is 5 s)."""

UPGRADE = ("Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
           "Sec-WebSocket-Version: 13\r\n")


class LookingJudge(WebJudge):
    """pbem judge web that writes each look for other processes' changes, and each stream opened or closed."""

    program = (str(TESTS / "looking_web_judge.py"),)
    host = ""
    """What its pages' requests name in Host: 127.0.0.1:PORT."""

    def told(self) -> list[str]:
        path = self.base / "looks.txt"
        return path.read_text().splitlines() if path.exists() else []

    def open_streams(self) -> int:
        counts = [line for line in self.told() if line.startswith("streams ")]
        return int(counts[-1].split()[1]) if counts else 0

    def looks(self) -> int:
        return self.told().count("look")

    def store(self) -> list[tuple[object, ...]]:
        """Every row of the judge's store, table by table (read only)."""
        db = sqlite3.connect(f"file:{self.base / 'judge-home' / 'judge.db'}?mode=ro", uri=True)
        try:
            names = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
            return [(name, *row) for name in names for row in db.execute(f"SELECT * FROM {name} ORDER BY 1")]
        finally:
            db.close()


@pytest.fixture(scope="module")
def judge(base):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PBEM_TEST_LOOKS", str(base / "looks.txt"))
        patch.setenv("PBEM_TEST_LOOK_AGAIN", str(LOOK_AGAIN))
        with LookingJudge(base) as running:
            running.host = running.url.removeprefix("http://")
            yield running


def exchange(port: int, request: str | bytes, timeout: float = 10) -> tuple[int, dict[str, str], bytes]:
    """One request sent as these bytes; the status, headers (lower case names) and body of the answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(request.encode("latin-1") if isinstance(request, str) else request)
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            assert chunk, f"the connection closed without an answer: {data!r}"
            data += chunk
        head, body = data.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        headers = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:])}
        while "content-length" not in headers or len(body) < int(headers["content-length"]):
            chunk = sock.recv(65536)  # no length: the body ends with the connection
            if not chunk:
                break
            body += chunk
    return int(lines[0].split()[1]), headers, body


def secured(headers: dict[str, str]) -> bool:
    """Whether an answer carries every header the guard adds to every response."""
    policy = headers.get("content-security-policy", "")
    return (policy.startswith("default-src 'none'; script-src 'self'") and "frame-ancestors 'none'" in policy
            and headers.get("x-frame-options") == "DENY" and headers.get("x-content-type-options") == "nosniff"
            and headers.get("referrer-policy") == "no-referrer"
            and headers.get("cross-origin-opener-policy") == "same-origin"
            and headers.get("cross-origin-resource-policy") == "same-origin")


def port_of(url: str) -> int:
    return int(url.rsplit(":", 1)[1].split("/")[0])


def other_hosts(host: str) -> list[str]:
    """Host headers that name another server than `host` (127.0.0.1:PORT), or the same one in another way."""
    port = int(host.rsplit(":", 1)[1])
    return [f"localhost:{port}", f"LOCALHOST:{port}", f"127.0.0.1.:{port}", "127.0.0.1", f"127.0.0.1:{port + 1}",
            "127.0.0.1:80", f"127.0.0.1:0{port}", f"[::1]:{port}", f"2130706433:{port}", f"evil.example:{port}",
            "evil.example"]


ODD_METHODS = ["get", "Get", "post", "OPTIONS", "PUT", "DELETE", "PATCH", "PROPFIND", "TRACE", "MKCOL"]
"""Methods the guards refuse 405 (a method's name is case-sensitive: `get` is not GET)."""


# ---------------------------------------------------------------- pbem judge web's guard


@pytest.mark.slow
def test_the_judge_answers_no_other_host_and_every_refusal_is_secured(judge):
    port = port_of(judge.url)
    refusal = f"Forbidden: this server answers only to {judge.host}".encode()
    status, headers, _ = exchange(port, f"GET / HTTP/1.1\r\nHost: {judge.host}\r\nConnection: close\r\n\r\n")
    assert status == 200 and secured(headers)  # the request itself is served
    for host in other_hosts(judge.host):
        answer = exchange(port, f"GET / HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n")
        assert answer[0] == 403 and answer[2] == refusal and secured(answer[1]), host
    for request in (f"GET http://{judge.host}/ HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n",
                    "GET / HTTP/1.0\r\n\r\n",  # HTTP/1.0 needs no Host: none is not this server's
                    "CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443\r\n\r\n",  # the Host is checked first
                    f"GET / HTTP/1.1\r\nHost: evil.example\r\n{UPGRADE}\r\n".replace("Upgrade: websocket", "Upgrade: h2c")):
        status, headers, body = exchange(port, request)
        assert (status, body) == (403, refusal) and secured(headers), request
    # two Host headers, or none in HTTP/1.1: the HTTP server refuses the request before the guard sees it
    for request in (f"GET / HTTP/1.1\r\nHost: evil.example\r\nHost: {judge.host}\r\n\r\n",
                    f"GET / HTTP/1.1\r\nHost: {judge.host}\r\nHost: evil.example\r\n\r\n", "GET / HTTP/1.1\r\n\r\n"):
        status, headers, body = exchange(port, request)
        assert (status, body) == (400, b"Invalid HTTP request received."), request
        assert "set-cookie" not in headers


@pytest.mark.slow
def test_the_judge_refuses_other_methods_whatever_their_case_and_nothing_is_written(judge):
    port = port_of(judge.url)
    links = judge.invite("sarcophagus", "eve", "fay")
    path = links["eve"].removeprefix(judge.url)
    eve = Client(judge)
    eve.get(path)  # the invitation's page: a session and its anti-forgery token
    join = json.dumps({"token": path.rsplit("/", 1)[1], "key": "ssh-ed25519 AAAA eve", "address": None})
    before = judge.store()
    for method in ODD_METHODS:
        # what would take eve's seat, but for the method (and for `post`, which the page never sends, no token)
        request = (f"{method} /api/join HTTP/1.1\r\nHost: {judge.host}\r\nCookie: {eve.cookie}\r\n"
                   f"Content-Type: application/json\r\nOrigin: {judge.url}\r\nContent-Length: {len(join)}\r\n"
                   f"Connection: close\r\n\r\n{join}")
        status, headers, body = exchange(port, request)
        assert (status, body) == (405, b"Method not allowed") and secured(headers), method
        assert "access-control-allow-origin" not in headers and "set-cookie" not in headers
    status, headers, body = exchange(port, f"CONNECT {judge.host} HTTP/1.1\r\nHost: {judge.host}\r\n\r\n")
    assert (status, body) == (405, b"Method not allowed") and secured(headers)
    forged = {"x-pbem-csrf": eve.csrf, "cookie": eve.cookie, "content-type": "application/json", "origin": judge.url}
    status, headers, body = judge.request("POST", "/api/join", json.loads(join), {**forged, "host": "evil.example"})
    assert status == 403 and secured(headers)  # a genuine page's POST, to a rebound name
    assert judge.store() == before
    status, answer = eve.take(links["eve"], "eve")  # the same join, sent as the page sends it, takes the seat
    assert status == 200 and answer["ok"] and judge.store() != before


@pytest.mark.slow
def test_the_judge_refuses_a_websocket_upgrade_and_writes_nothing(judge):
    port = port_of(judge.url)
    before = judge.store()
    for host in (judge.host, "evil.example"):  # no websocket here: an upgrade is an ordinary request
        status, headers, _ = exchange(port, f"GET / HTTP/1.1\r\nHost: {host}\r\n{UPGRADE}\r\n")
        assert status == (200 if host == judge.host else 403) and secured(headers), host
        assert "sec-websocket-accept" not in headers and "set-cookie" not in headers, host
    assert judge.store() == before


# ---------------------------------------------------------------- found by these attacks, and mended


@pytest.mark.slow
def test_a_websocket_upgrade_is_refused_403_with_the_security_headers(judge):
    port = port_of(judge.url)
    status, headers, _ = exchange(port, f"GET / HTTP/1.1\r\nHost: evil.example\r\n{UPGRADE}\r\n")
    assert status == 403 and secured(headers)


@pytest.mark.slow
def test_the_judge_refuses_an_absolute_form_target_naming_another_host(judge):
    status, headers, _ = exchange(port_of(judge.url), f"GET http://evil.example/ HTTP/1.1\r\nHost: {judge.host}\r\n"
                                                       "Connection: close\r\n\r\n")
    assert status == 403 and secured(headers)


@pytest.mark.slow
def test_a_url_in_capitals_or_with_its_default_port_serves_what_browsers_send(tmp_path):
    config = write_config(tmp_path, 1, maildir=tmp_path / "mail")
    log = tmp_path / "web.log"
    with log.open("ab") as out:
        process = subprocess.Popen([sys.executable, "-m", "pbem.judge", "web", str(config), "--port", "0",
                                    "--url", "https://Pbem.Example.org:443"], stdout=out, stderr=out)
    try:
        deadline, found = time.monotonic() + 30, list[str]()
        while not found and time.monotonic() < deadline and process.poll() is None:
            found = re.findall(r" web pages on (http://\S+) ", log.read_text())
            time.sleep(0.05)
        assert found, log.read_text()
        status, headers, _ = exchange(port_of(found[0]), "GET / HTTP/1.1\r\nHost: pbem.example.org\r\n"
                                                         "Connection: close\r\n\r\n")
        assert status == 200 and secured(headers)
    finally:
        process.terminate()
        process.wait(30)


# ---------------------------------------------------------------- the web judge's pages' event streams


def seats_of(judge: LookingJudge, game: str = "sarcophagus", *names: str) -> dict[str, tuple[Client, str]]:
    """A table whose seats were taken by their browsers: each seat's client and its page's address."""
    _, clients, plays = seated(judge, game, *names)
    return {name: (clients[name], plays[name]) for name in clients}


def stream_request(judge: LookingJudge, play: str, cookie: str | None, host: str | None = None,
                   method: str = "GET") -> str:
    return (f"{method} /api{play}/events HTTP/1.1\r\nHost: {host or judge.host}\r\n"
            + (f"Cookie: {cookie}\r\n" if cookie else "") + "\r\n")


class Stream:
    """A page's event stream, read from a socket of its own: what it said (its `data:` lines)."""

    def __init__(self, judge: LookingJudge, play: str, cookie: str):
        self.sock = socket.create_connection(("127.0.0.1", port_of(judge.url)), timeout=10)
        self.sock.sendall(stream_request(judge, play, cookie).encode())
        self.data = b""

    def said(self, timeout: float = 10) -> list[str]:
        """Every `data:` line so far, once there is one more than before (or after `timeout`)."""
        seen = len(self.lines())
        self.sock.settimeout(timeout)
        try:
            while len(self.lines()) == seen:
                chunk = self.sock.recv(65536)
                if not chunk:
                    break
                self.data += chunk
        except TimeoutError:
            pass
        return self.lines()

    def lines(self) -> list[str]:
        return [found.decode() for found in re.findall(rb"data: ([^\n]*)\n", self.data)]

    def cut(self, reset: bool) -> None:
        """The page gone: the connection closed, or reset (as when a machine drops off the network)."""
        if reset:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.sock.close()


def until(predicate, timeout: float = 5) -> bool:
    deadline = time.monotonic() + timeout
    while not predicate() and time.monotonic() < deadline:
        time.sleep(0.01)
    return bool(predicate())


@pytest.mark.slow
def test_a_stream_of_a_seat_not_held_is_refused_and_watches_nothing(judge):
    seats = seats_of(judge)
    (ann, _), (ben, play) = seats["ann"], seats["ben"]
    stranger = Client(judge)
    stranger.get(play)  # a page session of its own, from the game's page
    assert until(lambda: judge.open_streams() == 0)
    told = len(judge.told())
    port = port_of(judge.url)
    not_held = "this browser does not hold ben's seat: import ben's key file here"
    for cookie in (ann.cookie, None, stranger.cookie, "pbem-web=" + "A" * 43):
        status, headers, body = exchange(port, stream_request(judge, play, cookie))
        assert status == 403 and json.loads(body)["message"] == not_held and secured(headers), cookie
    status, headers, body = exchange(port, stream_request(judge, play.replace("/ben", "/zed"), ben.cookie))
    assert status == 404 and json.loads(body)["message"] == "no such seat here"
    status, headers, body = exchange(port, stream_request(judge, play, ben.cookie, host="evil.example"))
    assert status == 403 and body.startswith(b"Forbidden: this server answers only to ") and secured(headers)
    status, headers, body = exchange(port, stream_request(judge, play, ben.cookie, method="get"))
    assert (status, body) == (405, b"Method not allowed") and secured(headers)
    time.sleep(LOOK_AGAIN * 4)
    assert judge.told()[told:] == []  # no stream was opened, and the judge did not look at the store


@pytest.mark.slow
def test_streams_opened_and_cut_leave_none_open_and_the_looks_stop(judge):
    client, play = seats_of(judge)["ben"]
    assert until(lambda: judge.open_streams() == 0)
    streams = [Stream(judge, play, client.cookie) for _ in range(40)]
    for stream in streams:
        assert stream.said()[0].startswith("entries "), stream.data  # each heard the game as it stands
    assert until(lambda: judge.open_streams() == 40)
    looked = judge.looks()
    assert until(lambda: judge.looks() >= looked + 2)  # one watcher looks while pages are open
    quick = [Stream(judge, play, client.cookie) for _ in range(20)]  # cut before the judge even answers
    for quitter in quick:
        quitter.cut(reset=True)
    for index, stream in enumerate(streams):
        stream.cut(reset=index % 2 == 0)
    # (each connection is answered in turn: on a loaded machine the last may take seconds to be seen gone)
    assert until(lambda: judge.open_streams() == 0, 30), judge.told()[-5:]
    time.sleep(LOOK_AGAIN * 2)
    looked = judge.looks()
    time.sleep(LOOK_AGAIN * 6)
    assert judge.looks() == looked and judge.open_streams() == 0  # no page open: the store is not asked


@pytest.mark.slow
def test_a_stream_hears_its_own_tables_changes_and_not_anothers(judge):
    mine, theirs = seats_of(judge), seats_of(judge, "sarcophagus", "cat", "dan")
    ben, ben_play = mine["ben"]
    stream = Stream(judge, ben_play, ben.cookie)
    try:
        hears_its_own(judge, stream, mine, theirs)
    finally:
        stream.cut(reset=False)
    assert until(lambda: judge.open_streams() == 0)


def hears_its_own(judge: LookingJudge, stream: Stream, mine: dict[str, tuple[Client, str]],
                  theirs: dict[str, tuple[Client, str]]) -> None:
    ann, ann_play = mine["ann"]
    start = ann.state(ann_play)
    assert stream.said() == [f"entries {start['seq']}"]
    for name in ("cat", "dan"):  # the other table moves on twice: past where ben's table goes next
        client, play = theirs[name]
        state = client.state(play)
        offer = next(iter(state["offers"]), None)
        assert offer, state
        status, answer = client.post("/api" + play + "/entry", {"entry": entry_for(client.keys[name], state, offer)})
        assert status == 200, answer
    moved = theirs["cat"][0].state(theirs["cat"][1])["seq"]
    assert moved > start["seq"] + 1  # (the judge's own entries follow the joins)
    assert stream.said(timeout=LOOK_AGAIN * 6) == [f"entries {start['seq']}"]  # woken, it told ben nothing
    status, _ = ann.post("/api" + ann_play + "/entry", {"entry": entry_for(ann.keys["ann"], start, start["offers"][0])})
    assert status == 200
    assert stream.said() == [f"entries {start['seq']}", f"entries {start['seq'] + 1}"]


# ---------------------------------------------------------------- pbem app's guard


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    """ann's pbem app (ben in her address book), its mail server absent: what it writes stays in her files."""
    base = tmp_path_factory.mktemp("app")
    people = Table(base, ["ann", "ben"], 1)
    running = App(people.home("ann"), App.launch(people.env("ann")))
    yield running
    running.stop()


def files_of(app: App) -> dict[str, str]:
    """Every file of ann's (her home and her Maildir), by its path: what the app could have written."""
    base = app.home.parent.parent
    return {str(path): hashlib.sha256(path.read_bytes()).hexdigest() for path in sorted(base.rglob("*"))
            if path.is_file()}


@pytest.mark.slow
def test_the_app_answers_no_other_host_and_every_refusal_is_secured(app):
    host = f"127.0.0.1:{app.port}"
    refusal = f"Forbidden: this app answers only to {host}".encode()
    before = files_of(app)
    for other in other_hosts(host):  # the link's token, that would be traded for the cookie
        status, headers, body = exchange(app.port, f"GET /?token={app.token} HTTP/1.1\r\nHost: {other}\r\n"
                                                   "Connection: close\r\n\r\n")
        assert (status, body) == (403, refusal) and secured(headers) and "set-cookie" not in headers, other
    for request in (f"GET http://{host}/?token={app.token} HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n",
                    f"GET /?token={app.token} HTTP/1.0\r\n\r\n"):
        status, headers, body = exchange(app.port, request)
        assert (status, body) == (403, refusal) and secured(headers) and "set-cookie" not in headers, request
    for request in (f"GET /?token={app.token} HTTP/1.1\r\nHost: evil.example\r\nHost: {host}\r\n\r\n",
                    f"GET /?token={app.token} HTTP/1.1\r\nHost: {host}\r\nHost: evil.example\r\n\r\n",
                    f"GET /?token={app.token} HTTP/1.1\r\n\r\n"):
        status, headers, body = exchange(app.port, request)
        assert (status, body) == (400, b"Invalid HTTP request received.") and "set-cookie" not in headers, request
    for host_named in (host, "evil.example"):  # no websocket here: an upgrade is an ordinary request, whose
        status, headers, _ = exchange(app.port, f"GET /?token={app.token} HTTP/1.1\r\nHost: {host_named}\r\n{UPGRADE}\r\n")
        assert status != 101 and "sec-websocket-accept" not in headers and secured(headers)
        assert ("set-cookie" in headers) == (host_named == host)  # token is traded for the cookie as any request's
    assert files_of(app) == before


@pytest.mark.slow
def test_the_app_refuses_other_methods_whatever_their_case_and_nothing_is_written(app):
    app.login()
    people = app.home.parent.parent
    keys = {name: (people / name / "home" / "keys" / f"{name}.pub").read_text().strip() for name in ("ann", "ben")}
    new = json.dumps({"game": "sarcophagus", "me": "ann", "players": [["ann", keys["ann"]], ["ben", keys["ben"]]]})
    genuine = (f"Host: 127.0.0.1:{app.port}\r\nCookie: {app.cookie}\r\nContent-Type: application/json\r\n"
               f"X-Pbem-Csrf: {app.csrf}\r\nOrigin: {app.base}\r\nContent-Length: {len(new)}\r\nConnection: close\r\n")
    before = files_of(app)
    for method in ODD_METHODS:  # a game started from the form, but for the method
        status, headers, body = exchange(app.port, f"{method} /new HTTP/1.1\r\n{genuine}\r\n{new}")
        assert (status, body) == (405, b"Method not allowed") and secured(headers), method
        assert "access-control-allow-origin" not in headers
    status, headers, body = exchange(app.port, f"CONNECT 127.0.0.1:{app.port} HTTP/1.1\r\nHost: 127.0.0.1:{app.port}\r\n\r\n")
    assert (status, body) == (405, b"Method not allowed") and secured(headers)
    assert files_of(app) == before
    status, headers, body = exchange(app.port, f"POST /new HTTP/1.1\r\n{genuine}\r\n{new}")
    assert status == 200 and json.loads(body)["message"].startswith("Started Sarcophagus")
    assert files_of(app) != before  # the same request, by POST, writes the game


@pytest.mark.slow
def test_the_app_refuses_an_absolute_form_target_naming_another_host(app):
    status, headers, _ = exchange(app.port, f"GET http://evil.example/?token={app.token} HTTP/1.1\r\n"
                                            f"Host: 127.0.0.1:{app.port}\r\nConnection: close\r\n\r\n")
    assert status == 403 and "set-cookie" not in headers


@pytest.mark.slow
def test_the_app_refuses_a_websocket_upgrade_403_with_the_security_headers(app):
    status, headers, _ = exchange(app.port, f"GET / HTTP/1.1\r\nHost: evil.example\r\n{UPGRADE}\r\n")
    assert status == 403 and secured(headers)
