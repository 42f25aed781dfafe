"""Path of Pharaohs for people: the terminal board (the path, every pyramid, the hands), the HTML
replay's board, the choices a player is offered, and what the demo tells. It reads only what
`view()` gives an observer (engine/path_of_pharaohs/views.py), so it can show nothing that observer
may not see."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from engine.path_of_pharaohs.cards import ACTION_NAMES, ALEXANDRIA, DOUBLE, MUMMIES, SANDS_TO_WAKE, card_name
from engine.path_of_pharaohs.events import (
    BaseLeftEmpty,
    CardsDealt,
    Completed,
    Finished,
    MummyWakes,
    Retreated,
    SandstormGiven,
    Shuffled,
    Skipped,
    Stolen,
    ZeroPlayed,
)
from pbem.presentation.games import generic
from pbem.presentation.games.path_of_pharaohs.app import html_choice as html_choice
from pbem.presentation.games.path_of_pharaohs.app import score_lines as score_lines
from pbem.presentation.style import WIDTH, wrap

if TYPE_CHECKING:
    from engine.contract import AnyGame
    from pbem.presentation.style import Style

View = dict[str, Any]
"""One view (`game.view(...)`), JSON values."""
Who = Callable[[str], str]

HIDDEN_ITEM = "card"
HTML_STATIC = "path-of-pharaohs"
HTML_LEGEND: tuple[tuple[str, str], ...] = (
    ("The path", "from the start to Alexandria (13), where the race ends; locations 2, 4, 6, 8 and 10 have two "
                 "spaces, A above B."),
    ("Marker", "a disc with the player's letter, in their colour; a dashed ring: moving this turn, it takes a "
               "space when the turn ends."),
    ("Mummy", "a dark space: a B space closed by a waking mummy for the rest of the game."),
    ("Sands of Time", "advance with each Sandstorm given or turned up; at 3 the next mummy wakes (2B first, then "
                      "4B, 6B, 8B, 10B)."),
    ("Pyramid", "each player's six positions: 1l 1m 1r at the base, 2l 2r, 3 on top. The big number is the "
                "value built there, the cards under it (7-1: a 7 and a 1 counted minus). Filling 2l or 2r moves "
                "1, 3 moves 2 and 2 more for the completed pyramid."),
    ("Value card", "0 to 9: built on a position, alone or two or three counted plus or minus."),
    ("Wild", "counts any value its player chooses, 0 to 9, when built."),
    ("Zero Block Value", "played on an opponent's empty upper position (the Z corner there): filling it moves "
                         "them 0."),
    ("Thief", "takes two cards at random from an opponent's hand."),
    ("Sandstorm", "given to an opponent: they skip their next turn; it advances the Sands of Time."),
    ("Unknown card", "a card you held then, and no longer know (it was stolen or played away since)."),
)
HOW_TO_MOVE = ("highlighted positions and players can be chosen: click one (or Tab to it and press Enter), choose "
               "the cards or the action card, then Sign and send.")
"""Its CSS, SVG and script: pbem/presentation/static/path-of-pharaohs.*"""
ABSENCE_BY_RULE = "its cards are the lowest of the hand"
"""An absent player's discard down to the hand limit: their lowest cards, from a hand only the seed shows."""

LEVELS = (("3",), ("2l", "2r"), ("1l", "1m", "1r"))
"""A pyramid's positions, top level first, as the notation names them."""
TERMINAL_COLOURS = ("red", "green", "blue", "magenta", "cyan", "yellow")
HTML_COLOURS = ("#c0392b", "#2e7d32", "#1f5fbf", "#8e44ad", "#00838f", "#b8860b")
"""One colour per seat, in seat order (3 to 6 players)."""
_CARD_ORDER = "0123456789ZWTS"


def marks(players: list[str]) -> dict[str, str]:
    """One character per player for the path's map: their initial, or the next letter of their name
    not taken yet (ann, alf -> a, l)."""
    taken: dict[str, str] = {}
    for player in players:
        candidates = [c for c in player.lower() if c.isascii() and c.isalnum()]
        taken[player] = next(c for c in candidates + list("abcdefghijklmnopqrstuvwxyz0123456789")
                             if c not in taken.values())
    return taken


def where(marker: dict[str, Any]) -> str:
    """A marker's place as the notation of the rules names it: start, 7, 4A, 4B."""
    if marker["location"] == 0:
        return "start"
    return f"{marker['location']}{marker['space'] or ''}" if marker["location"] in DOUBLE else str(marker["location"])


