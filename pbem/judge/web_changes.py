"""The judge web's count of changes, and the wake-up of the pages' event streams when it moves on.

Whatever may have moved a game or a table on in this process (a posted entry, a seat taken, a table made,
a mail pass that changed the store) bumps the count once it is committed, from whatever thread did it;
each page's event stream waits on the server's event loop for the next bump and only then looks at the
store (web_server.py). Changes made by another process on the same database (another judge) are seen by
one look for the whole process (`watch_outside`), not one per page: a thousand open pages cost the store
what one does.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager


class Changes:
    def __init__(self) -> None:
        self.count = 0
        self._lock = threading.Lock()
        self._next: dict[asyncio.AbstractEventLoop, asyncio.Future[None]] = {}
        """The future each event loop's streams wait on, set by the next bump (one for all of them)."""
        self.streams = 0
        """The event streams open now: with none, nobody needs the look for other processes' changes."""

    @contextmanager
    def watched(self) -> Iterator[None]:
        """While a page's event stream is open."""
        with self._lock:
            self.streams += 1
        try:
            yield
        finally:
            with self._lock:
                self.streams -= 1

    def bump(self) -> None:
        """Something was committed that a page may show: every stream waiting is woken."""
        with self._lock:
            self.count += 1
            waiting, self._next = self._next, {}
        for loop, future in waiting.items():
            try:
                loop.call_soon_threadsafe(_settle, future)
            except RuntimeError:  # its loop is closed: nobody waits there any more
                pass

    def moved(self, seen: int) -> asyncio.Future[None]:
        """A future of the running loop, done once the count is no longer `seen` (at once if it is not)."""
        loop = asyncio.get_running_loop()
        with self._lock:
            if self.count != seen:
                done: asyncio.Future[None] = loop.create_future()
                done.set_result(None)
                return done
            if loop not in self._next:
                self._next[loop] = loop.create_future()
            return self._next[loop]


def _settle(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def watch_outside(changes: Changes, lock: AbstractContextManager[object], mark: Callable[[], object],
                  stopping: threading.Event, every: float, log: Callable[[str], None]) -> threading.Thread:
    """A thread that, until `stopping`, every `every` seconds while a stream is open, reads the store's mark of
    what it holds (its games' entries, its tables' seats: `mark`, under the judge's `lock`) and, when another
    process moved it on, wakes every stream to look. This process's own changes bump as they commit. A look
    that fails is logged, once until one succeeds again."""
    def look() -> None:
        last: object = None
        failing = False
        while not stopping.wait(every):
            if changes.streams == 0:
                last = None  # nobody watching: the next stream looks for itself when it opens
                continue
            try:
                with lock:
                    now = mark()
            except Exception as exc:  # noqa: BLE001 (the store busy or gone for a while: the next look tells)
                if not failing:
                    log(f"error looking at the store for other judges' changes: {type(exc).__name__}: {exc}")
                failing = True
                continue
            failing = False
            if now != last:  # or the first look since a page opened: what moved before it is not known
                changes.bump()
            last = now

    thread = threading.Thread(target=look, name="pbem-judge-look", daemon=True)
    thread.start()
    return thread
