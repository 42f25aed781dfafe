/* pbem app: the page shows and chooses; the server (the engine) decides what is legal and signs.
   Every choice offered comes from the server's list; the page sends back the notation of the one chosen. */
(function () {
  "use strict";
  const $ = id => document.getElementById(id);
  const csrf = document.querySelector('meta[name="pbem-csrf"]').content;

  async function post(url, body) {
    let response;
    try {
      response = await fetch(url, {method: "POST", credentials: "same-origin", body: JSON.stringify(body || {}),
                                   headers: {"Content-Type": "application/json", "X-Pbem-Csrf": csrf}});
    } catch (e) {
      return {ok: false, message: "The app does not answer: is it still running?"};
    }
    try {
      return await response.json();
    } catch (e) {
      return {ok: false, message: `The app answered ${response.status}.`};
    }
  }
  function say(text, bad) {
    const box = $("message");
    box.textContent = text;
    box.className = bad ? "bad" : "good";
  }
  async function act(button, url, body) {
    button.disabled = true;
    say("Working...", false);
    const answer = await post(url, body);
    if (answer.ok) {
      location.reload();  /* the page shows what was done, and the position now */
      return;
    }
    say(answer.message, true);
    button.disabled = false;
  }

  /* ---- every page: fetching mail, unlocking keys */
  const fetchMail = $("fetch-mail");
  if (fetchMail) fetchMail.addEventListener("click", () => act(fetchMail, "/inbox", {page: location.pathname}));
  document.querySelectorAll(".unlock-button").forEach(button => button.addEventListener("click", () => {
    const field = $("pass-" + button.dataset.key);
    act(button, "/unlock", {name: button.dataset.key, passphrase: field.value});
    field.value = "";
  }));

  /* ---- a new game: the form's fields as they are; the server checks them all */
  const start = $("new-start");
  if (start) start.addEventListener("click", () => {
    const me = $("new-me").value, key = name => $("key-" + name).value.trim();
    const others = [...document.querySelectorAll(".new-player:checked")].map(box => [box.value, key(box.value)]);
    const referee = $("new-referee").value;
    const players = referee === me ? others : [[me, ""], ...others];
    act(start, "/new", {game: $("new-game-name").value, me: me, players: players,
                        referee: referee ? [referee, referee === me ? "" : key(referee)] : null,
                        options: $("new-options").value, deadline: $("new-deadline").value});
  });

  /* ---- a game */
  const dataBlock = $("app-data");
  if (!dataBlock) return;
  const data = JSON.parse(dataBlock.textContent);
  const base = "/game/" + data.gameId, areas = {board: $("board"), side: $("side")};
  const slider = $("slider"), sign = $("sign"), options = $("options"), says = $("says");
  let chosen = null, current = data.seq, frames = null;

  function button(text, label, onClick) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = text;
    if (label) b.setAttribute("aria-label", label);
    b.addEventListener("click", onClick);
    return b;
  }
  function choose(choice, b) {
    chosen = choice;
    options.querySelectorAll("button").forEach(other => other.setAttribute("aria-pressed", String(other === b)));
    says.textContent = choice.says;
    sign.disabled = false;
    sign.dataset.action = choice.notation;
  }
  function offer(title, list) {
    /* the choices on one target (or the ones without), as buttons */
    const group = document.createElement("div");
    group.className = "group";
    const heading = document.createElement("p");
    heading.className = "group-title";
    heading.textContent = title;
    group.appendChild(heading);
    list.forEach(c => {
      const b = button(c.option, c.says, () => choose(c, b));
      b.className = "option";
      b.dataset.notation = c.notation;
      group.appendChild(b);
    });
    return group;
  }
  function loose() {
    return data.choices.filter(c => !c.target || !document.querySelector(c.target));
  }
  function showOptions(list, element) {
    document.querySelectorAll(".target.selected").forEach(t => t.classList.remove("selected"));
    chosen = null;
    sign.disabled = true;
    says.textContent = "";
    const groups = [];
    if (list) {
      element.classList.add("selected");
      groups.push(offer(list[0].place + ":", list));
    } else if (data.choices.some(c => c.target)) {
      const hint = document.createElement("p");
      hint.className = "group-title";
      hint.textContent = "Click a highlighted place on the board (or Tab to it and press Enter).";
      groups.push(hint);
    }
    const rest = loose();
    if (rest.length) groups.push(offer(list || groups.length ? "Or:" : "Choose:", rest));
    options.replaceChildren(...groups);
    if (list) options.querySelector("button.option").focus();
  }
  function markTargets() {
    const byTarget = new Map();
    data.choices.forEach(c => {
      if (!c.target) return;
      if (!byTarget.has(c.target)) byTarget.set(c.target, []);
      byTarget.get(c.target).push(c);
    });
    byTarget.forEach((list, selector) => {
      const element = document.querySelector(selector);
      if (!element) return;
      const n = list.length;
      element.classList.add("target");
      element.setAttribute("tabindex", "0");
      element.setAttribute("role", "button");
      element.setAttribute("aria-label", `${list[0].place}: ${n} choice${n === 1 ? "" : "s"}`);
      const pick = () => showOptions(list, element);
      element.addEventListener("click", pick);
      element.addEventListener("keydown", e => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          pick();
        }
      });
    });
    if (data.choices.length) showOptions(null, null);
  }
  function showNow() {
    current = data.seq;
    drawBoard(areas, data.board, data.meta);
    markTargets();
    $("turn").hidden = false;
    $("entry").hidden = true;
  }
  function showFrame(n) {
    current = n;
    const f = frames[n];
    drawBoard(areas, f.board, data.meta);
    $("turn").hidden = true;
    $("entry").hidden = false;
    $("entry-title").textContent = n === 0 ? "The start: " + f.title : `Entry ${n}: ${f.title} (${f.action})`;
    $("signer").textContent = `Signed by ${f.author}`;
    $("events").replaceChildren(...f.events.map(text => {
      const item = document.createElement("li");
      item.textContent = text;
      return item;
    }));
  }
  async function show(n) {
    n = Math.max(0, Math.min(data.seq, n | 0));
    if (n === data.seq) {
      if (current !== n) showNow();
    } else {
      if (!frames) {
        const response = await fetch(base + "/history", {credentials: "same-origin"});
        const answer = await response.json();
        if (!answer.ok) {
          say(answer.message, true);
          return;
        }
        frames = answer.frames;
      }
      showFrame(n);
    }
    slider.value = String(n);
    $("board").dataset.entry = String(n);
    $("where").textContent = n === data.seq ? `Now: entry ${n}` : `Entry ${n} of ${data.seq}`;
    $("first").disabled = $("back").disabled = n === 0;
    $("last").disabled = $("forward").disabled = n === data.seq;
  }
  $("first").addEventListener("click", () => show(0));
  $("back").addEventListener("click", () => show(current - 1));
  $("forward").addEventListener("click", () => show(current + 1));
  $("last").addEventListener("click", () => show(data.seq));
  slider.addEventListener("input", () => show(Number(slider.value)));
  document.addEventListener("keydown", e => {
    if (e.target === slider || e.target.tagName === "INPUT" || e.altKey || e.ctrlKey || e.metaKey) return;
    const to = {ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: data.seq}[e.key];
    if (to === undefined) return;
    e.preventDefault();
    show(to);
  });
  sign.addEventListener("click", () => {
    if (chosen) act(sign, base + "/move", {head: data.head, action: chosen.notation});
  });
  const automatic = $("automatic");
  automatic.addEventListener("click", () => act(automatic, base + "/automatic", {head: data.head}));
  const again = $("send-again");
  again.addEventListener("click", () => act(again, base + "/send", {}));
  if (typeof legendSample === "function") {  /* the game's drawing of each mark its legend names */
    document.querySelectorAll("#legend dt").forEach(dt => {
      const sample = legendSample(dt.dataset.term, data.meta);
      if (sample) dt.insertAdjacentHTML("afterbegin", sample);
    });
  }
  showNow();
  show(data.seq);
})();
