"""The HTML replay in a real browser (Debian's chromium through chromedriver and Selenium): it opens
from disk, steps with its buttons, keys and slider, follows `#entry=N`, draws at chosen entries
exactly what the engine's view holds, and its policy refuses network requests. One browser for the
module; skipped with the reason when no browser is installed (.ci/run installs one as root)."""

from __future__ import annotations

import random
import shutil

import pytest

from pbem.presentation.html import drawn, page
from pbem.presentation.terminal import next_line
from pbem.protocol.bots import bot_turn
from pbem.protocol.entries import apply_entry
from pbem.protocol.genesis import start

from engine_support import layout_with
from pbem_support import played_game, sessions_for

CHROMIUM, DRIVER = shutil.which("chromium"), shutil.which("chromedriver")
if not (CHROMIUM and DRIVER):
    pytest.skip("no browser: install Debian's chromium and chromium-driver (apt-get install -y chromium "
                "chromium-driver) to run the HTML replay in a real browser", allow_module_level=True)
pytest.importorskip("selenium.webdriver", reason="selenium is in the test extra: pip install '.[test]'")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

READ_BOARD = """
const spots = {}, players = {};
document.querySelectorAll('#board g.spot').forEach(g => spots[g.dataset.pos] = [
  g.querySelector('.tile').dataset.tile,
  [...g.querySelectorAll('.coin')].map(c => [c.dataset.owner, c.querySelector('text').textContent])]);
document.querySelectorAll('#side .player').forEach(p => players[p.dataset.name] = [
  Number(p.querySelector('.hand').dataset.hand), Number(p.querySelector('.fame').dataset.fame),
  [...p.querySelectorAll('.claimed .tile')].map(t => t.dataset.tile)]);
const sarcophagus = {};
document.querySelectorAll('#board g.sarcophagus').forEach(g => sarcophagus[g.dataset.pos] = [
  g.dataset.status, g.dataset.holder || null, g.querySelector('.tile').dataset.tile]);
return {entry: Number(document.getElementById('board').dataset.entry), spots, players, sarcophagus,
        holes: [...document.querySelectorAll('#board g.hole')].map(g => g.dataset.pos),
        events: [...document.querySelectorAll('#events li')].map(li => li.textContent),
        signer: document.getElementById('signer').textContent, next: document.getElementById('next').textContent,
        mine: [...document.querySelectorAll('#side .mine')].map(m => m.textContent)};
"""


def expected(shown: dict) -> dict:
    """What the board must show for one engine view."""
    final = shown.get("scores")
    return {
        "spots": {pos: [spot["tile"] or "back", [[c["owner"], "?" if c["value"] is None else str(c["value"])]
                                                   for c in spot["coins"]]]
                  for pos, spot in shown["pyramid"].items()},
        "holes": [f"{r}{'abcdef'[c]}" for r in range(1, 7) for c in range(r)
                  if f"{r}{'abcdef'[c]}" not in shown["pyramid"]],
        "players": {p: [shown["hands"][p], (final or shown["fame"])[p], shown["claimed"][p]] for p in shown["players"]},
        "sarcophagus": {pos: [spot["status"], spot["holder"], spot["tile"] or "back"]
                        for pos, spot in shown["sarcophagus"].items()},
    }


def replayed(rep, observer=None, knowledge=None):
    """(view, events, author, next line) after the genesis and after each entry."""
    again = start(rep.genesis)
    out = [(again.game.view(drawn(again), observer, knowledge), [], rep.genesis.author, next_line(again))]
    for entry in rep.entries:
        events = apply_entry(again, entry)
        out.append((again.game.view(drawn(again), observer, knowledge), [str(e) for e in events], entry.author,
                    next_line(again)))
    return out


@pytest.fixture(scope="module")
def browser(chromium_session):
    yield chromium_session.get(1200, 900)
    chromium_session.release()


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    rep = played_game(players=("ann", "ben", "cat"), layout=layout_with(seed=11), first="ben", seed=4)
    path = tmp_path_factory.mktemp("replay") / "finished.html"
    path.write_text(page(rep))
    return rep, path.as_uri(), replayed(rep)


def read(browser) -> dict:
    return browser.execute_script(READ_BOARD)


def check_entry(browser, positions, n: int) -> None:
    shown, events, author, following = positions[n]
    board = read(browser)
    assert board["entry"] == n
    assert {k: board[k] for k in ("spots", "holes", "players", "sarcophagus")} == expected(shown)
    assert board["events"] == events and board["signer"] == f"Signed by {author}" and board["next"] == following


