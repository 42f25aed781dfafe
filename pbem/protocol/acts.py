"""The trust layer's own acts, around any game's moves: joining, dealing, and verdicts.

    join                        a participant accepts the game and adds randomness to the deal
    deal first=bob              the dealer commits to every hidden item of the joint deal
    audit                       the dealer opens its seed at the end: the deal and all it gave are checked
    verdict open #3=5 #9=5      openings that prove their owner committed a value they did not hold
    verdict deal                the dealer's opened seed proves something it posted false
    verdict unopenable #7       the referee's word: #7's sealed value does not open for it

A verdict ends the game against the participant it convicts; every verifier re-checks it from the
record alone (except `unopenable`, which is the referee's word and says so)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.contract import Value
from pbem.errors import UsageError

ACT_WORDS = ("join", "deal", "audit", "verdict")
_KEY = re.compile(r"^[#a-z0-9][a-z0-9._-]{0,23}$")
_VALUE = re.compile(r"^[A-Za-z0-9_-]{1,32}$")


@dataclass(frozen=True)
class Join:
    pass


@dataclass(frozen=True)
class Deal:
    first: str


@dataclass(frozen=True)
class Audit:
    pass


@dataclass(frozen=True)
class ConvictSecrets:
    """Open a player's committed secrets to prove a false choice."""

    values: tuple[tuple[str, Value], ...]


@dataclass(frozen=True)
class ConvictDeal:
    pass


@dataclass(frozen=True)
class Unopenable:
    key: str


Act = Join | Deal | Audit | ConvictSecrets | ConvictDeal | Unopenable


def is_act(text: str) -> bool:
    """Whether the text is in the trust layer's grammar, whatever a game's notation says: a game's
    actions must not read as these (Path of Pharaohs's `deal ann #3 #4` does not: it has no `first=`)."""
    words = text.split()
    if not words or words[0] not in ACT_WORDS:
        return False
    return words[0] != "deal" or (len(words) == 2 and words[1].startswith("first="))


def parse_act(text: str) -> Act:
    """An act from its canonical text; UsageError if it is none (callers name the entry)."""
    words = text.split()
    match words:
        case ["join"]:
            return Join()
        case ["deal", first] if first.startswith("first=") and len(first) > 6:
            return Deal(first[6:])
        case ["audit"]:
            return Audit()
        case ["verdict", "deal"]:
            return ConvictDeal()
        case ["verdict", "unopenable", key] if _KEY.match(key):
            return Unopenable(key)
        case ["verdict", "open", *pairs] if pairs:
            values: list[tuple[str, Value]] = []
            for pair in pairs:
                key, eq, value = pair.partition("=")
                if not (eq and _KEY.match(key) and _VALUE.match(value)):
                    raise UsageError(f"{text!r}: write each opened secret as key=value, e.g. #3=5")
                values.append((key, int(value) if value.isdigit() and len(value) < 10 else value))
            return ConvictSecrets(tuple(values))
    raise UsageError(f"{text!r} is not a join, deal, audit or verdict")


def format_act(act: Act) -> str:
    if isinstance(act, Join):
        return "join"
    if isinstance(act, Deal):
        return f"deal first={act.first}"
    if isinstance(act, Audit):
        return "audit"
    if isinstance(act, ConvictDeal):
        return "verdict deal"
    if isinstance(act, Unopenable):
        return f"verdict unopenable {act.key}"
    return "verdict open " + " ".join(f"{key}={value}" for key, value in act.values)


# ---------------------------------------------------------------- what they cause

@dataclass(frozen=True)
class Joined:
    who: str

    def __str__(self) -> str:
        return f"{self.who} joins the game"


@dataclass(frozen=True)
class Dealt:
    by: str
    first: str

    def __str__(self) -> str:
        return f"the hidden items are dealt (shuffled from the dealer's seed and every join); {self.first} moves first"


@dataclass(frozen=True)
class Audited:
    by: str

    def __str__(self) -> str:
        return "the dealer's seed is opened: the deal and all it gave check out"


@dataclass(frozen=True)
class Verdict:
    """The game ends against `against`: `reason` says the proof; `seq` is the entry that holds it."""

    against: str
    reason: str
    seq: int
    by: str

    def __str__(self) -> str:
        return f"VERDICT: {self.against} forfeits: {self.reason} (entry {self.seq}, signed by {self.by})"
