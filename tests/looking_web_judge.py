"""`pbem judge web` that tells what its one look for other processes' changes does (tests only;
tests/web/test_guard_attacks.py runs it as the judge's process): it writes to the file PBEM_TEST_LOOKS a line
`look` at each look at the store's mark and `streams N` each time a page's event stream opens or closes (N:
the streams open then), and looks every PBEM_TEST_LOOK_AGAIN seconds instead of LOOK_AGAIN. Nothing else
changes: the streams, the guard and the store are the judge's own."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from pbem.judge import web_server, web_tables
from pbem.judge.web_changes import Changes

LOOKS = os.environ["PBEM_TEST_LOOKS"]
honest_mark, honest_watched = web_tables.store_mark, Changes.watched


def told(line: str) -> None:
    with open(LOOKS, "a") as told_to:
        told_to.write(line + "\n")


def store_mark(store: Any) -> tuple[object, ...]:
    told("look")
    return honest_mark(store)


@contextmanager
def watched(self: Changes) -> Iterator[None]:
    try:
        with honest_watched(self):
            told(f"streams {self.streams}")
            yield
    finally:
        told(f"streams {self.streams}")


web_tables.store_mark = store_mark
Changes.watched = watched  # type: ignore[method-assign]
web_server.LOOK_AGAIN = float(os.environ.get("PBEM_TEST_LOOK_AGAIN", web_server.LOOK_AGAIN))

if __name__ == "__main__":
    from pbem.judge.__main__ import main

    sys.exit(main())
