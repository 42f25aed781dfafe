"""Making a game and acting on it: `pbem new`, `play`, `referee` and `absent` on a game file, the app's
moves and games with a key held in memory, and the demo (examples/make_examples.py uses it too). The
command line only parses and prints."""

from __future__ import annotations

import functools
import os
import random
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from engine.contract import DEALER, TURN_DUTIES, NotationError, RuleError
from pbem.api.games import did_you_mean, identity_for, owes, signer_for
from pbem.crypto import Identity, PublicKey
from pbem.errors import KeyProblem, UsageError
from pbem.protocol.replay import Replay
from pbem.protocol.seen import check_not_stale, remember
from pbem.protocol.session import Session
from pbem.protocol.verify import verify
from pbem.record.gamefile import save
from pbem.record.names import check_name
from pbem.transport.saved import read as read_game


def new_game(game: str, out: Path, creator: str, players: list[str], referee: str | None = None,
             options: list[str] | None = None, layout: Path | None = None, key: str | None = None,
             force: bool = False, deadline: str | None = None, deadlines: str | None = None,
             ) -> tuple[Replay, list[object]]:
    """Write a game's signed invitation. `players` and `referee` are NAME=PUBKEY (a key line, a .pub file,
    a key name) or a bare key name; `options` KEY=VALUE; `deadline` e.g. 72h (who is late, shown only);
    `deadlines` a deadline policy every join agrees to, after which absences can be recorded: `default`
    or e.g. `turn=48,grace=24` (docs/deadlines.md). Returns the game and the events of the creator's
    automatic acts."""
    from pbem.protocol import genesis
    from pbem.record.deadlines import parse_policy
    from pbem.transport.status import parse_deadline

    if out.exists() and not force:
        raise UsageError(f"{out} already exists (use --force to replace it)")
    _players_fit(game, len(players))
    named = [spec.partition("=")[0] for spec in players + ([referee] if referee else [])]
    if creator not in named:
        raise UsageError(f"--as {creator}: you must be one of the players or the referee"
                         f"{did_you_mean(creator, named)}")
    signer = functools.cache(lambda: identity_for(creator, key))  # loaded once, after the others' keys are read
    roster = named_keys(players, "player", (creator, signer))
    ref = named_keys([referee], "referee", (creator, signer))[0] if referee else None
    identity = signer()
    one_key_per_seat(roster + ([ref] if ref else []))
    everyone = dict(roster + ([ref] if ref else []))
    if not everyone[creator].same_key(identity.public):
        raise UsageError(f"the key for {creator} given in the roster is not the key you are signing with")
    dealt, first = read_layout(game, layout) if layout else (None, None)

    hours = parse_deadline(deadline) if deadline else None
    policy = parse_policy(game, deadlines) if deadlines else None
    rep = genesis.new_game(game, parse_options(options or []), roster, creator, identity, ref, dealt, first, hours,
                           policy)
    events = Session(rep, creator, identity).automatic()
    save(out, rep.record)

    remember(rep, out)
    return rep, events


def _players_fit(game: str, count: int) -> None:
    """A count of players the game does not take, answered from its definition before any key is read (a name
    the registry does not know is left to the genesis, which lists those it knows)."""
    from engine import GAMES
    from engine.contract import players_problem

    problem = players_problem(GAMES[game.lower()], count) if game.lower() in GAMES else None
    if problem:
        raise UsageError(problem)


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
         referee_only: bool = False) -> TurnResult:
    """Do what NAME owes (None: the one participant whose key this home holds): their join, the given
    moves (notation), openings and table-mode deals; a bot's choice (`bot`: greedy, random, mcts) or `ask`
    when no moves are given. Moves stop, and what was done is written, when the next one has to wait for
    another participant (the referee's reveal). Writes the file (in place, or `out`; for a saved mail, the
    local copy) when anything was signed; the file is read and verified once. A bot's search takes
    `think` seconds a move, or `iterations`; `seed` makes its choices repeatable. `message`: a note to the
    table, signed into the first entry written. `referee_only`: `referee()`."""
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


def referee(path: Path, name: str, key: str | None = None, out: Path | None = None) -> TurnResult:
    """The referee's duties: its join, the deal, reveals, deals, reshuffles, a Thief's pick, openings,
    the audit, and a verdict on any secret its player did not hold."""
    return play(path, name, key=key, out=out, referee_only=True)


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


def start_game(game: str, creator: str, identity: Identity, players: list[tuple[str, str]],
               referee: tuple[str, str] | None = None, options: list[str] | None = None, deadline: str | None = None,
               games: Path | None = None) -> tuple[Replay, Path]:
    """`pbem new` with the creator's key in memory (the app): the invitation signed, the creator's
    automatic acts, kept as the creator's copy in the folder of copies; the others' keys as key lines (the
    creator's own may be empty). Mail it with `mail_turn`."""
    from pbem.protocol import genesis
    from pbem.transport import copies
    from pbem.transport.status import parse_deadline
    from pbem.transport.store import Copies

    def key(name: str, line: str) -> PublicKey:
        return identity.public if name == creator and not line else PublicKey.parse(line)

    roster = [(name, key(name, line)) for name, line in players]
    ref = (referee[0], key(*referee)) if referee else None
    everyone = roster + ([ref] if ref else [])
    if creator not in [name for name, _ in everyone]:
        raise UsageError(f"you ({creator}) must be one of the players or the referee")
    one_key_per_seat(everyone)
    if not dict(everyone)[creator].same_key(identity.public):
        raise UsageError(f"the key for {creator} in the roster is not the key you sign with")
    hours = parse_deadline(deadline) if deadline else None
    rep = genesis.new_game(game, parse_options(options or []), roster, creator, identity, ref, None, None, hours)
    Session(rep, creator, identity).automatic()
    return rep, Copies(copies.folder(games)).put(rep)


