"""Signed entries applied to the engine. `apply_entry` is the one path every entry takes, whether we
just wrote it or are verifying someone else's file: its signer, its place in the chain, whether it is
owed and legal, and what it commits, seals and opens.

A game runs in three phases: every participant but the creator signs a `join` (in roster order, the
referee first), the dealer posts the joint `deal`, then the game's own duties follow. A proven cheat
at any point is a `verdict` that ends the game (pbem.protocol.acts)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from engine.contract import (
    ABSENCES_OUT,
    DEALER,
    Acted,
    IllegalAction,
    NotationError,
    NotYourDuty,
    Secrets,
    Value,
)
from pbem import crypto
from pbem.errors import (
    BadOpening,
    BadSequence,
    BrokenChain,
    IllegalMove,
    NotOwed,
    UnknownSigner,
    UsageError,
    WrongGame,
)
from pbem.protocol import remembered
from pbem.protocol.absence import (
    Absence,
    AbsenceSigned,
    check_absence,
    check_time,
    claimed_in_time,
    note_duties,
    owing,
    still_pending,
)
from pbem.protocol.acts import (
    Act,
    Audit,
    CommitDeal,
    ConvictAbsence,
    ConvictDeal,
    ConvictSecrets,
    DealPosted,
    Join,
    Joined,
    RecordAbsence,
    Unopenable,
    Verdict,
    format_act,
    is_act,
    parse_act,
)
from pbem.protocol.attachments import check_attachments, expect_keys
from pbem.protocol.commitments import SEED, Seeded, addressed, check_signature, commit
from pbem.protocol.genesis import start
from pbem.protocol.replay import Replay, actor_for, deal_keys, may_act_for, party_names, post_deal, waiting_text
from pbem.protocol.seeds import ABSENT_DISCARD, check_seed, deal_shape, lowest_given
from pbem.record.canonical import canonical
from pbem.record.models import Entry, GameFile, payload


def apply_entry(rep: Replay, entry: Entry) -> list[object]:
    """Check one signed entry against the replayed game and apply it; returns its events."""
    seq, author = rep.seq + 1, entry.author
    if entry.seq != seq:
        raise BadSequence(f"seq is {entry.seq}, expected {seq}", entry.seq, author)
    if entry.game_id != rep.genesis.game_id:
        raise WrongGame("this entry belongs to another game", seq, author)
    if author not in rep.roster:
        raise UnknownSigner(f"{author!r} is not in the roster", seq, author)
    signed_bytes = canonical(payload(entry))
    check_signature(entry, signed_bytes, rep.roster[author], seq)
    if entry.prev != rep.head:
        raise BrokenChain("prev does not hash the entry before it", seq, author)
    if rep.verdict:
        raise NotOwed(f"{entry.action}: the game is over: {rep.verdict}", seq, author)
    if (entry.contribution is not None) != (entry.action == "join"):
        raise IllegalMove("a join, and only a join, carries a contribution to the deal", seq, author)
    check_time(rep, entry, seq)
    turn = author in owing(rep) and not entry.action.startswith("absent ")
    if is_act(entry.action):
        events = _apply_act(rep, entry, seq)
    else:
        events = _apply_move(rep, entry, seq)
    if turn:  # a duty of their own done: no longer absent in a row. Not a table duty any player's program
        rep.strikes.pop(author, None)  # does (their own deal after each absent stop would reset it forever)
    rep.entries.append(entry)
    rep.head = crypto.sha256(signed_bytes).hex()
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
    if rep.duties() and rep.duties()[0].what == "audit":
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
            return _convict(rep, entry, opened, seq, str(exc))
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


def players_own(rep: Replay, opened: Sequence[tuple[str, Value]]) -> bool:
    return all(key in rep.items and rep.items[key].players_own for key, _ in opened)


def _chance_pick(rep: Replay, entry: Entry, action: Any, seq: int) -> Seeded:
    """A pick by chance must be one of the dealer's public choices; which one the seed proves later
    (the pick is recorded once the whole entry is checked)."""
    game = rep.game
    text = game.format_action(game.public(action))
    choices = [game.format_action(c) for c in game.legal_actions(rep.state, DEALER, None)]
    if text not in choices:
        raise IllegalMove(f"{entry.action}: not one of chance's choices now", seq, entry.author)
    return Seeded(seq, entry.author, "pick by chance", choices.index(text), (rep.head, len(choices)))


def _convict(rep: Replay, entry: Entry, opened: Sequence[tuple[str, Value]], seq: int, why: str) -> list[object]:
    """Openings that match their commitments and prove an impossible choice: a verdict against its player."""
    author = entry.author
    keys = [key for key, _ in opened]
    if (len(set(keys)) != len(keys) or not players_own(rep, opened)
            or any(rep.items[key].value is not None for key in keys)):
        raise IllegalMove(f"{entry.action}: {why}", seq, author)
    problem = rep.game.audit_problem(rep.state, opened)
    if problem is None:
        raise IllegalMove(f"{entry.action}: {why}", seq, author)
    expect_keys(entry.commitments, set(), "commitments", seq, author)
    expect_keys(entry.sealed, set(), "sealed values", seq, author)
    salts = expect_keys(entry.openings, set(keys), "openings", seq, author)
    for key, value in opened:
        item = rep.items[key]
        if commit(item.binding, item.owner, item.key, value, salts[key]) != item.commitment:
            raise BadOpening(f"{key}={value} does not match its commitment", seq, author)
    rep.verdict = Verdict(problem[0], problem[1], seq, author)
    return [rep.verdict]


def _apply_act(rep: Replay, entry: Entry, seq: int) -> list[object]:
    """A join, the deal, the audit or a verdict (pbem.acts): who may sign it, and what it must carry."""
    author, g = entry.author, rep.genesis
    try:
        act: Act = parse_act(entry.action)
    except UsageError as exc:
        raise IllegalMove(str(exc), seq, author) from None
    if format_act(act) != entry.action:  # one text for each act, as for moves
        raise IllegalMove(f"{entry.action!r}: the record holds this act as {format_act(act)!r}", seq, author)
    attachments: dict[str, set[str]] = {"commitments": set(), "sealed": set(), "openings": set()}
    if isinstance(act, Join):
        if not rep.awaiting_join or rep.awaiting_join[0] != author:
            waiting = f"waiting for {rep.awaiting_join[0]} to join" if rep.awaiting_join else "everyone has joined"
            raise NotOwed(f"join: {author} may not join now ({waiting})", seq, author)
        if author == rep.referee and g.deal == "joint":  # the referee commits the seed it deals from
            attachments["commitments"] = attachments["sealed"] = {SEED}
    elif isinstance(act, (CommitDeal, Audit)):
        kind = "deal" if isinstance(act, CommitDeal) else "audit"
        # the trust layer's own duty, not a game's of the same name (Path of Pharaohs deals cards: a `deal
        # first=` then would post the deal again and set the game back to its start)
        ours = rep.state is None if kind == "deal" else not rep.game.duties(rep.state)
        if not rep.duties() or rep.duties()[0].what != kind or not ours:
            raise NotOwed(f"{kind}: nothing is owed of the kind now", seq, author)
        if not may_act_for(rep, author, DEALER):
            raise NotOwed(f"{kind}: {author} may not act for the dealer", seq, author)
        if isinstance(act, CommitDeal):
            if act.first not in rep.players:
                raise IllegalMove(f"deal: {act.first!r} is not a player", seq, author)
            attachments["commitments"] = set(deal_keys(deal_shape(rep)))
        else:
            attachments["openings"] = {SEED}
    elif isinstance(act, ConvictSecrets):
        if rep.state is None:
            raise IllegalMove("verdict: nothing has been committed", seq, author)
        return _convict(rep, entry, act.values, seq, "these openings prove nothing against anyone")
    elif isinstance(act, ConvictDeal):
        if rep.state is None or rep.seed_commitment is None:
            raise IllegalMove("verdict deal: there is no joint deal to check yet", seq, author)
        attachments["openings"] = {SEED}
    elif isinstance(act, RecordAbsence):
        return _apply_absence(rep, entry, act, seq)
    elif isinstance(act, ConvictAbsence):
        return _convict_absence(rep, entry, act, seq)
    elif isinstance(act, Unopenable):
        item = rep.items.get(act.key) if rep.state is not None else None
        if (item is not None and not item.players_own and rep.referee and author != rep.referee
                and item.sealed_by == rep.referee):
            # a card the referee dealt or moved to a player, sealed to them alone: the receiver's word
            if item.value is not None or item.readers != (author,):
                raise IllegalMove(f"verdict unopenable: {act.key} is not an unopened item sealed to {author}",
                                  seq, author)
        else:
            if author != rep.referee:
                raise NotOwed("verdict unopenable: only the referee, who opens every secret a player commits, or "
                              "the receiver of a card the referee sealed, may say so", seq, author)
            if item is None or not item.players_own or item.value is not None or author not in item.readers:
                raise IllegalMove(f"verdict unopenable: there is no unopened {act.key} sealed to the referee",
                                  seq, author)
        claimed_in_time(rep, act.key, author, seq)
    for what, wanted in attachments.items():
        expect_keys(getattr(entry, what), wanted, what, seq, author)

    if isinstance(act, Join):
        if entry.sealed and not addressed(entry.sealed[SEED], [rep.roster[author]]):
            raise IllegalMove("the referee's seed must be sealed to the referee alone", seq, author)
        rep.contributions.append(entry.contribution or "")
        if entry.commitments:
            rep.seed_commitment = entry.commitments[SEED]
        return [Joined(author)]
    if isinstance(act, CommitDeal):
        post_deal(rep, dict(entry.commitments or {}), act.first, author)
        rep.seeded.append(Seeded(seq, author, "a deal", (act.first, dict(entry.commitments or {}))))
        return [DealPosted(author, act.first)]
    if isinstance(act, Unopenable):
        item = rep.items[act.key]
        if author == rep.referee:
            reason = (f"the referee {author} says the sealed value of {act.key} does not open (the referee's word: "
                      "nobody else can check it)")
        else:
            reason = (f"{author} says the card sealed to them as {act.key} does not open (the receiver's word: "
                      "nobody else can check it)")
        rep.verdict = Verdict(item.sealed_by, reason, seq, author)
        return [rep.verdict]
    return check_seed(rep, entry, seq, proving=isinstance(act, ConvictDeal))


def _apply_absence(rep: Replay, entry: Entry, act: RecordAbsence, seq: int) -> list[object]:
    """An absence (docs/deadlines.md): owed, signed by whom it may be and late enough by the signed times
    (pbem.protocol.absence); once every signer has signed it, the game's rule for an absent party applies,
    or, for the referee, the game ends against it with no winner."""
    author, party = entry.author, act.party
    if rep.state is None and party != rep.referee:  # a referee that never deals is absent from the deal
        raise NotOwed(f"{entry.action}: the game has not started: {waiting_text(rep)}", seq, author)
    times, waiting = check_absence(rep, entry, party, act.what, act.since, seq)
    nothing: set[str] = set()
    game = rep.game
    strikes = rep.strikes.get(party, 0) + (act.what == "move")
    public, secrets, after, events = None, Secrets(), rep.state, ()
    if party == rep.referee:
        if act.then:
            raise IllegalMove(f"{entry.action}: an absent referee's duty becomes the end of the game, no act", seq,
                              author)
    else:  # every signer signs the same consequence: each one's entry is checked for it
        try:
            if act.then:
                checked = game.check(rep.state, party, game.parse_action(act.then))
                if game.format_action(game.public(checked)) != act.then:
                    raise IllegalAction(act.then, "the record holds an act complete and public, as "
                                                  f"{game.format_action(game.public(checked))!r}")
                public, secrets = game.public(checked), game.secrets(rep.state, party, checked)
            after, events = game.absent(rep.state, party, public, strikes)
        except (IllegalAction, NotationError) as exc:
            raise IllegalMove(f"{entry.action}: {exc}", seq, author) from None
        _check_one_form(rep, entry, act, seq)
    signers = tuple(dict.fromkeys((rep.pending[1] if rep.pending else ()) + (author,)))  # once each, if one passed over
    by_seed = bool(act.then and secrets.opens and rep.seed_commitment and not players_own(rep, secrets.opens))
    hidden = {key: item.key for key, item in rep.items.items()
              if item.readers == (party,) and item.value is None and not item.players_own}
    if waiting:  # one of several signers: the last one carries what the act shows
        for what in ("commitments", "sealed", "openings"):
            expect_keys(getattr(entry, what), nothing, what, seq, author)
        rep.pending = (entry.action, signers)
        if by_seed:
            _post_discard(rep, seq, signers, act, hidden)
        return [AbsenceSigned(party, author, tuple(waiting))]
    record = Absence(party, act.what, act.since, seq, signers, times.deadline, entry.time or 0,
                     withheld=act.what == "open" or strikes >= ABSENCES_OUT, by_seed=by_seed)
    if party == rep.referee:
        for what in ("commitments", "sealed", "openings"):
            expect_keys(getattr(entry, what), nothing, what, seq, author)
        rep.pending = None
        rep.absences.append(record)
        rep.verdict = Verdict(party, f"the referee was absent: it owed {act.what} since entry {act.since}, past "
                                     "its deadline and grace (recorded by every player); the game ends with no "
                                     "winner", seq, author)
        return [record, rep.verdict]
    check_attachments(rep, entry, secrets, party, seq)
    if by_seed:
        _post_discard(rep, seq, signers, act, hidden)
    rep.pending = None
    rep.state = after
    rep.strikes[party] = strikes
    rep.absences.append(record)
    return [record, *events]


def _check_one_form(rep: Replay, entry: Entry, act: RecordAbsence, seq: int) -> None:
    """An absence whose act the rule gives from the public state (a Path of Pharaohs `stop`, a Sarcophagus
    trap's lowest tile, nothing for a pass) is written in that one form. Co-signers sign the text their own
    program finds: a first signer who wrote it otherwise (`absent ann move` for `... do stop`, which the
    game reads alike) would leave an absence no honest program completes, and the game stalled."""
    try:
        ruled = rep.game.absence_act(rep.state, act.party, None)
    except IllegalAction:
        return  # it needs the hand (the lowest cards): its kind and count are checked, its cards by the seed
    then = rep.game.format_action(rep.game.public(ruled)) if ruled is not None else ""
    if act.then != then:
        raise IllegalMove(f"{entry.action!r}: the record holds this absence as {format_act(replace(act, then=then))!r}",
                          seq, entry.author)


def _post_discard(rep: Replay, seq: int, signers: tuple[str, ...], act: RecordAbsence, hidden: dict[str, str]) -> None:
    """Cards an absence discards by rule from a hand only the dealer's seed shows to all: checked when the
    seed opens, against everyone who has signed it (from its first signer's entry on, so a co-signer's
    program that holds the seed can convict a false one before it takes effect)."""
    found = [i for i, posted in enumerate(rep.seeded) if posted.what == ABSENT_DISCARD and len(signers) > 1
             and posted.context[1] == act.party and posted.posted == act.then]
    if found:  # a co-signer: the same claim, now theirs too
        rep.seeded[found[-1]] = replace(rep.seeded[found[-1]], author=" and ".join(signers))
    else:
        rep.seeded.append(Seeded(seq, " and ".join(signers), ABSENT_DISCARD, act.then, (rep.state, act.party, hidden)))


def _convict_absence(rep: Replay, entry: Entry, act: ConvictAbsence, seq: int) -> list[object]:
    """An absent player opens the hidden cards of the hand they held when an absence discarded for them
    (each dealt to them with its salt): if the game's rule run on that hand gives another discard, the
    absence's signers are convicted; openings that prove nothing are refused."""
    author = entry.author
    keys = [key for key, _ in act.values]
    hidden = [key for key in keys if key in rep.items and rep.items[key].value is None
              and not rep.items[key].players_own]
    if rep.state is None or len(set(keys)) != len(keys) or hidden != keys:
        raise IllegalMove(f"{entry.action}: open each hidden card the dealer dealt, once", seq, author)
    for what in ("commitments", "sealed"):
        expect_keys(getattr(entry, what), set(), what, seq, author)
    salts = expect_keys(entry.openings, set(keys), "openings", seq, author)
    for key, value in act.values:
        item = rep.items[key]
        if commit(item.binding, item.owner, item.key, value, salts[key]) != item.commitment:
            raise BadOpening(f"{key}={value} does not match the card the dealer committed", seq, author)
    known = {key: item.value for key, item in rep.items.items() if item.value is not None} | dict(act.values)
    for posted in rep.seeded:
        if posted.what != ABSENT_DISCARD or posted.context[1] != author or not set(posted.context[2]) <= set(known):
            continue
        lowest = lowest_given(rep, posted, {key: known[key] for key in posted.context[2]})
        if lowest != posted.posted:
            rep.verdict = Verdict(posted.author, f"signed {author}'s absence (from entry {posted.seq}) with the act "
                                                 f"{posted.posted!r}, but {author}'s cards, opened, show their lowest "
                                                 f"cards then gave {lowest!r}", seq, author)
            return [rep.verdict]
    raise IllegalMove(f"{entry.action}: these cards prove no absent discard recorded for {author} false", seq, author)


def replay(record: GameFile) -> Replay:
    """Check a whole record from the genesis on; raises a VerifyError naming the first bad entry. The part
    of it this process has already verified, byte for byte, is not checked twice (pbem.protocol.remembered)."""
    keys = remembered.chain(record)
    rep = remembered.recall(keys) or start(record.genesis)
    # the record's own genesis and entries, not those kept: they hashed to the same keys just now, and a kept
    # one is another caller's object, whose dicts (sealed, openings) that caller may have changed since
    rep.genesis, rep.entries = record.genesis, list(record.entries[:rep.seq])
    for entry in record.entries[rep.seq:]:
        apply_entry(rep, entry)
    remembered.keep(keys, rep)
    return rep

