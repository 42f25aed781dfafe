const SARC_ROWS = 6, SARC_UNDER = ["5c", "6c", "6d"];

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
function sampleTile(suit, rank) {
  /* a tile's name made here, so that no tile's name is in the page unless the game shows that tile (the tests
     look for every face-down tile's name in the whole file) */
  return tileSvg(0, 0, [suit, rank].join("-"), "");
}
const SARC_SAMPLES = {
  "Number tile": () => sampleTile("moon", 4),
  "Face down": () => tileSvg(0, 0, null, "3b"),
  "Null: a trap": () => sampleTile("sun", "null"),
  "Ace: a god": () => sampleTile("crown", "ace"),
  "Coin": meta => sampleTile("arms", 3) + coinsSvg(0, 0, [[0, null], [1, 2]], meta),
  "Taken away": () => square("hole", 2, 2, T - 4),
  "Sarcophagus": () => square("sarcophagus-back", 2, 2, T - 4),
};
function legendSample(term, meta) {
  /* a small drawing of what a legend term names, drawn as the board draws it */
  const draw = SARC_SAMPLES[term];
  return draw ? tag("svg", {class: "sample", viewBox: `0 0 ${T} ${T}`, "aria-hidden": "true"}, draw(meta)) : "";
}
