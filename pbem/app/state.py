"""What the app holds while it runs (games, keys and the SMTP password in memory only) and what each
request does to it: the data of a page, a move, sending, reading mail, a new game, unlocking a key."""

from __future__ import annotations

import re
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pbem.app import library
from pbem.app.guard import SessionSecrets
from pbem.app.library import DEALER, Identity, Library, PbemError, RuleError

R = TypeVar("R")
SMTP_KEY = "smtp:"
"""Before a login's name in the list of what is locked: the SMTP password, asked like a key's passphrase."""


@dataclass
class AppState:
    """What one run of the app holds in memory: the unlocked keys, the games, a notice per page."""

    keys: SessionSecrets = field(default_factory=SessionSecrets)
    identities: dict[str, Identity] = field(default_factory=dict)
    locked: list[str] = field(default_factory=list)
    games: Library = field(default_factory=Library)
    flash: dict[str, str] = field(default_factory=dict)
    history: dict[tuple[str, str, str], list[dict[str, Any]]] = field(default_factory=dict)
    live: Live = field(default_factory=lambda: Live())
    looked: dict[str, int] | None = None
    """The entry of each game its page last showed here (kept in PBEM_HOME): what changed since, in words."""

    def last_looked(self, game_id: str) -> int | None:
        if self.looked is None:
            self.looked = library.read_looked()
        return self.looked.get(game_id)

    def look(self, game_id: str, seq: int) -> None:
        if self.looked is None:
            self.looked = library.read_looked()
        if self.looked.get(game_id) != seq:
            self.looked[game_id] = seq
            try:
                library.write_looked(self.looked)
            except OSError:
                pass  # only the words "since you last looked" are lost

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


