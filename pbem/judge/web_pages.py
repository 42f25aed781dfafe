"""The web client's pages, as HTML text: the invitation (take a seat), a seat's game, and refusals. No
inline script or style: each page's data travels in a JSON block no browser executes, its scripts are
files with their integrity hashes (web_assets.py), and every name shown is escaped here or set as text
by the scripts."""

from __future__ import annotations

import html
import json
from typing import Any

from pbem.judge.web_assets import Assets

e = html.escape


def _json_block(element_id: str, data: dict[str, Any]) -> str:
    """JSON that cannot end its <script> element early."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False).replace("</", "<\\/")
    return f'<script type="application/json" id="{element_id}">{text}</script>'


def _shell(assets: Assets, title: str, csrf: str, body: str, module: str | None = None, game: str | None = None) -> str:
    def script(url: str, kind: str) -> str:
        return f'<script {kind} src="{url}" integrity="{assets.integrity(url)}"></script>\n'

    def style(url: str) -> str:
        return f'<link rel="stylesheet" href="{url}" integrity="{assets.integrity(url)}">\n'

    head = style(assets.prefix + "web.css")
    if game:
        head += style(f"{assets.game_prefix}{game}.css") + script(f"{assets.game_prefix}{game}.js", "defer")
    if module:
        head += f'<script type="importmap">{assets.import_map}</script>\n' + script(assets.prefix + module, 'type="module"')
        head += "".join(f'<link rel="modulepreload" href="{url}" integrity="{integrity}">\n'
                        for url, integrity in assets.modules.items() if url != assets.prefix + module)
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="pbem-csrf" content="{e(csrf)}">
<title>{e(title)}</title>
{head}</head>
<body>
{body}
</body>
</html>
"""


def message(assets: Assets, csrf: str, title: str, text: str) -> str:
    return _shell(assets, title, csrf, f'<main><h1>{e(title)}</h1><p id="message" role="alert">{e(text)}</p></main>')


def join(assets: Assets, csrf: str, table_id: str, seat: str, title: str, names: list[str], taken: list[str]) -> str:
    others = ", ".join(e(n) for n in names if n != seat)
    waiting = [n for n in names if n not in taken and n != seat]
    body = f"""<main id="join-page">
<h1>A game of {e(title)}</h1>
<p>You are invited to take the seat <b id="seat">{e(seat)}</b>, with {others}. The judge of this site referees the
game: it deals, keeps every hidden card and coin secret, and checks every move.</p>
<p>Taking the seat makes your key here, in this browser: it signs every move you make, and it never leaves
this browser unless you export it. Nobody else, the judge included, can sign for you.</p>
<p><label for="passphrase">A passphrase for your key (it protects the copy this browser keeps for you to export,
and you give it to import the key elsewhere)</label>
<input id="passphrase" type="password" autocomplete="new-password"></p>
<p><label for="address">Your mail address, to be told when it is your turn (optional)</label>
<input id="address" type="email" autocomplete="email" maxlength="200"></p>
<p><button type="button" id="take">Make my key and take the seat</button></p>
<p id="message" role="status" aria-live="polite"></p>
<p id="still">{('Seats still free: ' + ', '.join(e(n) for n in waiting) + '.') if waiting else ''}</p>
</main>
{_json_block("join-data", {"table": table_id, "seat": seat})}"""
    return _shell(assets, f"Join: {title}", csrf, body, module="join.js")


def play(assets: Assets, csrf: str, table_id: str, seat: str, title: str, game: str) -> str:
    body = f"""<header><h1 id="title">{e(title)}: {e(seat)}</h1><p id="about"></p></header>
<main>
<section id="board" aria-label="the board"></section>
<div id="column">
<section id="turn" aria-labelledby="turn-title">
<h2 id="turn-title">Loading</h2>
<p id="next"></p>
<p id="secrets"></p>
<div id="options" role="group" aria-label="what you may sign"></div>
<div id="confirm" hidden>
<p>You are about to sign, with your key, an entry of the game record that says:</p>
<p id="says" class="says"></p>
<p id="record"></p>
<p><label for="note">A note to the table (optional, signed with it)</label>
<input id="note" maxlength="500"></p>
<p><button type="button" id="sign">Sign and send</button> <button type="button" id="cancel">Choose again</button></p>
</div>
<p id="message" role="status" aria-live="polite"></p>
</section>
<section id="side" aria-label="the players"></section>
<section id="notes"><h2>Notes</h2><ul id="note-list"></ul></section>
<section id="log"><h2>Log</h2><ol id="log-list"></ol>
<p><a id="record-link" href="/api/play/{e(table_id)}/{e(seat)}/record" download>Download the game file</a>: the
whole signed record, which <code>pbem verify</code> checks on any computer.</p></section>
<section id="key" aria-labelledby="key-title">
<h2 id="key-title">Your key</h2>
<p id="key-state"></p>
<details id="export-box"><summary>Export it to a file (for pbem on a computer, or another browser)</summary>
<p>The file is protected by the passphrase you chose when you took your seat.</p>
<p><button type="button" id="export">Export</button> <a id="download" hidden>Download the key file</a></p>
<textarea id="exported" readonly rows="8" cols="72" hidden></textarea>
</details>
<details id="import-box"><summary>Import your key file</summary>
<p><label for="import-text">The key file (-----BEGIN OPENSSH PRIVATE KEY-----)</label></p>
<textarea id="import-text" rows="8" cols="72"></textarea>
<p><label for="import-pass">Its passphrase</label>
<input id="import-pass" type="password" autocomplete="current-password"></p>
<p><button type="button" id="import">Import</button></p>
</details>
</section>
</div>
</main>
<svg class="defs" aria-hidden="true">{assets.symbols.get(game, "")}</svg>
{_json_block("play-data", {"table": table_id, "seat": seat, "game": game})}"""
    return _shell(assets, f"{title}: {seat} (pbem)", csrf, body, module="play.js", game=game)


def new_table(assets: Assets, csrf: str, games: list[dict[str, str]]) -> str:
    """A creator link's page: the form that makes a table (create.js posts it), and its seats' links."""
    choices = "".join(f'<option value="{e(g["name"])}">{e(g["title"])} ({e(g["players"])} players)</option>'
                      for g in games)
    body = f"""<main id="new-page">
<h1>New table</h1>
<p>The judge of this site makes the game and referees it once every seat is taken: each seat gets a link of
its own, good for that seat, once. Send each player theirs.</p>
<p><label for="game">Game</label> <select id="game">{choices}</select></p>
<p><label for="seats">The seats' names, in turn order (letters, digits, - and _; one space between)</label>
<input id="seats" maxlength="300"></p>
<p><label for="options">Game options, KEY=VALUE (optional; one space between)</label>
<input id="options" maxlength="300"></p>
<p><button type="button" id="make">Make the table</button></p>
<p id="message" role="status" aria-live="polite"></p>
<ul id="links"></ul>
</main>"""
    return _shell(assets, "New table (pbem)", csrf, body, module="create.js")
