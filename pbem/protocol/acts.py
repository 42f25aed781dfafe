"""The trust layer's own acts, around any game's moves: joining, dealing, and verdicts.

    join                        a participant accepts the game and adds randomness to the deal
    deal first=bob              the dealer commits to every hidden item of the joint deal
    audit                       the dealer opens its seed at the end: the deal and all it gave are checked
    verdict open #3=5 #9=5      openings that prove their owner committed a value they did not hold
    verdict deal                the dealer's opened seed proves something it posted false
    verdict unopenable #7       the referee's word: #7's sealed value does not open for it (or a dealt
                                card's receiver's word, against the referee that sealed it)
    verdict lowest #3=0 #9=4    an absent player opens the cards they held, proving that the discard
                                recorded for them was not their lowest cards
    absent ann move since=17    ann has owed a move since entry 17, past its deadline and grace
                                (docs/deadlines.md); `... do ACTION` adds the act the duty becomes

A verdict ends the game against the participant it convicts; every verifier re-checks it from the
record alone (except `unopenable`, which is the referee's word and says so)."""

from __future__ import annotations

import re

from engine.contract import Value
from engine.frozen import Frozen
from pbem.errors import NotAnAct

ACT_WORDS = ("join", "deal", "audit", "verdict", "absent")
_KEY = re.compile(r"^[#a-z0-9][a-z0-9._-]{0,23}$")
_VALUE = re.compile(r"^[A-Za-z0-9_-]{1,32}$")


class Join(Frozen):
    pass


class CommitDeal(Frozen):
    first: str


class Audit(Frozen):
    pass


class ConvictSecrets(Frozen):
    """Open a player's committed secrets to prove a false choice."""

    values: tuple[tuple[str, Value], ...]


class ConvictDeal(Frozen):
    pass


class ConvictAbsence(Frozen):
    """An absent player opens the hidden cards of the hand they held (dealt to them, so they hold each one's
    salt) to prove that the discard an absence recorded for them was not their lowest cards."""

    values: tuple[tuple[str, Value], ...]


class Unopenable(Frozen):
    key: str


class RecordAbsence(Frozen):
    """`party` is recorded absent from the duty `what` owed since entry `since`; `then` is the game's act
    the duty becomes, in its notation, when it shows hidden items (or is otherwise a choice by rule)."""

    party: str
    what: str
    since: int
    then: str = ""


Act = Join | CommitDeal | Audit | ConvictSecrets | ConvictDeal | ConvictAbsence | Unopenable | RecordAbsence
_NAME = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")
_DUTY = re.compile(r"^[a-z]{1,16}$")


def is_act(text: str) -> bool:
    """Whether the text is in the trust layer's grammar, whatever a game's notation says: a game's
    actions must not read as these (Path of Pharaohs's `deal ann #3 #4` does not: it has no `first=`)."""
    words = text.split()
    if not words or words[0] not in ACT_WORDS:
        return False
    return words[0] != "deal" or (len(words) == 2 and words[1].startswith("first="))


def parse_act(text: str) -> Act:
    """An act from its canonical text; NotAnAct if it is none (callers name the entry)."""
    words = text.split()
    match words:
        case ["join"]:
            return Join()
        case ["deal", first] if first.startswith("first=") and len(first) > 6:
            return CommitDeal(first[6:])
        case ["audit"]:
            return Audit()
        case ["verdict", "deal"]:
            return ConvictDeal()
        case ["verdict", "unopenable", key] if _KEY.match(key):
            return Unopenable(key)
        case ["absent", party, what, since, *rest] if (_NAME.match(party) and _DUTY.match(what)
                                                        and since.startswith("since=") and since[6:].isdigit()
                                                        and len(since) < 13 and rest[:1] in ([], ["do"])
                                                        and len(rest) != 1):
            return RecordAbsence(party, what, int(since[6:]), " ".join(rest[1:]))
        case ["verdict", ("open" | "lowest") as kind, *pairs] if pairs:
            values: list[tuple[str, Value]] = []
            for pair in pairs:
                key, eq, value = pair.partition("=")
                if not (eq and _KEY.match(key) and _VALUE.match(value)):
                    raise NotAnAct(f"{text!r}: write each opened secret as key=value, e.g. #3=5")
                number = kind == "open" and value.isdigit() and len(value) < 10  # a coin; a card is its name
                values.append((key, int(value) if number else value))
            return ConvictSecrets(tuple(values)) if kind == "open" else ConvictAbsence(tuple(values))
    raise NotAnAct(f"{text!r} is not a join, deal, audit, verdict or absence")


def format_act(act: Act) -> str:
    if isinstance(act, Join):
        return "join"
    if isinstance(act, CommitDeal):
        return f"deal first={act.first}"
    if isinstance(act, Audit):
        return "audit"
    if isinstance(act, ConvictDeal):
        return "verdict deal"
    if isinstance(act, Unopenable):
        return f"verdict unopenable {act.key}"
    if isinstance(act, RecordAbsence):
        return f"absent {act.party} {act.what} since={act.since}" + (f" do {act.then}" if act.then else "")
    kind = "lowest" if isinstance(act, ConvictAbsence) else "open"
    return f"verdict {kind} " + " ".join(f"{key}={value}" for key, value in act.values)


# ---------------------------------------------------------------- what they cause

class Joined(Frozen):
    who: str

    def __str__(self) -> str:
        return f"{self.who} joins the game"


class DealPosted(Frozen):
    by: str
    first: str

    def __str__(self) -> str:
        return f"the hidden items are dealt (shuffled from the dealer's seed and every join); {self.first} moves first"


class Audited(Frozen):
    by: str

    def __str__(self) -> str:
        return "the dealer's seed is opened: the deal and all it gave check out"


class Verdict(Frozen):
    """The game ends against `against` (one participant, or the signers of a false absence joined by "and"):
    `reason` says the proof; `seq` is the entry that holds it."""

    against: str
    reason: str
    seq: int
    by: str

    def __str__(self) -> str:
        verb = "forfeit" if " and " in self.against else "forfeits"  # several signers of a false absence
        return f"VERDICT: {self.against} {verb}: {self.reason} (entry {self.seq}, signed by {self.by})"
