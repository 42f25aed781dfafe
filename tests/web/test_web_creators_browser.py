"""A creator link in real Chromium: the New table page's own script (create.js) makes a table and shows one
link a seat, shows a refusal in words, and shows names as text, never as markup."""

from __future__ import annotations

import re

import pytest

from judge_support import cli, ok
from web_client_support import take_seat, text_of, wait


@pytest.mark.slow
def test_a_creator_makes_a_table_in_chromium_and_its_links_take_their_seats(judge, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    out = ok(cli(judge.base / "operator", judge.port, "judge", "creator-link", judge.config, "--url", judge.url))
    browser.get(out.splitlines()[0])
    Select(browser.find_element(By.ID, "game")).select_by_value("sarcophagus")
    seats = browser.find_element(By.ID, "seats")
    seats.send_keys('ann <img src=x onerror="window.pwned=1">')
    browser.find_element(By.ID, "make").click()
    wait(browser, lambda b: text_of(b, "message"))
    assert text_of(browser, "message") == ("'<img' is not a name pbem takes (letters, digits, - and _)")
    seats.clear()
    seats.send_keys("ann ben")
    browser.find_element(By.ID, "make").click()
    wait(browser, lambda b: text_of(b, "message").startswith("Table "))
    items = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#links li")]
    assert [item.split(": ")[0] for item in items] == ["ann", "ben"], items
    links = [item.split(": ", 1)[1] for item in items]
    assert all(re.fullmatch(re.escape(judge.url) + r"/join/[A-Za-z0-9_-]{43}", link) for link in links)
    assert browser.execute_script("return window.pwned === undefined")
    browser.switch_to.new_window("tab")
    assert take_seat(browser, links[0]).endswith("/ann")
