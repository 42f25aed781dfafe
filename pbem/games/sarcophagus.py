"""Sarcophagus drawn for people: the terminal board and the HTML replay's board. The one module of
pbem/ that knows pyramids, suits and coins; it reads only what `view()` gives an observer, so it
can show nothing that observer may not see."""

from __future__ import annotations

import json
import re

SUITS = ("sun", "moon", "crown", "arms")
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


def suit_of(tile: str | None) -> str | None:
    return tile.split("-")[0] if tile else None


def _seat_suits(shown: dict) -> dict[str, str]:
    """Each seat's and each player's suit (a player's first seat, its first suit): their colour."""
    suits: dict[str, str] = {}
    for seat in shown["seats"]:
        first = seat["suits"].split("+")[0]
        suits[seat["name"]] = first
        suits.setdefault(seat["player"], first)
    return suits


def progress(shown: dict) -> float:
    return 1 - len(shown["pyramid"]) / PYRAMID_SIZE


_NOTABLE = ("Claimed", "TieBreak", "Trap", "TrapDiscard", "SarcophagusTaken", "TileDiscarded", "PyramidEmpty")


def notable(event) -> bool:
    """What the demo tells as the game goes: claims, ties, traps, the sarcophagus; not every coin."""
    name = type(event).__name__
    return name in _NOTABLE or (name == "Revealed" and event.under)


# ---------------------------------------------------------------- the terminal

def board_text(shown: dict, style) -> str:
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
                coins = len(spot["coins"]) or none
                cells.append(f"{letter}[{tile_code(spot['tile'])}{coins}]")
            lines.append(f"{row}  {' ' * 4 * (6 - row)}{'  '.join(cells)}".rstrip())
        lines.append("")
    else:
        lines += ["", "The pyramid is empty: every tile has been claimed or discarded."]
    coins = [f"{pos} " + " ".join(f"{who(c['seat'])}:{'?' if c['value'] is None else c['value']}"
                                  for c in spot["coins"])
             for pos, spot in pyramid.items() if spot["coins"]]
    lines += _wrapped("Coins: ", coins, style)
    lines += _wrapped("Sarcophagus: ", [f"{pos} {_fate(spot, who, tile_code)}"
                                        for pos, spot in shown["sarcophagus"].items()], style)
    lines += _players(shown, who, tile_code)
    return "\n".join(lines)


def _fate(spot: dict, who, tile_code) -> str:
    """What became of the sarcophagus tile under a position."""
    if spot["status"] == "taken":
        return f"{who(spot['holder'])}'s " + (tile_code(spot["tile"]) if spot["tile"] else "unseen")
    return "discarded unseen" if spot["status"] == "discarded" else "buried"


def _players(shown: dict, who, tile_code) -> list[str]:
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


def _wrapped(head: str, items: list[str], style) -> list[str]:
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

def html_meta(shown: dict) -> dict:
    """What does not change during the game: the seats and their colours."""
    return {"seats": [{"name": s["name"], "player": s["player"], "suit": s["suits"].split("+")[0]}
                      for s in shown["seats"]],
            "players": shown["players"]}


