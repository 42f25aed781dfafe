"""`pbem html`: a game as one self-contained web page that replays it entry by entry.

The generic shell lives here: the page, its Content-Security-Policy, the navigation (buttons, slider,
keys, `#entry=N`), each entry's heading in words, signer, notation, events and who is next, and the
legend. The board, the legend's words and their samples come from the game's presentation
(pbem/presentation/games/). Every frame is the engine's `view()` for one observer, so
the page holds exactly what that observer may see: never the dealer's secret, never another
player's unopened coin."""

from __future__ import annotations

import base64
import functools
import hashlib
import html
import json
from pathlib import Path
from typing import Any

from engine.contract import DEALER
from pbem.crypto import Identity
from pbem.presentation.games import presentation
from pbem.presentation.terminal import next_line, result_text
from pbem.protocol.entries import apply_entry
from pbem.protocol.genesis import start
from pbem.protocol.replay import Replay
from pbem.protocol.session import Session
from pbem.record.models import GameFile

INVITATION = "new game: the invitation"
"""The genesis's place in the list of actions (it signs no action of the game)."""


def frames(record: GameFile, observer: str | None = None, knowledge: Any = None,
           reader: tuple[str, Identity] | None = None) -> list[dict[str, Any]]:
    """The game after its genesis and after every entry, as the observer sees it. The record must
    already be verified; this replays it once more to keep every intermediate state. With `reader`
    (a participant's name and key), each frame shows what they knew at that moment (a card in their
    hand before a Thief took it); else every frame shows `knowledge`."""
    rep = start(record.genesis)
    drawing = presentation(rep.genesis.game)
    session = Session(rep, *reader) if reader else None

    def frame(author: str, action: str, events: list[object], note: str | None = None) -> dict[str, Any]:
        known = knowledge if session is None else session.knowledge() if rep.state is not None else None
        shown = rep.game.view(drawn(rep), observer, known)
        said = [f'{author} says: "{note}"'] if note else []  # a signed note, first
        return {"author": author, "action": action, "title": title(author, action, events),
                "events": said + [str(e) for e in events], "next": next_line(rep), "board": drawing.html_board(shown)}

    def title(author: str, action: str, events: list[object]) -> str:
        if not events:
            return f"{author}'s invitation to a new game" if action == INVITATION else f"{author} signs {action}"
        return drawing.entry_title(events) or str(events[0])

    out = [frame(record.genesis.author, INVITATION, [])]
    for entry in record.entries:
        out.append(frame(entry.author, entry.action, apply_entry(rep, entry), entry.note))
    return out



def drawn(rep: Replay) -> object:
    """The state a frame draws: before the deal, the table as set up, with nothing dealt yet."""
    if rep.state is not None:
        return rep.state
    game, players = rep.game, rep.players
    return game.setup(game.parse_options(rep.genesis.options), players, rep.first or players[0])


def page(rep: Replay, observer: str | None = None, knowledge: Any = None, viewer: str | None = None,
         key: Identity | None = None) -> str:
    """The whole page. `observer` and `knowledge` as for `view()`; `viewer` names who it is for, and with
    their `key` each frame shows what they knew then."""
    drawing = presentation(rep.genesis.game)
    g = rep.genesis
    shown = rep.game.view(rep.state, observer, knowledge)
    mode = f"referee mode (referee {rep.referee})" if rep.referee else "table mode"
    status = f"finished: {result_text(rep)}" if rep.outcome() else "in progress"
    title = f"{rep.game.title}: {', '.join(rep.players)}"
    seen_by = ("public information only" if not viewer else
               f"as the referee {viewer} sees it: public information and every hidden value" if observer == DEALER
               else f"as {viewer} sees it: public information and {viewer}'s own secrets")
    data = {"game": g.game, "meta": drawing.html_meta(shown), "frames": frames(rep.record, observer, knowledge,
                                                                              (viewer, key) if viewer and key else None)}
    script = static(drawing.HTML_STATIC + ".js") + static("shell.js")
    style = static("shell.css") + static(drawing.HTML_STATIC + ".css")
    policy = (f"default-src 'none'; script-src {_hash(script)}; style-src {_hash(style)}; img-src 'none'; "
              "base-uri 'none'; form-action 'none'")
    e = html.escape
    legend = "".join(f'<dt data-term="{e(term)}">{e(term)}</dt><dd>{e(meaning)}</dd>'
                     for term, meaning in drawing.HTML_LEGEND)
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{policy}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{e(title)} (pbem replay)</title>
<style>{style}</style>
</head>
<body>
<header>
<h1>{e(title)}</h1>
<p class="about">{e(mode)}; {len(rep.entries)} signed entries; {e(status)}. Shown {e(seen_by)}.
Every signature and rule was checked when this page was made (game id {e(g.game_id)}).</p>
</header>
<nav id="controls">
<button id="first" title="First (Home)">&laquo; First</button>
<button id="back" title="Back (Left)">&lsaquo; Back</button>
<input id="slider" type="range" min="0" max="{len(rep.entries)}" value="{len(rep.entries)}" aria-label="entry">
<button id="forward" title="Forward (Right)">Forward &rsaquo;</button>
<button id="last" title="Last (End)">Last &raquo;</button>
<span id="where"></span>
</nav>
<main>
<section id="board"></section>
<div id="column">
<aside id="entry" aria-live="polite">
<h2 id="entry-title"></h2>
<p id="signer"></p>
<ul id="events"></ul>
<p id="notation"></p>
<p id="next"></p>
</aside>
<section id="side"></section>
<details id="legend" open><summary>Legend</summary><dl>{legend}</dl></details>
</div>
</main>
<svg class="defs" aria-hidden="true">{static(drawing.HTML_STATIC + ".svg")}</svg>
<script type="application/json" id="game-data">{_json_for_script(data)}</script>
<script>{script}</script>
</body>
</html>
"""


@functools.cache
def static(name: str) -> str:
    """A file of the page's CSS, SVG or JavaScript (pbem/presentation/static/, installed as package data)."""
    return (Path(__file__).parent / "static" / name).read_text(encoding="utf-8")


def _hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def _json_for_script(data: dict[str, Any]) -> str:
    """JSON that cannot end its <script> element early."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).replace("</", "<\\/")


def seen_now(game: Replay, session: Session | None) -> dict[str, Any]:
    """The game's view as the session's participant sees it now (a referee: every hidden value; None:
    public information only); before the deal, the table as set up, nothing dealt."""
    if session is None:
        return game.game.view(drawn(game), None)
    observer = DEALER if session.is_referee else session.name
    return game.game.view(drawn(game), observer, session.knowledge() if game.state is not None else None)


def history(game: Replay, session: Session | None) -> list[dict[str, Any]]:
    """Every position of the game as the replay page draws it, each as the session's participant knew it
    then (None: public information only)."""
    if session is None:
        return frames(game.record)
    observer = DEALER if session.is_referee else session.name
    return frames(game.record, observer, None, (session.name, session.identity))
