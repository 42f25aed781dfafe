"""The HTML replay's contents: every frame is the engine's view for its observer, nothing hidden leaks
into the file (not even into the script data), no network is reachable, and the size stays small.
The page's behaviour in a real browser is tested in test_html_browser.py."""

from __future__ import annotations

import base64
import hashlib
import html
import json
import random
import re
from pathlib import Path

import pytest

from engine.contract import DEALER
from engine.sarcophagus.hidden import layout_from_tiles
from pbem.presentation.games import presentation
from pbem.presentation.html import page
from pbem.protocol.bots import bot_turn
from pbem.protocol.entries import apply_entry
from pbem.protocol.genesis import start

from cli_support import pbem, two_coins_played
from engine_support import layout_with
from pbem_support import played_game, sessions_for

DATA = re.compile(r'<script type="application/json" id="game-data">(.*?)</script>', re.S)


def data_of(text: str) -> dict:
    return json.loads(DATA.search(text).group(1).replace("<\\/", "</"))


def partly_played(turns: int, mode: str = "table", players=("ann", "ben", "cat")):
    """A game in progress: `turns` rounds of duties done by greedy bots, tiles still face down."""
    rep = played_game(mode, players, finish=False, layout=layout_with(seed=4), first=players[-1])
    sessions = sessions_for(rep)
    rng = random.Random(7)
    for _ in range(turns):
        for who in dict.fromkeys(d.who for d in rep.duties()):
            actor = who if who in sessions else next(n for n, s in sessions.items() if s.can_deal())
            bot_turn(sessions[actor], "greedy", rng)
    return rep, sessions


def views(rep, observer, knowledge):
    """The engine's view after the genesis and after every entry."""
    replayed = start(rep.genesis)
    shown = [replayed.game.view(replayed.state, observer, knowledge)]
    for entry in rep.entries:
        apply_entry(replayed, entry)
        shown.append(replayed.game.view(replayed.state, observer, knowledge))
    return shown


def hidden_tiles(rep, sessions) -> list[str]:
    """The names of the tiles still face down at the end of the record (from the dealer's secret)."""
    layout = layout_from_tiles(next(s for s in sessions.values() if s.can_deal()).dealer_values())
    shown = rep.game.view(rep.state, None)
    on_top = {pos: spot["tile"] for pos, spot in shown["pyramid"].items()}
    hidden = [str(t) for pos, t in zip(list(_positions()), layout.pyramid)
              if pos in on_top and on_top[pos] is None]
    hidden += [str(t) for pos, t in zip(("5c", "6c", "6d"), layout.under) if shown["sarcophagus"][pos]["tile"] is None]
    return hidden


def _positions():
    return [f"{row}{'abcdef'[c]}" for row in range(1, 7) for c in range(row)]


@pytest.fixture
def game(tmp_path, monkeypatch):
    return two_coins_played(tmp_path, monkeypatch)


@pytest.fixture(scope="module")
def in_progress():
    rep, sessions = partly_played(12)
    assert rep.outcome() is None
    return rep, sessions


@pytest.mark.slow
def test_every_frame_is_the_engines_view_for_that_observer(in_progress):
    rep, sessions = in_progress
    drawing = presentation("sarcophagus")
    knowledge = sessions["ann"].knowledge()
    for observer, known in ((None, None), ("ann", knowledge)):
        frames = data_of(page(rep, observer, known, viewer=observer))["frames"]
        assert [f["board"] for f in frames] == [drawing.html_board(v) for v in views(rep, observer, known)]
        assert [f["author"] for f in frames] == [rep.genesis.author] + [e.author for e in rep.entries]
        assert [f["action"] for f in frames][1:] == [e.action for e in rep.entries]
        by_entry = {}
        for seq, event in rep.events:
            by_entry.setdefault(seq, []).append(str(event))
        assert [f["events"] for f in frames] == [by_entry.get(n, []) for n in range(len(frames))]


def test_a_page_holds_no_face_down_tile_and_no_other_players_value(in_progress):
    rep, sessions = in_progress
    public = page(rep)
    ann = page(rep, "ann", sessions["ann"].knowledge(), viewer="ann")
    hidden = hidden_tiles(rep, sessions)
    assert len(hidden) >= 10  # most of the pyramid is still face down: the check below means something
    for text in (public, ann):
        assert not [t for t in hidden if t in text]
        assert rep.genesis.sealed["dealer"][:24] not in text and "salt" not in text
    seat_owner = [s["player"] for s in data_of(public)["meta"]["seats"]]
    shown_to_ann = added = 0
    for open_frame, ann_frame in zip(data_of(public)["frames"], data_of(ann)["frames"]):
        for pos, (tile, coins) in ann_frame["board"]["pyramid"].items():
            public_coins = open_frame["board"]["pyramid"][pos][1]
            assert tile == open_frame["board"]["pyramid"][pos][0]
            for (seat, value), (_, public_value) in zip(coins, public_coins):
                if seat_owner[seat] != "ann":
                    assert value == public_value  # another's value: only once opened for all
                elif value is not None:
                    shown_to_ann += 1
                    added += public_value is None
    assert added > 0 and shown_to_ann > added  # ann sees her unopened coins, and opened ones too


def test_a_referee_sees_every_coin_but_no_face_down_tile():
    rep, sessions = partly_played(10, mode="referee", players=("ann", "ben"))
    text = page(rep, DEALER, sessions["ref"].knowledge(), viewer="ref")
    last = data_of(text)["frames"][-1]["board"]
    coins = [c for _, spot_coins in last["pyramid"].values() for c in spot_coins]
    assert coins and all(value is not None for _, value in coins)
    assert "Shown as the referee ref sees it: public information and every hidden value." in text
    assert not [t for t in hidden_tiles(rep, sessions) if t in text]


