"""Clicking in `pbem app` in a real browser (Selenium, Debian's chromium and chromedriver): each person's
own tab on their own app, as people sit at their own screens. For tests/app/test_app_browser.py and the
benchmarks that play whole games by clicks (benchmarks/app_games.py)."""

from __future__ import annotations

import json
import re
import time

from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from pbem.api import open_game

from app_support import App, Table
from chromium_support import CHROMIUM, DRIVER, chromium  # noqa: F401 (benchmarks/app_games.py takes them from here)


def enter(browser, app: App) -> None:
    """Open the link the app printed (the browser trades its token for the cookie)."""
    browser.get(app.url)
    WebDriverWait(browser, 20, poll_frequency=0.02, ignored_exceptions=[WebDriverException]).until(
        lambda b: b.current_url == app.base + "/" and b.find_elements(By.ID, "fetch-mail"))


def message(browser) -> str:
    """The page's message line, read in one step (the page may be reloading)."""
    text = browser.execute_script("const m = document.getElementById('message'); return m ? m.textContent : ''")
    return str(text or "")


def wait_message(browser, *words: str) -> str:
    """The page's message once it holds one of `words`: the very text that did (a live update, a mail
    the app read meanwhile, may put other words there a moment later)."""
    def said(b) -> str | bool:
        text = message(b)
        return text if any(w in text for w in words) else False
    return WebDriverWait(browser, 20, poll_frequency=0.02, ignored_exceptions=[WebDriverException]).until(said)


def fetch_mail(browser) -> str:
    """Click Fetch mail on the page shown; the words it shows after."""
    browser.find_element(By.ID, "fetch-mail").click()
    return wait_message(browser, "new mail")


def page_state(browser) -> tuple[int, int]:
    """The entry a game page shows and how many of them it says are not sent yet; (-1, 0) while it loads."""
    found = browser.execute_script(
        "const d = document.getElementById('app-data');"
        "if (!d || document.readyState !== 'complete') return null;"
        "const data = JSON.parse(d.textContent); return [data.seq, data.unsent];")
    return (int(found[0]), int(found[1])) if found else (-1, 0)


def copy_seq(app: App, game_id: str) -> int:
    return len(json.loads(copy_bytes(app, game_id))["entries"])


def copy_bytes(app: App, game_id: str) -> bytes:
    return next((app.home / "games-files").glob(f"*-{game_id[:8]}.json")).read_bytes()


def click_a_move(browser, keyboard: bool = False) -> str:
    """On the game page shown: click the first highlighted place (or press Enter on it), its first option
    (or the first choice offered beside the board), then Sign and send; the words the page then shows."""
    targets = browser.find_elements(By.CSS_SELECTOR, "#board .target, #side .target")
    if targets:
        if keyboard:
            targets[0].send_keys(Keys.ENTER)
        else:
            targets[0].click()
    option = browser.find_element(By.CSS_SELECTOR, "#options button.option")
    says = option.get_attribute("aria-label")
    option.click()
    assert browser.find_element(By.ID, "says").text == says
    browser.find_element(By.ID, "sign").click()
    return wait_message(browser, "Signed and wrote", "refused", "moved on", "Nothing was written")


class Tabs:
    """Each person's own tab on their own app's game page, as people sit at their own screens."""

    def __init__(self, browser, people: Table, game_id: str, players: list[str]):
        self.browser, self.people, self.game_id = browser, people, game_id
        self.tabs: dict[str, str] = {}
        for name in players:
            app = people.apps[name]
            browser.switch_to.new_window("tab")
            enter(browser, app)
            self.tabs[name] = browser.current_window_handle
            self.open_game()

    def open_game(self) -> None:
        """From the list of games, click the game once it is there: an invitation comes by mail, and the
        list shows it when it arrives, with no click."""
        if "/game/" in self.browser.current_url:
            return
        selector = f'a[href="/game/{self.game_id}"]'
        WebDriverWait(self.browser, 20, poll_frequency=0.02, ignored_exceptions=[WebDriverException]).until(
            lambda b: b.find_elements(By.CSS_SELECTOR, selector))
        WebDriverWait(self.browser, 20, poll_frequency=0.05, ignored_exceptions=[WebDriverException]).until(
            lambda b: _click(b, selector) and b.find_elements(By.ID, "app-data"))

    def settle(self, quiet: float = 0.3, timeout: float = 60) -> None:
        """Wait, with no click, until the mail has settled: every page shows its app's copy as it stands,
        and every copy holds what the others sent (a turn still held by its player aside), for `quiet` s."""
        end, last, since = time.monotonic() + timeout, None, time.monotonic()
        while True:
            now = []
            for name in self.tabs:
                seq, unsent = page_state(self.show(name))
                now.append((copy_seq(self.people.apps[name], self.game_id), seq, seq - unsent))
            settled = all(c == s for c, s, _ in now) and len({shared for _, _, shared in now}) == 1
            if now != last:
                last, since = now, time.monotonic()
            elif settled and time.monotonic() - since >= quiet:
                return
            if time.monotonic() > end:
                raise AssertionError(f"the pages did not settle: {dict(zip(self.tabs, now))}")
            time.sleep(0.05)

    def show(self, name: str):
        self.browser.switch_to.window(self.tabs[name])
        return self.browser

    def close(self) -> None:
        for handle in self.tabs.values():
            self.browser.switch_to.window(handle)
            self.browser.close()
        self.browser.switch_to.window(self.browser.window_handles[0])

    def who_moves(self) -> str | None:
        """Whose page offers a choice now; None when every page says the game is over."""
        for name in self.tabs:
            page = self.show(name)
            if page.find_elements(By.CSS_SELECTOR, "#options button.option, .target"):
                return name
        if all("Game over" in self.show(name).find_element(By.ID, "next").text for name in self.tabs):
            return None
        raise AssertionError("nobody is offered a choice: " + self.browser.find_element(By.ID, "next").text)

    def everyone_fetches(self, but: str | None = None) -> None:
        """Each person clicks Fetch mail, again while anyone's program did what needed no decision (a
        table-mode reveal, an opening) and mailed it."""
        for _ in range(4):
            acted = []
            for name in self.tabs:
                if name != but:
                    acted.append(fetch_mail(self.show(name)))
                    self.open_game()
            if not any("Signed and wrote" in text for text in acted):
                return
            but = None
        raise AssertionError("the mail never settles")


