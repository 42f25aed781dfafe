"""Making a game: `pbem new`'s signed invitation from a roster of names and keys, and with the creator's
key in memory (the app) `start_game`; the roster's keys, options and a chosen deal read and checked
before anything is signed."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pbem.api.games import did_you_mean, identity_for
from pbem.crypto import Identity, PublicKey
from pbem.errors import KeyProblem, UsageError
from pbem.protocol.replay import Replay
from pbem.protocol.seen import remember
from pbem.protocol.session import Session
from pbem.record.gamefile import save
from pbem.record.names import check_name


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
    players_fit(game, len(players))
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


def players_fit(game: str, count: int) -> None:
    """A count of players the game does not take, answered from its definition before any key is read (a name
    the registry does not know is left to the genesis, which lists those it knows)."""
    from engine import GAMES
    from engine.contract import players_problem

    problem = players_problem(GAMES[game.lower()], count) if game.lower() in GAMES else None
    if problem:
        raise UsageError(problem)


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
