"""Deadlines and absences in a replayed game (docs/deadlines.md): who answers for each duty owed, since
which entry, who may record them absent, and whether the signed times allow it.

A duty's clock runs from the signed time of the entry after which its party began to owe without a
break. Times are each signer's claim; the checks here are about what the record says, never about what
time it really is (docs/security.md)."""

from __future__ import annotations

from engine.contract import DEALER, Duty
from engine.frozen import Frozen
from pbem.errors import (
    AbsenceUnderway,
    IllegalMove,
    NoClock,
    NothingOwed,
    NotOwed,
    NotYourTurn,
    ParticipantError,
    TooEarly,
)
from pbem.protocol.acts import RecordAbsence, parse_act
from pbem.protocol.replay import Replay
from pbem.record.deadlines import HOUR, Clock, DeadlinePolicy, clock, now
from pbem.record.models import Entry

TABLE = "the table"
"""Who answers for a table-mode dealer duty: any player's program does it when it next acts."""


def answerable(rep: Replay, duty: Duty) -> str:
    """Who answers for a duty: its holder; the referee for the dealer's duties and, holding every opening,
    for a player's opening in referee mode; at a table the dealer's duties are the table's."""
    if duty.who == DEALER:
        return rep.dealer_signer or TABLE
    if duty.what == "open" and rep.referee:
        return rep.referee
    return duty.who


def owing(rep: Replay) -> dict[str, Duty]:
    """Each party who answers for a duty now, and the first such duty (in the order the game owes them)."""
    out: dict[str, Duty] = {}
    for duty in rep.duties():
        out.setdefault(answerable(rep, duty), duty)
    return out


def note_duties(rep: Replay, author: str | None = None) -> None:
    """After the genesis and after each entry: when each party's present duty began (kept while it lasts;
    a party's own entry starts their next duty's clock afresh)."""
    owed = owing(rep)
    rep.began = {who: rep.seq if who == author else rep.began.get(who, rep.seq) for who in owed}
    rep.held = {who: rep.held.get(who, rep.seq) for who in owed}


def signed_time(rep: Replay, seq: int) -> int | None:
    """The signed time of the genesis (0) or of entry `seq`."""
    return rep.genesis.time if seq == 0 else rep.entries[seq - 1].time


def policy(rep: Replay) -> DeadlinePolicy | None:
    return rep.genesis.deadlines


def duty_clock(rep: Replay, party: str) -> Clock | None:
    """The clock of the duty `party` answers for now, in a game with a policy (None otherwise)."""
    rules, duty = policy(rep), owing(rep).get(party)
    start = signed_time(rep, rep.began.get(party, rep.seq)) if duty else None
    if rules is None or duty is None or start is None or party == TABLE or duty.what == "join":
        return None
    return clock(rules, duty.what, party == rep.referee, start)


def entitled(rep: Replay, party: str) -> list[str]:
    """Who records `party` absent, in the order they sign: the referee alone for a player in referee mode;
    every player, in seat order, for the referee; every other player at a table (two players: the other)."""
    if party == rep.referee:
        return list(rep.players)
    if rep.referee:
        return [rep.referee]
    return [p for p in rep.players if p != party]


class Absence(Frozen):
    """An absence recorded (its last signer's entry): the party, the duty and since when, who signed."""

    party: str
    what: str
    since: int
    seq: int
    signers: tuple[str, ...]
    deadline: int
    time: int
    withheld: bool = False
    """The party's committed secrets may stay closed for good (an absent opening, or out of the game)."""
    by_seed: bool = False
    """Its act shows cards chosen by rule from a hidden hand (the lowest): checked when the seed opens."""

    def __str__(self) -> str:
        return (f"{self.party} recorded absent ({self.what} owed since entry {self.since}) at entry {self.seq} "
                f"by {' and '.join(self.signers)}")


class AbsenceSigned(Frozen):
    """One of several entitled signers has signed an absence that needs them all."""

    party: str
    by: str
    waiting: tuple[str, ...]

    def __str__(self) -> str:
        return (f"{self.by} records {self.party} absent; it takes effect when {' and '.join(self.waiting)} "
                f"sign{'s' * (len(self.waiting) == 1)} it too")


FUTURE_TOLERANCE = HOUR
"""How far ahead of this program's clock a signed time may be: honest clocks differ by seconds or minutes;
a signer dating an entry forward (an absence before its time) gains at most this."""


