"""pbem judge web against what a hostile page, a thief or a careless operator tries, over real HTTP to the
judge's own process: a strict policy and integrity on every script from this origin only, anti-forgery on
every POST, a link good for one seat once, the Host checked, a page session that cannot sign without the
key its browser holds, and names that cannot carry markup. (The browser half: tests/web/test_web_browser.py.)"""

from __future__ import annotations

import base64
import hashlib
import json
import re

import pytest

from pbem.judge.web_guard import authority

from judge_support import cli, fast_cli, ok
from web_client_support import Client, entry_for, seated

NAMES = ["ann", "ben", "cat"]
@pytest.fixture(scope="module")
def table(judge):
    """A Sarcophagus table whose three seats were taken by three browsers, and the game begun: each
    browser's client and its seat's page."""
    return seated(judge, "sarcophagus", *NAMES)


def test_the_link_took_its_seat_once(judge, table):
    links, _, plays = table
    assert all(plays[name].startswith("/play/") and plays[name].endswith("/" + name) for name in NAMES)
    stranger = Client(judge)
    status, _, page = stranger.get(links["ann"].removeprefix(judge.url))
    assert status == 410 and "took its seat already" in page
    status, answer = stranger.take(links["ann"], "ann")  # a used link's page makes no session: no token to post
    assert (status, answer["message"]) == (403, "refused: the anti-forgery token is missing or wrong (reload the page)")
    stranger.get(plays["ann"])  # a session from a page that makes one
    status, answer = stranger.take(links["ann"], "ann")
    assert (status, answer["message"]) == (409, "this invitation link was used already: a link takes one seat, once")
    status, _, page = stranger.get("/join/" + "A" * 43)
    assert status == 404 and "not an invitation this judge gave" in page


def test_pages_load_only_their_own_files_under_a_strict_policy(judge, table):
    _, clients, plays = table
    fresh = judge.invite("path-of-pharaohs", "dan", "eve", "fay")["dan"].removeprefix(judge.url)
    for client, path in ((clients["ann"], plays["ann"]), (Client(judge), fresh)):
        _, headers, page = client.get(path)
        policy = headers["content-security-policy"]
        assert policy.startswith("default-src 'none'; script-src 'self' 'sha256-")
        assert "unsafe" not in policy and "frame-ancestors 'none'" in policy and "connect-src 'self'" in policy
        assert headers["x-frame-options"] == "DENY" and headers["referrer-policy"] == "no-referrer"
        scripts = re.findall(r'<script ([^>]*)src="([^"]+)" integrity="([^"]+)"', page)
        styles = re.findall(r'<link rel="stylesheet" href="([^"]+)" integrity="([^"]+)"', page)
        assert scripts and styles
        assert len(re.findall(r"<script\b", page)) == len(scripts) + 2  # + the import map and the JSON data
        for url, integrity in [(u, i) for _, u, i in scripts] + styles:
            assert url.startswith("/static/")  # this origin only
            _, _, data = judge.request("GET", url)
            assert integrity == "sha384-" + base64.b64encode(hashlib.sha384(data).digest()).decode()
        imports = json.loads(re.search(r'<script type="importmap">(.*?)</script>', page).group(1))["integrity"]
        for url, integrity in imports.items():  # every module a module imports is in the map, by its hash
            _, _, data = judge.request("GET", url)
            assert integrity == "sha384-" + base64.b64encode(hashlib.sha384(data).digest()).decode()
            for imported in re.findall(rb"""from\s+['"](\.[^'"]+)['"]""", data):
                folder = url.rsplit("/", 1)[0]
                target = "/".join([*folder.split("/"), *imported.decode().split("/")])
                while "/./" in target or "/../" in target:
                    target = re.sub(r"/\./", "/", re.sub(r"/[^/]+/\.\./", "/", target, count=1), count=1)
                assert target in imports, f"{url} imports {target}, which has no hash in the import map"
        assert "http://" not in page.replace(judge.url, "") and "https://" not in page


