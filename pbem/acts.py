"""The trust layer's own acts, around any game's moves: joining, dealing, and verdicts.

    join                        a participant accepts the game and adds randomness to the deal
    deal first=bob              the dealer commits to every hidden tile of the joint deal
    verdict open #3=5 #9=5      openings that prove their owner placed a coin they did not hold
    verdict deal                the dealer's opened seed proves the posted deal false
    verdict unopenable #7       the referee's word: coin #7's sealed value does not open for it

A verdict ends the game against the participant it convicts; every verifier re-checks it from the
record alone (except `unopenable`, which is the referee's word and says so)."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import UsageError

ACT_WORDS = ("join", "deal", "verdict")


@dataclass(frozen=True)
class Join:
    pass


@dataclass(frozen=True)
class Deal:
    first: str


@dataclass(frozen=True)
class ConvictCoins:
    """Open coins to prove a false placement."""

    values: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class ConvictDeal:
    pass


@dataclass(frozen=True)
class Unopenable:
    slot: int


Act = Join | Deal | ConvictCoins | ConvictDeal | Unopenable


def is_act(text: str) -> bool:
    words = text.split()
    return bool(words) and words[0] in ACT_WORDS


def parse_act(text: str) -> Act:
    """An act from its canonical text; UsageError if it is none (callers name the entry)."""
    words = text.split()
    match words:
        case ["join"]:
            return Join()
        case ["deal", first] if first.startswith("first=") and len(first) > 6:
            return Deal(first[6:])
        case ["verdict", "deal"]:
            return ConvictDeal()
        case ["verdict", "unopenable", slot] if slot[:1] == "#" and slot[1:].isdigit() and len(slot) < 6:
            return Unopenable(int(slot[1:]))
        case ["verdict", "open", *pairs] if pairs:
            values = []
            for pair in pairs:
                slot, eq, value = pair.partition("=")
                if not (eq and slot[:1] == "#" and slot[1:].isdigit() and len(slot) < 6 and value in tuple("012345")):
                    raise UsageError(f"{text!r}: write each opened coin as #slot=value")
                values.append((int(slot[1:]), int(value)))
            return ConvictCoins(tuple(values))
    raise UsageError(f"{text!r} is not a join, deal or verdict")


def format_act(act: Act) -> str:
    if isinstance(act, Join):
        return "join"
    if isinstance(act, Deal):
        return f"deal first={act.first}"
    if isinstance(act, ConvictDeal):
        return "verdict deal"
    if isinstance(act, Unopenable):
        return f"verdict unopenable #{act.slot}"
    return "verdict open " + " ".join(f"#{slot}={value}" for slot, value in act.values)


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
        return f"the tiles are dealt (shuffled from the dealer's seed and every join); {self.first} moves first"


@dataclass(frozen=True)
class Verdict:
    """The game ends against `against`: `reason` says the proof; `seq` is the entry that holds it."""

    against: str
    reason: str
    seq: int
    by: str

    def __str__(self) -> str:
        return f"VERDICT: {self.against} forfeits: {self.reason} (entry {self.seq}, signed by {self.by})"