@pytest.mark.slow
def test_it_opens_at_the_end_shows_the_result_and_logs_no_error(browser, finished):
    rep, url, positions = finished
    browser.get(url)
    check_entry(browser, positions, len(positions) - 1)
    assert read(browser)["next"].startswith("Game over: ")
    winners = browser.find_elements(By.CSS_SELECTOR, "#side .player.winner")
    assert [w.get_attribute("data-name") for w in winners] == list(rep.outcome().winners)
    assert browser.find_element(By.ID, "forward").get_attribute("disabled") == "true"
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []  # the policy let the page run


@pytest.mark.slow
def test_buttons_keys_and_the_slider_step_through_the_game(browser, finished):
    _, url, positions = finished
    browser.get(url)
    browser.find_element(By.ID, "first").click()
    check_entry(browser, positions, 0)
    assert list(read(browser)["spots"].values()) == [["back", []]] * 21  # the deal: all face down
    browser.find_element(By.ID, "forward").click()
    browser.find_element(By.ID, "forward").click()
    check_entry(browser, positions, 2)
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_RIGHT)
    check_entry(browser, positions, 3)
    body.send_keys(Keys.ARROW_LEFT, Keys.ARROW_LEFT)
    browser.find_element(By.ID, "back").click()
    check_entry(browser, positions, 0)
    body.send_keys(Keys.END)
    assert read(browser)["entry"] == len(positions) - 1
    body.send_keys(Keys.HOME)
    assert read(browser)["entry"] == 0 and browser.current_url.endswith("#entry=0")
    browser.find_element(By.ID, "slider").send_keys(Keys.ARROW_RIGHT)  # the slider steps by itself, once
    check_entry(browser, positions, 1)
    browser.find_element(By.ID, "last").click()
    assert read(browser)["entry"] == len(positions) - 1 and browser.current_url.endswith(f"#entry={len(positions) - 1}")


