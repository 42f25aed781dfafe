"""`pbem app` in a real browser (Debian's chromium through chromedriver and Selenium), with each
person's app started as they start it, in their own PBEM_HOME, and the mail going through a real SMTP
server (aiosmtpd) into their Maildirs. The protections refuse a request without the secret, with a
wrong Host, from another site, without the anti-forgery token, or from a page that shows an older
position, and write nothing; the board's choices work with the keyboard and carry labels; the end of
a Sarcophagus game and of a Path of Pharaohs game is played by clicking only (whole games by clicks:
benchmarks/app_games.py)."""

from __future__ import annotations

import http.server
import json
import re
import shutil
import threading
import time

import pytest

from pbem.api import compose_mail, open_game
from pbem.crypto import Identity

from app_support import at_a_trap, deliver, fetch_all, near_the_end, table

pytestmark = pytest.mark.slow

CHROMIUM, DRIVER = shutil.which("chromium"), shutil.which("chromedriver")
if not (CHROMIUM and DRIVER):
    pytest.skip("no browser: install Debian's chromium and chromium-driver (apt-get install -y chromium "
                "chromium-driver) to run the app in a real browser", allow_module_level=True)
pytest.importorskip("selenium.webdriver", reason="selenium is in the test extra: pip install '.[test]'")
from selenium.common.exceptions import WebDriverException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from app_clicks import (  # noqa: E402
    check_finished,
    click_a_move,
    copy_bytes,
    enter,
    fetch_mail,
    message,
    page_state,
    play_to_the_end,
    start_by_form,
    wait_message,
)

NAMES = ["ann", "ben", "cat"]
IDENTITIES = {name: Identity.from_seed(bytes([i + 40]) * 32, comment=name) for i, name in enumerate(NAMES)}


@pytest.fixture(scope="module")
def browser(chromium_session):
    """The process's Chromium (tests/chromium_support.py), its tabs and cookies kept from test to test."""
    yield chromium_session.get()
    chromium_session.release()


@pytest.fixture(scope="module")
def people(tmp_path_factory):
    """Three people, each with their own app; two games near their end: Sarcophagus (ann and ben) and
    Path of Pharaohs (all three)."""
    games = {"sarcophagus": near_the_end("sarcophagus", NAMES[:2], IDENTITIES, 2),
             "path-of-pharaohs": near_the_end("path-of-pharaohs", NAMES, IDENTITIES, 2)}
    with table(tmp_path_factory.mktemp("people"), NAMES, IDENTITIES) as people:
        for rep in games.values():
            people.hand_out(rep)
        people.start_apps()
        yield people, {name: rep.genesis.game_id for name, rep in games.items()}


@pytest.fixture(scope="module")
def trap(people):
    """ann and ben at a trap: one of them must give up a tile (a game of its own)."""
    table_, _ = people
    rep = at_a_trap(NAMES[:2], IDENTITIES)
    table_.hand_out(rep)
    trapped = next(d.who for d in rep.duties() if d.what == "discard")
    return table_, rep.genesis.game_id, trapped


@pytest.fixture(scope="module")
def live_game(people):
    """A Sarcophagus game of ann and ben in the middle, and the whole next turn of whoever moves, played
    here with a note and not yet mailed: (people, game id, the mover, the other, the game after the
    turn, the entry before it)."""
    from pbem.app.state import part_done
    from pbem.protocol.session import Session

    table_, _ = people
    rep = near_the_end("sarcophagus", NAMES[:2], IDENTITIES, 12, seed=3)
    table_.hand_out(rep)
    after = rep.seq
    mover = next(d.who for d in rep.duties() if d.what == "move")
    session = Session(rep, mover, IDENTITIES[mover])
    session.note = "your move"
    session.automatic()
    while rep.seq == after or not part_done(rep, mover):
        session.act(rep.game.legal_actions(rep.state, mover, session.knowledge())[0])
        session.automatic()
    other = next(n for n in NAMES[:2] if n != mover)
    return table_, rep.genesis.game_id, mover, other, rep, after