def test_the_page_reaches_no_network_and_its_policy_admits_only_its_own_script_and_style():
    rep = played_game(players=("ann", "ben", "cat", "dan"), seed=3, layout=layout_with(seed=3), first="ann")
    text = page(rep)
    assert len(text.encode()) < 250_000  # a finished 4-player game (benchmarks/html_size.py prints it)
    assert "http:" not in text and "https:" not in text and "src=" not in text and "url(" not in text
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', text).group(1)
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["default-src"] == "'none'" and directives["base-uri"] == "'none'"
    for tag, directive in (("script", "script-src"), ("style", "style-src")):
        bodies = re.findall(rf"<{tag}>(.*?)</{tag}>", text, re.S)
        hashes = [f"'sha256-{base64.b64encode(hashlib.sha256(b.encode()).digest()).decode()}'" for b in bodies]
        assert len(bodies) == 1 and directives[directive] == hashes[0]
    assert data_of(text)["frames"][-1]["board"]["scores"] == rep.outcome().scores


def test_pbem_html_writes_the_page_beside_the_game_and_a_players_page_for_their_eyes_only(game):
    result = pbem("html", game)
    page_path = game.with_suffix(".html")
    assert result.exit_code == 0, result.output
    size = page_path.stat().st_size
    assert result.output == f"Wrote {page_path} ({size // 1024} KB, 7 positions, public information only).\n"
    assert [f["board"]["pyramid"]["1a"][1] for f in data_of(page_path.read_text())["frames"]][-1] == [[1, None]]
    result = pbem("html", game, "-o", "ben.html", "--as", "ben")
    size = Path("ben.html").stat().st_size
    assert result.output == f"Wrote ben.html ({size // 1024} KB, 7 positions, as ben sees it).\n"
    assert Path("ben.html").stat().st_mode & 0o777 == 0o600  # it holds ben's coin values
    assert data_of(Path("ben.html").read_text())["frames"][-1]["board"]["pyramid"]["1a"][1] == [[1, 3]]
    refused = pbem("html", game, "-o", game)
    assert refused.exit_code == 1
    assert refused.output == f"Error: {game} is the game file itself: name another page with -o\n"


def test_a_game_without_a_drawing_of_its_own_is_shown_through_its_view(game, monkeypatch, request):
    """A newly added game works in `show` and `html` before it has a presentation: its view as text."""
    from pbem.presentation import games

    monkeypatch.setattr(games, "module_name", lambda game: f"pbem.presentation.games.not_{game.replace('-', '_')}")
    games.presentation.cache_clear()
    request.addfinalizer(games.presentation.cache_clear)  # found again once module_name is back
    shown = pbem("show", game, "--as", "ben")
    assert shown.exit_code == 0 and max(map(len, shown.output.splitlines()[:-1])) <= 80  # the last: the command
    assert shown.output.splitlines()[1].startswith('seats: [{"name": "ann", "player": "ann", "suits": "sun+crown"}')
    assert 'my_hand: {"ben": [0, 0, 1, 1, 2, 3, 4, 4, 5, 5]}' in shown.output
    assert shown.output.endswith("\nNext: ann (move: place a coin on 1a (forced))\nYour turn (ann): pbem play "
                                 f"{game} --as ann\n")
    assert pbem("html", game, "-o", "plain.html").exit_code == 0
    last = data_of(Path("plain.html").read_text())["frames"][-1]["board"]
    coin = {"slot": 0, "owner": "ben", "seat": "ben", "value": None}
    assert last["pyramid"]["1a"] == {"tile": "sun-3", "coins": [coin]}


def test_each_entry_is_titled_in_words_and_the_page_explains_its_marks(game):
    """Issue 25: `pbem html` heads each entry with what it did (its notation on a line of its own), names coins
    by their owner's count, and has a legend of the drawing's marks, the same one the app shows."""
    from pbem.presentation.games import sarcophagus

    assert pbem("html", game, "-o", "page.html").exit_code == 0
    text = Path("page.html").read_text()
    frames = data_of(text)["frames"]
    assert [(f["title"], f["action"]) for f in frames] == [
        ("ann's invitation to a new game", "new game: the invitation"),
        ("ben joins the game", "join"),
        ("1a turned up: sun-3", "reveal 1a=sun-3"),
        ("ben placed a coin on 1a", "@1a"),
        ("2a and 2b turned up: moon-4 and arms-4", "reveal 2a=moon-4 2b=arms-4"),
        ("ben placed a coin on 2a", "@2a"),
        ("3a and 3b turned up: crown-2 and crown-ace", "reveal 3a=crown-2 3b=crown-ace")]
    assert frames[5]["events"] == ["ben placed a coin on 2a (ben's 2nd coin)"]
    legend = re.search(r'<details id="legend" open><summary>Legend</summary><dl>(.*?)</dl></details>', text).group(1)
    terms = re.findall(r'<dt data-term="([^"]+)">\1</dt><dd>([^<]+)</dd>', legend)
    assert [(term, html.unescape(meaning)) for term, meaning in terms] == list(sarcophagus.HTML_LEGEND)
    assert [term for term, _ in terms][:4] == ["Number tile", "Face down", "Null: a trap", "Ace: a god"]
    assert pbem("log", game).output.splitlines()[-5:-3] == ["   5. ben      @2a",
                                                             "        ben placed a coin on 2a (ben's 2nd coin)"]