def in_motion(marker: dict[str, Any]) -> bool:
    """The mover's marker, once moved, holds no space until the turn ends."""
    return marker["location"] > 0 and marker["space"] is None


def next_mummy(shown: View) -> str | None:
    left = shown["mummies_left"]
    return f"{MUMMIES[len(MUMMIES) - left]}B" if left else None


def progress(shown: View) -> float:
    """The leading marker's way to Alexandria (the game ends there, or stalls before)."""
    if shown["status"] == "finished":
        return 1.0
    leader: int = max(m["location"] for m in shown["markers"].values())
    return leader / ALEXANDRIA


_NOTABLE = (Completed, ZeroPlayed, Stolen, SandstormGiven, MummyWakes, Retreated, Shuffled, BaseLeftEmpty, Finished)


def notable(event: object) -> bool:
    """What the demo tells as the game goes: pyramids completed, action cards, mummies, bumps, the
    reshuffle, the end; not every card placed, dealt or discarded."""
    return isinstance(event, _NOTABLE) or (isinstance(event, Skipped) and event.why == "a Sandstorm")


def referee_opening(detail: str) -> str:
    """Openings owed, as said when the referee makes them: the same words (the game has no tie-break)."""
    return detail


# ---------------------------------------------------------------- the terminal

def board_text(shown: View, style: Style) -> str:
    """The path as a map (a mark per marker), one line per player, the Sands of Time and the cards
    out of play, every pyramid drawn as a pyramid, and the observer's own hand."""
    players = shown["players"]
    colour = dict(zip(players, TERMINAL_COLOURS))

    def who(name: str) -> str:
        return style.paint(name, colour[name])

    lines = _path(shown, style, who)
    lines += [""] + _players(shown, who)
    lines += wrap(_supplies(shown))
    lines += [""] + wrap("Pyramids, level 3 on 2l 2r on 1l 1m 1r: 7-1=6 is a 7 and a 1 counted minus, "
                          "making 6; W6 a Wild counting 6; Z a Zero Block Value lies there (filling it "
                          f"moves 0); {style.symbol('·', '.')} empty.")
    lines += _pyramids(shown, style, who)
    if "my_hand" in shown:
        lines += [""] + wrap(_hand_line(_sorted_hand(shown["my_hand"])))
    if "deck_order" in shown:
        lines += [""] + wrap(f"The deck, top first (the dealer's secret): {' '.join(shown['deck_order']) or 'empty'}")
    return "\n".join(lines)


def _hand_line(hand: list[dict[str, Any]]) -> str:
    """The observer's hand as they type its cards (values, then letters, which it names); no slots: the
    program finds a card's slot in the hand."""
    cards = [c["card"] for c in hand]
    letters = [f"{card_name(card)} {name}" for card, name in ACTION_NAMES.items() if card_name(card) in cards]
    if "?" in cards:
        letters.append("? a card you no longer know")
    key = f" ({', '.join(letters)})" if letters else ""
    return f"Your hand ({len(hand)} card{'s' * (len(hand) != 1)}): {' '.join(cards) or 'empty'}{key}"