@pytest.fixture(scope="module")
def two_tabs(people):
    """A Sarcophagus game of ann and ben in the middle, for a player with two tabs on it."""
    table_, _ = people
    rep = near_the_end("sarcophagus", NAMES[:2], IDENTITIES, 12, seed=5)
    table_.hand_out(rep)
    return table_, rep.genesis.game_id


@pytest.fixture(scope="module")
def sarcophagus(people):
    return people[0], people[1]["sarcophagus"], NAMES[:2]


@pytest.fixture(scope="module")
def pharaohs(people):
    return people[0], people[1]["path-of-pharaohs"], NAMES


# ---------------------------------------------------------------- the protections

def test_no_token_a_wrong_token_or_a_wrong_host_is_refused(sarcophagus, browser):
    people, game_id, _ = sarcophagus
    app = people.apps["ann"]
    for path in ("/", f"/game/{game_id}", "/static/app.js", f"/?token={app.token[:-2]}xx"):
        status, headers, body = app.request("GET", path)
        assert status == 403 and b"Forbidden" in body and "set-cookie" not in headers
    for host in (f"localhost:{app.port}", f"evil.example:{app.port}", "127.0.0.1", f"127.0.0.1:{app.port + 1}"):
        status, headers, _ = app.request("GET", f"/?token={app.token}", host=host)
        assert status == 403 and "set-cookie" not in headers, host
    status, headers, _ = app.request("GET", f"/?token={app.token}")
    assert status == 200 and "location" not in headers
    cookie = headers["set-cookie"]
    assert f"pbem-app-{app.port}=" in cookie and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    status, headers, _ = app.request("GET", "/", headers={"Cookie": cookie.split(";")[0]})
    policy = headers["content-security-policy"]
    assert status == 200 and "script-src 'self'" in policy and "default-src 'none'" in policy
    assert "unsafe-inline" not in policy and "access-control-allow-origin" not in headers
    status, _, _ = app.request("GET", "/", headers={"Cookie": cookie.split(";")[0]}, host=f"localhost:{app.port}")
    assert status == 403  # the cookie does not help a rebound name
    browser.get(app.base + "/")  # a browser that never opened the link
    assert "Forbidden" in browser.find_element(By.TAG_NAME, "body").text


def test_forged_posts_are_refused_and_write_nothing(sarcophagus, browser):
    people, game_id, players = sarcophagus
    mover = next(name for name in players if people.apps[name].game_data(game_id)["choices"])
    app = people.apps[mover]
    data = app.game_data(game_id)
    move = {"head": data["head"], "action": data["choices"][0]["notation"]}
    before = copy_bytes(app, game_id)
    forged = [
        {"X-Pbem-Csrf": ""}, {"X-Pbem-Csrf": "not-the-token"}, {"Origin": "http://evil.example"},
        {"Origin": f"http://localhost:{app.port}"}, {"Sec-Fetch-Site": "cross-site"}, {"Content-Type": "text/plain"},
    ]
    for headers in forged:
        status, answer = app.post(f"/game/{game_id}/move", move, **headers)
        assert status == 403 and answer["message"].startswith("refused"), headers
    status, answer = app.post(f"/game/{game_id}/move", {**move, "action": "9@9z"})
    assert status == 400 and "not a legal move" in answer["message"] and "Nothing was written" in answer["message"]
    status, answer = app.post(f"/game/{game_id}/move", ["not", "an", "object"])
    assert status == 400
    status, _, _ = app.request("PUT", f"/game/{game_id}/move", b"{}", {"Cookie": app.cookie or ""})
    assert status == 405
    genuine = {"Cookie": app.cookie or "", "Content-Type": "application/json", "X-Pbem-Csrf": app.csrf or "",
               "Origin": app.base}
    status, _, answer = app.request("POST", f"/game/{game_id}/move", b"[" * 200_000 + b"]" * 200_000, genuine)
    assert (status, json.loads(answer)["message"]) == (400, "refused: the request is not a JSON object")
    status, _, answer = app.request("POST", f"/game/{game_id}/move", b" " * (1 << 20) + b"{}", genuine)
    assert (status, json.loads(answer)["message"]) == (413, "refused: a request over 1,048,576 bytes")
    # a page of another site, in the same browser that holds the cookie, posts in every way it can
    enter(browser, app)
    evil = _evil_site(f"{app.base}/game/{game_id}/move", move)
    browser.get(evil)
    WebDriverWait(browser, 10, poll_frequency=0.02).until(lambda b: b.execute_script("return window.done === 3"))
    assert copy_bytes(app, game_id) == before
    browser.get(f"{app.base}/game/{game_id}")
    assert browser.find_element(By.ID, "sign").is_displayed()  # the app still serves its own page