def _click(browser, selector: str) -> bool:
    links = browser.find_elements(By.CSS_SELECTOR, selector)
    if links:
        links[0].click()
    return bool(links)


def play_to_the_end(browser, people: Table, game_id: str, players: list[str], limit: int = 40) -> int:
    """Click until the game is over: the one who owes moves, then the others fetch their mail."""
    browser.get_log("browser")  # what came before (the refusals the protections' tests provoke) is not this game's
    tabs = Tabs(browser, people, game_id, players)
    try:
        tabs.settle()
        for clicks in range(limit):
            mover = tabs.who_moves()
            if mover is None:
                return clicks
            before = copy_seq(people.apps[mover], game_id)
            try:
                text = click_a_move(tabs.show(mover), keyboard=clicks % 2 == 1)
            except TimeoutException:  # the page was drawn anew (a live update) as the move was clicked, and
                if copy_seq(people.apps[mover], game_id) != before:  # nothing was signed: a person clicks again
                    raise
                browser.refresh()
                text = click_a_move(tabs.show(mover), keyboard=clicks % 2 == 1)
            assert "Signed and wrote" in text and "NOT sent" not in text, text
            tabs.settle()  # the others' pages show the turn as its mail arrives: nobody clicks Fetch mail
    finally:
        tabs.close()
    raise AssertionError(f"the game did not end in {limit} moves")


def check_finished(browser, people: Table, game_id: str, players: list[str]) -> None:
    """Every player's copy is the same verified, finished game; every page says so."""
    copies = {name: copy_bytes(people.apps[name], game_id) for name in players}
    assert len(set(copies.values())) == 1
    path = next((people.apps[players[0]].home / "games-files").glob(f"*-{game_id[:8]}.json"))
    rep = open_game(path)
    assert rep.over
    for name in players:
        browser.get(f"{people.apps[name].base}/game/{game_id}")
        assert browser.find_element(By.ID, "next").text.startswith("Game over: ")
        assert browser.find_elements(By.CSS_SELECTOR, ".target") == []
        assert not browser.find_element(By.ID, "sign").is_displayed()  # nothing to sign: no greyed button
        scores = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#scores li")]
        assert len(scores) >= len(players) and all(any(s.startswith(p + ": ") for s in scores) for p in players), scores
    errors = [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == [], errors


def start_by_form(browser, people: Table, game: str, creator: str, players: list[str]) -> str:
    """The creator starts a game from their list of games: the game, the others ticked in seat order,
    each one's public key pasted (the only thing typed), Sign the invitation and send it. Its game id."""
    from selenium.webdriver.support.ui import Select

    app = people.apps[creator]
    enter(browser, app)
    browser.find_element(By.CSS_SELECTOR, "#new-game summary").click()
    Select(browser.find_element(By.ID, "new-game-name")).select_by_value(game)
    Select(browser.find_element(By.ID, "new-me")).select_by_value(creator)
    for name in players:
        if name != creator:
            browser.find_element(By.CSS_SELECTOR, f'.new-player[value="{name}"]').click()
            field = browser.find_element(By.ID, f"key-{name}")
            if not field.get_attribute("value"):
                field.send_keys((people.home(name) / "keys" / f"{name}.pub").read_text().strip())
    browser.find_element(By.ID, "new-start").click()
    text = wait_message(browser, "Started", "Nothing was written")
    assert "Started" in text and "Sent to" in text, text
    short = re.search(r" ([0-9a-f]{8}) \(", text).group(1)
    copy = next((app.home / "games-files").glob(f"*-{short}.json"))
    return str(open_game(copy).genesis.game_id)
