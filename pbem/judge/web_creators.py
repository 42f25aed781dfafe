"""Creator links (`pbem judge creator-link`, docs/web.md): the host's capability for someone with only a
browser to make tables on this judge, as `pbem judge invite` makes them, and be shown one link a seat.

A creator link's capability is 32 random bytes, kept only as their SHA-256 (as a seat's); it makes any
number of tables until the host revokes every creator link given so far."""

from __future__ import annotations

import secrets

from pbem import api
from pbem.judge import library
from pbem.judge.store import Store
from pbem.judge.web_tables import HostedTable, digest, new_table


class NotACreator(library.PbemError):
    """A creator link this judge did not give, or one it revoked."""


def new_link(store: Store, now: float) -> str:
    """A new creator capability (shown once, kept hashed)."""
    token = secrets.token_urlsafe(32)
    with store.db.transaction() as tx:
        tx.run("INSERT INTO web_creators (token_hash, created) VALUES (?, ?)", (digest(token), now))
    return token


def revoke(store: Store, now: float) -> int:
    """Revoke every creator link still good; how many were."""
    with store.db.transaction() as tx:
        return tx.run("UPDATE web_creators SET revoked = ? WHERE revoked IS NULL", (now,))


def good(store: Store, token: str) -> bool:
    with store.db.transaction() as tx:
        return tx.one("SELECT 1 FROM web_creators WHERE token_hash = ? AND revoked IS NULL",
                      (digest(token),)) is not None


def games() -> list[dict[str, str]]:
    """The games a creator may choose, with how many players each takes ("2 to 4")."""
    from engine import find_game
    from engine.contract import players_span

    return [{"name": name, "title": api.game_title(name), "players": players_span(find_game(name))}
            for name in api.game_names()]


def make_table(store: Store, token: str, game: str, seats: list[str], options: list[str],
               now: float) -> tuple[HostedTable, dict[str, str]]:
    """A table of browser seats made for a creator link, exactly as `pbem judge invite` makes one; the
    capability of each seat, by name."""
    if not good(store, token):
        raise NotACreator("this creator link is not one this judge gave, or it was revoked")
    if game not in api.game_names():
        raise library.PbemError(f"no game {game!r}: pbem plays {', '.join(api.game_names())}")
    return new_table(store, game, [(name, None, None) for name in seats], options, None, now)
