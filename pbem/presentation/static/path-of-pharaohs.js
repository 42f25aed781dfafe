
const POP_DOUBLE = [2, 4, 6, 8, 10], POP_LEVELS = [["3"], ["2l", "2r"], ["1l", "1m", "1r"]];
const POP_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"};
function popEsc(text) {
  return String(text).replace(/[&<>"']/g, c => POP_ESCAPES[c]);
}
function popTag(name, attrs, content) {
  /* markup for one element: attribute values escaped, content as given (already markup) */
  const list = Object.entries(attrs).map(([key, value]) => ` ${key}="${popEsc(value)}"`).join("");
  return content === undefined ? `<${name}${list}/>` : `<${name}${list}>${content}</${name}>`;
}
function popSwatch(player, meta) {
  const circle = popTag("circle", {cx: 5, cy: 5, r: 5, fill: meta.colours[meta.players.indexOf(player)]});
  return popTag("svg", {class: "swatch", viewBox: "0 0 10 10"}, circle);
}
function popMarker(player, cx, cy, meta, moving) {
  const i = meta.players.indexOf(player);
  return popTag("g", {class: moving ? "marker moving" : "marker", "data-owner": player},
                popTag("title", {}, popEsc(player + (moving ? " (moving this turn)" : ""))) +
                popTag("circle", {cx: cx, cy: cy, r: 10, fill: meta.colours[i]}) +
                popTag("text", {x: cx, y: cy + 4}, popEsc(meta.marks[i])));
}
function popPath(b, meta) {
  /* the start, locations 1 to 13 (space A above B where there are two), each marker on its space */
  const W = 50, H = 34, TOP = 22, LEFT = 4;
  let svg = "";
  const start = Object.keys(b.markers).filter(p => b.markers[p][0] === 0);
  svg += popTag("text", {class: "loc", x: LEFT + W / 2, y: 14}, "start");
  svg += popTag("g", {class: "location", "data-location": 0},
                popTag("rect", {class: "space start", x: LEFT + 2, y: TOP, width: W - 4, height: 2 * H + 4, rx: 5}) +
                start.map((p, k) => popMarker(p, LEFT + 15 + (k % 2) * 20, TOP + 12 + Math.floor(k / 2) * 22, meta,
                                              false)).join(""));
  for (let loc = 1; loc <= 13; loc++) {
    const x = LEFT + loc * W, spaces = POP_DOUBLE.includes(loc) ? ["A", "B"] : ["A"];
    let g = popTag("text", {class: "loc", x: x + W / 2, y: 14}, loc === 13 ? "13" : loc);
    spaces.forEach((space, k) => {
      const y = TOP + k * (H + 4), closed = space === "B" && b.closed.includes(loc + "B");
      const cls = closed ? "space closed" : loc === 13 ? "space alexandria" : "space";
      g += popTag("g", {class: "spot", "data-space": loc + space, "data-closed": closed ? "yes" : "no"},
                  popTag("rect", {class: cls, x: x + 2, y: y, width: W - 4, height: H, rx: 5}) +
                  (spaces.length > 1 ? popTag("text", {class: "spacelabel", x: x + 5, y: y + 10}, space) : "") +
                  (closed ? popTag("text", {class: "mummy", x: x + W / 2, y: y + H / 2 + 4}, "mummy") : ""));
      const here = Object.keys(b.markers).find(p => b.markers[p][0] === loc && b.markers[p][1] === space);
      if (here) g += popMarker(here, x + W / 2, y + H / 2, meta, false);
    });
    const moving = Object.keys(b.markers).filter(p => b.markers[p][0] === loc && b.markers[p][1] === null);
    g += moving.map((p, k) => popMarker(p, x + W / 2 + k * 8, TOP + 2 * H + 22, meta, true)).join("");
    svg += popTag("g", {class: "location", "data-location": loc}, g);
  }
  svg += popTag("text", {class: "loc", x: LEFT + 13.5 * W, y: TOP + 2 * H + 26}, "Alexandria");
  const width = LEFT + 14 * W + 4, height = TOP + 2 * H + 36;
  return popTag("svg", {class: "path", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": "the path"}, svg);
}
function popPyramid(player, b, meta) {
  /* six positions: 1l 1m 1r at the bottom, 2l 2r bridging them, 3 on top */
  const W = 64, H = 46, GAP = 6, pyramid = b.pyramids[player];
  let svg = "";
  POP_LEVELS.forEach((level, row) => {
    const y = row * (H + GAP), indent = (2 - row) * (W + GAP) / 2;
    level.forEach((pos, k) => {
      const [value, cards, zero] = pyramid[pos], x = indent + k * (W + GAP), empty = value === null;
      const single = cards !== null && !/[+-]/.test(cards.slice(1));
      let g = popTag("rect", {class: empty ? "block empty" : "block", x: x, y: y, width: W, height: H, rx: 4}) +
              popTag("text", {class: "posname", x: x + 4, y: y + 11}, pos);
      if (!empty) {
        g += popTag("text", {class: "value", x: x + W / 2, y: y + 29}, value);
        if (!single || cards.startsWith("W")) g += popTag("text", {class: "cards", x: x + W / 2, y: y + 41}, popEsc(cards));
      }
      if (zero) {
        g += popTag("g", {class: "zero"}, popTag("title", {}, "a Zero Block Value: filling it moves 0") +
                    popTag("rect", {x: x + W - 17, y: y + 3, width: 14, height: 14, rx: 3}) +
                    popTag("text", {x: x + W - 10, y: y + 14}, "Z"));
      }
      svg += popTag("g", {class: "position", "data-pos": pos, "data-value": empty ? "" : value,
                          "data-cards": cards || "", "data-zero": zero ? "yes" : "no"}, g);
    });
  });
  const width = 3 * W + 2 * GAP, height = 3 * H + 2 * GAP;
  return popTag("div", {class: "pyramid", "data-name": player},
                popTag("h3", {}, popSwatch(player, meta) + popEsc(player)) +
                popTag("svg", {viewBox: `-2 -2 ${width + 4} ${height + 4}`, role: "img", "aria-label": player + "'s pyramid"},
                       svg));
}
function popPlayer(player, b, meta) {
  /* one player: their colour, cards in hand, where their marker is, a Sandstorm in front */
  const [loc, space] = b.markers[player];
  const winner = (b.winners || []).includes(player), count = b.hands[player];
  const at = loc === 0 ? "at the start" : space === null ? `moving, at ${loc}` :
    `at ${loc}${POP_DOUBLE.includes(loc) ? space : ""}`;
  const cls = "player" + (winner ? " winner" : "") + (b.turn === player ? " turn" : "");
  return popTag("div", {class: cls, "data-name": player},
                popSwatch(player, meta) + popTag("b", {}, popEsc(player)) +
                popTag("span", {class: "stats"},
                       popTag("span", {class: "hand", "data-hand": count}, `${count} card${count === 1 ? "" : "s"}`) +
                       ", " + popTag("span", {class: "at", "data-at": loc === 0 ? "start" : loc + (space || "")}, at) +
                       (winner ? ", wins" : b.turn === player ? ", this turn" : "")) +
                (b.sandstorms.includes(player)
                  ? popTag("span", {class: "storm"}, "Sandstorm in front: skips the next turn") : ""));
}
function popCard(card, slot, meta, element) {
  /* one card face (an item of a hand's list, or a legend's sample `element`): its value or letter, big; an
     action card's name under it (its first word: Zero for a Zero Block Value); "?" a card no longer known */
  const unknown = card === "?", name = unknown ? "unknown" : meta.cardNames[card];
  const kind = unknown ? "unknown" : name ? card : "value";
  const title = unknown ? "a card no longer known" : name || "a value card, " + card;
  const attrs = {class: "card card-" + kind, "data-card": card, title: title};
  if (slot !== null) attrs["data-slot"] = slot;
  if (element) attrs["aria-hidden"] = "true";
  return popTag(element || "li", attrs, popTag("b", name ? {"aria-hidden": "true"} : {}, popEsc(card)) +
                (name && !element ? popTag("small", {}, popEsc(name.split(" ")[0])) : ""));
}
function popHand(cards, meta, label) {
  return popTag("ul", {class: "hand-cards", "aria-label": label}, cards.map(([card, slot]) => popCard(card, slot, meta)).join(""));
}
function drawBoard(areas, b, meta) {
  areas.board.innerHTML = popPath(b, meta) +
    popTag("div", {class: "pyramids"}, meta.players.map(p => popPyramid(p, b, meta)).join(""));
  const next = b.mummiesLeft ? `; ${b.mummiesLeft} mumm${b.mummiesLeft === 1 ? "y" : "ies"} left` : "; every mummy is awake";
  const supplies = popTag("div", {class: "supplies"},
    popTag("span", {class: "sands", "data-sands": b.sands}, `Sands of Time ${b.sands}/3${next}`) +
    popTag("span", {class: "deck", "data-deck": b.deck}, `Deck: ${b.deck} card${b.deck === 1 ? "" : "s"}`) +
    popTag("span", {class: "discards", "data-discards": b.discards},
           `Discard pile: ${b.discards}` +
           (b.top === null ? "" : `, on top: ${meta.cardNames[b.top] ? "a " + popEsc(meta.cardNames[b.top]) : popEsc(b.top)}`)) +
    (b.mine ? popTag("div", {class: "mine", "data-cards": b.mine.length},
                     popTag("span", {}, `Your hand: ${b.mine.length} card${b.mine.length === 1 ? "" : "s"}`) +
                     popHand(b.mine, meta, "your hand")) : "") +
    (b.deckOrder ? popTag("span", {class: "order"}, "The deck, top first: " + popEsc(b.deckOrder.join(" "))) : ""));
  areas.side.innerHTML = popTag("div", {class: "players"}, meta.players.map(p => popPlayer(p, b, meta)).join("")) + supplies;
}
const POP_SAMPLES = {
  "Marker": meta => popTag("svg", {class: "sample", viewBox: "0 0 24 24", "aria-hidden": "true"},
                           popMarker(meta.players[0], 12, 12, meta, false)),
  "Mummy": () => popTag("svg", {class: "sample", viewBox: "0 0 50 34", "aria-hidden": "true"},
                        popTag("rect", {class: "space closed", x: 1, y: 1, width: 48, height: 32, rx: 5})),
  "Value card": meta => popCard("7", null, meta, "span"), "Wild": meta => popCard("W", null, meta, "span"),
  "Zero Block Value": meta => popCard("Z", null, meta, "span"), "Thief": meta => popCard("T", null, meta, "span"),
  "Sandstorm": meta => popCard("S", null, meta, "span"), "Unknown card": meta => popCard("?", null, meta, "span"),
};
function legendSample(term, meta) {
  /* a small drawing of what a legend term names, drawn as the board draws it */
  const draw = POP_SAMPLES[term];
  return draw ? draw(meta) : "";
}