def check_time(rep: Replay, entry: Entry, seq: int) -> None:
    """In a game with a deadline policy every entry carries its signed time, none earlier than the entry
    before it (a signer cannot date an entry back past what others already signed) and none later than this
    program's clock allows (a signer cannot date one forward: it is refused until that time comes)."""
    if policy(rep) is None:
        return
    before = signed_time(rep, seq - 1)
    if entry.time is None:
        raise IllegalMove("a game with deadlines has a signed time on every entry", seq, entry.author)
    if before is not None and entry.time < before:
        raise IllegalMove(f"its signed time ({entry.time}) is earlier than the entry before it ({before})",
                          seq, entry.author)
    mine = now()
    if entry.time > mine + FUTURE_TOLERANCE:
        raise IllegalMove(f"its signed time ({entry.time}) is {span(entry.time - mine)} ahead of this program's "
                          f"clock ({mine}): a time in the future is refused (more than "
                          f"{span(FUTURE_TOLERANCE)} ahead) until that time comes", seq, entry.author)


def check_absence(rep: Replay, entry: Entry, party: str, what: str, since: int, seq: int) -> tuple[Clock, list[str]]:
    """Everything about an absence entry that is not the game's: a policy, the duty owed and since when, the
    signer's right to sign now, and the signed times. Returns the duty's clock and the signers still due
    after this one."""
    author = entry.author
    text = entry.action
    if policy(rep) is None:
        raise NotOwed(f"{text}: this game has no deadline policy, so nobody can be recorded absent", seq, author)
    duty = owing(rep).get(party)
    if party not in rep.roster or duty is None or party == TABLE:
        raise NotOwed(f"{text}: {party} owes nothing now", seq, author)
    if duty.what == "join":
        raise NotOwed(f"{text}: a game not joined has not started; nobody is absent from it", seq, author)
    began = rep.began.get(party, rep.seq)
    if what != duty.what or since != began:
        raise IllegalMove(f"{text}: {party} owes {a(duty.what)} since entry {began}", seq, author)
    signers = entitled(rep, party)
    done = list(rep.pending[1]) if rep.pending and rep.pending[0] == text else []
    if rep.pending and rep.pending[0] != text:
        raise NotOwed(f"{text}: {rep.pending[0]!r} is being signed: {signers[len(rep.pending[1])]} signs it next",
                      seq, author)
    if author not in signers:
        raise NotOwed(f"{text}: {author} may not record {party} absent (only {' and '.join(signers)})", seq, author)
    passing = signers[len(done)] != author and bool(done) and passed_over(rep, entry.time)
    if signers[len(done)] != author and not passing:
        raise NotOwed(f"{text}: {signers[len(done)]} signs it {'first' if not done else 'next'}", seq, author)
    times = duty_clock(rep, party)
    if times is None:
        raise IllegalMove(f"{text}: the entry {party}'s duty began with has no signed time", seq, author)
    if entry.time is None or entry.time < times.absent_from:
        grace = times.policy.grace_hours
        raise IllegalMove(f"{text}: too early: signed at {entry.time}, but {party} may be recorded absent only from "
                          f"{times.absent_from} ({times.hours} h after entry {since}, then {grace} h of grace)",
                          seq, author)
    return times, [] if passing else signers[len(done) + 1:]


def a(what: str) -> str:
    """A kind of duty with its article: a move, an open(ing), an audit."""
    return f"an {what}" if what[:1] in "aeiou" else f"a {what}"


def span(seconds: int) -> str:
    """A time span in words: minutes, hours or days."""
    if seconds < HOUR:
        return f"{max(seconds // 60, 0)} min"
    if seconds < 48 * HOUR:
        return f"{seconds // HOUR} h"
    return f"{seconds // (24 * HOUR)} days"


def recordable(rep: Replay, party: str, signer: str, when: int) -> tuple[Duty, int, bool]:
    """Whether `signer` may record `party` absent at `when`: the duty owed, the entry it is owed since,
    and whether this signer is the last of those who must sign. A ParticipantError if the game has no policy,
    the party owes nothing an absence answers for, the signer is not entitled (or not next), or it is too
    early by the signed times."""
    if rep.genesis.deadlines is None:
        raise NoClock("this game has no deadline policy: nobody can be recorded absent")
    duty = owing(rep).get(party)
    if duty is None or party not in rep.roster or duty.what == "join" or (rep.state is None and party != rep.referee):
        raise NothingOwed(f"{party} owes nothing that an absence can be recorded for now")
    signers = entitled(rep, party)
    if signer not in signers:
        raise NotYourTurn(f"{signer} may not record {party} absent: only {' and '.join(signers)} may")
    since = rep.began.get(party, rep.seq)
    other = parse_act(rep.pending[0]) if rep.pending else None
    if rep.pending and isinstance(other, RecordAbsence) and other.party != party:
        raise AbsenceUnderway(f"{other.party}'s absence is being signed ({' and '.join(rep.pending[1])} so far): it is "
                         "signed to the end, or lapses, first")
    pending = rep.pending[1] if rep.pending else ()
    passing = signers[len(pending)] != signer and bool(pending) and passed_over(rep, when)
    if signers[len(pending)] != signer and not passing:
        raise NotYourTurn(f"{signers[len(pending)]} signs {party}'s absence {'next' if pending else 'first'}"
                         + (f" (or, if they have not signed it {COSIGN_HOURS_MIN} h or the grace after its last "
                            "signature, any of the others)" if pending else ""))
    times = duty_clock(rep, party)
    if times is None:
        raise NoClock(f"the entry {party}'s duty began with has no signed time")
    if when < times.absent_from:
        raise TooEarly(f"too early: {party} has owed {a(duty.what)} since entry {since} ({times.hours} h, "
                         f"then {times.policy.grace_hours} h of grace): they may be recorded absent in "
                         f"{span(times.absent_from - when)}")
    return duty, since, passing or len(pending) + 1 == len(signers)


