"""The app's pages, as HTML text: my games, a game, and a refusal. No inline script or style (the
policy forbids them): the page's data travels in a JSON block that no browser executes, and
/static/app.js reads it."""

from __future__ import annotations

import html
import json
import secrets
from typing import Any

e = html.escape
RUN = secrets.token_hex(4)
"""In the address of the script and style files: a browser keeps them for this run of the app only."""


def _json_block(element_id: str, data: dict[str, Any]) -> str:
    """JSON that cannot end its <script> element early."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False).replace("</", "<\\/")
    return f'<script type="application/json" id="{element_id}">{text}</script>'


def _shell(title: str, csrf: str, body: str, game: str | None = None) -> str:
    game_links = (f'<link rel="stylesheet" href="/static/game/{e(game)}.css?v={RUN}">\n'
                  f'<script src="/static/game/{e(game)}.js?v={RUN}" defer></script>\n') if game else ""
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="pbem-csrf" content="{e(csrf)}">
<title>{e(title)}</title>
<link rel="icon" href="/static/icon.svg?v={RUN}" type="image/svg+xml">
<link rel="stylesheet" href="/static/app.css?v={RUN}">
{game_links}<script src="/static/app.js?v={RUN}" defer></script>
</head>
<body>
{body}
</body>
</html>
"""


def message(flash: str | None) -> str:
    return f'<div id="message" role="status" aria-live="polite">{e(flash or "")}</div>'


def unlock_forms(locked: list[str]) -> str:
    """A passphrase field per key still locked: sent once over the protected channel, kept in memory."""
    if not locked:
        return ""
    def label(name: str) -> str:
        return f"The SMTP password for {name[5:]}" if name.startswith("smtp:") else f"Passphrase of your key {name}"

    forms = "".join(
        f'<div class="unlock" data-key="{e(name)}"><label for="pass-{e(name)}">{e(label(name))}</label> '
        f'<input type="password" id="pass-{e(name)}" autocomplete="current-password"> '
        f'<button type="button" class="unlock-button" data-key="{e(name)}">Unlock</button></div>'
        for name in locked)
    return f'<section id="locked"><h2>To unlock</h2><p>Asked once; kept in this app\'s memory only, ' \
           f'never written.</p>{forms}</section>'


def new_game_form(invite: dict[str, Any]) -> str:
    """Start a game: the game (with the number of players it takes), who I play as, the players from the address
    book in seat order (each one's key: known from an earlier game, or pasted), a referee or none, options and a
    deadline. The server answers a count the game does not take in its words, before anything is written."""
    if not invite["me"]:
        return ""
    games = "".join(f'<option value="{e(name)}">{e(title)}, {e(span)} players</option>'
                    for name, (title, span) in invite["games"].items())
    mine = "".join(f'<option value="{e(name)}">{e(name)}</option>' for name in invite["me"])
    people = "".join(
        f'<div class="invitee"><label><input type="checkbox" class="new-player" value="{e(name)}"> {e(name)} '
        f'&lt;{e(address)}&gt;</label> <input type="text" class="new-key" id="key-{e(name)}" value="{e(key)}" '
        f'placeholder="their public key: ssh-ed25519 AAAA..." aria-label="{e(name)}\'s public key" size="40"></div>'
        for name, address, key in invite["people"]) or \
        "<p>Your address book is empty: add the others with 'pbem contact add NAME ADDRESS'.</p>"
    referees = "".join(f'<option value="{e(name)}">{e(name)}</option>' for name, _, _ in invite["people"])
    return f"""<details id="new-game"><summary>Start a new game</summary>
<p><label>Game <select id="new-game-name">{games}</select></label>
<label>You play as <select id="new-me">{mine}</select></label></p>
<fieldset><legend>The other players, in seat order after you (their keys: from earlier games, or paste them)</legend>
{people}</fieldset>
<p><label>Referee <select id="new-referee"><option value="">none: table mode</option>{referees}</select></label>
<label>Options <input type="text" id="new-options" placeholder="KEY=VALUE, the game's own"></label>
<label>Deadline <input type="text" id="new-deadline" placeholder="e.g. 72h or 3d" size="8"></label></p>
<p><button type="button" id="new-start">Sign the invitation and send it</button></p>
</details>"""


def games_area(games: list[dict[str, Any]], problems: list[str], folder: str) -> str:
    """The list of games (and the problems met reading them): the part of the page a live update replaces."""
    rows = []
    for g in games:
        cls = "game" + (" owe" if g["i_owe"] else "") + (" finished" if g["finished"] else "") + \
            (" news" if g["news"] else "")
        badge = '<span class="badge">your turn</span> ' if g["i_owe"] else ""
        unsent = f'<span class="unsent">{g["unsent"]} entr{"y" if g["unsent"] == 1 else "ies"} not sent</span>' \
            if g["unsent"] else ""
        news = f'<div class="news">{e(g["news"])}</div>' if g["news"] else ""
        rows.append(
            f'<tr class="{cls}" data-game="{e(g["game_id"])}">'
            f'<td><a href="/game/{e(g["game_id"])}">{badge}{e(g["title"])} {e(g["game_id"][:8])}</a></td>'
            f'<td>{e(", ".join(g["players"]))}</td><td>{g["entries"]}</td>'
            f'<td class="duty">{e(g["state"])}{news}</td><td>{e(g["deadline"])}</td><td>{unsent}</td></tr>')
    table = ('<table id="games"><thead><tr><th>Game</th><th>Players</th><th>Entries</th><th>Whose duty</th>'
             '<th>Deadline</th><th>Mail</th></tr></thead><tbody>' + "".join(rows) + "</tbody></table>") if rows else \
        f'<p id="no-games">No games yet in {e(folder)}. A game comes in by mail: it shows here when it arrives.</p>'
    problem_list = ('<ul id="problems">' + "".join(f"<li>{e(p)}</li>" for p in problems) + "</ul>") if problems else ""
    return table + problem_list


