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
  /* while a request of this page's is in flight, the live changes wait for its answer: the change it makes
     itself is said by the answer (not as "the game has moved on"), and the page is drawn anew after it */
  const live = {acting: false, waiting: [], handle: null};
  async function act(button, url, body) {
    button.disabled = true;
    say("Working...", false);
    live.acting = true;
    const answer = await post(url, body);
    live.acting = false;
    const waiting = live.waiting.splice(0);
    if (!answer.ok && live.handle) waiting.forEach(change => live.handle(change));
    if (answer.ok) {
      /* the page shows what was done, and the position now: the words kept for this tab, as the server's copy
         of them goes to whichever page of that address it draws first (another tab, redrawn live, may be first) */
      if (answer.message) {
        say(answer.message, false);
        keepMessage();
      }
      location.reload();
      return;
    }
    say(answer.message, true);
    button.disabled = false;
  }

  /* ---- a page redrawn live keeps the words it showed (what was just done) */
  function keepMessage() {
    const box = $("message");
    if (box && box.textContent && !$("show-new")) {
      sessionStorage.setItem("pbem-message", JSON.stringify({path: location.pathname, text: box.textContent,
                                                             bad: box.className === "bad"}));
    }
  }
  try {
    const kept = JSON.parse(sessionStorage.getItem("pbem-message") || "null");
    sessionStorage.removeItem("pbem-message");
    if (kept && kept.path === location.pathname && $("message") && !$("message").textContent) say(kept.text, kept.bad);
  } catch (e) {
    sessionStorage.removeItem("pbem-message");
  }

  /* ---- every page: fetching mail, unlocking keys */
  const fetchMail = $("fetch-mail");
  if (fetchMail) fetchMail.addEventListener("click", () => act(fetchMail, "/inbox", {page: location.pathname}));
  document.querySelectorAll(".unlock-button").forEach(button => button.addEventListener("click", () => {
    const field = $("pass-" + button.dataset.key);
    act(button, "/unlock", {name: button.dataset.key, passphrase: field.value});
    field.value = "";
  }));

  /* ---- live: the server pushes each change (a mail read, a move in another tab) as a server-sent event */
  function listen(since, onChange) {
    if (typeof EventSource !== "function") return;
    const source = new EventSource("/events?since=" + since);
    source.addEventListener("message", event => {
      let change;
      try {
        change = JSON.parse(event.data);
      } catch (e) {
        return;
      }
      onChange(change);
    });
    window.addEventListener("pagehide", () => source.close());
  }
  const area = $("games-area");
  if (area) listen(area.dataset.live || "0", async change => {
    const response = await fetch("/games", {credentials: "same-origin"});
    if (response.ok) area.innerHTML = await response.text();  /* the server's own markup: no script in it */
    if (change.text && change.live) say(change.text, false);
  });

  /* ---- a new game: the form's fields as they are; the server checks them all. The others are seated in
     the order they were ticked, as the numbers beside them show */
  let seated = [];
  function numberSeats() {
    document.querySelectorAll(".new-player").forEach(box => {
      const label = box.closest("label"), at = seated.indexOf(box.value);
      let mark = label.querySelector(".seat");
      if (!mark) {
        mark = document.createElement("span");
        mark.className = "seat";
        label.appendChild(mark);
      }
      mark.textContent = at < 0 ? "" : ` (seat ${at + 2})`;
    });
  }
  document.querySelectorAll(".new-player").forEach(box => box.addEventListener("change", () => {
    seated = seated.filter(name => name !== box.value);
    if (box.checked) seated.push(box.value);
    numberSeats();
  }));
  const start = $("new-start");
  if (start) start.addEventListener("click", () => {
    const me = $("new-me").value, key = name => $("key-" + name).value.trim();
    const ticked = new Set([...document.querySelectorAll(".new-player:checked")].map(box => box.value));
    const order = [...seated.filter(name => ticked.has(name)), ...[...ticked].filter(name => !seated.includes(name))];
    const others = order.map(name => [name, key(name)]);
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
  function prompt() {
    /* where the places to click are: on the board, or in the players' panel (a trap's tiles are your own) */
    const targeted = data.choices.filter(c => c.target && document.querySelector(c.target));
    const onBoard = targeted.some(c => c.target.startsWith("#board")), beside = targeted.filter(c => !c.target.startsWith("#board"));
    const places = [...new Set(beside.map(c => c.place))];
    const trap = beside.length && beside.every(c => c.place.startsWith("your "));
    const besideWords = trap
      ? `one of your ${places.length === 1 ? "" : places.length + " "}highlighted tiles under your name in the players' panel (${places.join(", ")})`
      : `a highlighted ${places.length <= 3 ? places.join(" or ") : "player"} in the players' panel`;
    const where = [onBoard ? "a highlighted place on the board" : "", beside.length ? besideWords : ""].filter(Boolean);
    return `Click ${where.join(", or ")} (or Tab to it and press Enter).`;
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
      hint.id = "prompt";
      hint.textContent = prompt();
      groups.push(hint);
    }
    const rest = loose();
    if (rest.length) groups.push(offer(list || groups.length ? "Or:" : "Choose:", rest));
    if (data.choices.some(c => c.notation === "stop") && data.choices.length > 1) {
      const more = document.createElement("p");
      more.className = "group-title";
      more.id = "more-cards";
      more.textContent = "You may play several cards this turn, one at a time: each is signed as you play it, " +
        "and your whole turn goes out in one mail when you choose Stop.";
      groups.push(more);
    }
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
  function markLastMove() {
    /* the places of the last turn's moves, marked (not their choices: those are the highlighted ones) */
    /* a place since emptied (a tile taken away) is found by its position alone: [data-pos="6f"] */
    const find = s => document.querySelector(s) || document.querySelector(s.replace(/ [a-z]*\.[\w-]+(?=\[)/, " "));
    const marked = (data.lastMove.targets || []).map(find).filter(Boolean);
    marked.forEach(element => {
      element.classList.add("last-move");
      const title = document.createElementNS("http://www.w3.org/2000/svg", "title");
      if (element instanceof SVGElement) {
        title.textContent = `${data.lastMove.who}'s last move`;
        element.appendChild(title);
      } else {
        element.title = `${data.lastMove.who}'s last move`;
      }
    });
    const caption = $("last-move");
    if (caption) caption.textContent = marked.length ? `The dashed outline: ${data.lastMove.who}'s last move.` : "";
  }
  function explain() {
    /* words the drawing leaves out, from the legend: what the Sands of Time count */
    const terms = new Map(data.legend);
    document.querySelectorAll("#side .sands").forEach(element => {
      const meaning = terms.get("Sands of Time");
      if (!meaning || element.querySelector(".explained")) return;
      const note = document.createElement("small");
      note.className = "explained";
      note.textContent = ` (they ${meaning})`;
      element.appendChild(note);
    });
  }
  function handInView() {
    /* while choosing, your hand sits beside the choices, not below the fold */
    const hand = document.querySelector("#side .mine");
    if (hand && data.choices.length) $("hand-here").replaceChildren(hand);
  }
  function showNow() {
    current = data.seq;
    drawBoard(areas, data.board, data.meta);
    $("hand-here").replaceChildren();
    explain();
    markLastMove();
    handInView();
    markTargets();
    $("turn").hidden = false;
    $("entry").hidden = true;
  }
  function showFrame(n) {
    current = n;
    const f = frames[n];
    drawBoard(areas, f.board, data.meta);
    $("hand-here").replaceChildren();
    explain();
    const caption = $("last-move");
    if (caption) caption.textContent = "";
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
  live.handle = change => {
    const head = (change.games || {})[data.gameId];
    if (head === undefined || head === data.head) {
      if (change.text && change.live) say(change.text, false);
      return;
    }
    if (chosen === null && current === data.seq) {
      /* the position now, with what changed since the player looked said in words, the last move marked */
      keepMessage();
      location.replace(`${base}?since=${data.newsFrom}`);
      return;
    }
    if ($("show-new")) return;  /* said already */
    const box = $("message"), again = button("Show it", null, () => location.reload());
    if (box.className !== "bad") say("The game has moved on since this page was drawn. ", false);  /* an error stays */
    again.id = "show-new";
    box.appendChild(again);
  };
  listen(String(data.live || 0), change => (live.acting ? live.waiting.push(change) : live.handle(change)));
})();
