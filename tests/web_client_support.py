"""`pbem judge web` as its players meet it: the judge's own process serving its pages on 127.0.0.1 beside a
real SMTP server, tables made by `pbem judge invite`, and headless Chromium (Debian's chromium and
chromedriver, through Selenium) taking seats by their links and clicking moves. Shared by the web client's
browser tests and benchmarks/web_latency.py."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from chromium_support import CHROMIUM, DRIVER, chromium  # noqa: F401 (the browser tests take them from here)
from judge_support import cli, ok, write_config
from mail_support import smtp_server


class WebJudge:
    """`pbem judge web CONFIG --port 0` as its own process, with its mail on a real SMTP server."""

    def __init__(self, base: Path, boxes: dict[str, Path] | None = None, poll: float = 0.2):
        self.base, self.poll = base, poll
        self.boxes = {"judge@example.org": base / "mail" / "judge", **(boxes or {})}
        self.process: subprocess.Popen[bytes] | None = None

    program: tuple[str, ...] = ("-m", "pbem.judge")
    """What the judge's Python runs (a test's judge that cheats runs its own script)."""

    def __enter__(self) -> WebJudge:
        self._smtp = smtp_server(self.boxes)
        self.port, self.smtp = self._smtp.__enter__()
        self.config = write_config(self.base, self.port, maildir=self.base / "mail" / "judge", poll=self.poll)
        self.log = self.base / "web.log"
        self.start()
        return self

    def start(self, now: int | None = None) -> None:
        """Start the judge's process (its clock at `now`, PBEM_NOW, when given); its address may change."""
        import os

        env = {k: v for k, v in os.environ.items() if k != "PBEM_NOW"} | ({"PBEM_NOW": str(now)} if now else {})
        starts = self.log.read_text().count(" started: ") if self.log.exists() else 0
        with self.log.open("ab") as log:
            self.process = subprocess.Popen([sys.executable, *self.program, "web", str(self.config), "--port", "0"],
                                            stdout=log, stderr=log, env=env)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            found = re.findall(r" started: .* web pages on (http://\S+) ", self.log.read_text())
            if len(found) > starts:
                self.url = found[-1]
                return
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        raise AssertionError(f"pbem judge web did not start: {self.log.read_text()}")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(30)
            self.process = None

    def __exit__(self, *exc: object) -> None:
        self.stop()
        self._smtp.__exit__(None, None, None)

    def invite(self, game: str, *seats: str, extra: tuple[str, ...] = ()) -> dict[str, str]:
        """`pbem judge invite`: the link of each browser seat, by name."""
        out = ok(cli(self.base / "operator", self.port, "judge", "invite", self.config, game, *seats, *extra,
                     "--url", self.url))
        return dict(re.findall(r"^(\w+): (http\S+)$", out, re.M))

    def export(self) -> list[Path]:
        """Every game the judge holds, as game files (pbem judge export)."""
        folder = self.base / "export"
        ok(cli(self.base / "operator", self.port, "judge", "export", self.config, folder))
        return sorted(folder.glob("*.json"))

    def request(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
                ) -> tuple[int, dict[str, str], bytes]:
        """One HTTP request as any client may send it: (status, headers, body)."""
        data = json.dumps(body).encode() if body is not None and not isinstance(body, bytes) else body
        request = urllib.request.Request(self.url + path, data=data, method=method, headers=headers or {})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, {k.lower(): v for k, v in response.headers.items()}, response.read()
        except urllib.error.HTTPError as exc:
            return exc.code, {k.lower(): v for k, v in exc.headers.items()}, exc.read()
        except urllib.error.URLError as exc:
            raise AssertionError(f"{exc} from pbem judge web; its log:\n{self.log.read_text()[-3000:]}") from None


def wait(browser: Any, predicate: Any, timeout: float = 30) -> Any:
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(browser, timeout, poll_frequency=0.02, ignored_exceptions=[WebDriverException]).until(predicate)


def click(browser: Any, element: Any) -> None:
    """A person's click on `element`: the mouse moved onto its middle, pressed and released there (W3C
    actions), so that what is on top at that point gets it. WebElement.click does the same after a dozen
    round trips of checks of its own: about 35-50 ms a click in Chromium, against 17."""
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(browser, duration=0).click(element).perform()