def _evil_site(target: str, move: dict) -> str:
    """A page on another origin (localhost, another port) that tries a form POST and two fetches."""
    page = f"""<!doctype html><html><body>
<form id="f" method="POST" action="{target}" enctype="text/plain" target="sink">
<input name='{{"head":"{move["head"]}","action":"{move["action"]}","x":"' value='"}}'></form>
<iframe name="sink"></iframe>
<script>
window.done = 0;
document.getElementById("f").submit(); window.done++;
fetch("{target}", {{method: "POST", mode: "no-cors", credentials: "include", body: {json.dumps(json.dumps(move))},
  headers: {{"Content-Type": "text/plain"}}}}).finally(() => window.done++);
fetch("{target}", {{method: "POST", credentials: "include", body: {json.dumps(json.dumps(move))},
  headers: {{"Content-Type": "application/json", "X-Pbem-Csrf": "guess"}}}}).catch(() => 0).finally(() => window.done++);
</script></body></html>"""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = page.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://localhost:{server.server_address[1]}/"


def test_a_second_tab_on_an_older_position_is_refused_and_writes_nothing(sarcophagus, browser):
    """A second tab where a move was chosen is not redrawn under the player's hand when the first tab
    moves: it says the game has moved on, and its Sign and send is refused."""
    people, game_id, players = sarcophagus
    mover = next(name for name in players if people.apps[name].game_data(game_id)["choices"])
    app = people.apps[mover]
    enter(browser, app)
    browser.get(f"{app.base}/game/{game_id}")
    first = browser.current_window_handle
    browser.switch_to.new_window("tab")
    second = browser.current_window_handle
    browser.get(f"{app.base}/game/{game_id}")
    browser.find_elements(By.CSS_SELECTOR, "#options button.option, .target")[0].click()
    browser.find_element(By.CSS_SELECTOR, "#options button.option").click()  # chosen, not yet signed
    browser.switch_to.window(first)
    before = open_game(next((app.home / "games-files").glob(f"*-{game_id[:8]}.json"))).seq
    browser.find_elements(By.CSS_SELECTOR, "#options button.option, .target")[0].click()
    browser.find_element(By.CSS_SELECTOR, "#options button.option").click()
    browser.find_element(By.ID, "sign").click()
    assert "Signed and wrote" in wait_message(browser, "Signed and wrote", "refused")
    written = copy_bytes(app, game_id)
    browser.switch_to.window(second)
    assert "moved on" in wait_message(browser, "moved on")  # said live, the choice left as it was
    assert browser.find_elements(By.ID, "show-new")
    browser.find_element(By.ID, "sign").click()
    assert "the game has moved on" in wait_message(browser, "has moved on:", "Signed")
    assert browser.find_element(By.ID, "message").get_attribute("class") == "bad"
    # nothing written in place of what the first tab signed (the copy may have gone on since: the other
    # player's app answers by mail, near the end with its openings)
    now = json.loads(copy_bytes(app, game_id))["entries"]
    assert now[:len(json.loads(written)["entries"])] == json.loads(written)["entries"]
    assert open_game(next((app.home / "games-files").glob(f"*-{game_id[:8]}.json"))).seq > before
    browser.close()
    browser.switch_to.window(first)