def test_every_post_needs_the_anti_forgery_token_and_this_origin(judge, table):
    _, clients, plays = table
    ann = clients["ann"]
    state = ann.state(plays["ann"])
    assert state["started"] and state["holds"]
    path = "/api" + plays["ann"] + "/entry"
    forged = {"entry": {"author": "ann"}}
    refusals = [ann.post(path, forged, x_pbem_csrf=None), ann.post(path, forged, x_pbem_csrf="wrong"),
                ann.post(path, forged, origin="https://evil.example"),
                ann.post(path, forged, sec_fetch_site="cross-site"), ann.post(path, forged, content_type="text/plain")]
    assert [status for status, _ in refusals] == [403] * 5
    assert [answer["message"].split(":")[0] for _, answer in refusals] == ["refused"] * 5
    status, _, body = judge.request("GET", plays["ann"], headers={"host": "evil.example"})
    assert status == 403 and b"answers only to 127.0.0.1:" in body
    status, _, _ = judge.request("PUT", plays["ann"])
    assert status == 405


def test_a_stolen_page_session_cannot_sign_without_the_key(judge):
    from pbem.crypto import Identity

    _, clients, plays = seated(judge, "sarcophagus", *NAMES)  # a table of its own: ann's join still owed, whatever ran before
    thief = Client(judge)
    thief.cookie, thief.csrf = clients["ann"].cookie, clients["ann"].csrf  # ann's cookie and token, stolen
    state = thief.state(plays["ann"])
    assert state["offers"] and state["offers"][0]["kind"] == "join"
    mine = entry_for(Identity.generate(), state, state["offers"][0], note="signed by a thief")
    status, answer = thief.post("/api" + plays["ann"] + "/entry", {"entry": mine})
    assert (status, answer["message"]) == (409, "the judge did not apply it: refused a turn: entry 1 by ann: signed by "
                                                "a different key")
    unsigned = {k: v for k, v in mine.items() if k != "signature"}
    status, answer = thief.post("/api" + plays["ann"] + "/entry", {"entry": unsigned})
    assert status == 409
    assert thief.state(plays["ann"])["seq"] == state["seq"]  # nothing was applied
    status, answer = thief.post("/api" + plays["ann"] + "/entry", {"entry": {**mine, "author": "ben"}})
    assert (status, answer["message"]) == (409, "the judge did not apply it: this page posts ann's entries only")
    # ann's own key signs, through the same page session: applied, and the judge moved on to ben
    good = entry_for(clients["ann"].keys["ann"], state, state["offers"][0])
    status, answer = clients["ann"].post("/api" + plays["ann"] + "/entry", {"entry": good})
    assert (status, answer) == (200, {"ok": True, "seq": state["seq"] + 1, "state": clients["ann"].state(plays["ann"])})


def test_another_browser_holds_a_seat_only_by_signing_with_its_key(judge, table):
    from pbem.api import browser
    from pbem.crypto import Identity
    from pbem.protocol.commitments import b64

    _, clients, plays = table
    phone = Client(judge)
    phone.get(plays["ben"])
    shown = phone.state(plays["ben"])
    assert shown == {"ok": True, "holds": False, "key": clients["ben"].keys["ben"].public.line()}  # no view, no offers
    table_id = plays["ben"].split("/")[2]
    message = browser.hold_message(table_id, "ben", phone.csrf)
    wrong = b64(Identity.generate().sign(message, browser.HOLD_NAMESPACE))
    status, answer = phone.post("/api" + plays["ben"] + "/hold", {"signature": wrong})
    assert (status, answer["message"]) == (403, "that signature is not by ben's key")
    replayed = b64(clients["ben"].keys["ben"].sign(browser.hold_message(table_id, "ben", clients["ben"].csrf),
                                                   browser.HOLD_NAMESPACE))
    status, _ = phone.post("/api" + plays["ben"] + "/hold", {"signature": replayed})  # bound to another session
    assert status == 403
    right = b64(clients["ben"].keys["ben"].sign(message, browser.HOLD_NAMESPACE))
    status, answer = phone.post("/api" + plays["ben"] + "/hold", {"signature": right})
    assert (status, answer) == (200, {"ok": True})
    assert phone.state(plays["ben"])["holds"] is True


