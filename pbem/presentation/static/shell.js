
(function () {
  const data = JSON.parse(document.getElementById("game-data").textContent);
  const last = data.frames.length - 1, $ = id => document.getElementById(id);
  const board = $("board"), slider = $("slider"), areas = {board: board, side: $("side")};
  let current = -1;
  function fromHash() {
    const m = /entry=(\d+)/.exec(location.hash);
    return m ? Math.min(Number(m[1]), last) : last;
  }
  function show(n, keepHash) {
    n = Math.max(0, Math.min(last, n | 0));
    current = n;
    const f = data.frames[n];
    slider.value = String(n);
    board.dataset.entry = String(n);
    drawBoard(areas, f.board, data.meta);
    $("where").textContent = `Entry ${n} of ${last}`;
    $("entry-title").textContent = n === 0 ? "The start: " + f.title : `Entry ${n}: ${f.title}`;
    $("signer").textContent = `Signed by ${f.author}`;
    $("notation").textContent = n === 0 ? "" : `In the record: ${f.action}`;
    const events = $("events");
    events.replaceChildren(...f.events.map(text => {
      const item = document.createElement("li");
      item.textContent = text;
      return item;
    }));
    $("next").textContent = f.next;
    $("first").disabled = $("back").disabled = n === 0;
    $("last").disabled = $("forward").disabled = n === last;
    if (!keepHash && location.hash !== "#entry=" + n) {
      try { history.replaceState(null, "", "#entry=" + n); } catch (e) { /* some browsers refuse on file: */ }
    }
  }
  $("first").addEventListener("click", () => show(0));
  $("back").addEventListener("click", () => show(current - 1));
  $("forward").addEventListener("click", () => show(current + 1));
  $("last").addEventListener("click", () => show(last));
  slider.addEventListener("input", () => show(Number(slider.value)));
  window.addEventListener("hashchange", () => show(fromHash(), true));
  document.addEventListener("keydown", e => {
    if (e.target === slider || e.altKey || e.ctrlKey || e.metaKey) return;  // the slider steps by itself
    const to = {ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: last}[e.key];
    if (to === undefined) return;
    e.preventDefault();
    show(to);
  });
  drawLegend(data.meta);
  show(fromHash(), true);
})();
function drawLegend(meta) {
  /* a sample of each mark the game's drawing defines one for, beside its term in the legend */
  if (typeof legendSample !== "function") return;
  document.querySelectorAll("#legend dt").forEach(dt => {
    const sample = legendSample(dt.dataset.term, meta);
    if (sample) dt.insertAdjacentHTML("afterbegin", sample);
  });
}
