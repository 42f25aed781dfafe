"""Sarcophagus for people: the terminal board, the HTML replay's board, the choices a player is
offered, and the layout file of a chosen deal. The one module of pbem/ that knows pyramids, suits
and coins; its drawings read only what `view()` gives an observer, so they can show nothing that
observer may not see."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from engine.sarcophagus.events import Revealed

if TYPE_CHECKING:
    from engine.contract import AnyGame
    from pbem.presentation.terminal import Style

View = dict[str, Any]
"""One view (`game.view(...)`), JSON values."""

TERMINAL_COLOURS = {"sun": "red", "moon": "default", "crown": "green", "arms": "blue"}
"""The classic piecepack colours (red suns, black moons, green crowns, blue arms); black is the
terminal's own colour, so it reads on dark and light backgrounds alike."""
RANK_LETTERS = {"null": "n", "ace": "a"}
LETTERS = "abcdef"
PYRAMID_SIZE = 21
WIDTH = 78
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


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


_NOTABLE = ("Claimed", "TieBreak", "Trap", "TrapDiscard", "SarcophagusTaken", "TileDiscarded", "PyramidEmpty")


def notable(event: object) -> bool:
    """What the demo tells as the game goes: claims, ties, traps, the sarcophagus; not every coin."""
    return type(event).__name__ in _NOTABLE or (isinstance(event, Revealed) and event.under)


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
        size = len(_ANSI.sub("", item))
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


HTML_STYLE = """
.suit-sun{fill:#c0392b;color:#c0392b}.suit-moon{fill:#222;color:#222}
.suit-crown{fill:#2e7d32;color:#2e7d32}.suit-arms{fill:#1f5fbf;color:#1f5fbf}
svg.pyramid{width:100%;max-width:520px;height:auto;display:block}
.face{fill:#f6efdc;stroke:#8a7a5a;stroke-width:1.2}
.back{fill:#5b4636;stroke:#3b2c20;stroke-width:1.2}.back-grid{stroke:#8c7159;stroke-width:1.5}
.hole{fill:none;stroke:#c9bfa8;stroke-dasharray:4 3}.hole.over-sarcophagus{stroke:#b8902c}
.sarcophagus-back{fill:#6d5a2e;stroke:#b8902c;stroke-width:2.5}
.rank{font:bold 30px sans-serif;text-anchor:middle}
.pos{font:10px sans-serif;fill:#8a7a5a}.back-pos{fill:#d9c8a8}
.rowlabel{font:bold 14px sans-serif;fill:#777;text-anchor:middle}
.coin circle{stroke:#fff;stroke-width:1.2}
.coin text{font:bold 10px sans-serif;fill:#fff;text-anchor:middle}
.caption{font:12px sans-serif;fill:#444;text-anchor:middle}
.players{display:grid;gap:.4em;margin-top:.8em}
.player{border:1px solid #ddd;border-radius:6px;padding:.35em .6em;background:#fff}
.player.winner{border-color:#b8902c;background:#fffaf0}
.swatch{display:inline-block;width:.8em;height:.8em;border-radius:50%;background:currentColor;margin-right:.3em}
.player .stats{color:#555;margin-left:.6em}.mine{display:block;color:#333}
.claimed svg{width:30px;height:30px;margin:2px 2px 0 0;vertical-align:middle}
"""

HTML_DEFS = """
<symbol id="suit-sun" viewBox="-10 -10 20 20"><circle r="4.2"/>
<g stroke="currentColor" stroke-width="1.8" stroke-linecap="round"><path d="M0-9.5V-6.5M0 6.5V9.5M-9.5 0H-6.5M6.5 0H9.5
M-6.7-6.7L-4.6-4.6M4.6 4.6L6.7 6.7M-6.7 6.7L-4.6 4.6M4.6-4.6L6.7-6.7"/></g></symbol>
<symbol id="suit-moon" viewBox="-10 -10 20 20"><path d="M2-8.5A8.5 8.5 0 1 0 8.5 4 7 7 0 1 1 2-8.5z"/></symbol>
<symbol id="suit-crown" viewBox="-10 -10 20 20"><path d="M-8.5 6.5L-9-5-4.5-0.5 0-7.5 4.5-0.5 9-5 8.5 6.5z"/></symbol>
<symbol id="suit-arms" viewBox="-10 -10 20 20"><path d="M0-9.5C3-6.5 3-3 0 0-3-3-3-6.5 0-9.5z
M-1 0C-2-4-7-5-9-2-8 1-4 1-2 3zM1 0C2-4 7-5 9-2 8 1 4 1 2 3zM-4.5 3.5H4.5V5.2H-4.5zM-1.2 5H1.2L1.8 9.5H-1.8z"/></symbol>
"""

