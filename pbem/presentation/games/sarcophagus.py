"""Sarcophagus for people: the terminal board, the HTML replay's board, the choices a player is
offered, and the layout file of a chosen deal. The one module of pbem/ that knows pyramids, suits
and coins; its drawings read only what `view()` gives an observer, so they can show nothing that
observer may not see."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from engine.sarcophagus.events import (
    Claimed,
    Opened,
    Placed,
    PyramidEmpty,
    Revealed,
    SarcophagusTaken,
    TieBreak,
    TileDiscarded,
    Trap,
    TrapDiscard,
    ordinal,
)
from engine.sarcophagus.geometry import POSITIONS, pos_name
from pbem.presentation.choices import Choice, css_string, plain
from pbem.presentation.games import generic
from pbem.presentation.style import WIDTH, printed_length

if TYPE_CHECKING:
    from engine.contract import AnyGame
    from pbem.presentation.style import Style

View = dict[str, Any]
"""One view (`game.view(...)`), JSON values."""

HIDDEN_ITEM = "coin"
HTML_STATIC = "sarcophagus"
HTML_LEGEND: tuple[tuple[str, str], ...] = (
    ("Number tile", "a rank, 2 to 5, and its suit's symbol: worth its rank in fame. Suns are red, moons black, "
                    "crowns green, arms blue."),
    ("Face down", "a tile's back, a 2x2 grid: not turned up yet. A coin placed on a tile turns up every "
                  "face-down tile touching it."),
    ("Null: a trap", "its suit's symbol alone. Whoever claims it springs a trap and discards one of their number "
                     "tiles, unless a god protects them."),
    ("Ace: a god", "A. Worth no fame, but it protects its holder from every later trap."),
    ("Position", "rows 1 (the apex) to 6, tiles a to f from the left: 3b is row 3, its second tile (the small "
                 "name in a tile's corner)."),
    ("Coin", "a disc in its owner's suit colour along a tile's bottom edge: ? while its value (0 to 5) is "
             "hidden, else the value. A tile with 4 coins and 2 free sides goes to whoever has most coins "
             "there; a tie, to the highest total of the tied coins."),
    ("Taken away", "a dashed outline: the tile there was claimed or discarded."),
    ("Sarcophagus", "the three tiles under 5c, 6c and 6d (gold outline): whoever claims the tile above takes "
                    "the one beneath, unseen until the end, and their coins from above are entombed on it."),
    ("Fame", "the ranks of the number tiles claimed so far; the final score adds a bonus for each suit held: "
             "2 tiles +1, 3 tiles +2, 4 tiles +4."),
)
HOW_TO_MOVE = ("highlighted tiles take a coin: click one (or Tab to it and press Enter), choose the value, then "
               "Sign and send.")
"""Its CSS, SVG and script: pbem/presentation/static/sarcophagus.*"""
ABSENCE_BY_RULE = "its tile is the player's lowest number tile"
"""An absent trapped claimer's discard (its rule reads only public tiles: no seed needed to prove it)."""

TERMINAL_COLOURS = {"sun": "red", "moon": "default", "crown": "green", "arms": "blue"}
"""The classic piecepack colours (red suns, black moons, green crowns, blue arms); black is the
terminal's own colour, so it reads on dark and light backgrounds alike."""
RANK_LETTERS = {"null": "n", "ace": "a"}
LETTERS = "abcdef"
PYRAMID_SIZE = len(POSITIONS)


def short(tile: str) -> str:
    """`moon-4` as M4, `crown-ace` as Ca, `sun-null` as Sn."""
    suit, rank = tile.split("-")
    return suit[0].upper() + RANK_LETTERS.get(rank, rank)


def suit_of(tile: str) -> str:
    return tile.split("-")[0]


def _seat_suits(shown: View) -> dict[str, str]:
    """Each seat's and each player's suit (a player's first seat, its first suit): their colour."""
    suits: dict[str, str] = {}
    for seat in shown["seats"]:
        first = seat["suits"].split("+")[0]
        suits[seat["name"]] = first
        suits.setdefault(seat["player"], first)
    return suits


