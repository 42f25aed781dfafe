"""Signed entries applied to the engine. `apply_entry` is the one path every entry takes, whether we
just wrote it or are verifying someone else's file: its signer, its place in the chain, whether it is
owed and legal, and what it commits, seals and opens.

A game runs in three phases: every participant but the creator signs a `join` (in roster order, the
referee first), the dealer posts the joint `deal`, then the game's own duties follow. A proven cheat
at any point is a `verdict` that ends the game (pbem.protocol.acts). A game's move is applied here; the
trust layer's acts, each by its handler (pbem.protocol.act_handlers)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.contract import DEALER, Acted, IllegalAction, NotationError, NotYourDuty
from pbem.errors import BadSequence, BrokenChain, IllegalMove, NotOwed, UnknownSigner, WrongGame
from pbem.protocol import remembered
from pbem.protocol.absence import check_time, note_duties, owing, still_pending
from pbem.protocol.act_handlers import apply_act, convict
from pbem.protocol.acts import is_act
from pbem.protocol.attachments import check_attachments
from pbem.protocol.commitments import Seeded, check_signature
from pbem.protocol.genesis import start
from pbem.protocol.replay import Replay, actor_for, may_act_for, party_names, players_own, waiting_text
from pbem.record.models import Entry, GameFile, SignedBytes, signed_bytes


def apply_entry(rep: Replay, entry: Entry, signed: SignedBytes | None = None) -> list[object]:
    """Check one signed entry against the replayed game and apply it; returns its events. `signed`: the
    entry's signed bytes, if the caller has worked them out already (`replay`: for the replays kept)."""
    seq, author = rep.seq + 1, entry.author
    if entry.seq != seq:
        raise BadSequence(f"seq is {entry.seq}, expected {seq}", entry.seq, author)
    if entry.game_id != rep.genesis.game_id:
        raise WrongGame("this entry belongs to another game", seq, author)
    if author not in rep.roster:
        raise UnknownSigner(f"{author!r} is not in the roster", seq, author)
    signed = signed or signed_bytes(entry)
    check_signature(entry, signed.data, rep.roster[author], seq)
    if entry.prev != rep.head:
        raise BrokenChain("prev does not hash the entry before it", seq, author)
    if rep.verdict:
        raise NotOwed(f"{entry.action}: the game is over: {rep.verdict}", seq, author)
    if (entry.contribution is not None) != (entry.action == "join"):
        raise IllegalMove("a join, and only a join, carries a contribution to the deal", seq, author)
    check_time(rep, entry, seq)
    turn = author in owing(rep) and not entry.action.startswith("absent ")
    if is_act(entry.action):
        events = apply_act(rep, entry, seq)
    else:
        events = _apply_move(rep, entry, seq)
    if turn:  # a duty of their own done: no longer absent in a row. Not a table duty any player's program
        rep.strikes.pop(author, None)  # does (their own deal after each absent stop would reset it forever)
    rep.entries.append(entry)
    rep.head = signed.hash
    rep.hashes.append(rep.head)
    rep.events += [(seq, e) for e in events]
    note_duties(rep, author)
    if rep.pending and not entry.action.startswith("absent ") and not still_pending(rep):
        rep.pending = None  # an absence still being signed lapses: whoever was absent came back (or is done)
    return list(events)


def _apply_move(rep: Replay, entry: Entry, seq: int) -> list[object]:
    """A game action: owed by its author (or one they act for), legal, its attachments matching."""
    game, author = rep.game, entry.author
    if rep.state is None or rep.awaiting_join:
        raise NotOwed(f"{entry.action}: the game has not started: {waiting_text(rep)}", seq, author)
    owed = rep.duties()
    if owed and owed[0].what == "audit":
        raise NotOwed(f"{entry.action}: the game is over: {waiting_text(rep)}", seq, author)
    try:
        action = game.parse_action(entry.action)
    except NotationError as exc:
        raise IllegalMove(str(exc), seq, author) from None
    actor = actor_for(rep, action)
    if not actor:
        raise IllegalMove(f"{entry.action}: nobody may do this now", seq, author)
    if not may_act_for(rep, author, actor):
        raise NotOwed(f"{entry.action}: {author} may not act for {actor}", seq, author)
    try:
        checked = game.check(rep.state, actor, action)
    except NotYourDuty as exc:
        raise NotOwed(exc.naming(party_names(rep)), seq, author) from None
    except IllegalAction as exc:
        opened = game.secrets(rep.state, actor, action).opens
        if opened and players_own(rep, opened):  # true openings that contradict earlier play convict the owner
            return convict(rep, entry, opened, seq, str(exc))
        raise IllegalMove(str(exc), seq, author) from None
    complete = game.format_action(game.public(checked))
    if complete != entry.action:
        raise IllegalMove(f"{entry.action}: the record holds an action complete and public, as {complete!r}",
                          seq, author)
    secrets = game.secrets(rep.state, actor, checked)
    pick = _chance_pick(rep, entry, checked, seq) if secrets.chance else None
    check_attachments(rep, entry, secrets, actor, seq)
    if pick is not None:
        rep.seeded.append(pick)
    rep.state, applied = game.apply(rep.state, actor, checked)
    if author != actor:  # the report names who signed the act: "ref opens #1=0", not the owner or "dealer"
        applied = tuple(replace(e, player=author) if isinstance(e, Acted) and e.player == actor else e  # type: ignore[type-var]
                        for e in applied)
    return list(applied)


def _chance_pick(rep: Replay, entry: Entry, action: Any, seq: int) -> Seeded:
    """A pick by chance must be one of the dealer's public choices; which one the seed proves later
    (the pick is recorded once the whole entry is checked)."""
    game = rep.game
    text = game.format_action(game.public(action))
    choices = [game.format_action(c) for c in game.legal_actions(rep.state, DEALER, None)]
    if text not in choices:
        raise IllegalMove(f"{entry.action}: not one of chance's choices now", seq, entry.author)
    return Seeded(seq, entry.author, "pick by chance", choices.index(text), (rep.head, len(choices)))


def replay(record: GameFile) -> Replay:
    """Check a whole record from the genesis on; raises a VerifyError naming the first bad entry. The part
    of it this process has already verified, byte for byte, is not checked twice (pbem.protocol.remembered)."""
    keys = remembered.chain(record)
    rep = remembered.recall(keys) or start(record.genesis, keys.signed[0])
    # the record's own genesis and entries, not those kept: they hashed to the same keys just now, and a kept
    # one is another caller's object, whose dicts (sealed, openings) that caller may have changed since
    rep.genesis, rep.entries = record.genesis, list(record.entries[:rep.seq])
    for at in range(rep.seq, len(record.entries)):
        apply_entry(rep, record.entries[at], keys.signed[at + 1])  # signed[0] is the genesis
    remembered.keep(keys, rep)
    return rep