def html_board(shown: dict) -> dict:
    """One view as compact data: a coin is [seat index, value or null]; a tile its name or null."""
    seat_index = {seat["name"]: i for i, seat in enumerate(shown["seats"])}

    def coins(spot: dict) -> list:
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
<g stroke="currentColor" stroke-width="1.8" stroke-linecap="round"><path d="M0-9.5V-6.5M0 6.5V9.5M-9.5 0H-6.5M6.5 0H9.5M-6.7-6.7L-4.6-4.6M4.6 4.6L6.7 6.7M-6.7 6.7L-4.6 4.6M4.6-4.6L6.7-6.7"/></g></symbol>
<symbol id="suit-moon" viewBox="-10 -10 20 20"><path d="M2-8.5A8.5 8.5 0 1 0 8.5 4 7 7 0 1 1 2-8.5z"/></symbol>
<symbol id="suit-crown" viewBox="-10 -10 20 20"><path d="M-8.5 6.5L-9-5-4.5-0.5 0-7.5 4.5-0.5 9-5 8.5 6.5z"/></symbol>
<symbol id="suit-arms" viewBox="-10 -10 20 20"><path d="M0-9.5C3-6.5 3-3 0 0-3-3-3-6.5 0-9.5zM-1 0C-2-4-7-5-9-2-8 1-4 1-2 3zM1 0C2-4 7-5 9-2 8 1 4 1 2 3zM-4.5 3.5H4.5V5.2H-4.5zM-1.2 5H1.2L1.8 9.5H-1.8z"/></symbol>
"""

_SCRIPT_CONSTANTS = "const SARC_ROWS = 6, SARC_UNDER = " + json.dumps(["5c", "6c", "6d"]) + ";\n"

HTML_SCRIPT = _SCRIPT_CONSTANTS + r"""
const T = 64, STEP = 72, LEFT = 34, TOP = 8;
const RANK_GLYPH = {null: "", ace: "A"};
function esc(text) {
  return String(text).replace(/[&<>"']/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"})[c]);
}
function tileSvg(x, y, tile, pos, size) {
  const s = size || T, k = s / T;
  const label = pos ? `<text class="pos${tile ? "" : " back-pos"}" x="${x + 4 * k}" y="${y + 11 * k}">${pos}</text>` : "";
  if (!tile) {
    return `<g class="tile" data-pos="${pos || ""}" data-tile="back"><rect class="back" x="${x}" y="${y}" width="${s}" height="${s}" rx="${6 * k}"/>` +
      `<path class="back-grid" d="M${x + s / 2} ${y + 4 * k}V${y + s - 4 * k}M${x + 4 * k} ${y + s / 2}H${x + s - 4 * k}"/>${label}</g>`;
  }
  const [suit, rank] = tile.split("-");
  const glyph = rank in RANK_GLYPH ? RANK_GLYPH[rank] : rank;
  const big = glyph ? `<text class="rank suit-${suit}" x="${x + s / 2}" y="${y + 42 * k}" font-size="${30 * k}">${glyph}</text>` +
      `<use href="#suit-${suit}" class="suit-${suit}" x="${x + s - 19 * k}" y="${y + 3 * k}" width="${16 * k}" height="${16 * k}"/>`
    : `<use href="#suit-${suit}" class="suit-${suit}" x="${x + 16 * k}" y="${y + 12 * k}" width="${32 * k}" height="${32 * k}"/>`;
  return `<g class="tile" data-pos="${pos || ""}" data-tile="${esc(tile)}"><title>${esc(tile)}${pos ? " on " + pos : ""}</title>` +
    `<rect class="face" x="${x}" y="${y}" width="${s}" height="${s}" rx="${6 * k}"/>${big}${label}</g>`;
}
function coinsSvg(x, y, coins, meta) {
  return coins.map(([seat, value], i) => {
    const who = meta.seats[seat], cx = x + 10 + i * 14.7, cy = y + T - 10;
    const shown = value === null ? "?" : value;
    return `<g class="coin" data-owner="${esc(who.player)}" data-value="${value === null ? "" : value}">` +
      `<title>${esc(who.name)}: ${value === null ? "value hidden" : value}</title>` +
      `<circle class="suit-${who.suit}" cx="${cx}" cy="${cy}" r="7.2"/><text x="${cx}" y="${cy + 3.5}">${shown}</text></g>`;
  }).join("");
}
function drawBoard(areas, b, meta) {
  let svg = "";
  for (let row = 1; row <= SARC_ROWS; row++) {
    const y = TOP + (row - 1) * STEP;
    svg += `<text class="rowlabel" x="12" y="${y + T / 2 + 5}">${row}</text>`;
    for (let c = 0; c < row; c++) {
      const pos = row + "abcdef"[c], x = LEFT + (SARC_ROWS - row) * STEP / 2 + c * STEP, spot = b.pyramid[pos];
      if (spot) {
        svg += `<g class="spot" data-pos="${pos}">${tileSvg(x, y, spot[0], pos)}${coinsSvg(x, y, spot[1], meta)}</g>`;
      } else {
        const over = SARC_UNDER.includes(pos) ? " over-sarcophagus" : "";
        svg += `<g class="hole" data-pos="${pos}"><rect class="hole${over}" x="${x}" y="${y}" width="${T}" height="${T}" rx="6"/>` +
          `<text class="pos" x="${x + 4}" y="${y + 11}">${pos}</text></g>`;
      }
    }
  }
  const sy = TOP + SARC_ROWS * STEP + 22, sx = LEFT + 1.5 * STEP;
  svg += `<text class="caption" x="${sx + 1.5 * STEP - 4}" y="${sy - 6}">The sarcophagus: the tiles under 5c, 6c and 6d</text>`;
  SARC_UNDER.forEach((pos, i) => {
    const [tile, status, holder, coins] = b.sarcophagus[pos], x = sx + i * STEP, caption =
      status === "taken" ? esc(holder) : status === "discarded" ? "discarded" : "buried";
    const face = status === "buried"
      ? `<g class="tile" data-pos="under-${pos}" data-tile="back"><rect class="sarcophagus-back" x="${x}" y="${sy}" width="${T}" height="${T}" rx="6"/></g>`
      : tileSvg(x, sy, tile, "");
    svg += `<g class="sarcophagus" data-pos="${pos}" data-status="${status}" data-holder="${esc(holder || "")}">${face}` +
      coinsSvg(x, sy, coins, meta) + `<text class="caption" x="${x + T / 2}" y="${sy + T + 14}">${pos}: ${caption}</text></g>`;
  });
  const height = sy + T + 22, width = LEFT + SARC_ROWS * STEP;
  areas.board.innerHTML = `<svg class="pyramid" viewBox="0 0 ${width} ${height}" role="img" aria-label="the pyramid">${svg}</svg>`;
  areas.side.innerHTML = `<div class="players">` + meta.players.map(player => {
    const suit = meta.seats.find(s => s.player === player).suit, final = b.scores ? b.scores[player] : null;
    const winner = b.winners && b.winners.includes(player);
    const mine = b.mine ? Object.entries(b.mine).filter(([seat]) => meta.seats.find(s => s.name === seat).player === player)
      .map(([seat, values]) => ` <span class="mine" data-seat="${esc(seat)}">your coins: ${values.join(" ") || "none"}</span>`).join("") : "";
    const claimed = b.claimed[player].map(t => `<svg viewBox="0 0 ${T} ${T}">${tileSvg(0, 0, t, "")}</svg>`).join("");
    return `<div class="player${winner ? " winner" : ""}" data-name="${esc(player)}"><span class="swatch suit-${suit}"></span><b>${esc(player)}</b>` +
      `<span class="stats"><span class="hand" data-hand="${b.hands[player]}">${b.hands[player]} coin${b.hands[player] === 1 ? "" : "s"} in hand</span>, ` +
      (final === null ? `<span class="fame" data-fame="${b.fame[player]}">fame ${b.fame[player]}</span>`
        : `<span class="fame" data-fame="${final}">final score ${final}${winner ? " (wins)" : ""}</span>`) + `</span>${mine}` +
      `<div class="claimed" data-count="${b.claimed[player].length}">${claimed || "no tiles yet"}</div></div>`;
  }).join("") + `</div>`;
}
"""
