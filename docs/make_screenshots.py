"""Pictures of the HTML replay (`pbem html`) for the docs: a 4-player game played by computer
players on a fixed deal, rendered by headless Chromium at a few entries.

    python docs/make_screenshots.py [--out DIR]

Writes DIR/replay-entry-N.png for each chosen entry (DIR: a new temporary directory unless given)
and refreshes docs/images/replay.png, the picture the README shows. Needs Debian's chromium and
chromium-driver, and selenium (in the test extra)."""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.sarcophagus.driver import deal  # noqa: E402
from engine.sarcophagus.hidden import layout_tiles  # noqa: E402
from pbem.crypto import Identity  # noqa: E402
from pbem.presentation.html import page  # noqa: E402
from pbem.protocol.bots import play_out  # noqa: E402
from pbem.protocol.genesis import new_game  # noqa: E402
from pbem.protocol.session import Session  # noqa: E402

PLAYERS = ("ann", "ben", "cat", "dan")
README_PICTURE = ROOT / "docs" / "images" / "replay.png"


def demo_game():
    """The same game every time: a fixed deal, first player and bot seed (only the game id differs)."""
    keys = {name: Identity.generate(name) for name in PLAYERS}
    rep = new_game("sarcophagus", {}, [(n, keys[n].public) for n in PLAYERS], "ann", keys["ann"],
                   layout=layout_tiles(deal(random.Random(2026))), first="cat")
    play_out({n: Session(rep, n, keys[n]) for n in PLAYERS}, "greedy", random.Random(5))
    return rep


def browser():
    from selenium import webdriver

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                     "--window-size=1180,940", "--force-device-scale-factor=1"):
        options.add_argument(argument)
    service = webdriver.ChromeService(shutil.which("chromedriver") or "/usr/bin/chromedriver")
    return webdriver.Chrome(options=options, service=service)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, help="where to write the pictures (default: a new temporary directory)")
    args = parser.parse_args()
    out = args.out or Path(tempfile.mkdtemp(prefix="pbem-screenshots-"))
    out.mkdir(parents=True, exist_ok=True)
    rep = demo_game()
    html_file = out / "replay.html"
    html_file.write_text(page(rep))
    last = len(rep.entries)
    ties = [seq for seq, event in rep.events if type(event).__name__ == "TieBreak" and seq > last // 3]
    readme_entry = ties[0] if ties else last // 2  # mid-game, a tie-break among the events
    entries = sorted({last // 4, readme_entry, last - 1, last})
    driver = browser()
    try:
        for n in entries:
            driver.get(f"{html_file.as_uri()}#entry={n}")
            picture = out / f"replay-entry-{n}.png"
            driver.save_screenshot(str(picture))
            print(f"{picture}")
            if n == readme_entry:
                README_PICTURE.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(picture, README_PICTURE)
    finally:
        driver.quit()
    print(f"{README_PICTURE} (entry {readme_entry} of {last}); the page: {html_file}")


if __name__ == "__main__":
    main()