COSIGN_HOURS_MIN = 2
"""The least time a co-signer has to sign an absence, whatever the policy's grace (two hours: more than
the hour a signed time may run ahead, so no signer passes over another by dating forward)."""


def passed_over(rep: Replay, when: int | None) -> bool:
    """Whether the absence being signed may be completed at `when` by any entitled signer, the one whose
    turn it is to sign passed over: its last signature is the grace old (at least COSIGN_HOURS_MIN).
    Not signing is withholding too: without this, one entitled signer who never signs (a friend of the
    absent party, or a second player who vanished) would stall the game for ever."""
    rules = policy(rep)
    if rep.pending is None or when is None or rules is None:
        return False
    last = next((e.time for e in reversed(rep.entries) if e.action == rep.pending[0]), None)
    return last is not None and when >= last + max(rules.grace_hours, COSIGN_HOURS_MIN) * HOUR


def still_pending(rep: Replay) -> bool:
    """Whether the absence being signed still stands after an entry that is not part of it: its party
    still owes that duty, owed since the same entry. Their own act starts their clock afresh, so it lapses
    (they came back); another participant's act (a player opening their own coins while the referee is
    being recorded absent from the tie-break) leaves it standing."""
    if rep.pending is None:
        return False
    act = parse_act(rep.pending[0])
    if not isinstance(act, RecordAbsence):
        return False
    duty = owing(rep).get(act.party)
    return duty is not None and duty.what == act.what and rep.began.get(act.party) == act.since


def next_recorder(rep: Replay, party: str) -> str | None:
    """Who signs `party`'s absence next, once it may be recorded: the referee, or the next player in seat
    order of those entitled who has not signed it yet; None without a policy or for a duty no absence
    answers for (the table's, a join)."""
    duty = owing(rep).get(party)
    if (policy(rep) is None or duty is None or party not in rep.roster or duty.what == "join"
            or (rep.state is None and party != rep.referee)):
        return None
    signers = entitled(rep, party)
    pending = parse_act(rep.pending[0]) if rep.pending else None
    if rep.pending and isinstance(pending, RecordAbsence) and pending.party != party:
        return None  # another party's absence is being signed: it comes first
    done = len(rep.pending[1]) if rep.pending else 0
    return signers[done] if done < len(signers) else None


def offered(rep: Replay, signer: str, when: int) -> list[tuple[str, Duty, int]]:
    """Every absence `signer` may record at `when` (a duty `play` offers once the grace has passed): the
    absent party, the duty they owe and the entry it is owed since."""
    found = []
    for party in owing(rep):
        try:
            duty, since, _ = recordable(rep, party, signer, when)
        except ParticipantError:
            continue
        found.append((party, duty, since))
    return found


def claimed_in_time(rep: Replay, key: str, author: str, seq: int) -> None:
    """A `verdict unopenable` is its author's word alone (nobody else can open a blob sealed to them: a
    card's receiver, or the referee for a player's coin), so it is taken only as an honest program gives
    it: at once, before they sign anything else after the value was sealed to them (cheat_found runs
    before every entry). Later, it would be a loser's way out, or a referee's way to strike down a winner:
    any card or coin long held, sworn unopenable to end the game against an honest party."""
    sealed = max((i for i, entry in enumerate(rep.entries, 1) if key in (entry.sealed or {})), default=0)
    since = [i for i, entry in enumerate(rep.entries[sealed:], sealed + 1) if entry.author == author]
    if since:
        raise IllegalMove(f"verdict unopenable: {author} has signed entry {since[0]} since {key} was sealed to them "
                          f"(entry {sealed}): a program says so before it signs anything else", seq, author)


__all__ = ["COSIGN_HOURS_MIN", "FUTURE_TOLERANCE", "TABLE", "Absence", "AbsenceSigned", "answerable",
           "check_absence", "check_time", "claimed_in_time", "duty_clock", "entitled", "next_recorder",
           "note_duties", "offered", "owing", "passed_over", "recordable", "span", "still_pending"]
