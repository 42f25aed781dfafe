"""What happened, as a game report reads it. Each event is a value with a one-line `str`."""

from __future__ import annotations

from dataclasses import dataclass

from engine.contract import winners_text

from .cards import ACTION_NAMES, card_name, pos_name, space_name
from .state import Term


def _terms(terms: tuple[Term, ...]) -> str:
    from .notation import format_terms
    return format_terms(terms, None)


@dataclass(slots=True)
class BaseDealt:
    player: str
    pos: int
    card: int

    def __str__(self) -> str:
        return f"{self.player}'s {pos_name(self.pos)} base is {'an' if self.card == 8 else 'a'} {self.card}"


@dataclass(slots=True)
class BaseRejected:
    player: str
    card: int

    def __str__(self) -> str:
        return f"a {ACTION_NAMES[self.card]} turned up for {self.player}'s base is discarded"


@dataclass(slots=True)
class BaseLeftEmpty:
    player: str
    pos: int

    def __str__(self) -> str:
        return f"no value card is left to deal: {self.player}'s {pos_name(self.pos)} stays empty"


@dataclass(slots=True)
class CardsDealt:
    player: str
    count: int

    def __str__(self) -> str:
        return f"{self.player} is dealt {self.count} card{'s' * (self.count != 1)}"


@dataclass(slots=True)
class Shuffled:
    count: int

    def __str__(self) -> str:
        return f"the discard pile ({self.count} cards) is shuffled into a new deck"


@dataclass(slots=True)
class Built:
    player: str
    pos: int
    terms: tuple[Term, ...]
    value: int
    points: int

    def __str__(self) -> str:
        moves = f", moving {self.points}" if self.points else ""
        return f"{self.player} places {_terms(self.terms)} on {pos_name(self.pos)} ({self.value}){moves}"


@dataclass(slots=True)
class Completed:
    player: str
    cards: int

    def __str__(self) -> str:
        return f"{self.player} completes a pyramid and moves 2 more; its {self.cards} cards are discarded"


@dataclass(slots=True)
class Moved:
    player: str
    location: int

    def __str__(self) -> str:
        return f"{self.player}'s marker is now at {self.location}"


@dataclass(slots=True)
class ZeroPlayed:
    player: str
    target: str
    pos: int

    def __str__(self) -> str:
        return f"{self.player} plays a Zero Block Value on {self.target}'s {pos_name(self.pos)}"


@dataclass(slots=True)
class ThiefPlayed:
    player: str
    target: str

    def __str__(self) -> str:
        return f"{self.player} plays a Thief on {self.target}"


@dataclass(slots=True)
class Stolen:
    player: str
    target: str
    count: int

    def __str__(self) -> str:
        return f"{self.player} takes {self.count} random card{'s' * (self.count != 1)} from {self.target}"


@dataclass(slots=True)
class SandstormGiven:
    player: str
    target: str

    def __str__(self) -> str:
        return f"{self.player} gives a Sandstorm to {self.target}"


@dataclass(slots=True)
class SandsAdvanced:
    sands: int

    def __str__(self) -> str:
        return f"the Sands of Time advance to {self.sands}"


@dataclass(slots=True)
class MummyWakes:
    location: int

    def __str__(self) -> str:
        return f"a mummy wakes and closes {self.location}B for the rest of the game"


@dataclass(slots=True)
class Retreated:
    player: str
    location: int
    space: int | None
    why: str
    """"mummy" or "bumped"."""

    def __str__(self) -> str:
        where = space_name(self.location, self.space)
        if self.why == "mummy":
            return f"{self.player} flees the mummy back to {where}"
        return f"{self.player} is bumped back to {where}"


@dataclass(slots=True)
class Settled:
    player: str
    location: int
    space: int | None

    def __str__(self) -> str:
        return f"{self.player}'s marker takes {space_name(self.location, self.space)}"


@dataclass(slots=True)
class Skipped:
    player: str
    why: str

    def __str__(self) -> str:
        return f"{self.player} skips the turn ({self.why})"


@dataclass(slots=True)
class Stopped:
    player: str

    def __str__(self) -> str:
        return f"{self.player} ends the turn"


@dataclass(slots=True)
class Discarded:
    player: str
    cards: tuple[int, ...]

    def __str__(self) -> str:
        return f"{self.player} discards {' '.join(map(card_name, self.cards))}"


@dataclass(slots=True)
class SandstormDiscarded:
    player: str

    def __str__(self) -> str:
        return f"{self.player}'s Sandstorm is discarded"


@dataclass(slots=True)
class Finished:
    winners: tuple[str, ...]
    how: str

    def __str__(self) -> str:
        if self.how == "alexandria":
            return f"{' and '.join(self.winners)} reaches Alexandria and wins"
        return f"a full round without a card placed or drawn: the game is over; {winners_text(self.winners)}"
