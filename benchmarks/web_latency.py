"""`pbem judge web`: how soon a seat's page is ready, and how long a click takes to become an entry the judge
accepted. Targets (issue 36), on 127.0.0.1: the page ready in under 1 s; the click to the entry accepted
under 300 ms at the median.

The judge runs as its own process (`pbem judge web CONFIG --port 0`, mail through a real SMTP server on
localhost); three seats of a Sarcophagus table are taken in one headless Chromium (a tab each) by the links
`pbem judge invite` printed. Then, move after move (a random legal offer of whoever owes one):

- page ready: the seat's page loaded anew (`get`) until it shows its turn (its modules loaded and checked
  against their integrity hashes, the seat's key read from IndexedDB, the view fetched, the board drawn);
- click to accepted: from the click on Sign and send to the page saying the judge accepted the entry (the
  entry built and signed in the page, commitments and sealed values included, posted, read by the judge as
  a mail turn, applied in its transaction, and the referee's duties that follow done);
- also the post alone, from Python: an entry signed by pbem's own Python posted over HTTP (what the click
  costs without the browser).

    PYTHONPATH=. python benchmarks/web_latency.py [--moves 30]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))

from web_client_support import (  # noqa: E402
    CHROMIUM,
    DRIVER,
    Client,
    WebJudge,
    chromium,
    entry_for,
    ready,
    take_seat,
    text_of,
    wait,
)

NAMES = ["ann", "ben", "cat"]


def figures(label: str, values: list[float]) -> str:
    ms = sorted(v * 1000 for v in values)
    p90 = ms[min(len(ms) - 1, int(len(ms) * 0.9))]
    return f"{label}: median {statistics.median(ms):.0f} ms, p90 {p90:.0f} ms, max {ms[-1]:.0f} ms ({len(ms)} samples)"


def owed(browser, plays: dict[str, str]) -> tuple[str | None, int]:
    found = browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        Promise.all(arguments[0].map(path => fetch('/api' + path).then(r => r.json())))
          .then(all => done(all.map(d => [d.seat, d.seq, d.offers.length])));""", list(plays.values()))
    owing = [(seat, seq) for seat, seq, offers in found if offers]
    return owing[0] if owing else (None, found[0][1])


def python_posts(judge: WebJudge, moves: int, chance: random.Random) -> list[float]:
    """Another table, its seats taken and played by pbem's Python over HTTP: the post alone, timed."""
    links = judge.invite("sarcophagus", *NAMES)
    clients, plays = {name: Client(judge) for name in NAMES}, {}
    for name in NAMES:
        plays[name] = clients[name].take(links[name], name)[1]["play"]
    posts: list[float] = []
    while len(posts) < moves:
        shown = {name: clients[name].state(plays[name]) for name in NAMES}
        owing = next((name for name in NAMES if shown[name]["offers"]), None)
        if owing is None:
            break
        offers = shown[owing]["offers"]
        entry = entry_for(clients[owing].keys[owing], shown[owing], offers[chance.randrange(len(offers))])
        start = time.perf_counter()
        status, answer = clients[owing].post("/api" + plays[owing] + "/entry", {"entry": entry})
        posts.append(time.perf_counter() - start)
        if status != 200:
            sys.exit(f"refused: {answer}")
    return posts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=30, help="clicks timed (each also times a page load)")
    args = parser.parse_args()
    if not (CHROMIUM and DRIVER):
        sys.exit("needs Debian's chromium and chromium-driver")
    from selenium.webdriver.common.by import By

    chance = random.Random(36)
    with tempfile.TemporaryDirectory(prefix="pbem-web-latency-") as folder, WebJudge(Path(folder)) as judge:
        links = judge.invite("sarcophagus", *NAMES)
        browser = chromium()
        try:
            tabs, plays = {}, {}
            for name in NAMES:
                browser.switch_to.new_window("tab")
                tabs[name] = browser.current_window_handle
                plays[name] = "/" + take_seat(browser, links[name]).split("/", 3)[3]
            loads, clicks = [], []
            while len(clicks) < args.moves:
                owing, seq = owed(browser, plays)
                if owing is None:
                    break
                browser.switch_to.window(tabs[owing])
                start = time.perf_counter()
                browser.get(judge.url + plays[owing])
                wait(browser, lambda b, seq=seq: ready(b)["seq"] == seq and ready(b)["offers"])
                loads.append(time.perf_counter() - start)
                options = browser.find_elements(By.CSS_SELECTOR, "#options .option")
                options[chance.randrange(len(options))].click()
                button = browser.find_element(By.ID, "sign")
                start = time.perf_counter()
                button.click()
                wait(browser, lambda b: "accepted by the judge" in text_of(b, "message")
                     or "Nothing was sent" in text_of(b, "message") or "did not apply" in text_of(b, "message"))
                clicks.append(time.perf_counter() - start)
                said = text_of(browser, "message")
                if "accepted by the judge" not in said:
                    sys.exit(f"refused: {said}")
        finally:
            browser.quit()
        posts = python_posts(judge, args.moves, chance)
    print("pbem judge web on 127.0.0.1, a 3-player Sarcophagus game in headless Chromium")
    print(figures("page ready (loaded anew until it shows the turn)", loads))
    print(figures("click on Sign and send to the entry accepted by the judge", clicks))
    print(figures("an entry signed in Python posted to the judge until it answered (no browser)", posts))
    print(f"targets: page under 1000 ms, click under 300 ms at the median: "
          f"{'met' if statistics.median(loads) < 1 and statistics.median(clicks) < 0.3 else 'NOT met'}")


if __name__ == "__main__":
    main()
