"""What the app holds while it runs (games, keys and the SMTP password in memory only) and what each
request does to it: the data of a page, a move, sending, reading mail, a new game, unlocking a key."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pbem.app import library
from pbem.app.guard import Secrets
from pbem.app.library import DEALER, Identity, Library, PbemError, RuleError

R = TypeVar("R")
SMTP_KEY = "smtp:"
"""Before a login's name in the list of what is locked: the SMTP password, asked like a key's passphrase."""


@dataclass
class State:
    """What one run of the app holds in memory: the unlocked keys, the games, a notice per page."""

    keys: Secrets = field(default_factory=Secrets)
    identities: dict[str, Identity] = field(default_factory=dict)
    locked: list[str] = field(default_factory=list)
    games: Library = field(default_factory=Library)
    flash: dict[str, str] = field(default_factory=dict)
    history: dict[tuple[str, str, str], list[dict[str, Any]]] = field(default_factory=dict)

    def unlock_all(self, ask: Callable[[str], bytes | None] | None = None) -> None:
        """Open every key of the key directory now: a key without a passphrase at once, one with a
        passphrase through `ask` (the terminal); those still locked wait for the page's form."""
        for name in library.my_key_names():
            try:
                self.identities[name] = library.unlock_key(name)
                continue
            except library.NoPassphrase:
                pass
            except PbemError as exc:
                print(f"Warning: key {name}: {exc}", file=sys.stderr)
                continue
            for _ in range(3):
                given = ask(name) if ask else None
                if not given:
                    break
                try:
                    self.identities[name] = library.unlock_key(name, given)
                    break
                except PbemError as exc:
                    print(f"Error: {exc}", file=sys.stderr)
            if name not in self.identities:
                self.locked.append(name)
        user = library.smtp_login_without_password()
        if user:
            given = ask(f"{SMTP_KEY}{user}") if ask else None
            if given:
                self.games.smtp_password = given.decode()
            else:
                self.locked.append(f"{SMTP_KEY}{user}")

    def seats(self, rep: library.Replay) -> list[tuple[str, Identity]]:
        """My names in a game: the participants whose key is one of mine, unlocked."""
        return [(name, identity) for name, key in rep.roster.items() for identity in self.identities.values()
                if key.same_key(identity.public)]

    def seat(self, rep: library.Replay) -> tuple[str, Identity] | None:
        """The name I act as in a game: one who owes something now, else my first."""
        mine = self.seats(rep)
        owing = {d.who for d in rep.duties()}
        return next((s for s in mine if s[0] in owing), mine[0] if mine else None)


def _owes(rep: library.Replay, name: str) -> bool:
    return any(d.who == name and d.what in ("move", "discard") for d in rep.duties())


def _automatic(rep: library.Replay, session: library.Session) -> bool:
    """Whether this participant owes a duty that needs no decision (a join, an opening, a deal, a reveal)."""
    for duty in rep.duties():
        if duty.who == session.name and duty.what not in ("move", "discard"):
            return True
        if duty.who == DEALER and session.can_deal():
            return True
    return False


def game_data(state: State, game_id: str) -> tuple[dict[str, Any], dict[str, Any], list[Any], str]:
    """What the game page shows: its header, its data for the script, the log, the game's SVG symbols."""
    lib = state.games
    path, rep = lib.game(game_id)
    drawing = library.presentation(rep.genesis.game)
    seat = state.seat(rep)
    session = lib.session(game_id, *seat) if seat else None
    me = session.name if session else None
    shown = library.seen_now(rep, session)
    owes = bool(me and session and rep.state is not None and _owes(rep, me))
    offered = library.page_choices(session) if owes and session else []
    data = {
        "game": rep.genesis.game, "gameId": rep.genesis.game_id, "head": rep.head, "seq": rep.seq, "me": me,
        "meta": drawing.html_meta(shown), "board": drawing.html_board(shown), "next": library.next_line(rep),
        "choices": offered, "legend": library.legend(rep.genesis.game), "automatic": bool(session and _automatic(rep, session)),
        "unsent": library.unsent(rep.genesis.game_id, rep.seq) if me and not library.git_root(path) else 0,
        "over": rep.over,
    }
    mode = f"referee mode (referee {rep.referee})" if rep.referee else "table mode"
    status = f"finished: {library.result_text(rep)}" if rep.over else "in progress"
    you = f"You play as {me}." if me else "None of your unlocked keys plays in this game: public information only."
    info = {"title": f"{rep.game.title}: {', '.join(rep.players)}",
            "about": f"{mode}; {rep.seq} signed entries; {status}. {you}",
            "turn_title": ("Your move" if owes else "Game over" if rep.over else
                           "Your duty (no decision needed)" if data["automatic"] else "Waiting for the others")}
    by_seq: dict[int, list[str]] = {}
    for seq, event in rep.events:
        by_seq.setdefault(seq, []).append(str(event))
    log = [(0, rep.genesis.author, "new game: the invitation", by_seq.get(0, []))] + \
        [(i, entry.author, entry.action, by_seq.get(i, [])) for i, entry in enumerate(rep.entries, 1)]
    return info, data, log, library.replay_asset(rep.genesis.game, ".svg")


