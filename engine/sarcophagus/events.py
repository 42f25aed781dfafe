"""What happened, as a game report reads it. Each event is a value with a one-line `str`.

Plain (not frozen) slotted dataclasses: a frozen __init__ is several times slower, and a playout
makes hundreds of events. Nothing changes an event after it is made."""

from __future__ import annotations

from dataclasses import dataclass

from engine.contract import winners_text

from .geometry import pos_name
from .pieces import Tile


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def coin_words(seat: str, nth: int) -> str:
    """A coin as people name it: its seat's nth coin placed ("ben's 2nd coin"), never a bare number that
    could read as its value (the record keeps the slot number, its place in the game's order of placement;
    only the words are these)."""
    return f"{seat}'s {ordinal(nth)} coin"


@dataclass(slots=True)
class Placed:
    seat: str
    pos: int
    slot: int
    nth: int
    """The seat's how-manieth coin placed this game (1 for its first)."""

    @property
    def coin(self) -> str:
        return coin_words(self.seat, self.nth)

    def __str__(self) -> str:
        return f"{self.seat} placed a coin on {pos_name(self.pos)} ({self.coin})"


@dataclass(slots=True)
class Revealed:
    pos: int
    tile: Tile
    under: bool = False

    def __str__(self) -> str:
        where = f"the sarcophagus tile under {pos_name(self.pos)}" if self.under else pos_name(self.pos)
        return f"{where} is {self.tile}"


@dataclass(slots=True)
class TieBreak:
    pos: int
    totals: tuple[tuple[str, int], ...]

    def __str__(self) -> str:
        shown = ", ".join(f"{seat} {total}" for seat, total in self.totals)
        return f"tie on {pos_name(self.pos)}: coin totals {shown}"


@dataclass(slots=True)
class Claimed:
    seat: str
    pos: int
    tile: Tile

    def __str__(self) -> str:
        return f"{self.seat} claims {self.tile} from {pos_name(self.pos)}"


@dataclass(slots=True)
class TileDiscarded:
    pos: int
    tile: Tile | None
    under: bool = False

    def __str__(self) -> str:
        if self.under:
            return f"the sarcophagus tile under {pos_name(self.pos)} is discarded unseen"
        return f"nobody claims {self.tile} from {pos_name(self.pos)}: it is discarded"


@dataclass(slots=True)
class SarcophagusTaken:
    seat: str
    pos: int
    coins: int

    def __str__(self) -> str:
        return (f"{self.seat} takes the sarcophagus tile under {pos_name(self.pos)}, unseen, "
                f"and entombs {self.coins} coin{'s' * (self.coins != 1)} on it")


@dataclass(slots=True)
class Trap:
    seat: str
    effect: str
    """"protected" (holds a god), "harmless" (no number tile to lose), or "discard" (must choose)."""

    def __str__(self) -> str:
        return {
            "protected": f"{self.seat} springs a trap but a god protects them",
            "harmless": f"{self.seat} springs a trap with no number tile to lose",
            "discard": f"{self.seat} springs a trap and must discard a number tile",
        }[self.effect]


@dataclass(slots=True)
class TrapDiscard:
    seat: str
    tile: Tile

    def __str__(self) -> str:
        return f"{self.seat} discards {self.tile} to the trap"


@dataclass(slots=True)
class Passed:
    seat: str

    def __str__(self) -> str:
        return f"{self.seat} has no coins and passes"


@dataclass(slots=True)
class AllCoinsPlayed:
    pos: int

    def __str__(self) -> str:
        return f"every hand is empty: {pos_name(self.pos)} is assessed as it stands"


@dataclass(slots=True)
class Opened:
    player: str
    values: tuple[tuple[int, int], ...]
    coins: tuple[str, ...]
    """Each opened coin's name, as `coin_words` says it ("ann's 2nd coin"), in the order of `values`."""

    def __str__(self) -> str:
        shown = ", ".join(f"{coin} is a {value}" for coin, (_, value) in zip(self.coins, self.values))
        return f"{self.player} opens {'a coin' if len(self.values) == 1 else 'coins'}: {shown}"


@dataclass(slots=True)
class PyramidEmpty:
    def __str__(self) -> str:
        return "the last tile has left the pyramid: the game is over"


@dataclass(slots=True)
class Finished:
    scores: tuple[tuple[str, int], ...]
    winners: tuple[str, ...]

    def __str__(self) -> str:
        shown = ", ".join(f"{p} {s}" for p, s in self.scores)
        return f"final scores: {shown}; {winners_text(self.winners)}"