def progress(shown: View) -> float:
    return 1 - len(shown["pyramid"]) / PYRAMID_SIZE


_NOTABLE = (Claimed, TieBreak, Trap, TrapDiscard, SarcophagusTaken, TileDiscarded, PyramidEmpty)


def notable(event: object) -> bool:
    """What the demo tells as the game goes: claims, ties, traps, the sarcophagus; not every coin."""
    return isinstance(event, _NOTABLE) or (isinstance(event, Revealed) and event.under)


def referee_opening(detail: str) -> str:
    """A tie-break's openings as said when the referee, which holds every coin's opening, makes them."""
    return detail.replace("your coins", "the tied coins").replace("you placed", "placed")


# ---------------------------------------------------------------- the terminal

def board_text(shown: View, style: Style) -> str:
    """The pyramid as a map with row numbers and letters (so `2@3b` reads off it), the coins on
    each tile, the sarcophagus, and one line per player: hand, fame so far, tiles held."""
    back, none = style.symbol("░░", "##"), style.symbol("·", ".")
    suits = _seat_suits(shown)

    def tile_code(tile: str | None) -> str:
        return style.paint(short(tile), TERMINAL_COLOURS[suit_of(tile)]) if tile else back

    def who(name: str) -> str:
        return style.paint(name, TERMINAL_COLOURS[suits[name]])

    lines = ["Tiles: S=sun M=moon C=crown A=arms, then rank n=null a=ace 2-5 (M4 is moon-4)."]
    pyramid = shown["pyramid"]
    if pyramid:
        lines += [f"Map: [M41] is moon-4 with 1 coin, [{back}{none}] face down, no coin; 2@3b: row 3, tile b",
                  ""]
        for row in range(1, 7):
            if not any(f"{row}{letter}" in pyramid for letter in LETTERS[:row]):
                continue  # a row already taken away
            cells = []
            for letter in LETTERS[:row]:
                spot = pyramid.get(f"{row}{letter}")
                if spot is None:
                    cells.append(" " * 6)
                    continue
                count = len(spot["coins"]) or none
                cells.append(f"{letter}[{tile_code(spot['tile'])}{count}]")
            lines.append(f"{row}  {' ' * 4 * (6 - row)}{'  '.join(cells)}".rstrip())
        lines.append("")
    else:
        lines += ["", "The pyramid is empty: every tile has been claimed or discarded."]
    coins = [f"{pos} " + " ".join(f"{who(c['seat'])}:{'?' if c['value'] is None else c['value']}"
                                  for c in spot["coins"])
             for pos, spot in pyramid.items() if spot["coins"]]
    lines += _wrapped("Coins: ", coins)
    lines += _wrapped("Sarcophagus: ", [f"{pos} {_fate(spot, who, tile_code)}"
                                        for pos, spot in shown["sarcophagus"].items()])
    lines += _players(shown, who, tile_code)
    return "\n".join(lines)


def _fate(spot: dict[str, Any], who: Callable[[str], str], tile_code: Callable[[str | None], str]) -> str:
    """What became of the sarcophagus tile under a position."""
    if spot["status"] == "taken":
        return f"{who(spot['holder'])}'s " + (tile_code(spot["tile"]) if spot["tile"] else "unseen")
    return "discarded unseen" if spot["status"] == "discarded" else "buried"


def _players(shown: View, who: Callable[[str], str], tile_code: Callable[[str | None], str]) -> list[str]:
    final = shown.get("scores")
    width = max(len(p) for p in shown["players"] + ["Player"]) + 2
    lines = [f"{'Player':<{width}}hand  {'score' if final else 'fame '}  holds"]
    for player in shown["players"]:
        fame = final[player] if final else shown["fame"][player]
        held = " ".join(tile_code(t) for t in shown["claimed"][player]) or "nothing yet"
        wins = "  (wins)" if player in shown.get("winners", ()) else ""
        lines.append(f"{who(player)}{' ' * (width - len(player))}{shown['hands'][player]:>4}  "
                     f"{fame:>5}  {held}{wins}")
    for seat, values in shown.get("my_hand", {}).items():
        lines.append(f"Your hand ({seat}): {' '.join(map(str, values)) or 'empty'}")
    return lines