def test_the_tab_that_signed_says_what_was_done_when_another_tab_of_the_game_is_redrawn_first(two_tabs, browser):
    """The words of a move go to the tab where it was signed: another tab of the same game, with nothing
    chosen, is redrawn live with the move and may ask the app for the page first (here: the signing tab's
    network slowed to make sure), and it showed them while the signing tab showed nothing."""
    people, game_id = two_tabs
    mover = next(name for name in NAMES[:2] if people.apps[name].game_data(game_id)["choices"])
    app = people.apps[mover]
    enter(browser, app)
    browser.get(f"{app.base}/game/{game_id}")
    other = browser.current_window_handle
    browser.switch_to.new_window("tab")
    browser.get(f"{app.base}/game/{game_id}")
    seq = page_state(browser)[0]
    slow = {"offline": False, "latency": 800, "downloadThroughput": -1, "uploadThroughput": -1}
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", slow)
    try:
        said = click_a_move(browser)  # not "the game has moved on" (by this very move, heard before its answer)
        WebDriverWait(browser, 20, poll_frequency=0.02, ignored_exceptions=[WebDriverException]).until(
            lambda b: page_state(b)[0] > seq)
        assert "Signed and wrote" in said and message(browser) == said, said
    finally:
        browser.execute_cdp_cmd("Network.emulateNetworkConditions", {**slow, "latency": 0})
        browser.close()
        browser.switch_to.window(other)
    assert page_state(browser)[0] > seq  # the other tab was redrawn with the move


# ---------------------------------------------------------------- the board's choices

def test_the_board_choices_have_labels_and_work_from_the_keyboard(sarcophagus, browser):
    people, game_id, players = sarcophagus
    fetch_all(people)  # the move the test before made reaches the other player
    mover = next(name for name in players if people.apps[name].game_data(game_id)["choices"])
    app = people.apps[mover]
    enter(browser, app)
    browser.get(f"{app.base}/game/{game_id}")
    targets = browser.find_elements(By.CSS_SELECTOR, ".target")
    assert targets, "a Sarcophagus turn offers tiles on the board"
    for target in targets:
        assert target.get_attribute("role") == "button" and target.get_attribute("tabindex") == "0"
        assert target.get_attribute("aria-label").split(": ")[1].endswith(("choice", "choices"))
    assert browser.find_element(By.ID, "legend").find_elements(By.TAG_NAME, "dt")
    assert browser.find_element(By.ID, "message").get_attribute("role") == "status"
    targets[0].send_keys(Keys.ENTER)  # focus the place, press Enter: its options, the first one focused
    active = browser.switch_to.active_element
    assert "option" in active.get_attribute("class") and active.get_attribute("aria-label")
    active.send_keys(Keys.ENTER)
    assert browser.find_element(By.ID, "says").text == active.get_attribute("aria-label")
    assert active.get_attribute("aria-pressed") == "true"
    assert browser.find_element(By.ID, "sign").is_enabled()


def test_the_history_steps_back_as_the_player_knew_it_and_comes_back_to_the_choices(sarcophagus, browser):
    people, game_id, players = sarcophagus
    fetch_all(people)
    mover = next(name for name in players if people.apps[name].game_data(game_id)["choices"])
    app = people.apps[mover]
    enter(browser, app)
    browser.get(f"{app.base}/game/{game_id}")
    seq = app.game_data(game_id)["seq"]
    board = browser.find_element(By.ID, "board")
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.HOME)  # the history: fetched once, each position as this player knew it then
    WebDriverWait(browser, 10, poll_frequency=0.02).until(lambda b: board.get_attribute("data-entry") == "0")
    assert browser.find_element(By.ID, "entry-title").text.startswith("The start: ")
    assert not browser.find_element(By.ID, "turn").is_displayed() and browser.find_elements(By.CSS_SELECTOR, ".target") == []
    assert [t.get_attribute("data-tile") for t in browser.find_elements(By.CSS_SELECTOR, "#board g.spot .tile")] == \
        ["back"] * 21  # before the deal: every tile face down
    body.send_keys(Keys.ARROW_RIGHT)
    assert board.get_attribute("data-entry") == "1" and browser.find_element(By.ID, "signer").text.startswith("Signed by ")
    browser.find_element(By.ID, "last").click()
    assert board.get_attribute("data-entry") == str(seq) and browser.find_element(By.ID, "turn").is_displayed()
    assert browser.find_elements(By.CSS_SELECTOR, ".target")  # the choices are back
    assert browser.find_element(By.ID, "where").text == f"Now: entry {seq}"


