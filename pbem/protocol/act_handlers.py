"""The trust layer's acts applied (pbem.protocol.acts lists them): one handler per kind, found in
`HANDLERS` by the act's class. Each checks who may sign the act now and what it must carry, then
applies it; absences have their own module (pbem.protocol.absent_acts)."""

from __future__ import annotations

from collections.abc import Callable, Sequence, Set
from typing import Any

from engine.contract import DEALER, Value
from pbem.errors import BadOpening, IllegalMove, NotAnAct, NotOwed
from pbem.protocol.absence import claimed_in_time
from pbem.protocol.absent_acts import apply_absence, convict_absence
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
    parse_act,
)
from pbem.protocol.attachments import expect_keys
from pbem.protocol.commitments import SEED, Seeded, addressed, commit
from pbem.protocol.replay import Replay, deal_keys, may_act_for, players_own, post_deal
from pbem.protocol.seeds import check_seed, deal_shape
from pbem.record.models import Entry

Handler = Callable[[Replay, Entry, Any, int], list[object]]
"""(the replay, the entry, its act, the entry's seq) -> the events it causes."""


def apply_act(rep: Replay, entry: Entry, seq: int) -> list[object]:
    """A join, the deal, the audit, a verdict or an absence, in its one canonical text, by its handler."""
    try:
        act: Act = parse_act(entry.action)
    except NotAnAct as exc:
        raise IllegalMove(str(exc), seq, entry.author) from None
    if format_act(act) != entry.action:  # one text for each act, as for moves
        raise IllegalMove(f"{entry.action!r}: the record holds this act as {format_act(act)!r}", seq, entry.author)
    return HANDLERS[type(act)](rep, entry, act, seq)


def _carries(entry: Entry, seq: int, commitments: Set[str] = frozenset(), sealed: Set[str] = frozenset(),
             openings: Set[str] = frozenset()) -> None:
    """The act's attachments are exactly these keys (none, unless named)."""
    for what, wanted in (("commitments", commitments), ("sealed", sealed), ("openings", openings)):
        expect_keys(getattr(entry, what), set(wanted), what, seq, entry.author)


def _join(rep: Replay, entry: Entry, act: Join, seq: int) -> list[object]:
    author = entry.author
    if not rep.awaiting_join or rep.awaiting_join[0] != author:
        waiting = f"waiting for {rep.awaiting_join[0]} to join" if rep.awaiting_join else "everyone has joined"
        raise NotOwed(f"join: {author} may not join now ({waiting})", seq, author)
    # the referee of a joint deal commits the seed it deals from, sealed to itself
    seed = {SEED} if author == rep.referee and rep.genesis.deal == "joint" else set()
    _carries(entry, seq, commitments=seed, sealed=seed)
    if entry.sealed and not addressed(entry.sealed[SEED], [rep.roster[author]]):
        raise IllegalMove("the referee's seed must be sealed to the referee alone", seq, author)
    rep.contributions.append(entry.contribution or "")
    if entry.commitments:
        rep.seed_commitment = entry.commitments[SEED]
    return [Joined(author)]


def _dealer_owes(rep: Replay, entry: Entry, kind: str, seq: int) -> None:
    """The deal or the audit is the trust layer's own duty now, and the author signs for the dealer. Not a
    game's duty of the same name: Path of Pharaohs deals cards, and a `deal first=` then would post the
    deal again and set the game back to its start."""
    owed = rep.duties()
    if not owed or owed[0].what != kind or (rep.state is not None if kind == "deal" else rep.game.duties(rep.state)):
        raise NotOwed(f"{kind}: nothing is owed of the kind now", seq, entry.author)
    if not may_act_for(rep, entry.author, DEALER):
        raise NotOwed(f"{kind}: {entry.author} may not act for the dealer", seq, entry.author)


def _commit_deal(rep: Replay, entry: Entry, act: CommitDeal, seq: int) -> list[object]:
    _dealer_owes(rep, entry, "deal", seq)
    if act.first not in rep.players:
        raise IllegalMove(f"deal: {act.first!r} is not a player", seq, entry.author)
    _carries(entry, seq, commitments=set(deal_keys(deal_shape(rep))))
    post_deal(rep, dict(entry.commitments or {}), act.first, entry.author)
    rep.seeded.append(Seeded(seq, entry.author, "a deal", (act.first, dict(entry.commitments or {}))))
    return [DealPosted(entry.author, act.first)]


def _audit(rep: Replay, entry: Entry, act: Audit, seq: int) -> list[object]:
    _dealer_owes(rep, entry, "audit", seq)
    _carries(entry, seq, openings={SEED})
    return check_seed(rep, entry, seq, proving=False)


def _convict_secrets(rep: Replay, entry: Entry, act: ConvictSecrets, seq: int) -> list[object]:
    if rep.state is None:
        raise IllegalMove("verdict: nothing has been committed", seq, entry.author)
    return convict(rep, entry, act.values, seq, "these openings prove nothing against anyone")


def _convict_deal(rep: Replay, entry: Entry, act: ConvictDeal, seq: int) -> list[object]:
    if rep.state is None or rep.seed_commitment is None:
        raise IllegalMove("verdict deal: there is no joint deal to check yet", seq, entry.author)
    _carries(entry, seq, openings={SEED})
    return check_seed(rep, entry, seq, proving=True)


def _unopenable(rep: Replay, entry: Entry, act: Unopenable, seq: int) -> list[object]:
    """A sealed value that does not open for its reader: the referee's word for a player's secret, or a
    card's receiver's word against the referee that sealed it to them. Nobody else can check it."""
    author = entry.author
    item = rep.items.get(act.key) if rep.state is not None else None
    if (item is not None and not item.players_own and rep.referee and author != rep.referee
            and item.sealed_by == rep.referee):
        # a card the referee dealt or moved to a player, sealed to them alone: the receiver's word
        if item.value is not None or item.readers != (author,):
            raise IllegalMove(f"verdict unopenable: {act.key} is not an unopened item sealed to {author}", seq, author)
    else:
        if author != rep.referee:
            raise NotOwed("verdict unopenable: only the referee, who opens every secret a player commits, or "
                          f"the receiver of a {rep.game.hand_words.item} the referee sealed, may say so", seq, author)
        if item is None or not item.players_own or item.value is not None or author not in item.readers:
            raise IllegalMove(f"verdict unopenable: there is no unopened {act.key} sealed to the referee", seq, author)
    claimed_in_time(rep, act.key, author, seq)
    _carries(entry, seq)
    if author == rep.referee:
        reason = (f"the referee {author} says the sealed value of {act.key} does not open (the referee's word: "
                  "nobody else can check it)")
    else:
        reason = (f"{author} says the {rep.game.hand_words.item} sealed to them as {act.key} does not open (the "
                  "receiver's word: nobody else can check it)")
    rep.verdict = Verdict(rep.items[act.key].sealed_by, reason, seq, author)
    return [rep.verdict]


def convict(rep: Replay, entry: Entry, opened: Sequence[tuple[str, Value]], seq: int, why: str) -> list[object]:
    """Openings that match their commitments and prove an impossible choice: a verdict against its player
    (a `verdict open`, or a move whose true openings contradict its player's earlier play)."""
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


HANDLERS: dict[type[Act], Handler] = {
    Join: _join,
    CommitDeal: _commit_deal,
    Audit: _audit,
    ConvictSecrets: _convict_secrets,
    ConvictDeal: _convict_deal,
    ConvictAbsence: convict_absence,
    Unopenable: _unopenable,
    RecordAbsence: apply_absence,
}
"""Every act's handler by its class: pbem.protocol.acts.Act names the same kinds."""