def _wrapped(head: str, items: list[str]) -> list[str]:
    """Items joined by three spaces, wrapped at WIDTH by their printed length (colour codes aside)."""
    if not items:
        return []
    lines, line, length = [], head, len(head)
    for item in items:
        size = printed_length(item)
        if length > len(head) and length + 3 + size > WIDTH:
            lines.append(line)
            line, length = " " * len(head), len(head)
        elif length > len(head):
            line, length = line + "   ", length + 3
        line, length = line + item, length + size
    return lines + [line]


# ---------------------------------------------------------------- the HTML replay

def html_meta(shown: View) -> dict[str, Any]:
    """What does not change during the game: the seats and their suits (a coin takes its seat's
    first suit's colour)."""
    return {"seats": [{"name": s["name"], "player": s["player"], "suits": s["suits"].split("+"),
                       "suit": s["suits"].split("+")[0]} for s in shown["seats"]],
            "players": shown["players"]}


def html_board(shown: View) -> dict[str, Any]:
    """One view as compact data: a coin is [seat index, value or null]; a tile its name or null."""
    seat_index = {seat["name"]: i for i, seat in enumerate(shown["seats"])}

    def coins(spot: dict[str, Any]) -> list[list[Any]]:
        return [[seat_index[c["seat"]], c["value"]] for c in spot["coins"]]

    board = {
        "pyramid": {pos: [spot["tile"], coins(spot)] for pos, spot in shown["pyramid"].items()},
        "sarcophagus": {pos: [spot["tile"], spot["status"], spot["holder"], coins(spot)]
                        for pos, spot in shown["sarcophagus"].items()},
        "hands": shown["hands"], "claimed": shown["claimed"], "fame": shown["fame"],
    }
    if "my_hand" in shown:
        board["mine"] = shown["my_hand"]
    if "scores" in shown:
        board["scores"], board["winners"] = shown["scores"], shown["winners"]
    return board







def choices_text(game: AnyGame, state: Any, choices: Sequence[Any]) -> str:
    """The legal choices as a person reads them: coin values and tiles apart, not every pairing."""
    from engine.sarcophagus.actions import Discard, Place

    places = [a for a in choices if isinstance(a, Place)]
    tiles = [str(a.tile) for a in choices if isinstance(a, Discard)]
    if tiles:
        return f"The trap takes one of your number tiles: {' '.join(tiles)}. Type the one you give up, e.g. {tiles[0]}"
    if not places:
        return "Choose one: " + " | ".join(game.format_action(a) for a in choices)
    values = " ".join(str(v) for v in sorted({a.value for a in places if a.value is not None}))
    targets = sorted({a.pos for a in places if a.pos is not None})  # legal placements are complete
    if len(targets) == 1 and state.placed == 0:
        return f"Your coins: {values}. The first coin goes on {pos_name(targets[0])}: type its value, e.g. {values[0]}"
    return f"Your coins: {values}. Tiles with room: {' '.join(map(pos_name, targets))}. Type e.g. {values[0]}@" \
           f"{pos_name(targets[0])}"


typed = generic.typed  # a placement names only what its player chooses


def html_choice(action: Any, me: str, notation: str) -> Choice:
    """A placement: the tile on the board; a trap's discard: the tile among ME's claims."""
    from engine.sarcophagus.actions import Discard, Place

    if isinstance(action, Place) and action.pos is not None:
        pos = pos_name(action.pos)
        return Choice(notation=notation, target=f"#board g.spot[data-pos={css_string(pos)}]", place=f"tile {pos}",
                      option=f"coin {action.value}", says=f"Place your coin of value {action.value} on tile {pos}, "
                                                          "face down.")
    if isinstance(action, Discard):
        tile = str(action.tile)
        return Choice(notation=notation, place=f"your tile {tile}", option=f"give up {tile}",
                      target=f"#side .player[data-name={css_string(me)}] .claimed .tile[data-tile={css_string(tile)}]",
                      says=f"Give up your {tile} to the trap.")
    return plain(notation)