# ---------------------------------------------------------------- whole games' ends, by clicks only

def test_the_end_of_a_sarcophagus_game_by_clicks_two_apps(sarcophagus, browser):
    people, game_id, players = sarcophagus
    assert play_to_the_end(browser, people, game_id, players) >= 1
    check_finished(browser, people, game_id, players)


def test_path_of_pharaohs_keeps_the_hand_in_view_and_names_what_it_shows(pharaohs, browser):
    people, game_id, players = pharaohs
    fetch_all(people)
    mover = next(name for name in players if people.apps[name].game_data(game_id)["choices"])
    app = people.apps[mover]
    enter(browser, app)
    browser.get(f"{app.base}/game/{game_id}")
    hand = browser.find_element(By.CSS_SELECTOR, "#turn #hand-here .hand-cards")
    assert browser.execute_script("return arguments[0].getBoundingClientRect().bottom <= innerHeight", hand)
    sands = browser.find_element(By.CSS_SELECTOR, "#side .sands").text
    assert "Sands of Time" in sands and "the next mummy wakes" in sands, sands
    options = [b.get_attribute("aria-label") for b in browser.find_elements(By.CSS_SELECTOR, "#options button.option")]
    for target in browser.find_elements(By.CSS_SELECTOR, ".target"):
        target.click()
        options += [b.text for b in browser.find_elements(By.CSS_SELECTOR, "#options button.option")]
    assert not any(re.search(r"\bW\d", text) for text in options), options
    # read from the page as drawn (a mail the others' apps answer with may have moved the game on since)
    stop, others, more = browser.execute_script("""
        const stop = document.querySelector('#options button.option[data-notation="stop"]');
        const others = document.querySelectorAll('#options button.option:not([data-notation="stop"]), .target');
        const more = document.getElementById('more-cards');
        return [stop !== null, others.length, more ? more.textContent : null];""")
    if stop and others:
        assert more is not None and "several cards" in more


def test_the_end_of_a_path_of_pharaohs_game_by_clicks_three_apps(pharaohs, browser):
    people, game_id, players = pharaohs
    assert play_to_the_end(browser, people, game_id, players) >= 1
    check_finished(browser, people, game_id, players)



def test_a_game_started_from_the_form_seats_them_in_the_order_chosen_and_shows_on_their_pages_live(sarcophagus, browser):
    """ann ticks cat, then ben: they sit in that order. ben's list of games, open in his own tab, shows
    the game within 2 s of the invitation's delivery into his Maildir, with no click (his app has
    joined for him and mailed it); his Fetch mail then finds no new mail, rather than counting them all."""
    people, _, _ = sarcophagus
    ben = people.apps["ben"]
    began = time.time()
    enter(browser, ben)
    offered = [o.get_attribute("textContent") for o in browser.find_elements(By.CSS_SELECTOR, "#new-game-name option")]
    assert offered == ["Sarcophagus, 2 to 4 players", "Path of Pharaohs, 3 to 6 players"]  # from each game's definition
    bens_tab = browser.current_window_handle
    browser.switch_to.new_window("tab")
    game_id = start_by_form(browser, people, "sarcophagus", "ann", ["ann", "cat", "ben"])
    browser.close()
    browser.switch_to.window(bens_tab)
    link = f'a[href="/game/{game_id}"]'
    WebDriverWait(browser, 10, poll_frequency=0.02).until(lambda b: b.find_elements(By.CSS_SELECTOR, link))
    shown = time.time()
    delivered = min(m for p in people.maildir("ben").glob("*/*") if (m := p.stat().st_mtime) >= began)  # the invitation
    assert shown - delivered < 2.0, shown - delivered
    assert "Signed and wrote" in wait_message(browser, "Signed and wrote")  # the join, done and mailed for him
    assert fetch_mail(browser) == "No new mail."
    browser.find_element(By.CSS_SELECTOR, link).click()
    assert browser.find_element(By.ID, "next").text.startswith("Next: ")
    rep = open_game(next((ben.home / "games-files").glob(f"*-{game_id[:8]}.json")))
    assert rep.players == ["ann", "cat", "ben"]
    assert any(e.action == "join" and e.author == "ben" for e in rep.entries)