def home_data(state: State) -> tuple[list[dict[str, Any]], list[str], str, dict[str, Any]]:
    status = library.my_games()
    games = []
    for g in status.games:
        state_text = f"finished: {g.result}" if g.finished else "; ".join(library.duty_text(d, status.now) for d in g.duties)
        games.append({"game_id": g.game_id, "title": library.game_title(g.game), "players": g.players,
                      "entries": g.entries, "finished": g.finished, "i_owe": g.i_owe, "state": state_text,
                      "deadline": f"{g.deadline_hours} h" if g.deadline_hours else "",
                      "unsent": library.unsent(g.game_id, g.entries) if g.me and not library.git_root(Path(g.path))
                      else 0})
    book, keys = library.address_book(), library.known_keys(status)
    mine = sorted(state.identities)
    invite = {"games": {name: library.game_title(name) for name in library.game_names()}, "me": mine,
              "people": [(name, address, keys.get(name, "")) for name, address in sorted(book.items())
                         if name not in mine]}
    return games, status.problems, str(library.games_folder()), invite


def _after_writing(state: State, game_id: str, name: str, played: library.Played) -> str:
    """Send what was just written; the words the page shows after it: what happened, then what was done."""
    rep = played.game
    happened = "; ".join(str(e) for e in played.events)
    done = ""
    if played.written:
        first = rep.seq - played.written + 1
        span = f"entry {rep.seq}" if played.written == 1 else f"entries {first}-{rep.seq}"
        try:
            done = f"Signed and wrote {span}. {state.games.send(game_id, name)}."
        except PbemError as exc:
            done = f"Signed and wrote {span}, but it was NOT sent: {exc}. Use 'Send what was not sent'."
    return " ".join(part for part in (happened + "." if happened else "", done) if part) or "Nothing to do."


def do_move(state: State, game_id: str, body: dict[str, Any], decide: bool) -> str:
    lib = state.games
    head, action = body.get("head"), body.get("action")
    if not isinstance(head, str) or (decide and not isinstance(action, str)):
        raise library.UsageError("a move needs the position it was chosen on (head) and the move")
    _, rep = lib.game(game_id)
    seat = state.seat(rep)
    if seat is None:
        raise library.UsageError("none of your unlocked keys plays in this game")
    name, identity = seat
    if decide and not _owes(rep, name):
        raise library.UsageError(f"{name} owes no move now" if rep.head == head else
                                 "the game has moved on: look again and choose anew. Nothing was written.")
    lib.can_send(game_id)  # no way to send it: an error before anything is signed
    played = lib.play(game_id, name, identity, head, action if decide else None)
    text = _after_writing(state, game_id, name, played)
    state.flash[f"/game/{game_id}"] = text
    return text


def do_send(state: State, game_id: str) -> str:
    _, rep = state.games.game(game_id)
    seat = state.seat(rep)
    if seat is None:
        raise library.UsageError("none of your unlocked keys plays in this game")
    text = state.games.send(game_id, seat[0]) + "."
    state.flash[f"/game/{game_id}"] = text
    return text