def text_of(browser: Any, element_id: str) -> str:
    return str(browser.execute_script(f"const m = document.getElementById('{element_id}'); return m ? m.textContent : ''")
               or "")


PASSPHRASE = "correct horse"
"""What every seat taken in the tests' browsers chooses to protect its key's export."""


def take_seat(browser: Any, link: str, address: str | None = None) -> str:
    """Open an invitation link and take its seat (its key's passphrase: PASSPHRASE); the game page's address."""
    from selenium.webdriver.common.by import By

    browser.get(link)
    browser.find_element(By.ID, "passphrase").send_keys(PASSPHRASE)
    if address:
        browser.find_element(By.ID, "address").send_keys(address)
    browser.find_element(By.ID, "take").click()
    wait(browser, lambda b: "/play/" in b.current_url and text_of(b, "turn-title") != "Loading")
    return str(browser.current_url)


SHOWN = """const title = document.getElementById('turn-title'), turn = document.getElementById('turn');
if (!title || !turn || ['', 'Loading'].includes(title.textContent) || turn.dataset.busy) return null;
return {title: title.textContent, seq: Number(turn.dataset.seq || -1),
        offers: [...document.querySelectorAll('#options .option')].map(b => b.dataset.notation)};"""
"""What a loaded game page shows (null while it loads or signs), read in one step."""

LOADED = f"""const done = arguments[arguments.length - 1], until = Date.now() + 25000;
const shown = () => {{ {SHOWN} }};
(function look() {{
  const found = shown();
  if (found || Date.now() > until) done(found);
  else setTimeout(look, 5);
}})();"""
"""SHOWN once the page is loaded, looked for by the page every 5 ms (null after 25 s)."""


def ready(browser: Any) -> dict[str, Any]:
    """The game page loaded: its turn title, the seq it shows, and the notations offered (one round trip)."""
    found = browser.execute_async_script(LOADED)
    if not found:
        raise AssertionError(f"the game page did not load in 25 s: {text_of(browser, 'message')!r}")
    return dict(found)


def shows(browser: Any, condition: Any) -> dict[str, Any]:
    """Wait until the loaded game page shows what `condition` asks of ready()'s answer; that answer."""
    return dict(wait(browser, lambda b: (found := b.execute_script(SHOWN)) and condition(found) and found))


ANSWERED = """const done = arguments[arguments.length - 1], words = arguments[0], until = Date.now() + 25000;
(function look() {
  const said = document.getElementById('message').textContent;
  if (words.some((word) => said.includes(word)) || Date.now() > until) done(said);
  else setTimeout(look, 5);
})();"""
"""The page's message once it says what became of the entry signed (the page looks every 5 ms, not Selenium)."""


OFFER = """const offers = document.querySelectorAll('#options .option');
return offers.length ? [offers[arguments[0] % offers.length], document.getElementById('sign')] : null;"""


def sign(browser: Any, index: int = 0, note: str | None = None) -> str:
    """Click the index-th offer, then Sign and send; the page's message once the judge answered. A click that
    a live redraw of the page swallowed (the game moved on under it) is made again, as a person would.
    Without a note, the two clicks are one input action (a round trip less)."""
    from selenium.common.exceptions import ElementNotInteractableException, StaleElementReferenceException
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    for attempt in range(3):
        try:
            found = browser.execute_script(OFFER, index)  # the offer and the button, found in one round trip
            if not found:
                raise StaleElementReferenceException("the offers were redrawn")
            offer, button = found
            if note:
                click(browser, offer)
                browser.find_element(By.ID, "note").send_keys(note)
                click(browser, button)
            else:  # the button is found before it shows; the mouse goes to it once the offer's click showed it
                ActionChains(browser, duration=0).click(offer).click(button).perform()
            break
        except (StaleElementReferenceException, ElementNotInteractableException):
            if attempt == 2:
                raise
            time.sleep(0.2)
            ready(browser)
    return str(browser.execute_async_script(ANSWERED, ["accepted by the judge", "did not apply", "Nothing was sent",
                                                       "refused"]))