def home(csrf: str, games: list[dict[str, Any]], problems: list[str], locked: list[str], flash: str | None,
         folder: str, invite: dict[str, Any]) -> str:
    """My games: every game here, mine to act first, as `pbem status` lists them; kept up to date live."""
    body = f"""<header><h1>Your games</h1>
<p class="about">Every game in {e(folder)}; your moves are signed with your key on this machine. New mail
shows here as it arrives.</p>
<p><button type="button" id="fetch-mail">Fetch mail</button></p></header>
{message(flash)}
{unlock_forms(locked)}
<div id="games-area" data-live="{invite.get("live", 0)}">{games_area(games, problems, folder)}</div>
{new_game_form(invite)}"""
    return _shell("pbem: your games", csrf, body)


def game(csrf: str, info: dict[str, Any], data: dict[str, Any], log: list[tuple[int, str, str, list[str]]],
         defs: str, flash: str | None, locked: list[str]) -> str:
    """One game: the board as this player sees it, their turn, the legend and the log."""
    terms = "".join(f'<dt data-term="{e(term)}">{e(term)}</dt><dd>{e(meaning)}</dd>' for term, meaning in data["legend"])
    entries = "".join(
        f'<li value="{seq}"><span class="author">{e(author)}</span>: <span class="action">{e(action)}</span>'
        + ("<ul>" + "".join(f'<li{_note_class(ev, author)}>{e(ev)}</li>' for ev in events) + "</ul>" if events else "")
        + "</li>" for seq, author, action, events in log)
    news = ('<section id="news" aria-label="what changed"><h2>Since you last looked</h2><ul>'
            + "".join(f"<li>{e(n)}</li>" for n in info["news"]) + "</ul></section>") if info["news"] else ""
    scores = ('<section id="scores" aria-label="the scores"><h2>The scores</h2><ol>'
              + "".join(f"<li>{e(line)}</li>" for line in info["scores"]) + "</ol></section>") if info["scores"] else ""
    notes = "".join(f'<li>{e(note)}</li>' for note in info["notes"])
    body = f"""<header>
<p><a href="/">&larr; Your games</a> <button type="button" id="fetch-mail">Fetch mail</button></p>
<h1>{e(info["title"])}</h1>
<p class="about">{e(info["about"])}</p>
</header>
{message(flash)}
{unlock_forms(locked)}
{news}
<nav id="controls" aria-label="the game's history">
<button type="button" id="first" title="First (Home)">&laquo; First</button>
<button type="button" id="back" title="Back (Left)">&lsaquo; Back</button>
<input id="slider" type="range" min="0" max="{data["seq"]}" value="{data["seq"]}" aria-label="entry">
<button type="button" id="forward" title="Forward (Right)">Forward &rsaquo;</button>
<button type="button" id="last" title="Now (End)">Now &raquo;</button>
<span id="where"></span>
</nav>
<main>
<section id="board" aria-label="the board"></section>
<div id="column">
<section id="turn" aria-labelledby="turn-title">
<h2 id="turn-title">{e(info["turn_title"])}</h2>
<p id="next">{e(data["next"])}</p>
<p id="last-move"></p>
{scores}
{'<ul id="notes">' + notes + '</ul>' if notes else ''}
<p id="held"{"" if data["held"] else " hidden"}>Your turn so far is signed and kept here: it goes out in one mail
when your turn is done.</p>
<div id="options" role="group" aria-label="your choices"></div>
<div id="hand-here"></div>
<p id="says" aria-live="polite"></p>
<p class="actions"{" hidden" if data["over"] and not data["unsent"] else ""}>
<button type="button" id="sign" disabled{" hidden" if data["over"] else ""}>Sign and send</button>
<button type="button" id="automatic"{"" if data["automatic"] else " hidden"}>Do it: sign and send</button>
<button type="button" id="send-again"{"" if data["unsent"] and not data["held"] else " hidden"}>Send what was not sent</button>
</p>
</section>
<aside id="entry" aria-live="polite" hidden>
<h2 id="entry-title"></h2>
<p id="signer"></p>
<ul id="events"></ul>
</aside>
<section id="side" aria-label="the players"></section>
<details id="legend" open><summary>Legend</summary><dl>{terms}</dl></details>
<section id="log"><h2>Log</h2><ol>{entries}</ol></section>
</div>
</main>
<svg class="defs" aria-hidden="true">{defs}</svg>
{_json_block("app-data", data)}"""
    return _shell(info["title"] + " (pbem)", csrf, body, data["game"])


def _note_class(event: str, author: str) -> str:
    return ' class="note"' if event.startswith(f'{author} says: "') else ""


def refusal(csrf: str, text: str) -> str:
    return _shell("pbem: not found", csrf, f'<header><p><a href="/">&larr; Your games</a></p></header>'
                                          f'<div id="message" role="alert" class="bad">{e(text)}</div>')