def test_a_turn_delivered_into_the_maildir_shows_on_the_open_page_within_2_s(live_game, browser):
    """The other player's whole turn comes as one mail, written straight into the Maildir (as a mail
    server delivers it): the open page shows it within 2 s with no click, says in words what changed
    since the player last looked (the note signed with it too), and marks the last move on the board."""
    people, game_id, mover, watcher, rep, after = live_game
    app = people.apps[watcher]
    browser.get_log("browser")  # what came before on this browser (the refusals other tests provoke) is not this page's
    enter(browser, app)
    browser.get(f"{app.base}/game/{game_id}")
    assert page_state(browser)[0] == after and not browser.find_elements(By.ID, "news")
    mail = compose_mail(rep, mover, after, book={n: people.address(n) for n in rep.players})
    delivered = time.monotonic()
    deliver(people.maildir(watcher), mail.as_bytes())
    WebDriverWait(browser, 5, poll_frequency=0.02, ignored_exceptions=[WebDriverException]).until(
        lambda b: page_state(b)[0] >= rep.seq)
    took = time.monotonic() - delivered
    assert took < 2.0, took
    wait = WebDriverWait(browser, 5, poll_frequency=0.05, ignored_exceptions=[WebDriverException])
    news = wait.until(lambda b: b.find_element(By.ID, "news").text)
    assert f'{mover} says: "your move"' in news and f"{mover} placed a coin on" in news, news
    assert f'{mover} says: "your move"' in browser.find_element(By.ID, "notes").text  # with the entry, not in the history only
    marked = wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#board .last-move"))  # a tile, or where it was
    assert f"{mover}'s last move" in browser.find_element(By.ID, "last-move").text
    stroke = browser.execute_script("return getComputedStyle(arguments[0].querySelector('rect')).strokeDasharray", marked[0])
    assert stroke not in ("", "none"), stroke
    browser.get(f"{app.base}/game/{game_id}")
    assert not browser.find_elements(By.ID, "news")  # looked at: nothing new since
    errors = [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == [], errors


def test_a_trap_says_where_the_tiles_to_give_up_are_and_outlines_them(trap, browser):
    people, game_id, trapped = trap
    app = people.apps[trapped]
    enter(browser, app)
    browser.get(f"{app.base}/game/{game_id}")
    prompt = browser.find_element(By.ID, "prompt").text
    assert "on the board" not in prompt and "under your name in the players' panel" in prompt, prompt
    targets = browser.find_elements(By.CSS_SELECTOR, "#side .target")
    assert targets and all(t.tag_name == "g" for t in targets)
    for target in targets:
        style = browser.execute_script(
            "const r = getComputedStyle(arguments[0].querySelector('rect'));"
            "return [r.stroke, r.strokeWidth, getComputedStyle(arguments[0].ownerSVGElement).overflow]", target)
        assert style[0] == "rgb(230, 126, 34)" and float(style[1].rstrip("px")) >= 6 and style[2] == "visible", style
    targets[0].click()
    assert browser.find_element(By.CSS_SELECTOR, "#options button.option").text.startswith("give up ")