_SCRIPT_CONSTANTS = "const SARC_ROWS = 6, SARC_UNDER = " + json.dumps(["5c", "6c", "6d"]) + ";\n"

HTML_SCRIPT = _SCRIPT_CONSTANTS + r"""
const T = 64, STEP = 72, LEFT = 34, TOP = 8;
const RANK_GLYPH = {null: "", ace: "A"};
const ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"};
function esc(text) {
  return String(text).replace(/[&<>"']/g, c => ESCAPES[c]);
}
function tag(name, attrs, content) {
  /* markup for one element: attribute values escaped, content as given (already markup) */
  const list = Object.entries(attrs).map(([key, value]) => ` ${key}="${esc(value)}"`).join("");
  return content === undefined ? `<${name}${list}/>` : `<${name}${list}>${content}</${name}>`;
}
function square(cls, x, y, size) {
  return tag("rect", {class: cls, x: x, y: y, width: size, height: size, rx: size / 10});
}
function suitSymbol(suit, x, y, size) {
  return tag("use", {href: "#suit-" + suit, class: "suit-" + suit, x: x, y: y, width: size, height: size});
}
function tileSvg(x, y, tile, pos, size) {
  /* a piecepack tile: a back (a 2x2 grid) while face down, else its rank and suit */
  const s = size || T, k = s / T;
  const label = pos ? tag("text", {class: tile ? "pos" : "pos back-pos", x: x + 4 * k, y: y + 11 * k}, pos) : "";
  if (!tile) {
    const grid = `M${x + s / 2} ${y + 4 * k}V${y + s - 4 * k}M${x + 4 * k} ${y + s / 2}H${x + s - 4 * k}`;
    return tag("g", {class: "tile", "data-tile": "back"},
               square("back", x, y, s) + tag("path", {class: "back-grid", d: grid}) + label);
  }
  const [suit, rank] = tile.split("-");
  const glyph = rank in RANK_GLYPH ? RANK_GLYPH[rank] : rank;
  const face = glyph
    ? tag("text", {class: "rank suit-" + suit, x: x + s / 2, y: y + 42 * k, "font-size": 30 * k}, glyph) +
      suitSymbol(suit, x + s - 19 * k, y + 3 * k, 16 * k)
    : suitSymbol(suit, x + 16 * k, y + 12 * k, 32 * k);  /* a null: the suit alone */
  return tag("g", {class: "tile", "data-tile": tile},
             tag("title", {}, esc(tile + (pos ? " on " + pos : ""))) + square("face", x, y, s) + face + label);
}
function coinsSvg(x, y, coins, meta) {
  /* the coins on a tile, in a row along its bottom edge, in their seat's colour; "?" while hidden */
  return coins.map(([seat, value], i) => {
    const who = meta.seats[seat], cx = x + 10 + i * 14.7, cy = y + T - 10, hidden = value === null;
    return tag("g", {class: "coin", "data-owner": who.player, "data-value": hidden ? "" : value},
               tag("title", {}, esc(`${who.name}: ${hidden ? "value hidden" : value}`)) +
               tag("circle", {class: "suit-" + who.suit, cx: cx, cy: cy, r: 7.2}) +
               tag("text", {x: cx, y: cy + 3.5}, hidden ? "?" : value));
  }).join("");
}
function pyramidSvg(b, meta) {
  let svg = "";
  for (let row = 1; row <= SARC_ROWS; row++) {
    const y = TOP + (row - 1) * STEP;
    svg += tag("text", {class: "rowlabel", x: 12, y: y + T / 2 + 5}, row);
    for (let c = 0; c < row; c++) {
      const pos = row + "abcdef"[c], x = LEFT + (SARC_ROWS - row) * STEP / 2 + c * STEP, spot = b.pyramid[pos];
      if (spot) {
        svg += tag("g", {class: "spot", "data-pos": pos}, tileSvg(x, y, spot[0], pos) + coinsSvg(x, y, spot[1], meta));
      } else {  /* taken away; the three over the sarcophagus keep a gold outline */
        const outline = SARC_UNDER.includes(pos) ? "hole over-sarcophagus" : "hole";
        svg += tag("g", {class: "hole", "data-pos": pos},
                   square(outline, x, y, T) + tag("text", {class: "pos", x: x + 4, y: y + 11}, pos));
      }
    }
  }
  const sy = TOP + SARC_ROWS * STEP + 22, sx = LEFT + 1.5 * STEP;
  svg += tag("text", {class: "caption", x: sx + 1.5 * STEP - 4, y: sy - 6},
             "The sarcophagus: the tiles under 5c, 6c and 6d");
  SARC_UNDER.forEach((pos, i) => {
    const [tile, status, holder, coins] = b.sarcophagus[pos], x = sx + i * STEP;
    const caption = status === "taken" ? esc(holder) : status;
    const face = status === "buried"
      ? tag("g", {class: "tile", "data-tile": "back"}, square("sarcophagus-back", x, sy, T)) : tileSvg(x, sy, tile, "");
    svg += tag("g", {class: "sarcophagus", "data-pos": pos, "data-status": status, "data-holder": holder || ""},
               face + coinsSvg(x, sy, coins, meta) +
               tag("text", {class: "caption", x: x + T / 2, y: sy + T + 14}, `${pos}: ${caption}`));
  });
  const size = {width: LEFT + SARC_ROWS * STEP, height: sy + T + 22};
  return tag("svg", {class: "pyramid", viewBox: `0 0 ${size.width} ${size.height}`, role: "img",
                     "aria-label": "the pyramid"}, svg);
}
function playerHtml(player, b, meta) {
  /* one player: their suits, coins in hand (and their values on their own page), fame, tiles held */
  const seats = meta.seats.filter(s => s.player === player), winner = (b.winners || []).includes(player);
  const swatches = [...new Set(seats.flatMap(s => s.suits))]
    .map(suit => tag("span", {class: "swatch suit-" + suit}, ""));
  const count = b.hands[player], score = b.scores ? b.scores[player] : b.fame[player];
  const mine = seats.filter(s => b.mine && s.name in b.mine).map(s =>
    tag("span", {class: "mine", "data-seat": s.name}, `your coins: ${b.mine[s.name].join(" ") || "none"}`)).join("");
  const claimed = b.claimed[player].map(t => tag("svg", {viewBox: `0 0 ${T} ${T}`}, tileSvg(0, 0, t, ""))).join("");
  const stats = tag("span", {class: "hand", "data-hand": count}, `${count} coin${count === 1 ? "" : "s"} in hand`) +
    ", " +
    tag("span", {class: "fame", "data-fame": score},
        b.scores ? `final score ${score}${winner ? " (wins)" : ""}` : `fame ${score}`);
  return tag("div", {class: winner ? "player winner" : "player", "data-name": player},
             swatches.join("") + tag("b", {}, esc(player)) + tag("span", {class: "stats"}, stats) + mine +
             tag("div", {class: "claimed", "data-count": b.claimed[player].length}, claimed || "no tiles yet"));
}
function drawBoard(areas, b, meta) {
  areas.board.innerHTML = pyramidSvg(b, meta);
  areas.side.innerHTML = tag("div", {class: "players"}, meta.players.map(p => playerHtml(p, b, meta)).join(""));
}
"""


def choices_text(game: AnyGame, state: Any, choices: Sequence[Any]) -> str:
    """The legal choices as a person reads them: coin values and tiles apart, not every pairing."""
    from engine.sarcophagus.actions import Discard, Place
    from engine.sarcophagus.geometry import pos_name

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
