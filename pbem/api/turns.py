"""Taking a turn on a game file: `pbem play`, `referee` and `absent`, the app's one move with a key held in
memory (`act`), and reading moves as a person types them. The command line only parses and prints."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from engine.contract import DEALER, TURN_DUTIES, NotationError, RuleError
from pbem.api.games import owes, signer_for
from pbem.errors import UsageError
from pbem.protocol.replay import Replay
from pbem.protocol.seen import check_not_stale, remember
from pbem.protocol.session import Session
from pbem.protocol.verify import verify
from pbem.record.gamefile import save
from pbem.transport.saved import read as read_game


class TurnResult(NamedTuple):
    """One run of `pbem play`: the game after it, what happened, how many entries it wrote, and the
    moves left unplayed because another participant must act first (referee mode: a reveal)."""

    rep: Replay
    events: list[object]
    written: int
    left: list[str]
    session: Session
    path: Path | None = None
    """Where it was written: the file given, -o, or for a saved mail the local copy of the game."""


def play(path: Path, name: str | None, actions: list[str] | None = None, key: str | None = None,
         bot: str | None = None, out: Path | None = None, ask: Callable[[Session], list[object]] | None = None,
         think: float = 1.0, seed: int | None = None, iterations: int | None = None, message: str | None = None,
         referee_only: bool = False, game: Replay | None = None) -> TurnResult:
    """Do what NAME owes (None: the one participant whose key this home holds): their join, the given
    moves (notation), openings and table-mode deals; a bot's choice (`bot`: greedy, random, mcts) or `ask`
    when no moves are given. Moves stop, and what was done is written, when the next one has to wait for
    another participant (the referee's reveal). Writes the file (in place, or `out`; for a saved mail, the
    local copy) when anything was signed; the file is read and verified once. A bot's search takes
    `think` seconds a move, or `iterations`; `seed` makes its choices repeatable. `message`: a note to the
    table, signed into the first entry written. `referee_only`: `referee()`. `game`: the game file at `path`
    (JSON) as its caller just read and verified it, not read again; what is signed is added to it."""
    from pbem.protocol.bots import bot_turn, policy_for  # the searches: only bots need them

    loaded = None
    if name is None:
        if key:
            raise UsageError("--key FILE needs --as NAME: the name you play under")
        from pbem.transport.advice import only_name

        loaded = read_game(path)
        name = only_name(loaded.record, path)
    if message is not None and not (0 < len(message) <= 500 and message.isprintable()):
        raise UsageError("--message: one line of 1 to 500 printable characters")
    if game is not None:
        rep, armored, mail = game, False, None
    else:
        loaded = loaded or read_game(path)
        rep, armored, mail = verify(loaded.record), loaded.armored, loaded.mail
    policy = policy_for(rep.game, bot, think, iterations) if bot else None
    check_not_stale(rep, path if mail is None else None)
    remember(rep)
    if referee_only and name != rep.referee:
        raise UsageError(f"{name} is not the referee of this game" if rep.referee else "this game has no referee "
                         "(table mode): every player's program deals")
    session = Session(rep, name, signer_for(rep, name, key))
    session.note = message  # signed into the first entry this turn writes
    before = rep.seq
    events = session.automatic()
    moves = split_moves(actions or [])
    for text in moves:  # a typo is an error before anything is signed, even a move that would have to wait
        check_syntax(rep, text)
    joined = any(e.action == "join" and e.author == name for e in rep.entries[before:])
    while moves and not (rep.seq > before and waiting_for_others(rep, name, joined)):
        try:
            events += session.act(parse_move(rep, name, moves.pop(0)))
        except (UsageError, RuleError) as exc:
            raise maybe_behind(rep, name, exc) from None
        events += session.automatic()
    if not actions and policy:
        events += bot_turn(session, policy, random.Random(seed))
    elif not actions and ask:
        events += ask(session)
    target = out or (path if mail is None else local_copy(rep))  # a saved mail is never written over
    if rep.seq > before:
        if target != (out or path):
            target.parent.mkdir(parents=True, exist_ok=True)  # the folder of copies, made on first use
        save(target, rep.record, armored)
        remember(rep, target)
    return TurnResult(rep, events, rep.seq - before, moves, session, target)


def referee(path: Path, name: str, key: str | None = None, out: Path | None = None,
            game: Replay | None = None) -> TurnResult:
    """The referee's duties: its join, the deal, reveals, deals, reshuffles, a Thief's pick, openings,
    the audit, and a verdict on any secret its player did not hold. `game`: as for `play`."""
    return play(path, name, key=key, out=out, referee_only=True, game=game)


def absent(path: Path, party: str, name: str, key: str | None = None,
           at: int | None = None) -> tuple[Replay, list[object]]:
    """NAME records PARTY absent from the duty they answer for, once its deadline and grace have passed
    by the signed times; the game's rule then applies. Writes the file. `at`: the time to sign at."""
    loaded = read_game(path)
    game = verify(loaded.record)
    check_not_stale(game, path)
    session = Session(game, name, signer_for(game, name, key))
    events = session.record_absence(party, at)
    events += session.automatic()
    save(path, game.record, loaded.armored)
    remember(game)
    return game, events


