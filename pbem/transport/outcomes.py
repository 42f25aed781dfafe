"""What became of one mail, decided once where it is read (the inbox) and read by whoever acts on it (the
judge's retries, set-asides and answers): a value, never an error's wording."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Fate(StrEnum):
    """From the most to the least telling: a mail with parts of several fates takes the first of them."""

    FORKED = "forked"
    """A rival history of a game held here: never applied, kept beside the copies as evidence."""
    REFUSED = "refused"
    """Damaged, or an entry that does not verify: nothing of it applied."""
    WAITING = "waiting"
    """A turn after an entry the copy here does not have yet: it applies once the game has it."""
    APPLIED = "applied"
    """Its content is in the copies now."""
    NOT_HOSTED = "not hosted"
    """A turn of a game with no copy here (its invitation may come later: mail is not always in order)."""
    NOT_MINE = "not mine"
    """A whole game without any of this home's keys in it: never kept."""
    KNOWN = "known"
    """Everything in it was in the copies already."""
    IGNORED = "ignored"
    """Nothing of pbem in it."""


_RANK = {fate: rank for rank, fate in enumerate(Fate)}


@dataclass(frozen=True)
class PartFate:
    """One block or attachment of a mail: its game (when it names one), what became of it and why."""

    fate: Fate
    game_id: str = ""
    reason: str = ""
    after: int = 0
    """WAITING: the entry the turn follows (it applies once the copy has it)."""


@dataclass(frozen=True)
class MailOutcome:
    """One mail: its fate, the games it speaks of, the first reason (said to its sender: it names no path
    of this machine) and, for a waiting mail, the game and entry it waits for."""

    where: str
    fate: Fate
    games: tuple[str, ...] = ()
    reason: str = ""
    waits_for: tuple[str, int] | None = None


def combined(where: str, parts: list[PartFate]) -> MailOutcome:
    """The mail's outcome from its parts' (none: IGNORED)."""
    if not parts:
        return MailOutcome(where, Fate.IGNORED)
    first = min(parts, key=lambda p: _RANK[p.fate])
    games = tuple(dict.fromkeys(p.game_id for p in parts if p.game_id))
    waits = (first.game_id, first.after) if first.fate is Fate.WAITING else None
    return MailOutcome(where, first.fate, games, first.reason, waits)