@dataclass
class DemoStep:
    """One run of `play` in the demo: the game after it, and what happened."""

    game: Replay
    events: list[object]


DEMO_PLAYERS = 3
"""The demo's table when `--players` is not given, or the count nearest it that the game takes."""


def demo(game_name: str | None = None, players: int | None = None, directory: Path | None = None, referee_mode: bool = False,
         bot: str | None = None, think: float = 1.0, seed: int | None = None,
         iterations: int | None = None) -> tuple[Path, Iterator[DemoStep]]:
    """A whole game among computer players through the same files and functions as people use: the game
    file's path, and the steps as they are played (the caller reads them; verify the file after). The game
    by its name, or the registry's first; its bot by name, or the game's first; `players` as many as the game
    takes (its `min_players` to `max_players`), by default DEMO_PLAYERS or the nearest it takes."""
    from engine import GAMES, find_game
    from engine.contract import UnknownGame
    from pbem.crypto.keyring import create_key
    from pbem.protocol.bots import policy_for  # the searches: only bots need them

    try:
        chosen = find_game(game_name or next(iter(GAMES)))
    except UnknownGame as exc:
        raise UsageError(str(exc)) from None
    bot = bot or chosen.bots[0]
    policy_for(chosen, bot)  # a bot the game lacks is an error before any file is made
    count = min(max(DEMO_PLAYERS, chosen.min_players), chosen.max_players) if players is None else players
    _players_fit(chosen.name, count)
    base = directory or Path(tempfile.mkdtemp(prefix="pbem-demo-"))
    base.mkdir(parents=True, exist_ok=True)
    os.environ["PBEM_HOME"] = str(base / "home")
    names = (["ann", "ben", "cat", "dan", "eve", "fay"] + [f"player{n}" for n in range(7, count + 1)])[:count]
    for person in names + (["ref"] if referee_mode else []):
        if not (base / "home" / "keys" / person).exists():  # a second demo in one folder reuses the keys
            create_key(person, None)
    path = base / "game.json"
    creator = "ref" if referee_mode else names[0]
    game, _ = new_game(chosen.name, path, creator, names, "ref" if referee_mode else None, force=True)

    def steps() -> Iterator[DemoStep]:
        current, turns = game, 0
        while current.duties():
            who = current.duties()[0].who
            if who == DEALER:
                who = current.dealer_signer or names[0]
            turn = play(path, who, bot=bot, think=think, iterations=iterations,
                        seed=None if seed is None else seed + turns)
            turns += 1
            current = turn.rep
            yield DemoStep(current, turn.events)

    return path, steps()


def named_keys(specs: list[str], what: str,
               own: tuple[str, Callable[[], Identity]] | None = None) -> list[tuple[str, PublicKey]]:
    """NAME=PUBKEY specs as (name, public key); a bare NAME is a key name, or for `own` (the creator's
    name, and a function giving the identity they sign with) the public half of that key."""
    from pbem.crypto.keyring import read_public

    out = []
    for spec in specs:
        name, eq, key = spec.partition("=")
        if not name:
            raise UsageError(f"{what} {spec!r}: write NAME=PUBKEY (a key line, a .pub file or a key name)")
        check_name(name, f"{what} name")
        if own and not eq and name == own[0]:
            out.append((name, own[1]().public))
            continue
        try:
            out.append((name, read_public(key if eq else name)))
        except KeyProblem as exc:
            raise KeyProblem(f"--{what} {name}: {exc}") from None
    return out


def one_key_per_seat(people: list[tuple[str, PublicKey]]) -> None:
    """The same key in two seats would let one person play both; refuse it before anything is signed."""
    first_holder: dict[bytes, str] = {}
    for name, key in people:
        if name in first_holder.values():
            raise UsageError(f"{name} is listed twice: give each participant once")
        if key.raw in first_holder:
            raise UsageError(f"{first_holder[key.raw]} and {name} are given the same key: each participant "
                             "needs a key of their own")
        first_holder[key.raw] = name


def parse_options(specs: list[str]) -> dict[str, str]:
    options = {}
    for spec in specs:
        key, eq, value = spec.partition("=")
        if not eq or not key:
            raise UsageError(f"option {spec!r}: write KEY=VALUE (an unknown KEY is answered with the game's options)")
        options[key] = value
    return options


def read_layout(game: str, path: Path) -> tuple[dict[str, str], Any]:
    """A chosen deal from a layout file, read by the game's own module (pbem/presentation/games/)."""
    from pbem.presentation.games import presentation
    from pbem.record.canonical import parse_strict
    from pbem.record.gamefile import read_bytes

    layout: tuple[dict[str, str], Any] = presentation(game).read_layout(parse_strict(read_bytes(path)), str(path))
    return layout


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
