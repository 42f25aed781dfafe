"""Pictures of `pbem app` for the README and docs/app.md: a 4-player Sarcophagus game and a 4-player
Path of Pharaohs game played by computer players towards their end, then shown in each mover's own
app (started as `pbem app --no-browser`, in its own PBEM_HOME) by headless Chromium, with a place on
the board chosen.

    PYTHONPATH=. python docs/make_app_screenshots.py

Writes docs/images/app-games.png, app-sarcophagus.png and app-pharaohs.png. Needs Debian's chromium
and chromium-driver, selenium and aiosmtpd (the test extra)."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from selenium.webdriver.common.by import By  # noqa: E402

from pbem.crypto import Identity  # noqa: E402

from app_clicks import chromium, enter  # noqa: E402
from app_support import fetch_all, near_the_end, table  # noqa: E402

IMAGES = ROOT / "docs" / "images"
PLAYERS = ["ann", "ben", "cat", "dan"]
IDS = {n: Identity.from_seed(bytes([i + 80]) * 32, comment=n) for i, n in enumerate(PLAYERS)}


def shoot(game: str, left: int, picture: str, browser, home_picture: str | None = None) -> None:  # type: ignore[no-untyped-def]
    rep = near_the_end(game, PLAYERS, IDS, left, seed=3)
    with table(Path(tempfile.mkdtemp(prefix="pbem-shots-")), PLAYERS, IDS) as people:
        people.hand_out(rep)
        people.start_apps()
        game_id = rep.genesis.game_id
        while True:  # to a turn with places on the board to choose (not only Stop)
            mover, data = next((n, d) for n, d in ((n, a.game_data(game_id)) for n, a in people.apps.items())
                               if d["choices"])
            if any(c["target"] for c in data["choices"]):
                break
            people.apps[mover].post(f"/game/{game_id}/move", {"head": data["head"], "action": data["choices"][0]["notation"]})
            fetch_all(people)
        app = people.apps[mover]
        enter(browser, app)
        if home_picture:
            browser.find_element(By.CSS_SELECTOR, "#new-game summary").click()
            browser.save_screenshot(str(IMAGES / home_picture))
        browser.get(f"{app.base}/game/{game_id}")
        targets = browser.find_elements(By.CSS_SELECTOR, ".target")
        if targets:
            targets[len(targets) // 2].click()
        options = browser.find_elements(By.CSS_SELECTOR, "#options button.option")
        options[0].click()
        browser.execute_script("window.scrollTo(0, 0)")
        browser.save_screenshot(str(IMAGES / picture))


def main() -> None:
    browser = chromium(1280, 900)
    try:
        shoot("sarcophagus", 40, "app-sarcophagus.png", browser, home_picture="app-games.png")
        shoot("path-of-pharaohs", 30, "app-pharaohs.png", browser)
    finally:
        browser.quit()
    print(f"Wrote {IMAGES}/app-games.png, app-sarcophagus.png, app-pharaohs.png")


if __name__ == "__main__":
    main()
