"""`pbem app`: how fast a late 4-player game's page is served, and how long a click takes to become a
signed turn sent by SMTP. Targets (issue 24): the page in under 200 ms, the click in under 300 ms.

Four people, each with their own PBEM_HOME and their own app (started as `pbem app --no-browser`), the
mail through a real SMTP server on localhost (aiosmtpd) into their Maildirs. A 4-player Sarcophagus
game played by greedy bots, cut back to its last `--moves` decisions (a late file: over a hundred
entries). For each decision: the mover's game page served cold (the copy changed since the app last
read it: verified again from its first entry) and warm (the verified game kept in memory), then the
move posted as the page's Sign-and-send button posts it (signed, written, and mailed once the turn is
done: one mail a turn), then everyone
fetches their mail. With chromium installed, the same click in a real browser: from the click on Sign
and send to the page showing the turn sent (the reload included).

    PYTHONPATH=. python benchmarks/app_latency.py [--moves 8]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))

from pbem.crypto import Identity  # noqa: E402

from app_support import fetch_all, near_the_end, table  # noqa: E402

PLAYERS = ["ann", "ben", "cat", "dan"]
IDS = {n: Identity.from_seed(bytes([i + 60]) * 32, comment=n) for i, n in enumerate(PLAYERS)}


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def timed(work):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    value = work()
    return time.perf_counter() - start, value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=9, help="decisions measured (the game's last ones)")
    args = parser.parse_args()
    rep = near_the_end("sarcophagus", PLAYERS, IDS, args.moves)
    print(f"A 4-player Sarcophagus game at entry {rep.seq}, {args.moves} decisions before its end; "
          f"{len(rep.record.model_dump_json()) // 1024} KB file. Load average {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores (the figures grow with it).")
    cold, warm, clicks = [], [], []
    with table(Path(tempfile.mkdtemp(prefix="pbem-app-bench-")), PLAYERS, IDS) as people:
        people.hand_out(rep)
        people.start_apps()
        game_id = rep.genesis.game_id
        for app in people.apps.values():
            app.login()
        for _ in range(args.moves - 1):  # the last one is clicked in the browser
            fetch_all(people)
            pages = {name: app.game_data(game_id) for name, app in people.apps.items()}  # each verifies its new mail
            mover = next((name for name, data in pages.items() if data["choices"]), None)
            if mover is None:
                break
            app = people.apps[mover]
            copy = next((app.home / "games-files").glob(f"*-{game_id[:8]}.json"))
            copy.touch()  # the copy changed on disk: the next page verifies it again from its first entry
            seconds, _ = timed(lambda app=app: app.get(f"/game/{game_id}"))
            cold.append(seconds)
            for _ in range(5):
                seconds, _ = timed(lambda app=app: app.get(f"/game/{game_id}"))
                warm.append(seconds)
            data = app.game_data(game_id)
            move = {"head": data["head"], "action": data["choices"][0]["notation"]}
            seconds, (status, answer) = timed(lambda app=app, move=move: app.post(f"/game/{game_id}/move", move))
            assert status == 200 and answer["ok"] and "Signed and wrote" in answer["message"], answer
            clicks.append(seconds)
        browser = browser_click(people, game_id)
    print(f"game page, warm (the verified game in memory): median {ms(statistics.median(warm))}, "
          f"max {ms(max(warm))} over {len(warm)}   (target < 200 ms)")
    print(f"game page, cold (the copy verified again):     median {ms(statistics.median(cold))}, "
          f"max {ms(max(cold))} over {len(cold)}")
    print(f"Sign and send (signed, written, sent by SMTP): median {ms(statistics.median(clicks))}, "
          f"max {ms(max(clicks))} over {len(clicks)}   (target < 300 ms)")
    if browser is not None:
        print(f"in chromium, from the click on Sign and send to the page showing it sent (reload included): "
              f"{ms(browser)}")
    elif not (shutil.which("chromium") and shutil.which("chromedriver")):
        print("in chromium: not measured (no chromium and chromedriver here)")
    else:
        print("in chromium: not measured (the game ended before a decision was left for it)")


def browser_click(people, game_id: str) -> float | None:  # type: ignore[no-untyped-def]
    """The last decision's click in a real browser, if one is installed and a decision is left."""
    if not (shutil.which("chromium") and shutil.which("chromedriver")):
        return None
    from selenium import webdriver
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    fetch_all(people)
    mover = next((n for n, app in people.apps.items() if app.game_data(game_id)["choices"]), None)
    if mover is None:
        return None
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or ""
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(shutil.which("chromedriver")))
    try:
        app = people.apps[mover]
        driver.get(app.url)
        driver.get(f"{app.base}/game/{game_id}")
        targets = driver.find_elements(By.CSS_SELECTOR, ".target")
        if targets:
            targets[0].click()
        driver.find_element(By.CSS_SELECTOR, "#options button.option").click()
        start = time.perf_counter()
        driver.find_element(By.ID, "sign").click()
        WebDriverWait(driver, 20, poll_frequency=0.005).until(
            lambda d: "Signed and wrote" in d.execute_script("return document.getElementById('message').textContent"))
        return time.perf_counter() - start
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
