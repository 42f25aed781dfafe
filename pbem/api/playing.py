"""Creating a game and taking a turn on a game file: the library under `pbem new` and `pbem play`
(the demo and examples/make_examples.py call it too). The command line only parses and prints."""

from __future__ import annotations

import difflib
import functools
import os
import random
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from engine import GAMES, find_game
from engine.contract import DEALER, TURN_DUTIES, Duty, NotationError, RuleError, UnknownGame
from pbem.crypto import Identity, PublicKey
from pbem.crypto.keyring import create_key, load_identity, read_public
from pbem.errors import KeyProblem, UsageError
from pbem.presentation.games import presentation
from pbem.protocol.genesis import new_game
from pbem.protocol.replay import Replay
from pbem.protocol.seen import check_not_stale, remember
from pbem.protocol.session import Session
from pbem.protocol.verify import verify
from pbem.record.canonical import parse_strict
from pbem.record.deadlines import parse_policy
from pbem.record.gamefile import read_bytes, save
from pbem.record.names import check_name
from pbem.transport.saved import read as read_game
from pbem.transport.status import parse_deadline


def identity_for(name: str, key: str | None) -> Identity:
    """The private key NAME signs with: the key file given, else NAME's key in the key directory."""

    return load_identity(key or name)


def signer_for(rep: Replay, name: str, key: str | None) -> Identity:
    """NAME's key, once NAME is known to be in the game: a typo is named before any key is looked for."""

    if name not in rep.roster:
        raise UsageError(f"--as {name}: not in this game{did_you_mean(name, list(rep.roster))} (participants: "
                         f"{', '.join(rep.roster)})")
    return identity_for(name, key)


def did_you_mean(name: str, names: list[str]) -> str:

    close = difflib.get_close_matches(name, names, n=1)
    return f": did you mean {close[0]}?" if close else ""


def replay_file(path: Path) -> tuple[Replay, bool]:
    """A game file (or a saved mail) read and verified from its first entry; and whether it was armored."""
    rep, armored, _ = replay_source(path)
    return rep, armored


def replay_source(path: Path) -> tuple[Replay, bool, Path | None]:
    """A game file or a saved mail read and verified; whether it was armored; the mail it came from."""
    loaded = read_game(path)
    return verify(loaded.record), loaded.armored, loaded.mail


def named_keys(specs: list[str], what: str,
               own: tuple[str, Callable[[], Identity]] | None = None) -> list[tuple[str, PublicKey]]:
    """NAME=PUBKEY specs as (name, public key); a bare NAME is a key name, or for `own` (the creator's
    name, and a function giving the identity they sign with) the public half of that key."""

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
            raise UsageError(f"option {spec!r}: write KEY=VALUE, e.g. two_player=seats")
        options[key] = value
    return options


def read_layout(game: str, path: Path) -> tuple[dict[str, str], Any]:
    """A chosen deal from a layout file, read by the game's own module (pbem/presentation/games/)."""

    layout: tuple[dict[str, str], Any] = presentation(game).read_layout(parse_strict(read_bytes(path)), str(path))
    return layout


def create(game: str, out: Path, name: str, players: list[str], referee: str | None, options: list[str],
           layout: Path | None, key: str | None, force: bool = False,
           deadline: str | None = None, deadlines: str | None = None) -> tuple[Replay, list[object]]:
    """`pbem new`, as a function the demo calls too."""

    if out.exists() and not force:
        raise UsageError(f"{out} already exists (use --force to replace it)")
    named = [spec.partition("=")[0] for spec in players + ([referee] if referee else [])]
    if name not in named:
        raise UsageError(f"--as {name}: you must be one of the players or the referee{did_you_mean(name, named)}")
    signer = functools.cache(lambda: identity_for(name, key))  # loaded once, after the others' keys are read
    roster = named_keys(players, "player", (name, signer))
    ref = named_keys([referee], "referee", (name, signer))[0] if referee else None
    identity = signer()
    one_key_per_seat(roster + ([ref] if ref else []))
    everyone = dict(roster + ([ref] if ref else []))
    if not everyone[name].same_key(identity.public):
        raise UsageError(f"the key for {name} given in the roster is not the key you are signing with")
    dealt, first = read_layout(game, layout) if layout else (None, None)

    hours = parse_deadline(deadline) if deadline else None
    policy = parse_policy(game, deadlines) if deadlines else None
    rep = new_game(game, parse_options(options), roster, name, identity, ref, dealt, first, hours, policy)
    events = Session(rep, name, identity).automatic()
    save(out, rep.record)

    remember(rep, out)
    return rep, events


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


def take_turn(path: Path, name: str, actions: list[str], key: str | None = None, bot: str | None = None,
              out: Path | None = None, ask: Callable[[Session], list[object]] | None = None, referee_only: bool = False,
              think: float = 1.0, seed: int | None = None, iterations: int | None = None,
              message: str | None = None) -> TurnResult:
    """`pbem play` as a function: do what NAME owes, write the file. Moves stop, and what was done is
    written, when the next one has to wait for another participant (the referee's reveal).
    A bot's search takes `think` seconds a move, or `iterations`; `seed` makes its choices repeatable."""
    from pbem.protocol.bots import bot_turn, policy_for  # the searches: only bots need them

    if message is not None and not (0 < len(message) <= 500 and message.isprintable()):
        raise UsageError("--message: one line of 1 to 500 printable characters")
    rep, armored, mail = replay_source(path)
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
    moves = split_moves(actions)
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