def act(session: Session, path: Path, head: str, notation: str | None) -> tuple[list[object], int]:
    """With a key in memory (a front end that stays open): on the game as it stood at `head` (the last
    entry's hash the player saw), one legal move by its notation (None: only what needs no decision), then
    what needs no decision after it; the file written. MovedOn when the game has moved on from `head`,
    UsageError for a move that is not legal now: nothing written. Returns the events and the number of
    entries written."""
    from pbem.errors import MovedOn

    rep = session.rep
    if rep.head != head:
        raise MovedOn("the game has moved on: the page showed an older position. Nothing was written; look "
                      "again and choose anew")
    check_not_stale(rep, path)
    before, events = rep.seq, []
    if notation is not None:
        legal = rep.game.legal_actions(rep.state, session.name, session.knowledge()) if rep.state is not None else []
        action = next((a for a in legal if rep.game.format_action(a) == notation), None)
        if action is None or not owes(rep, session.name, *TURN_DUTIES):
            raise UsageError(f"{notation!r} is not a legal move for {session.name} now")
        events += session.act(action)
    events += session.automatic()
    if rep.seq > before:
        save(path, rep.record)
        remember(rep)
    return events, rep.seq - before


def local_copy(rep: Replay) -> Path:
    """Where this machine keeps its copy of the game (the folder of local copies)."""
    from pbem.transport import copies

    return copies.path_for(copies.folder(), rep.genesis)


def maybe_behind(rep: Replay, name: str, exc: Exception) -> Exception:
    """A move refused because someone else must act first: if they already did, this copy is old (a git
    clone not pulled, a mail not read). Say so, with what to do."""
    if any(d.who == name for d in rep.duties()):
        return exc
    hint = " (if that was done already, this copy is old: git pull, or pbem inbox)"
    return type(exc)(f"{exc}{hint}") if isinstance(exc, UsageError) else UsageError(f"{exc}{hint}")


def split_moves(words: list[str]) -> list[str]:
    """Moves as a shell passes them: a word that is a duty's kind (engine.contract.TURN_DUTIES) begins a move
    of two (`discard moon-4` arrives as two words and is one move)."""
    moves: list[str] = []
    for word in words:
        if moves and moves[-1].strip().lower() in TURN_DUTIES:
            moves[-1] += " " + word
        else:
            moves.append(word)
    return moves


def check_syntax(rep: Replay, text: str) -> None:
    """NotationError unless `text` reads as a move (or, one word, as the answer to a duty: `parse_move`)."""
    try:
        rep.game.parse_action(text)
    except NotationError:
        if len(text.split()) != 1:
            raise
        for kind in TURN_DUTIES:
            try:
                rep.game.parse_action(f"{kind} {text}")
                return
            except NotationError:
                pass
        rep.game.parse_action(text)  # the first error, as the user typed it


def parse_move(rep: Replay, name: str, text: str) -> Any:
    """A move as typed. One word answers the duty NAME owes, read after the duty's kind (a discard owed:
    `moon-4` or `5` for `discard moon-4`, `discard 5`; engine.contract.TURN_DUTIES)."""
    try:
        return rep.game.parse_action(text)
    except NotationError:
        owed = owes(rep, name, *TURN_DUTIES)
        if len(text.split()) != 1 or owed is None:
            raise
        try:
            return rep.game.parse_action(f"{owed.what} {text}")
        except NotationError:
            pass
        raise


def waiting_for_others(rep: Replay, name: str, joined: bool = False) -> bool:
    """NAME owes nothing until the dealer acts (a referee's reveal, deal or Thief's pick) or someone opens
    (then NAME may owe a move again), or, having just joined, until the player the deal drew first has moved."""
    duties = rep.duties()
    return bool(duties) and all(d.who != name and (joined or d.who == DEALER or d.what == "open") for d in duties)