def entry_title(events: Sequence[object]) -> str | None:
    """A placement without its coin's name, and tiles turned up or coins opened in one phrase."""
    first = events[0] if events else None
    if isinstance(first, Placed):
        return f"{first.seat} placed a coin on {pos_name(first.pos)}"
    if isinstance(first, Revealed):
        shown = [e for e in events if isinstance(e, Revealed)]
        where, what = _and([pos_name(e.pos) for e in shown]), _and([str(e.tile) for e in shown])
        if first.under:
            return f"the sarcophagus tile{'s' * (len(shown) > 1)} under {where} turned up: {what}"
        return f"{where} turned up: {what}"
    if isinstance(first, Opened):
        return f"{first.player} opens {'a coin' if len(first.values) == 1 else f'{len(first.values)} coins'}"
    return None


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def score_lines(state: Any, result: Any) -> list[str]:
    """Each player's fame by suit with the bonus, and the tiles held (the tie-break)."""
    from engine.sarcophagus.pieces import SUITS
    from engine.sarcophagus.scoring import SUIT_BONUS

    tiles: dict[str, list[Any]] = {p: [] for p in result.scores}
    for seat, claimed in zip(state.table.seats, state.claimed):
        tiles[seat.player] += claimed
    lines = []
    for player, won in generic.ranked(result):
        parts = []
        for suit in sorted({t.suit for t in tiles[player] if t.is_number}):
            ranks = sorted(t.rank for t in tiles[player] if t.is_number and t.suit == suit)
            bonus = SUIT_BONUS[len(ranks)]
            parts.append(f"{SUITS[suit]} {' + '.join(map(str, ranks))}"
                         + (f" and {bonus} for {len(ranks)} tiles of the suit" if bonus else ""))
        held = len(tiles[player])
        lines.append(f"{player}: {result.scores[player]} fame{won}: " + ("; ".join(parts) or "no number tiles")
                     + f"; {held} tile{'s' * (held != 1)} held (a tie goes to the fewest)"
                     + ("; forfeited: cannot win" if player in getattr(state, 'forfeits', ()) else ""))
    return lines


def hidden_item_name(events: Sequence[object], key: str) -> str | None:
    """A coin sealed under "#3" as its placing said it: "ann's 2nd coin"; without the placing (a record that
    does not replay that far), by the order coins were placed in: "the 4th coin placed", never "coin #3",
    which reads as its value."""
    if not re.fullmatch(r"#\d+", key):
        return None
    slot = int(key[1:])
    placed = next((e.coin for e in events if isinstance(e, Placed) and e.slot == slot), None)
    return placed or f"the {ordinal(slot + 1)} coin placed"


def read_layout(data: object, where: str) -> tuple[dict[str, str], Any]:
    """A chosen deal from a layout file's JSON: (every tile by key, the first player's name or None)."""
    from engine.contract import InvalidSetup
    from engine.sarcophagus.hidden import layout_from_tiles, layout_tiles
    from pbem.errors import UsageError

    if not isinstance(data, dict) or not isinstance(data.get("pyramid"), dict) or \
            not isinstance(data.get("sarcophagus"), dict):
        raise UsageError(f"layout {where}: expected {{\"pyramid\": {{...}}, \"sarcophagus\": {{...}}, \"first\": NAME}}")
    tiles = {**data["pyramid"], **{f"under-{k}": v for k, v in data["sarcophagus"].items()}}
    try:
        return layout_tiles(layout_from_tiles(tiles)), data.get("first")
    except KeyError as exc:
        where_missing = exc.args[0].replace("under-", "the sarcophagus under ")
        raise UsageError(f"layout {where}: no tile given for {where_missing} (give all 21 pyramid tiles and the 3 under "
                         "5c, 6c, 6d)") from None
    except (InvalidSetup, ValueError, AttributeError) as exc:
        raise UsageError(f"layout {where}: {exc}") from None
