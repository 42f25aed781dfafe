"""The judge keeps each game's deadlines by the policy every join agreed to (docs/deadlines.md): a
reminder mailed to the party who owes at each reminder time, a notice once the deadline has passed, and
once the grace has passed too, the absence recorded as a signed entry (the game's rule applies) and
mailed like every entry it signs.

The times compared are the judge's own clock (injectable, for the tests) against the signed start of
each duty. What was mailed is noted in the judge's database per game, party and duty start, so a restart
mails nothing twice and a new duty starts afresh."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import formatdate

from pbem.judge import library
from pbem.judge.library import Clock


@dataclass(frozen=True)
class Due:
    """Something the judge owes a game now: a `reminder` (at `at`), a `notice`, or an `absent` entry."""

    party: str
    kind: str
    what: str
    since: int
    at: int
    deadline: int
    absent_from: int

    @property
    def key(self) -> str:
        return f"{self.party}:{self.since}:{self.kind}:{self.at}"


Received = Callable[[int], "float | None"]
"""When the judge received entry `seq` (None: not known): the time it trusts, as against the signed one."""


def clocks(rep: library.Replay, me: str, received: Received | None = None) -> dict[str, tuple[str, int, Clock]]:
    """Each party's duty clock but the judge's own. A clock starts at the signed time of the entry that
    began the duty, which its author chose: a player who dates his move back by hours would shorten the
    next player's time by as much. So the judge starts it no earlier than it received that entry."""
    found = {}
    for party, (what, since, clock) in library.duty_clocks(rep).items():
        if party == me:
            continue
        got = received(since) if received is not None else None
        if got is not None and got > clock.since:
            clock = replace(clock, since=int(got))
        found[party] = (what, since, clock)
    return found


def due(rep: library.Replay, now: int, me: str, done: set[str], received: Received | None = None) -> list[Due]:
    """What the game's deadlines ask of its referee at `now`, not done before."""
    found = []
    for party, (what, since, clock) in clocks(rep, me, received).items():  # the judge's own duties are done at once
        reminders = [Due(party, "reminder", what, since, t, clock.deadline, clock.absent_from)
                     for t in clock.reminders_due(now)[-1:]]  # the latest only: one mail, not a burst
        if now >= clock.absent_from:
            found.append(Due(party, "absent", what, since, clock.absent_from, clock.deadline, clock.absent_from))
        elif now >= clock.deadline:
            found.append(Due(party, "notice", what, since, clock.deadline, clock.deadline, clock.absent_from))
        else:
            found += reminders
    return [d for d in found if d.key not in done]


def next_time(rep: library.Replay, now: int, me: str, received: Received | None = None) -> int | None:
    """When the game's deadlines next ask something of its referee after `now` (a reminder, a notice, an
    absence), or None when nobody owes anything on a clock: the judge looks at the game again then, not
    at every sweep."""
    times = []
    for _, _, clock in clocks(rep, me, received).values():
        reminders = [clock.deadline - hours * 3600 for hours in clock.policy.reminders]
        times += [t for t in [*reminders, clock.deadline, clock.absent_from] if t > now and t > clock.since]
    return min(times) if times else None


def _when(t: int) -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(t))


def text(rep: library.Replay, d: Due) -> tuple[str, str]:
    """The subject and body of a reminder or a notice."""
    game = f"{rep.genesis.game} {library.short_id(rep.genesis.game_id)}"
    if d.kind == "reminder":
        subject = f"[pbem {game}] reminder: {d.party} to {d.what} by {_when(d.deadline)}"
        first = f"{d.party}, you have owed a {d.what} in {game} since entry {d.since}; the deadline is {_when(d.deadline)}."
    else:
        subject = f"[pbem {game}] deadline passed: {d.party} to {d.what}"
        first = f"{d.party}'s deadline for a {d.what} in {game} passed at {_when(d.deadline)}."
    return subject, (f"{first}\nAfter the grace, at {_when(d.absent_from)}, the referee records {d.party} absent "
                     "and the game goes on by its rule (docs/deadlines.md).\n")


def mail(sender: str, me: str, party: str, address: str, subject: str, body: str, rep: library.Replay) -> EmailMessage:
    """A reminder or notice to one party, in the game's thread (it answers the mail of the last entry)."""
    msg = EmailMessage()
    msg["From"] = Address(me, addr_spec=sender)
    msg["To"] = Address(party, addr_spec=address)
    msg["Subject"] = subject
    msg["Date"] = formatdate(localtime=True)
    msg["In-Reply-To"] = f"<{rep.seq}.{rep.hashes[rep.seq][:16]}.{rep.genesis.game_id}@pbem.invalid>"
    msg["X-Pbem-Game"] = rep.genesis.game_id
    msg.set_content(body)
    return msg