class Live:
    """What changed, for the pages open now (server-sent events, server.py): each change numbered, the last
    hundred kept; a page asks for those after the number it was drawn at."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.changes: list[tuple[int, dict[str, Any]]] = []
        self.count = 0

    def publish(self, change: dict[str, Any]) -> None:
        with self.lock:
            self.count += 1
            self.changes = [*self.changes[-99:], (self.count, change)]

    def since(self, number: int) -> list[tuple[int, dict[str, Any]]]:
        with self.lock:
            return [(n, c) for n, c in self.changes if n > number]


def _owes(rep: library.Replay, name: str) -> bool:
    return any(d.who == name and d.what in library.TURN_DUTIES for d in rep.duties())


def part_done(rep: library.Replay, name: str) -> bool:
    """Whether NAME's part is done, so that what they wrote goes out now: one mail a turn. Not while NAME
    still owes a decision and nobody else owes anything (the second coin of a Sarcophagus turn, another
    card before Stop): then the others wait for the whole turn. Done as soon as another party must act
    (a referee's reveal), or NAME owes nothing more."""
    duties = rep.duties()
    return not (duties and all(d.who == name for d in duties) and any(d.what in library.TURN_DUTIES for d in duties))


def changes(rep: library.Replay, after: int, limit: int = 8) -> list[str]:
    """What happened after entry `after`, in the replay's words (ben placed a coin on 6d...), notes too."""
    said: list[str] = []
    for seq, event in rep.events:
        if seq > after:
            said.append(str(event))
    notes = [f'{e.author} says: "{e.note}"' for e in rep.entries[after:] if e.note]
    said = notes + said
    return said if len(said) <= limit else said[:limit - 1] + [f"and {len(said) - limit + 1} more (the log has them all)"]


NOTES_WITHIN = 12
"""The notes of the last entries shown beside the turn (every note is in the log, with its entry)."""


def _automatic(rep: library.Replay, session: library.Session) -> bool:
    """Whether this participant owes a duty that needs no decision (a join, an opening, a deal, a reveal)."""
    for duty in rep.duties():
        if duty.who == session.name and duty.what not in library.TURN_DUTIES:
            return True
        if duty.who == DEALER and session.can_deal():
            return True
    return False


def game_data(state: AppState, game_id: str, since: int | None = None) -> tuple[dict[str, Any], dict[str, Any], list[Any], str]:
    """What the game page shows: its header, its data for the script, the log, the game's SVG symbols.
    What changed is said since the entry the player last saw here, or since `since` (a page redrawn
    live keeps saying what changed since it was first looked at)."""
    lib = state.games
    path, rep = lib.game(game_id)
    drawing = library.presentation(rep.genesis.game)
    seat = state.seat(rep)
    session = lib.session(game_id, *seat) if seat else None
    me = session.name if session else None
    shown = library.seen_now(rep, session)
    owes = bool(me and session and rep.state is not None and _owes(rep, me))
    offered = library.page_choices(session) if owes and session else []
    unsent = library.unsent(rep.genesis.game_id, rep.seq) if me and not library.git_root(path) else 0
    held = bool(me and unsent and not part_done(rep, me))
    last_author, last_targets = library.last_turn(rep)
    looked = state.last_looked(game_id) if since is None else min(since, rep.seq)
    news = changes(rep, looked) if looked is not None and looked < rep.seq else []
    if me:
        state.look(game_id, rep.seq)
    data = {
        "game": rep.genesis.game, "gameId": rep.genesis.game_id, "head": rep.head, "seq": rep.seq, "me": me,
        "meta": drawing.html_meta(shown), "board": drawing.html_board(shown), "next": library.next_line(rep),
        "choices": offered, "legend": library.legend(rep.genesis.game), "automatic": bool(session and _automatic(rep, session)),
        "unsent": unsent, "held": held, "over": rep.over,
        "lastMove": {"who": last_author, "targets": last_targets}, "live": state.live.count,
        "newsFrom": looked if news else rep.seq,
    }
    mode = f"referee mode (referee {rep.referee})" if rep.referee else "table mode"
    status = f"finished: {library.result_text(rep)}" if rep.over else "in progress"
    you = f"You play as {me}." if me else "None of your unlocked keys plays in this game: public information only."
    recent = max(rep.seq - NOTES_WITHIN, 0)
    notes = [f'{entry.author} says: "{entry.note}" (entry {seq})'
             for seq, entry in enumerate(rep.entries[recent:], recent + 1) if entry.note][::-1]
    info = {"title": f"{rep.game.title}: {', '.join(rep.players)}", "news": news, "notes": notes,
            "scores": library.score_lines(rep) if rep.over else [],
            "about": f"{mode}; {rep.seq} signed entries; {status}. {you}",
            "turn_title": ("Your move" if owes else "Game over" if rep.over else
                           "Your duty (no decision needed)" if data["automatic"] else "Waiting for the others")}
    by_seq: dict[int, list[str]] = {}
    for seq, event in rep.events:
        by_seq.setdefault(seq, []).append(str(event))
    log = [(0, rep.genesis.author, "new game: the invitation", by_seq.get(0, []))] + \
        [(i, entry.author, entry.action, ([f'{entry.author} says: "{entry.note}"'] if entry.note else [])
          + by_seq.get(i, [])) for i, entry in enumerate(rep.entries, 1)]
    return info, data, log, library.replay_asset(rep.genesis.game, ".svg")


def home_data(state: AppState) -> tuple[list[dict[str, Any]], list[str], str, dict[str, Any]]:
    status = library.my_games()
    games = []
    for g in status.games:
        state_text = f"finished: {g.result}" if g.finished else "; ".join(library.duty_text(d, status.now) for d in g.duties)
        looked = state.last_looked(g.game_id)
        news = ""
        if looked is not None and g.entries > looked:
            try:
                with state.games.lock:
                    said = changes(state.games.game(g.game_id)[1], looked, 3)
            except (PbemError, RuleError):
                said = []
            news = f"new since you looked: {'; '.join(said)}" if said else ""
        elif looked is None and g.me:
            news = "new: not opened here yet"
        games.append({"game_id": g.game_id, "title": library.game_title(g.game), "players": g.players,
                      "entries": g.entries, "finished": g.finished, "i_owe": g.i_owe, "state": state_text,
                      "deadline": f"{g.deadline_hours} h" if g.deadline_hours else "", "news": news,
                      "unsent": library.unsent(g.game_id, g.entries) if g.me and not library.git_root(Path(g.path))
                      else 0})
    book, keys = library.address_book(), library.known_keys(status)
    mine = sorted(state.identities)
    invite = {"games": {name: (library.game_title(name), library.players_span(name)) for name in library.game_names()},
              "me": mine,
              "live": state.live.count,
              "people": [(name, address, keys.get(name, "")) for name, address in sorted(book.items())
                         if name not in mine]}
    return games, status.problems, str(library.games_folder()), invite


def _after_writing(state: AppState, game_id: str, name: str, played: library.Played) -> str:
    """Send what was just written once NAME's part is done (one mail a turn: part_done); the words the
    page shows after it: what happened, then what was done."""
    rep = played.game
    happened = "; ".join(str(e) for e in played.events)
    done = ""
    if played.written:
        first = rep.seq - played.written + 1
        span = f"entry {rep.seq}" if played.written == 1 else f"entries {first}-{rep.seq}"
        if not part_done(rep, name):
            git = library.git_root(state.games.game(game_id)[0]) is not None
            done = f"Signed and wrote {span}; " + ("the commit to push comes when your turn is done." if git else
                                                   "it goes out with the rest of your turn, in one mail, when you are done.")
        else:
            try:
                done = f"Signed and wrote {span}. {state.games.send(game_id, name)}."
            except PbemError as exc:
                done = f"Signed and wrote {span}, but it was NOT sent: {exc}. Use 'Send what was not sent'."
    return " ".join(part for part in (happened + "." if happened else "", done) if part) or "Nothing to do."


def do_move(state: AppState, game_id: str, body: dict[str, Any], decide: bool) -> str:
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
    state.live.publish({"games": {game_id: played.game.head}, "text": "", "live": False})  # my other tabs
    return text


def do_send(state: AppState, game_id: str) -> str:
    _, rep = state.games.game(game_id)
    seat = state.seat(rep)
    if seat is None:
        raise library.UsageError("none of your unlocked keys plays in this game")
    text = state.games.send(game_id, seat[0]) + "."
    state.flash[f"/game/{game_id}"] = text
    return text


def do_inbox(state: AppState, page: object = "/") -> str:
    """Fetch mail: read the mailbox, do what needs no decision, say so on the page it was asked from."""
    text, _ = read_mail(state)
    state.flash[page if isinstance(page, str) and re.fullmatch(r"/(game/[0-9a-f]{32})?", page) else "/"] = text
    return text


def read_mail(state: AppState, live: bool = False) -> tuple[str, dict[str, str]]:
    """Read the mailbox, then do in every game what needs no decision (a join, a deal, an opening) and send
    it. The words for the page (the new mails counted, what the others did, what was done here) and
    each game that changed, with its last entry's hash; the change is published to the pages open."""
    report, new = state.games.inbox()
    lines = [f"{new} new mail{'s' * (new != 1)}: {len(report.updated)} game{'s' * (len(report.updated) != 1)} updated."
             if new or report.updated else "No new mail."]
    changed: dict[str, str] = {}
    for game_id, (_, first, _) in report.updated.items():
        try:
            _, rep = state.games.game(game_id)
        except (PbemError, RuleError):
            continue
        said = changes(rep, first - 1, 4)
        if said:
            lines.append(f"{rep.game.title} {game_id[:8]}: {'; '.join(said)}.")
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
                changed[g.game_id] = played.game.head
        except (PbemError, RuleError) as exc:
            lines.append(f"{g.game} {g.game_id[:8]}: {exc}")
    for game_id in report.updated:
        if game_id not in changed:
            try:
                changed[game_id] = state.games.game(game_id)[1].head
            except (PbemError, RuleError):
                changed[game_id] = ""
    text = " ".join(lines)
    if changed or new:
        state.live.publish({"games": changed, "text": text, "live": live})
    return text, changed


def do_new(state: AppState, body: dict[str, Any]) -> str:
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
    library.configured_smtp()  # no server: an error before anything is signed
    rep = state.games.start(game, me, state.identities[me], [pair(p) for p in players],
                            pair(referee) if referee else None, options.split(), deadline.strip() or None)
    game_id = rep.genesis.game_id
    try:
        sent = state.games.send(game_id, me)
    except PbemError as exc:
        sent = f"but the invitation was NOT sent: {exc}. Use 'Send what was not sent' on its page"
    text = f"Started {rep.game.title} {game_id[:8]} ({', '.join(rep.players)}); {sent}."
    state.flash["/"] = text
    state.look(game_id, rep.seq)
    state.live.publish({"games": {game_id: rep.head}, "text": "", "live": False})
    return text


def do_unlock(state: AppState, body: dict[str, Any]) -> str:
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


def locked(work: Callable[[AppState, str], R], state: AppState, game_id: str) -> R:
    """A page's work on the games in memory, never during a move or a mail's update."""
    with state.games.lock:
        return work(state, game_id)


def history_frames(state: AppState, game_id: str) -> list[dict[str, Any]]:
    """Every position of the game as this player saw it then (the replay's frames), made once per head."""
    _, rep = state.games.game(game_id)
    seat = state.seat(rep)
    key = (game_id, rep.head, seat[0] if seat else "")
    if key not in state.history:
        state.history[key] = library.history(rep, state.games.session(game_id, *seat) if seat else None)
    return state.history[key]

