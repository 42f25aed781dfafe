"""Whole games in `pbem app`, by clicks only: a 2-player Sarcophagus game (two apps) and a 3-player Path
of Pharaohs game (three apps), each person with their own PBEM_HOME and their own app, in their own
tab of a real browser (headless chromium), the mail through a real SMTP server on localhost (aiosmtpd).
The creator starts the game from the app's form (the others' public keys pasted: the only thing typed);
from then on every join, deal, move and mail is a click: Fetch mail, a place on the board, an option,
Sign and send. Prints how long each game
took, how many clicks of Sign and send it needed, and how many mails it took (each mail counted once,
by its Message-ID, however many Maildirs it reached), against the entries signed; fails if a game does
not end verified and the same in every copy. Nobody clicks Fetch mail: each page shows the others' turns
as their mail arrives (the live app). The suite plays the last moves of such games
(tests/app/test_app_browser.py).

    PYTHONPATH=. python benchmarks/app_games.py [--game sarcophagus|path-of-pharaohs]
"""

from __future__ import annotations

import argparse
import email
import email.policy
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))

from app_clicks import CHROMIUM, DRIVER, check_finished, chromium, copy_bytes, play_to_the_end, start_by_form  # noqa: E402
from app_support import table  # noqa: E402

GAMES = {"sarcophagus": ["ann", "ben"], "path-of-pharaohs": ["ann", "ben", "cat"]}


def mails_sent(base: Path) -> int:
    """The mails of a game: every Message-ID in the people's Maildirs, each counted once."""
    ids = set()
    for path in base.glob("*/Maildir/*/*"):
        with path.open("rb") as mail:
            ids.add(email.message_from_binary_file(mail, policy=email.policy.default)["Message-ID"])
    return len(ids)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=list(GAMES), action="append", help="one game (default: both)")
    args = parser.parse_args()
    if not (CHROMIUM and DRIVER):
        sys.exit("no browser: install Debian's chromium and chromium-driver")
    browser = chromium()
    try:
        for game in args.game or list(GAMES):
            names = GAMES[game]
            with table(Path(tempfile.mkdtemp(prefix=f"pbem-app-{game}-")), names) as people:
                start = time.perf_counter()
                people.start_apps()
                game_id = start_by_form(browser, people, game, names[0], names)
                moves = play_to_the_end(browser, people, game_id, names, limit=400)
                check_finished(browser, people, game_id, names)
                seconds = time.perf_counter() - start
                mails = mails_sent(people.base)
                entries = len(json.loads(copy_bytes(people.apps[names[0]], game_id))["entries"])
            print(f"{game}, {len(names)} players, {len(names)} apps: a whole game by clicks in {seconds:.0f} s, "
                  f"{moves} moves signed ({seconds / moves:.2f} s a move, every page updated live); "
                  f"{mails} mails for {entries} entries")
    finally:
        browser.quit()


if __name__ == "__main__":
    main()
