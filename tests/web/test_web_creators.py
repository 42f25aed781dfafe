"""Creator links: the host's `pbem judge creator-link` gives someone with only a browser the power to make
tables, over real HTTP to the judge's own process; a table made so is the one `pbem judge invite` makes
(its links take one seat each, once), and what cannot be one is refused in one line with no table made."""

from __future__ import annotations

import re
import sqlite3

import pytest

from judge_support import cli, ok
from web_client_support import Client

LINK = re.compile(r"(http://127\.0\.0\.1:\d+)/new/([A-Za-z0-9_-]{43})")


def creator_link(judge) -> str:
    out = ok(cli(judge.base / "operator", judge.port, "judge", "creator-link", judge.config, "--url", judge.url + "/"))
    lines = out.splitlines()
    found = LINK.fullmatch(lines[0])
    assert found and found.group(1) == judge.url, out
    assert lines[1:] == ["Whoever opens this link can make tables on this judge, until "
                         "`pbem judge creator-link CONFIG --revoke`."]
    return found.group(2)


def table_count(judge) -> int:
    with sqlite3.connect(judge.base / "judge-home" / "judge.db") as db:
        return int(db.execute("SELECT count(*) FROM web_tables").fetchone()[0])


@pytest.fixture
def creator(judge):
    """A browser that opened a new creator link (one a test, as a test may revoke every link): its client
    (holding the page's anti-forgery token) and the link's token."""
    token = creator_link(judge)
    client = Client(judge)
    status, _, page = client.get(f"/new/{token}")
    assert status == 200 and client.csrf, page
    return client, token


def test_the_page_offers_every_game_with_its_player_counts(creator):
    client, token = creator
    _, headers, page = client.get(f"/new/{token}")
    assert "<h1>New table</h1>" in page and "form-action 'none'" in headers["content-security-policy"]
    assert re.findall(r'<option value="([^"]+)">([^<]+)</option>', page) == [
        ("sarcophagus", "Sarcophagus (2 to 4 players)"), ("path-of-pharaohs", "Path of Pharaohs (3 to 6 players)")]


def test_a_table_made_in_the_browser_gives_one_link_a_seat_each_good_once(judge, creator):
    client, token = creator
    before = table_count(judge)
    status, answer = client.post("/api/new", {"token": token, "game": "sarcophagus", "seats": ["ann", "ben"],
                                              "options": []})
    assert status == 200 and answer["ok"], answer
    assert table_count(judge) == before + 1 and re.fullmatch(r"[0-9a-f]{16}", answer["table"])
    links = answer["links"]
    assert list(links) == ["ann", "ben"] and links["ann"] != links["ben"]
    assert all(re.fullmatch(re.escape(judge.url) + r"/join/[A-Za-z0-9_-]{43}", link) for link in links.values())
    tables = ok(cli(judge.base / "operator", judge.port, "judge", "tables", judge.config))
    assert f"{answer['table']} sarcophagus: ann (free), ben (free); waiting for its seats" in tables
    for name in ("ann", "ben"):
        player = Client(judge)
        status, taken = player.take(links[name], name)
        assert status == 200 and taken["play"] == f"/play/{answer['table']}/{name}", taken
        status, again = Client(judge).take(links[name], name)  # a used link's page gives no session
        assert status == 403
        player.get(taken["play"])
        status, again = player.take(links[name], name)
        assert (status, again["message"]) == (409, "this invitation link was used already: a link takes one seat, once")


@pytest.mark.parametrize(("game", "seats", "options", "message"), [
    ("sarcophagus", ["ann"], [], "Sarcophagus is for 2 to 4 players, not 1"),
    ("path-of-pharaohs", ["ann", "ben"], [], "Path of Pharaohs is for 3 to 6 players, not 2"),
    ("sarcophagus", ["ann", "<b>ben</b>"], [], "'<b>ben</b>' is not a name pbem takes (letters, digits, - and _)"),
    ("sarcophagus", ["ann", "judge"], [], "each seat needs a name of its own, and not 'judge' (the judge's)"),
    ("sarcophagus", ["ann", "ben"], ["rows=99"], "unknown option 'rows' (options: two_player, bottom_edge_free)"),
    ("chess", ["ann", "ben"], [], "no game 'chess': pbem plays sarcophagus, path-of-pharaohs"),
])
def test_what_cannot_be_a_table_is_refused_in_one_line_and_makes_none(judge, creator, game, seats, options, message):
    client, token = creator
    before = table_count(judge)
    status, answer = client.post("/api/new", {"token": token, "game": game, "seats": seats, "options": options})
    assert (status, answer) == (400, {"ok": False, "message": message})
    assert table_count(judge) == before


def test_a_post_without_the_anti_forgery_token_or_a_creator_link_makes_no_table(judge, creator):
    client, token = creator
    before = table_count(judge)
    body = {"token": token, "game": "sarcophagus", "seats": ["ann", "ben"], "options": []}
    status, answer = client.post("/api/new", body, x_pbem_csrf=None)
    assert (status, answer["message"]) == (403, "refused: the anti-forgery token is missing or wrong (reload the page)")
    status, answer = client.post("/api/new", body, x_pbem_csrf="x" * 43)
    assert status == 403
    status, answer = client.post("/api/new", {**body, "token": "A" * 43})
    assert (status, answer["message"]) == (404, "this creator link is not one this judge gave, or it was revoked")
    status, _, page = Client(judge).get("/new/" + "A" * 43)
    assert status == 404 and "Not a creator link" in page
    assert table_count(judge) == before


def test_revoked_creator_links_make_no_table(judge):
    token = creator_link(judge)
    client = Client(judge)
    assert client.get(f"/new/{token}")[0] == 200
    out = ok(cli(judge.base / "operator", judge.port, "judge", "creator-link", judge.config, "--revoke"))
    assert re.fullmatch(r"Revoked [1-9]\d* creator links?: none makes a table any more\.\n", out)
    assert ok(cli(judge.base / "operator", judge.port, "judge", "creator-link", judge.config, "--revoke")) == \
        "Revoked 0 creator links: none makes a table any more.\n"
    before = table_count(judge)
    status, answer = client.post("/api/new", {"token": token, "game": "sarcophagus", "seats": ["ann", "ben"]})
    assert (status, answer["message"]) == (404, "this creator link is not one this judge gave, or it was revoked")
    assert client.get(f"/new/{token}")[0] == 404 and table_count(judge) == before