class Client:
    """A browser as the server sees one, in Python: its cookie and the anti-forgery token of its pages; its
    seats' keys in `keys` (what a browser keeps in IndexedDB)."""

    def __init__(self, judge: WebJudge):
        self.judge, self.cookie, self.csrf = judge, "", ""
        self.keys: dict[str, Any] = {}

    def get(self, path: str) -> tuple[int, dict[str, str], str]:
        status, headers, body = self.judge.request("GET", path, headers={"cookie": self.cookie} if self.cookie else {})
        if "set-cookie" in headers:
            self.cookie = headers["set-cookie"].split(";")[0]
        found = re.search(r'<meta name="pbem-csrf" content="([^"]+)">', body.decode())
        if found:
            self.csrf = found.group(1)
        return status, headers, body.decode()

    def post(self, path: str, body: Any, **headers: str) -> tuple[int, dict[str, Any]]:
        sent = {"content-type": "application/json", "x-pbem-csrf": self.csrf, "cookie": self.cookie,
                "origin": self.judge.url, **{k.replace("_", "-"): v for k, v in headers.items()}}
        status, _, data = self.judge.request("POST", path, body, {k: v for k, v in sent.items() if v is not None})
        return status, json.loads(data)

    def take(self, link: str, seat: str, address: str | None = None) -> tuple[int, dict[str, Any]]:
        """Open an invitation and take its seat with a key made here (and the address given, if any)."""
        from pbem.crypto import Identity

        path = link.removeprefix(self.judge.url)
        self.get(path)
        self.keys[seat] = Identity.generate()
        return self.post("/api/join", {"token": path.rsplit("/", 1)[1], "key": self.keys[seat].public.line(),
                                       "address": address})

    def state(self, play: str) -> dict[str, Any]:
        _, _, body = self.judge.request("GET", "/api" + play, headers={"cookie": self.cookie})
        return dict(json.loads(body))


def seated(judge: Any, game: str = "sarcophagus", *names: str) -> tuple[dict[str, str], dict[str, Client], dict[str, str]]:
    """A table of `game` (ann and ben unless `names`) whose seats were each taken by a browser of their own:
    the invitation links, each seat's client, and each seat's page address, by name."""
    links = judge.invite(game, *(names or ("ann", "ben")))
    clients = {name: Client(judge) for name in links}
    plays = {}
    for name in links:
        status, answer = clients[name].take(links[name], name)
        assert status == 200 and answer["ok"], answer
        plays[name] = answer["play"]
    return links, clients, plays


def entry_for(identity: Any, data: dict[str, Any], offer: dict[str, Any], note: str | None = None) -> dict[str, Any]:
    """The entry a seat's page builds for an offer, built here by pbem's Python (the browser's twin)."""
    import base64

    from pbem import crypto
    from pbem.crypto import PublicKey
    from pbem.protocol.commitments import b64, commit, new_salt
    from pbem.record.canonical import canonical

    seat = data["seat"]
    body: dict[str, Any] = {"game_id": data["gameId"], "seq": data["seq"] + 1, "prev": data["head"], "author": seat,
                            "action": offer["action"]}
    if offer.get("join"):
        body["contribution"] = crypto.random_bytes(32).hex()
    readers = [PublicKey.parse(data["keys"][seat]), PublicKey.parse(data["keys"][data["referee"]])]
    commitments, sealed, openings = {}, {}, {}
    for key, value in offer["commits"]:
        salt = new_salt()
        commitments[key] = commit(data["genesisHash"], identity.public.raw.hex(), key, value, salt)
        opening = canonical({"game": data["genesisHash"], "key": key, "value": value, "salt": salt})
        sealed[key] = b64(crypto.seal(opening, readers))
    for item in offer["opens"]:
        openings[item["key"]] = json.loads(crypto.unseal(base64.b64decode(item["sealed"]), identity))["salt"]
    for name, value in (("commitments", commitments), ("sealed", sealed), ("openings", openings)):
        if value:
            body[name] = value
    body["time"] = max(int(time.time()), data["minTime"])
    if note:
        body["note"] = note
    return {**body, "signature": b64(identity.sign(canonical(body)))}
