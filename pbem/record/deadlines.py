"""The deadline policy a game is made with (docs/deadlines.md), and the times it gives a duty.

The policy is a pydantic model for the genesis's optional `deadlines` field: every join agrees to it,
and a genesis without it is read and written exactly as before. Its times are pure functions of a duty's
start (the signed time of the entry after which the party began to owe) and `now`, so whoever asks (the
CLI, the judge, a test) passes its own clock.

Signed times are each signer's claim, bound by their signature, not a proof: docs/security.md says what
an absence built on them proves.
"""

from __future__ import annotations

import os
import time
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from engine.frozen import Frozen
from pbem.errors import UsageError

Hours = Annotated[int, Field(ge=1, le=24 * 365)]
HOUR = 3600

OPENING = "open"
"""A player opening committed values (a tie-break, the end audit): `open_hours`."""


class DeadlinePolicy(BaseModel):
    """How long each duty may take, when reminders are due, and how long after a deadline an absence may
    be recorded. What an absent party's duty then becomes is the game's rule (engine/*/absence.py)."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    turn_hours: Hours
    """A player's move, and a choice on their turn (a trap's discard, the discard down to the limit)."""
    open_hours: Hours
    """A player's opening of values a tie-break or the end audit needs (table mode: the referee opens
    for players in referee mode)."""
    referee_hours: Hours
    """Each of the referee's duties (the deal, a reveal, a deal of cards, a shuffle, a steal, the audit)."""
    reminders: Annotated[list[Annotated[int, Field(ge=1, le=24 * 365)]], Field(max_length=4)] = []
    """Hours before a deadline at which the party is reminded (a duty shorter than a reminder skips it)."""
    grace_hours: Annotated[int, Field(ge=0, le=24 * 365)]
    """Hours after a deadline before the party may be recorded absent."""
    out_after: Literal[3] = 3
    """Absent turns in a row after which the game's rule takes the player out or ends the game
    (engine.contract.ABSENCES_OUT: fixed, written out so the invitation says it)."""

    @model_validator(mode="after")
    def _reminders_fit(self) -> DeadlinePolicy:
        if list(self.reminders) != sorted(set(self.reminders), reverse=True):
            raise ValueError("reminders are distinct hours before the deadline, longest first")
        if self.reminders and self.reminders[0] >= max(self.turn_hours, self.open_hours, self.referee_hours):
            raise ValueError("a reminder comes before a deadline: shorter than the longest duty's time")
        return self

    @model_validator(mode="after")
    def _longer_than_a_date_forward(self) -> DeadlinePolicy:
        """A signer may date an entry up to an hour ahead of the reader's clock (docs/security.md): with a
        duty of 1 h and no grace, an absence dated so would be taken the moment the duty began. Every
        duty's time and the grace together are at least 2 h, so at least an hour is really left."""
        if min(self.turn_hours, self.open_hours, self.referee_hours) + self.grace_hours < 2:
            raise ValueError("every duty's hours and the grace together are at least 2 (an entry may be dated an "
                             "hour forward)")
        return self

    def hours_for(self, what: str, by_referee: bool) -> int:
        """The time a duty of kind `what` may take: the referee's own duties have theirs."""
        if by_referee:
            return self.referee_hours
        return self.open_hours if what == OPENING else self.turn_hours


def now() -> int:
    """The time this program signs and judges deadlines at (Unix seconds): its clock, or PBEM_NOW when set
    (tests and demos: the clock they inject; a signed time is a claim whatever sets it)."""
    fixed = os.environ.get("PBEM_NOW", "")
    return int(fixed) if fixed.isdigit() else int(time.time())


def default_policy(game: str) -> DeadlinePolicy:
    """The game's own pace (its definition's `pace`: a longer turn for a game whose turn is a plan), or the
    contract's default pace for a name the registry lacks. Openings are decisionless (a program does them
    on its next run): a day; a referee is usually a program (the judge): half a day."""
    from engine import GAMES  # the registry loads only when a policy is asked for
    from engine.contract import Pace

    pace = GAMES[game].pace if game in GAMES else Pace()
    return DeadlinePolicy(turn_hours=pace.turn_hours, open_hours=pace.open_hours, referee_hours=pace.referee_hours,
                          reminders=list(pace.reminders), grace_hours=pace.grace_hours)


class Clock(Frozen):
    """The times one owed duty gives, from its start (Unix seconds, a signed claim)."""

    since: int
    hours: int
    policy: DeadlinePolicy

    @property
    def deadline(self) -> int:
        return self.since + self.hours * HOUR

    @property
    def absent_from(self) -> int:
        """The earliest signed time an absence entry may claim."""
        return self.deadline + self.policy.grace_hours * HOUR

    def reminders_due(self, now: int) -> list[int]:
        """The reminder times (Unix seconds) that have come by `now`, earliest first."""
        times = [self.deadline - hours * HOUR for hours in self.policy.reminders]
        return [t for t in times if self.since < t <= now]

    def stage(self, now: int) -> Literal["on time", "reminded", "late", "absent"]:
        """Where the duty stands at `now`: before any reminder, after one, past the deadline (late), or past
        the grace too (an absence may be recorded)."""
        if now >= self.absent_from:
            return "absent"
        if now > self.deadline:
            return "late"
        return "reminded" if self.reminders_due(now) else "on time"


_POLICY_KEYS = {"turn": "turn_hours", "open": "open_hours", "referee": "referee_hours", "grace": "grace_hours",
                "remind": "reminders"}


def parse_policy(game: str, spec: str) -> DeadlinePolicy:
    """A deadline policy from `default` (the game's own, docs/deadlines.md) or KEY=HOURS,... over it:
    turn, open, referee, grace, remind (reminders: hours before a deadline, joined by '+', e.g. 24+2).
    A key given twice is refused, not read as its last value: every join agrees to what the creator meant."""
    fields, given = default_policy(game).model_dump(), set()
    for part in ([] if spec == "default" else spec.split(",")):
        key, eq, value = part.partition("=")
        hours = value.split("+") if key == "remind" else [value]
        if not eq or key not in _POLICY_KEYS or not all(h.isdigit() and len(h) < 6 for h in hours):
            raise UsageError(f"--deadlines {spec!r}: write 'default' or KEY=HOURS joined by commas (keys: "
                             f"{', '.join(_POLICY_KEYS)}; remind=24+2), e.g. turn=48,grace=24")
        if key in given:
            raise UsageError(f"--deadlines {spec!r}: {key} is given twice")
        given.add(key)
        fields[_POLICY_KEYS[key]] = [int(h) for h in hours] if key == "remind" else int(value)
    try:
        return DeadlinePolicy.model_validate(fields)
    except ValidationError as exc:
        raise UsageError(f"--deadlines {spec!r}: {exc.errors()[0]['msg']}") from None


def clock(policy: DeadlinePolicy, what: str, by_referee: bool, since: int) -> Clock:
    return Clock(since, policy.hours_for(what, by_referee), policy)


__all__ = ["Clock", "DeadlinePolicy", "clock", "default_policy", "now"]