def local_copy(rep: Replay) -> Path:
    """Where this machine keeps its copy of the game (the folder of local copies)."""
    from pbem.transport import copies

    return copies.path_for(copies.folder(), rep.genesis)


def act_in_session(session: Session, path: Path, head: str, notation: str | None) -> tuple[list[object], int]:
    """Play with a key already in memory (a front end that stays open): on the game as it stood at `head`
    (the last entry's hash the player saw), one of the player's legal moves by its notation (None: only
    what needs no decision), then what needs no decision after it; write the file. MovedOn when the
    game has moved on from `head`, UsageError for a move that is not legal now: nothing written.
    Returns the events and the number of entries written."""
    from pbem.errors import MovedOn, UsageError
    from pbem.protocol.seen import check_not_stale, remember
    from pbem.record.gamefile import save

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


def create_signed(game: str, me: str, identity: Identity, players: list[tuple[str, PublicKey]],
                  referee: tuple[str, PublicKey] | None, options: list[str], deadline: str | None,
                  games: Path) -> tuple[Replay, Path]:
    """`pbem new` with the creator's key already in memory (the app), the others' keys as given: the
    invitation signed, the creator's automatic acts, kept as their copy in the folder `games`."""
    from pbem.errors import UsageError
    from pbem.protocol.genesis import new_game
    from pbem.transport.status import parse_deadline
    from pbem.transport.store import Copies

    everyone = players + ([referee] if referee else [])
    if me not in [name for name, _ in everyone]:
        raise UsageError(f"you ({me}) must be one of the players or the referee")
    one_key_per_seat(everyone)
    if not dict(everyone)[me].same_key(identity.public):
        raise UsageError(f"the key for {me} in the roster is not the key you sign with")
    hours = parse_deadline(deadline) if deadline else None
    rep = new_game(game, parse_options(options), players, me, identity, referee, None, None, hours)
    Session(rep, me, identity).automatic()
    return rep, Copies(games).put(rep)


def maybe_behind(rep: Replay, name: str, exc: Exception) -> Exception:
    """A move refused because someone else must act first: if they already did, this copy is old (a git
    clone not pulled, a mail not read). Say so, with what to do."""
    from pbem.errors import UsageError

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


def owes(rep: Replay, name: str, *kinds: str) -> Duty | None:
    """The first duty of one of these kinds that NAME owes now, or None."""
    return next((d for d in rep.duties() if d.who == name and d.what in kinds), None)


def waiting_for_others(rep: Replay, name: str, joined: bool = False) -> bool:
    """NAME owes nothing until the dealer acts (a referee's reveal, deal or Thief's pick) or someone opens
    (then NAME may owe a move again), or, having just joined, until the player the deal drew first has moved."""
    duties = rep.duties()
    return bool(duties) and all(d.who != name and (joined or d.who == DEALER or d.what == "open") for d in duties)


@dataclass
class DemoStep:
    """One run of `play` in the demo: the game after it, and what happened."""

    game: Replay
    events: list[object]


def demo(game_name: str | None = None, players: int = 3, directory: Path | None = None, referee_mode: bool = False,
         bot: str = "greedy", think: float = 1.0, seed: int | None = None,
         iterations: int | None = None) -> tuple[Path, Iterator[DemoStep]]:
    """A whole game among computer players through the same files and functions as people use: the game
    file's path, and the steps as they are played (the caller reads them; verify the file after). The game
    by its name, or the registry's first."""
    from pbem.protocol.bots import policy_for  # the searches: only bots need them

    try:
        chosen = find_game(game_name or next(iter(GAMES)))
    except UnknownGame as exc:
        raise UsageError(str(exc)) from None
    policy_for(chosen, bot)  # a bot the game lacks is an error before any file is made
    base = directory or Path(tempfile.mkdtemp(prefix="pbem-demo-"))
    base.mkdir(parents=True, exist_ok=True)
    os.environ["PBEM_HOME"] = str(base / "home")
    names = ["ann", "ben", "cat", "dan", "eve", "fay"][:players]
    for person in names + (["ref"] if referee_mode else []):
        if not (base / "home" / "keys" / person).exists():  # a second demo in one folder reuses the keys
            create_key(person, None)
    path = base / "game.json"
    creator = "ref" if referee_mode else names[0]
    game, _ = create(chosen.name, path, creator, names, "ref" if referee_mode else None, [], None, None, force=True)

    def steps() -> Iterator[DemoStep]:
        current, turns = game, 0
        while current.duties():
            who = current.duties()[0].who
            if who == DEALER:
                who = current.dealer_signer or names[0]
            turn = take_turn(path, who, [], bot=bot, think=think, iterations=iterations,
                             seed=None if seed is None else seed + turns)
            turns += 1
            current = turn.rep
            yield DemoStep(current, turn.events)

    return path, steps()