def _sorted_hand(hand: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A hand as a player sorts it: values, then Z W T S, then "?" (a card a replay's later hand no
    longer knows); each card with its slot."""
    return sorted(hand, key=lambda c: (_CARD_ORDER.find(c["card"]) % (len(_CARD_ORDER) + 1), c["slot"]))


def _path(shown: View, style: Style, who: Who) -> list[str]:
    """Locations 1 to 13 as columns, spaces A and B as rows; a resting marker is its player's mark."""
    players, markers = shown["players"], shown["markers"]
    mark = marks(players)
    free, closed = style.symbol("·", "."), style.symbol("▓", "#")
    resting = {(m["location"], m["space"]): p for p, m in markers.items() if m["space"] is not None}

    def cell(location: int, space: str) -> str:
        if space == "B" and location not in DOUBLE:
            return " " * 5
        if f"{location}B" in shown["closed"] and space == "B":
            return "    " + closed
        player = resting.get((location, space))
        return "    " + (style.paint(mark[player], TERMINAL_COLOURS[players.index(player)]) if player else free)

    locations = range(1, ALEXANDRIA + 1)
    lines = [f"{'Path':<10}" + "".join(f"{loc:>5}" for loc in locations),
             f"{'  space A':<10}" + "".join(cell(loc, "A") for loc in locations),
             (f"{'  space B':<10}" + "".join(cell(loc, "B") for loc in locations)).rstrip()]
    at_start = [p for p, m in markers.items() if m["location"] == 0]
    moving = [f"{who(p)} at {m['location']}" for p, m in markers.items() if in_motion(m)]
    notes = [f"At the start: {', '.join(map(who, at_start))}."] if at_start else []
    notes += [f"Moving this turn: {', '.join(moving)} (takes a space when the turn ends)."] if moving else []
    notes += [f"13 is Alexandria; {free} a free space, {closed} closed by a mummy; a letter is a player's "
              "marker (their mark beside their name below)."]
    return lines + [line for note in notes for line in wrap(note)]


def _players(shown: View, who: Who) -> list[str]:
    """One line per player: where their marker is, how many cards they hold, and what is theirs to do."""
    players = shown["players"]
    mark = marks(players)
    width = max(len(p) + 4 for p in players) + 2
    owed = {d["who"]: d["what"] for d in shown["duties"]}
    lines = [f"{'Player':<{width}}{'at':<7}hand"]
    for player in players:
        marker = shown["markers"][player]
        notes = []
        if player in shown.get("winners", ()):
            notes.append("wins")
        if player in shown["sandstorms"]:
            notes.append("Sandstorm in front: skips the next turn")
        if player in owed:
            notes.append(f"to {owed[player]}")
        elif player == shown["turn"]:
            notes.append("this turn")
        lines += wrap(f"{who(player)} ({mark[player]}){' ' * (width - len(player) - 4)}{where(marker):<7}"
                       f"{shown['hands'][player]:>4}" + (f"  {'; '.join(notes)}" if notes else ""))
    return lines


def _supplies(shown: View) -> str:
    """The Sands of Time, the mummies, the deck and the discard pile in one sentence."""
    upcoming = next_mummy(shown)
    sands = (f"Sands of Time {shown['sands']}/{SANDS_TO_WAKE} (at {SANDS_TO_WAKE} a mummy wakes and closes "
             f"{upcoming}); {shown['mummies_left']} mumm{'ies' if shown['mummies_left'] != 1 else 'y'} left"
             if upcoming else "Sands of Time: every mummy is awake")
    discards = shown["discards"]
    pile = f"discard pile {len(discards)}, top {discards[-1]}" if discards else "discard pile empty"
    return f"{sands}. Deck {shown['deck']}, {pile}."


def position_text(spot: dict[str, Any], style: Style) -> str:
    """One pyramid position: its card (5, W6), or its cards and the value they make (7-1=6);
    Z for a Zero Block Value lying there; a dot when empty."""
    if spot["cards"] is None:
        return "Z" if spot["zero"] else style.symbol("·", ".")
    cards = spot["cards"]
    text = f"{cards}={spot['value']}" if any(sign in cards[1:] for sign in "+-") else cards
    return f"Z:{text}" if spot["zero"] else text


def _pyramids(shown: View, style: Style, who: Who) -> list[str]:
    """Each player's pyramid as three centred rows under their name, side by side as many as fit."""
    drawn = {}
    for player, pyramid in shown["pyramids"].items():
        rows = ["   ".join(f"{pos} {position_text(pyramid[pos], style)}" for pos in level) for level in LEVELS]
        drawn[player] = rows
    width = max(max(len(row) for rows in drawn.values() for row in rows), max(len(p) for p in drawn))
    gap = 3
    players = list(drawn)
    fit = max(1, (WIDTH + gap) // (width + gap))
    per_line = -(-len(players) // -(-len(players) // fit))  # rows as even as they can be: 4 as 2 + 2
    lines: list[str] = []
    for first in range(0, len(players), per_line):
        group = players[first:first + per_line]
        lines.append((" " * gap).join(who(p) + " " * (width - len(p)) for p in group).rstrip())
        for row in range(len(LEVELS)):
            lines.append((" " * gap).join(drawn[p][row].center(width) for p in group).rstrip())
    return lines


# ---------------------------------------------------------------- the prompt

def choices_text(game: AnyGame, state: Any, choices: Sequence[Any]) -> str:
    """The legal choices as a person reads them: the positions they can fill, with the value each
    needs, how many ways and a few examples (a Wild alone fills one a dozen ways), then the action
    cards and their targets; or how many cards to discard."""
    from engine.path_of_pharaohs.actions import Build, Discard, Sandstorm, Stop, Thief, Zero
    from engine.path_of_pharaohs.cards import WILD
    from engine.path_of_pharaohs.notation import format_terms

    discards = [a for a in choices if isinstance(a, Discard)]
    if discards:
        k = len(discards[0].cards)
        example = " ".join(card_name(c) for c in discards[0].cards)
        return (f"Discard {k} card{'s' * (k != 1)}, down to seven (any {k} of your hand). "
                f"Type e.g. discard {example}")
    builds: dict[int, list[Any]] = {}
    for action in choices:
        if isinstance(action, Build):
            builds.setdefault(action.pos, []).append(action.terms)
    lines = []
    for pos, fillings in sorted(builds.items()):
        name = ("1l", "1m", "1r", "2l", "2r", "3")[pos]
        examples = sorted(fillings, key=lambda t: (sum(card == WILD for card, _ in t), len(t)))
        listed = ", ".join(f"{format_terms(t, None)}@{name}" for t in examples[:_EXAMPLES])
        need = "takes any one card" if name == "1m" else f"needs {sum(value for _, value in fillings[0])}"
        ways = f"{len(fillings)} way{'s' * (len(fillings) != 1)}"
        lines += wrap(f"{name} {need}: {ways}, {'e.g. ' if len(fillings) > _EXAMPLES else ''}{listed}")
    if lines:
        lines.insert(0, "Positions you can fill:")
    plays = [typed(game, a) for a in choices if isinstance(a, (Zero, Thief, Sandstorm))]
    if plays:
        lines += wrap("Action cards: " + " ".join(plays))
    if any(isinstance(a, Stop) for a in choices):
        lines.append("Or stop to end your turn." if lines else "Nothing you can place or play: type stop")
    if not lines:
        return "Choose one: " + " | ".join(game.format_action(a) for a in choices)
    return "\n".join(lines)


_EXAMPLES = 4
"""Ways to fill a position listed in full up to this many; beyond it, this many examples."""


def typed(game: AnyGame, action: Any) -> str:
    """An act as a person types it: without the slots of the cards it plays, which the program fills in
    from the player's hand (the lowest slots holding them, as the legal acts name them)."""
    import dataclasses

    from engine.path_of_pharaohs.actions import Build, Discard, Sandstorm, Thief, Zero

    if isinstance(action, (Build, Discard)):
        action = dataclasses.replace(action, slots=None)
    elif isinstance(action, (Zero, Thief, Sandstorm)):
        action = dataclasses.replace(action, slot=None)
    return game.format_action(action)


entry_title = generic.entry_title  # each entry is one act, and its first event says it



def hidden_item_name(events: Sequence[object], key: str) -> str | None:
    """A card sealed in a deal or a theft, by whom it went to ("a card dealt to ann"), never by its number,
    which could read as its value."""
    for event in events:
        if isinstance(event, CardsDealt):
            return f"a card dealt to {event.player}"
        if isinstance(event, Stolen):
            return f"a card {event.player} took from {event.target}"
    return None


def read_layout(data: object, where: str) -> tuple[dict[str, str], Any]:
    """Path of Pharaohs has no layout files: its deck is shuffled by the dealer."""
    from pbem.errors import UsageError

    raise UsageError(f"layout {where}: Path of Pharaohs has no layout files (its deck is dealt shuffled)")


# ---------------------------------------------------------------- the HTML replay

def html_meta(shown: View) -> dict[str, Any]:
    """What does not change during the game: the players in seat order, their colours and marks."""
    players = shown["players"]
    mark = marks(players)
    return {"players": players, "colours": list(HTML_COLOURS[:len(players)]), "marks": [mark[p] for p in players],
            "cardNames": {card_name(card): name for card, name in ACTION_NAMES.items()}}


def html_board(shown: View) -> dict[str, Any]:
    """One view as compact data: a marker is [location, space or null]; a position [value, cards,
    zero] (value and cards null while empty)."""
    board = {
        "markers": {p: [m["location"], m["space"]] for p, m in shown["markers"].items()},
        "closed": shown["closed"], "sands": shown["sands"], "mummiesLeft": shown["mummies_left"],
        "pyramids": {p: {pos: [spot["value"], spot["cards"], spot["zero"]] for pos, spot in pyramid.items()}
                     for p, pyramid in shown["pyramids"].items()},
        "sandstorms": shown["sandstorms"], "hands": shown["hands"], "deck": shown["deck"],
        "discards": len(shown["discards"]), "top": shown["discards"][-1] if shown["discards"] else None,
        "turn": shown["turn"],
    }
    if "my_hand" in shown:
        board["mine"] = [[c["card"], c["slot"]] for c in _sorted_hand(shown["my_hand"])]
    if "deck_order" in shown:
        board["deckOrder"] = shown["deck_order"]
    if "scores" in shown:
        board["winners"] = shown["winners"]
    return board
