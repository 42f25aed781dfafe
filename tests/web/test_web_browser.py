"""pbem judge web in real Chromium (Debian's chromium and chromedriver through Selenium): three players who
have only a browser take their seats by the links `pbem judge invite` printed, and play a whole game of
Sarcophagus by clicking; every entry is signed in their browser, and the judge's record verifies. Then ann
exports her key to a passphrase-protected OpenSSH file (ssh-keygen reads it) and plays on from another
browser that imports it. One game per module: a whole game is the fixture of everything checked here."""

from __future__ import annotations

import random

import pytest

from judge_support import cli, fast_cli, ok
from web_client_support import CHROMIUM, DRIVER, PASSPHRASE, chromium, ready, shows, sign, take_seat, text_of, wait

if not (CHROMIUM and DRIVER):
    pytest.skip("no browser: install Debian's chromium and chromium-driver", allow_module_level=True)
pytest.importorskip("selenium.webdriver", reason="selenium is in the test extra: pip install '.[test]'")

NAMES = ["ann", "ben", "cat"]
NOTE = '<img src=x onerror="window.pwned=1">hello'

@pytest.fixture(scope="module")
def browser(chromium_session):
    yield chromium_session.get()
    chromium_session.release()


def owed(browser, pages) -> tuple[str | None, int]:
    """Who owes an entry now and the game's length, as the seats' own pages ask the judge (this browser
    holds every seat)."""
    found = browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        Promise.all(arguments[0].map(path => fetch('/api' + path).then(r => r.json())))
          .then(all => done(all.map(d => [d.seat, d.seq, d.offers.length])));""",
        ["/" + url.split("/", 3)[3] for _, url in pages.values()])
    owing = [(seat, seq) for seat, seq, offers in found if offers]
    return owing[0] if owing else (None, found[0][1])


@pytest.mark.slow
def test_three_players_with_only_a_browser_play_a_whole_game(judge, browser, base, monkeypatch):
    fast_cli(monkeypatch)
    links = judge.invite("sarcophagus", *NAMES)
    assert sorted(links) == NAMES
    pages = {}
    for name in NAMES:
        browser.switch_to.new_window("tab")
        pages[name] = (browser.current_window_handle, take_seat(browser, links[name]))
    # the link took its seat: opened again elsewhere (another browser: no cookie of ann's), it is refused
    status, _, page = judge.request("GET", links["ann"].removeprefix(judge.url))
    assert status == 410 and b"took its seat already" in page

    tab = [pages[NAMES[-1]][0]]

    def on(name):
        if tab[0] != pages[name][0]:
            browser.switch_to.window(pages[name][0])
            tab[0] = pages[name][0]

    on("ann")
    assert ready(browser)["title"] == "Your move"  # the join: ann signs first (roster order)
    assert "Join the game" in browser.find_element("css selector", "#options .option").text
    on("ben")
    before = ready(browser)["seq"]
    on("ann")  # a choice says in words what will be signed, and what goes in the record
    browser.find_element("css selector", "#options .option").click()
    assert text_of(browser, "says").startswith("Join the game: accept the invitation")
    assert text_of(browser, "record") == f'In the record: "join", entry {before + 1}, signed by ann.'
    browser.find_element("id", "cancel").click()
    assert browser.find_element("id", "confirm").get_attribute("hidden") is not None
    assert sign(browser) == f"Signed and accepted by the judge: entry {before + 1}."
    on("ben")  # ben's page was told by the server (no reload), and now offers ben's join
    shows(browser, lambda shown: shown["seq"] == before + 1 and shown["title"] == "Your move")

    moves, noted, aimed, chance = 0, False, False, random.Random(36)
    while moves < 400:
        shown = ready(browser)  # the page that signed last, loaded again: its player may owe more
        if not shown["offers"]:
            owing, seq = owed(browser, pages)
            if owing is None:
                break
            on(owing)  # its page was brought up to date live (server-sent events), not reloaded
            shown = shows(browser, lambda shown, seq=seq: shown["seq"] == seq and shown["offers"])
        targets = [] if aimed else browser.find_elements("css selector", "#board .target")
        if targets:  # a place on the board brings up its choices, as in pbem app
            targets[0].click()
            focused = browser.execute_script("return document.activeElement")
            assert focused.get_attribute("class") == "option" and focused.get_attribute("aria-label").endswith(
                f"on tile {targets[0].get_attribute('data-pos')}, face down.")
            aimed = True
        note = NOTE if not noted and shown["title"] == "Your move" and moves > 3 else None
        said = sign(browser, chance.randrange(len(shown["offers"])), note)
        assert "accepted by the judge" in said, said
        noted, moves = noted or note is not None, moves + 1
        if note:  # a note is shown as text: nothing in it runs or becomes an element
            wait(browser, lambda b: NOTE in text_of(b, "note-list"))
            assert browser.execute_script("return document.querySelector('#note-list img') === null && !window.pwned")
    assert noted and aimed and moves > 30
    assert "Game over" in ready(browser)["title"]
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []

    copies = judge.export()
    assert len(copies) == 1
    verified = ok(cli(base / "anyone", judge.port, "verify", copies[0]))
    assert "valid, finished" in verified and ("wins" in verified or "share the win" in verified)
    record = copies[0].read_text()
    assert NOTE.replace('"', '\\"') in record  # the note is in the signed record as typed
    export_and_import(browser, base, pages["ann"][0])


def export_and_import(browser, base, ann: str) -> None:
    """ann exports her key, ssh-keygen reads the file with its passphrase, and a second browser (nothing of
    ann's in it) holds her seat once it imports the file."""
    import shutil
    import subprocess

    from selenium.webdriver.common.by import By

    browser.switch_to.window(ann)
    page = browser.current_url
    browser.find_element(By.CSS_SELECTOR, "#export-box summary").click()
    browser.find_element(By.ID, "export").click()  # protected by the passphrase ann chose with her seat
    wait(browser, lambda b: "BEGIN OPENSSH PRIVATE KEY" in b.find_element(By.ID, "exported").get_attribute("value"))
    exported = browser.find_element(By.ID, "exported").get_attribute("value")
    line = browser.execute_script("return document.getElementById('key-state').textContent")
    key_file = base / "ann-exported"
    key_file.write_text(exported)
    key_file.chmod(0o600)
    if shutil.which("ssh-keygen"):
        public = subprocess.run(["ssh-keygen", "-y", "-P", PASSPHRASE, "-f", str(key_file)], capture_output=True,
                                text=True, check=True).stdout.split()
        fingerprint = subprocess.run(["ssh-keygen", "-l", "-f", "-"], input=" ".join(public), capture_output=True,
                                     text=True, check=True).stdout.split()[1]
        assert fingerprint in line  # the page named the key it holds by the same fingerprint
    other = chromium()
    try:
        other.get(page)
        wait(other, lambda b: text_of(b, "turn-title") == "Import your key to play here")
        assert other.execute_script("return document.getElementById('board').children.length") == 0  # nothing shown
        other.find_element(By.ID, "import-text").send_keys(exported)
        other.find_element(By.ID, "import-pass").send_keys("wrong")
        other.find_element(By.ID, "import").click()
        wait(other, lambda b: "Not imported: wrong passphrase" in text_of(b, "message"))
        other.find_element(By.ID, "import-pass").clear()
        other.find_element(By.ID, "import-pass").send_keys(PASSPHRASE)
        other.find_element(By.ID, "import").click()
        wait(other, lambda b: text_of(b, "message") == "Imported: this browser now holds ann's key.")
        wait(other, lambda b: text_of(b, "turn-title") == "Game over")
        assert "This browser holds ann's key" in text_of(other, "key-state")
    finally:
        other.quit()