def test_names_cannot_carry_markup(judge, monkeypatch):
    fast_cli(monkeypatch)
    result = cli(judge.base / "operator", judge.port, "judge", "invite", judge.config, "sarcophagus", "ann",
                 '<img src=x onerror="alert(1)">', "cat", "--url", judge.url)
    assert result.exit_code == 1
    assert result.output.startswith("Error: '<img src=x onerror=\"alert(1)\">' is not a name pbem takes")


def test_a_judge_that_alters_a_browser_players_entry_or_signs_for_them_is_caught(judge, table, base):
    """The judge holds the record, so it could change what a browser posted, or sign in a player's name: the
    signature is the player's key's, made in their browser, and pbem verify refuses either file."""
    from pbem.api import load_identity
    from pbem.protocol.commitments import b64
    from pbem.record.canonical import canonical

    _, clients, plays = table
    state = clients["ann"].state(plays["ann"])
    if state["seq"] == 0:  # ann's join, signed with her key
        good = entry_for(clients["ann"].keys["ann"], state, state["offers"][0])
        assert clients["ann"].post("/api" + plays["ann"] + "/entry", {"entry": good})[0] == 200
    copy = next(path for path in judge.export() if path.name.startswith("sarcophagus-"))
    assert ": valid, in progress, " in cli(base / "anyone", 0, "verify", copy).output
    record = json.loads(copy.read_text())
    ann = record["entries"][0]
    assert ann["author"] == "ann" and ann["action"] == "join"
    altered = {**ann, "contribution": "0" * 64}  # the judge changes ann's share of the deal's randomness
    signed = {k: v for k, v in altered.items() if k != "signature"}
    forged = {**altered, "signature": b64(load_identity(str(base / "judge-home" / "keys" / "judge")).sign(canonical(signed)))}
    for entry, why in ((altered, "signature does not match"), (forged, "signed by a different key")):
        cheat = base / f"cheat-{why.split()[0]}.json"
        cheat.write_text(json.dumps({**record, "entries": [entry, *record["entries"][1:]]}))
        result = cli(base / "anyone", 0, "verify", cheat)
        assert result.exit_code == 1 and why in result.output and "entry 1 by ann" in result.output, result.output


def test_only_a_page_that_needs_a_session_makes_one(judge, table):
    """Whoever requests the home page, a made-up link or a made-up seat gets no cookie (no row in the
    judge's store for each request)."""
    _, _, plays = table
    for path in ("/", "/join/" + "B" * 43, plays["ann"].rsplit("/", 1)[0] + "/zed", "/play/0000000000000000/ann"):
        status, headers, _ = judge.request("GET", path)
        assert "set-cookie" not in headers and status in (200, 404), (path, status)
    status, headers, _ = judge.request("GET", plays["ann"])
    assert status == 200 and headers["set-cookie"].startswith("pbem-web=")  # a seat's page: a session to import into
    assert "HttpOnly; SameSite=Lax" in headers["set-cookie"]


def test_a_seat_downloads_the_game_file_anyone_verifies(judge, table, base):
    _, clients, plays = table
    status, headers, data = judge.request("GET", "/api" + plays["cat"] + "/record",
                                          headers={"cookie": clients["cat"].cookie})
    assert status == 200 and headers["content-disposition"].startswith('attachment; filename="sarcophagus-')
    copy = base / "cat-download.json"
    copy.write_bytes(data)
    assert ": valid, " in ok(cli(base / "cat", 0, "verify", copy))
    status, _, _ = judge.request("GET", "/api" + plays["cat"] + "/record")  # no session of cat's: nothing
    assert status == 403


@pytest.mark.parametrize("url, host", [
    ("https://Pbem.Example.org:443", "pbem.example.org"),
    ("https://pbem.example.org:8443/games/", "pbem.example.org:8443"),
    ("http://PBEM.example.org:80", "pbem.example.org"),
    ("http://127.0.0.1:8080", "127.0.0.1:8080"),
    ("http://[::1]:8080", "[::1]:8080"),
    ("https://[2001:DB8::1]", "[2001:db8::1]"),
])
def test_the_host_a_browser_sends_for_the_judges_url(url, host):
    """What the guard answers to, and the authority of the Origin it accepts: as a browser writes them."""
    assert authority(url) == host
