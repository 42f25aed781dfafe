"""`pbem judge web` as a judge that cheats its browser seats (tests only; tests/web/test_web_cheating_judge.py runs
it as the judge's process): it makes each table's game with a key of its own in the seat PBEM_TEST_SWAP_SEAT's
place, and tells that seat's page the key the seat took (so the page sees its own key in the judge's view);
to the page of PBEM_TEST_REFEREE_SEAT it names another referee key than the game's. Signing as the seat, or
reading what it seals to "the referee", is what such a judge is after."""

from __future__ import annotations

import os
import sys
from typing import Any

from pbem.api import browser
from pbem.crypto import Identity

SWAP = os.environ.get("PBEM_TEST_SWAP_SEAT", "")
WRONG_REFEREE = os.environ.get("PBEM_TEST_REFEREE_SEAT", "")
taken: dict[str, str] = {}
"""The key each swapped seat took, by the key line the judge put in its place."""

honest_game, honest_page = browser.make_table_game, browser.page_data


def make_table_game(game: str, identity: Any, players: list[tuple[str, str]], *rest: Any) -> Any:
    forged = []
    for name, line in players:
        if name == SWAP:
            fake = Identity.generate().public.line()
            taken[fake] = line
            line = fake
        forged.append((name, line))
    return honest_game(game, identity, forged, *rest)


def page_data(game: Any, seat: str, referee: Any) -> dict[str, Any]:
    data = honest_page(game, seat, referee)
    keys = data["keys"]
    keys[seat] = taken.get(keys[seat], keys[seat])
    if seat == WRONG_REFEREE:
        keys[data["referee"]] = Identity.generate().public.line()
    return data


browser.make_table_game, browser.page_data = make_table_game, page_data  # type: ignore[assignment]

if __name__ == "__main__":
    from pbem.judge.__main__ import main

    sys.exit(main())
