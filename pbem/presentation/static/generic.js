
function drawBoard(areas, b, meta) {
  const pre = document.createElement("pre");
  pre.textContent = Object.entries(b).map(([key, value]) => key + ": " + JSON.stringify(value)).join("\n");
  areas.board.replaceChildren(pre);
  areas.side.replaceChildren();
}