@pytest.mark.slow
def test_a_link_opens_the_entry_it_names_and_the_board_matches_the_engine(browser, finished):
    rep, url, positions = finished
    ties = [seq for seq, event in rep.events if type(event).__name__ == "TieBreak"]
    claims = [seq for seq, event in rep.events if type(event).__name__ == "SarcophagusTaken"]
    chosen = sorted({1, len(positions) // 3, len(positions) // 2, ties[0], claims[0], len(positions) - 2})
    for n in chosen:
        browser.get(f"{url}#entry={n}")
        check_entry(browser, positions, n)
    browser.execute_script("location.hash = '#entry=5'")  # a link followed within the page
    check_entry(browser, positions, 5)


def test_a_players_page_of_a_game_in_progress_shows_their_coins_and_whose_duty_it_is(browser, tmp_path):
    rep = played_game(players=("ann", "ben"), finish=False, layout=layout_with(seed=5), first="ben")
    sessions = sessions_for(rep)
    rng = random.Random(2)
    for _ in range(8):
        for who in dict.fromkeys(d.who for d in rep.duties()):
            bot_turn(sessions[who if who in sessions else "ann"], "greedy", rng)
    knowledge = sessions["ann"].knowledge()
    path = tmp_path / "ann.html"
    path.write_text(page(rep, "ann", knowledge, viewer="ann"))
    browser.get(path.as_uri())
    positions = replayed(rep, "ann", knowledge)
    check_entry(browser, positions, len(positions) - 1)
    shown = positions[-1][0]
    assert read(browser)["mine"] == [f"your coins: {' '.join(map(str, shown['my_hand']['ann']))}"]
    assert read(browser)["next"] == next_line(rep) and rep.duties()
    own = [value for spot in read(browser)["spots"].values() for owner, value in spot[1] if owner == "ann"]
    assert own and "?" not in own  # her own coins with their values; ben's stay hidden (compared above)


def test_the_page_may_not_reach_the_network(browser, finished):
    _, url, _ = finished
    browser.get(url)
    refused = browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        document.addEventListener('securitypolicyviolation', e => done(e.effectiveDirective));
        fetch('http://127.0.0.1:9/leak').then(() => done('fetched'), () => {});""")
    assert refused == "connect-src"


@pytest.mark.slow
def test_a_path_of_pharaohs_page_draws_the_engine_view_at_each_entry_it_is_sent_to(browser, tmp_path):
    from pbem.protocol.entries import replay
    from pbem.record.gamefile import load

    from paths_support import EXAMPLES

    rep = replay(load(EXAMPLES / "pharaohs-referee-4-players.json")[0])
    path = tmp_path / "pharaohs.html"
    path.write_text(page(rep))
    positions = replayed(rep)
    browser.get_log("browser")  # what earlier tests left in the shared browser's log
    read_pop = """return {entry: Number(document.getElementById('board').dataset.entry),
      pyramids: [...document.querySelectorAll('.pyramid')].map(p => p.dataset.name),
      hands: Object.fromEntries([...document.querySelectorAll('#side [data-name]')].filter(p => p.querySelector('.hand'))
        .map(p => [p.dataset.name, Number(p.querySelector('.hand').dataset.hand)])),
      deck: Number(document.querySelector('.deck').dataset.deck),
      sands: Number(document.querySelector('.sands').dataset.sands),
      closed: [...document.querySelectorAll('g.spot[data-closed=yes]')].map(g => g.dataset.space)};"""
    for n in (len(positions) // 3, 2 * len(positions) // 3, len(positions) - 1):
        browser.get(f"{path.as_uri()}#entry={n}")
        shown = positions[n][0]
        board = browser.execute_script(read_pop)
        assert board["entry"] == n
        assert board["pyramids"] == shown["players"] and board["hands"] == shown["hands"]
        assert (board["deck"], board["sands"]) == (shown["deck"], shown["sands"])
        assert sorted(board["closed"]) == sorted(shown["closed"])
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


def test_each_entry_is_titled_in_words_and_the_legend_draws_the_marks_it_names(browser, finished):
    _, url, positions = finished
    browser.get(f"{url}#entry=5")
    frame = browser.execute_script("return JSON.parse(document.getElementById('game-data').textContent).frames[5]")
    assert browser.find_element(By.ID, "entry-title").text == f"Entry 5: {frame['title']}"
    assert browser.find_element(By.ID, "notation").text == f"In the record: {frame['action']}"
    assert frame["title"] != frame["action"] and read(browser)["events"] == positions[5][1]
    samples = browser.execute_script("""return [...document.querySelectorAll('#legend dt')].map(dt => [dt.dataset.term,
        [...dt.querySelectorAll('svg.sample .tile')].map(t => t.dataset.tile), dt.querySelectorAll('svg.sample .coin').length,
        dt.querySelectorAll('svg.sample').length])""")
    assert samples == [["Number tile", ["moon-4"], 0, 1], ["Face down", ["back"], 0, 1], ["Null: a trap", ["sun-null"], 0, 1],
                       ["Ace: a god", ["crown-ace"], 0, 1], ["Position", [], 0, 0], ["Coin", ["arms-3"], 2, 1],
                       ["Taken away", [], 0, 1], ["Sarcophagus", [], 0, 1], ["Fame", [], 0, 0]]


@pytest.mark.slow
def test_a_path_of_pharaohs_hand_is_drawn_as_cards(browser, tmp_path, monkeypatch):
    """`pbem html --as ann`: ann's hand at each entry as card faces (a value, or an action card's letter and
    name), the legend with a card of each kind."""
    from typer.testing import CliRunner

    from pbem.cli import app

    from paths_support import EXAMPLES

    key = tmp_path / "ann"
    shutil.copy(EXAMPLES / "test-keys" / "ann", key)
    key.chmod(0o600)
    monkeypatch.chdir(tmp_path)
    made = CliRunner().invoke(app, ["html", str(EXAMPLES / "pharaohs-table-4-players.json"), "-o", "ann.html",
                                    "--as", "ann", "--key", str(key)])
    assert made.exit_code == 0, made.output
    browser.get((tmp_path / "ann.html").as_uri())
    hands = browser.execute_script("""return JSON.parse(document.getElementById('game-data').textContent).frames
        .map(f => f.board.mine || [])""")
    names = {"Z": "Zero", "W": "Wild", "T": "Thief", "S": "Sandstorm"}
    chosen = [n for n, hand in enumerate(hands) if any(card in names for card, _ in hand)][:2] + [len(hands) - 1]
    assert len(chosen) == 3 and hands[-1]  # two hands with an action card, and the last
    for n in chosen:
        browser.get(f"{(tmp_path / 'ann.html').as_uri()}#entry={n}")
        cards = browser.execute_script("""return [...document.querySelectorAll('#side .mine li.card')].map(li =>
            [li.dataset.card, Number(li.dataset.slot), li.innerText.replace(/\\s+/g, ' ')])""")
        assert cards == [[card, slot, f"{card} {names[card]}" if card in names else card] for card, slot in hands[n]]
        assert browser.find_element(By.CSS_SELECTOR, "#side .mine > span").text == f"Your hand: {len(hands[n])} card" + \
            "s" * (len(hands[n]) != 1)
    assert "#" not in browser.find_element(By.ID, "side").text  # no 1#22 T#21: the slots are not shown
    samples = browser.execute_script("""return [...document.querySelectorAll('#legend dt .card')].map(c =>
        [c.parentElement.dataset.term, c.dataset.card])""")
    assert samples == [["Value card", "7"], ["Wild", "W"], ["Zero Block Value", "Z"], ["Thief", "T"],
                       ["Sandstorm", "S"], ["Unknown card", "?"]]
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