def do_inbox(state: State, page: object = "/") -> str:
    """Read the mailbox, then do in every game what needs no decision (a join, a deal, an opening) and send it."""
    report = state.games.inbox()
    lines = [f"Read {report.mails} mail{'s' * (report.mails != 1)}: "
             f"{len(report.updated)} game{'s' * (len(report.updated) != 1)} updated."]
    lines += [f"Problem: {p}" for p in report.problems] + [f"FORK: {f}" for f in report.forks]
    for g in library.my_games().games:
        if g.finished or not g.me:
            continue
        try:
            _, rep = state.games.game(g.game_id)
            seat = state.seat(rep)
            if seat is None or not _automatic(rep, state.games.session(g.game_id, *seat)):
                continue
            state.games.can_send(g.game_id)
            played = state.games.play(g.game_id, seat[0], seat[1], rep.head, None)
            if played.written:
                lines.append(f"{library.game_title(g.game)} {g.game_id[:8]}: "
                             + _after_writing(state, g.game_id, seat[0], played))
        except (PbemError, RuleError) as exc:
            lines.append(f"{g.game} {g.game_id[:8]}: {exc}")
    text = " ".join(lines)
    state.flash[page if isinstance(page, str) and re.fullmatch(r"/(game/[0-9a-f]{32})?", page) else "/"] = text
    return text


def do_new(state: State, body: dict[str, Any]) -> str:
    """Start a game from the form: the invitation signed with my key, kept as my copy, mailed to everyone."""
    game, me, players, referee = body.get("game"), body.get("me"), body.get("players"), body.get("referee")
    options, deadline = body.get("options") or "", body.get("deadline") or ""

    def pair(item: object) -> tuple[str, str]:
        if not (isinstance(item, list) and len(item) == 2 and all(isinstance(x, str) for x in item)):
            raise library.UsageError("each participant is a name and a public key line")
        return item[0], item[1]

    if not isinstance(game, str) or game not in library.game_names():
        raise library.UsageError(f"choose a game: {', '.join(library.game_names())}")
    if not isinstance(me, str) or me not in state.identities:
        raise library.UsageError("choose which of your unlocked keys you play with")
    if not isinstance(players, list) or not isinstance(options, str) or not isinstance(deadline, str):
        raise library.UsageError("the form is incomplete")
    library.smtp_server()  # no server: an error before anything is signed
    rep = state.games.start(game, me, state.identities[me], [pair(p) for p in players],
                            pair(referee) if referee else None, options.split(), deadline.strip() or None)
    game_id = rep.genesis.game_id
    try:
        sent = state.games.send(game_id, me)
    except PbemError as exc:
        sent = f"but the invitation was NOT sent: {exc}. Use 'Send what was not sent' on its page"
    text = f"Started {rep.game.title} {game_id[:8]} ({', '.join(rep.players)}); {sent}."
    state.flash["/"] = text
    return text


def do_unlock(state: State, body: dict[str, Any]) -> str:
    name, passphrase = body.get("name"), body.get("passphrase")
    if name not in state.locked or not isinstance(passphrase, str) or not passphrase:
        raise library.UsageError("give the passphrase of a locked key")
    if name.startswith(SMTP_KEY):
        state.games.smtp_password = passphrase  # checked by the server at the next send
        state.locked.remove(name)
        return f"The SMTP password for {name[len(SMTP_KEY):]} is kept in memory until the app stops."
    state.identities[name] = library.unlock_key(name, passphrase.encode())
    state.locked.remove(name)
    state.games.clear_sessions()
    return f"Key {name} unlocked (kept in memory until the app stops)."


def locked(work: Callable[[State, str], R], state: State, game_id: str) -> R:
    """A page's work on the games in memory, never during a move or a mail's update."""
    with state.games.lock:
        return work(state, game_id)


def history_frames(state: State, game_id: str) -> list[dict[str, Any]]:
    """Every position of the game as this player saw it then (the replay's frames), made once per head."""
    _, rep = state.games.game(game_id)
    seat = state.seat(rep)
    key = (game_id, rep.head, seat[0] if seat else "")
    if key not in state.history:
        state.history[key] = library.history(rep, state.games.session(game_id, *seat) if seat else None)
    return state.history[key]

