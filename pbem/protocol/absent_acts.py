"""Absences applied (docs/deadlines.md): an `absent` act, signed by whom it may be and late enough, and
the verdict an absent player proves with their own cards against a discard recorded for them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from engine.contract import ABSENCES_OUT, STRIKE_KIND, IllegalAction, NotationError, Secrets
from pbem.errors import BadOpening, IllegalMove, NotOwed
from pbem.protocol.absence import Absence, AbsenceSigned, check_absence
from pbem.protocol.acts import ConvictAbsence, RecordAbsence, Verdict, format_act
from pbem.protocol.attachments import check_attachments, expect_keys
from pbem.protocol.commitments import Seeded, commit
from pbem.protocol.replay import Replay, players_own, waiting_text
from pbem.protocol.seeds import ABSENT_DISCARD, lowest_given
from pbem.record.models import Entry


def apply_absence(rep: Replay, entry: Entry, act: RecordAbsence, seq: int) -> list[object]:
    """An absence (docs/deadlines.md): owed, signed by whom it may be and late enough by the signed times
    (pbem.protocol.absence); once every signer has signed it, the game's rule for an absent party applies,
    or, for the referee, the game ends against it with no winner."""
    author, party = entry.author, act.party
    if rep.state is None and party != rep.referee:  # a referee that never deals is absent from the deal
        raise NotOwed(f"{entry.action}: the game has not started: {waiting_text(rep)}", seq, author)
    times, waiting = check_absence(rep, entry, party, act.what, act.since, seq)
    strikes = rep.strikes.get(party, 0) + (act.what == STRIKE_KIND)
    events: Sequence[object]
    if party == rep.referee:
        if act.then:
            raise IllegalMove(f"{entry.action}: an absent referee's duty becomes the end of the game, no act", seq,
                              author)
        secrets, after, events = Secrets(), rep.state, ()
    else:
        secrets, after, events = _consequence(rep, entry, act, seq, strikes)
    signers = tuple(dict.fromkeys((rep.pending[1] if rep.pending else ()) + (author,)))  # once each, if one passed over
    by_seed = bool(act.then and secrets.opens and rep.seed_commitment and not players_own(rep, secrets.opens))
    hidden = {key: item.key for key, item in rep.items.items()
              if item.readers == (party,) and item.value is None and not item.players_own}
    if waiting:  # one of several signers: the last one carries what the act shows
        _carries_nothing(entry, seq)
        rep.pending = (entry.action, signers)
        if by_seed:
            _post_discard(rep, seq, signers, act, hidden)
        return [AbsenceSigned(party, author, tuple(waiting))]
    record = Absence(party, act.what, act.since, seq, signers, times.deadline, entry.time or 0,
                     withheld=act.what == "open" or strikes >= ABSENCES_OUT, by_seed=by_seed)
    if party == rep.referee:
        _carries_nothing(entry, seq)
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


def _consequence(rep: Replay, entry: Entry, act: RecordAbsence, seq: int,
                 strikes: int) -> tuple[Secrets, Any, Sequence[object]]:
    """What an absent player's duty becomes by the game's rule: the secrets its act shows, the state after
    and its events. Every signer signs the same consequence: each one's entry is checked for it."""
    game, party = rep.game, act.party
    public, secrets = None, Secrets()
    try:
        if act.then:
            checked = game.check(rep.state, party, game.parse_action(act.then))
            if game.format_action(game.public(checked)) != act.then:
                raise IllegalAction(act.then, "the record holds an act complete and public, as "
                                              f"{game.format_action(game.public(checked))!r}")
            public, secrets = game.public(checked), game.secrets(rep.state, party, checked)
        after, events = game.absent(rep.state, party, public, strikes)
    except (IllegalAction, NotationError) as exc:
        raise IllegalMove(f"{entry.action}: {exc}", seq, entry.author) from None
    _check_one_form(rep, entry, act, seq)
    return secrets, after, events


def _carries_nothing(entry: Entry, seq: int) -> None:
    for what in ("commitments", "sealed", "openings"):
        expect_keys(getattr(entry, what), set(), what, seq, entry.author)


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


def convict_absence(rep: Replay, entry: Entry, act: ConvictAbsence, seq: int) -> list[object]:
    """An absent player opens the hidden cards of the hand they held when an absence discarded for them
    (each dealt to them with its salt): if the game's rule run on that hand gives another discard, the
    absence's signers are convicted; openings that prove nothing are refused."""
    author, words = entry.author, rep.game.hand_words
    keys = [key for key, _ in act.values]
    hidden = [key for key in keys if key in rep.items and rep.items[key].value is None
              and not rep.items[key].players_own]
    if rep.state is None or len(set(keys)) != len(keys) or hidden != keys:
        raise IllegalMove(f"{entry.action}: open each hidden {words.item} the dealer dealt, once", seq, author)
    for what in ("commitments", "sealed"):
        expect_keys(getattr(entry, what), set(), what, seq, author)
    salts = expect_keys(entry.openings, set(keys), "openings", seq, author)
    for key, value in act.values:
        item = rep.items[key]
        if commit(item.binding, item.owner, item.key, value, salts[key]) != item.commitment:
            raise BadOpening(f"{key}={value} does not match the {words.item} the dealer committed", seq, author)
    known = {key: item.value for key, item in rep.items.items() if item.value is not None} | dict(act.values)
    for posted in rep.seeded:
        if posted.what != ABSENT_DISCARD or posted.context[1] != author or not set(posted.context[2]) <= set(known):
            continue
        lowest = lowest_given(rep, posted, {key: known[key] for key in posted.context[2]})
        if lowest != posted.posted:
            rep.verdict = Verdict(posted.author, f"signed {author}'s absence (from entry {posted.seq}) with the act "
                                                 f"{posted.posted!r}, but {author}'s {words.items}, opened, show "
                                                 f"their {words.chosen} then gave {lowest!r}", seq, author)
            return [rep.verdict]
    raise IllegalMove(f"{entry.action}: these {words.items} prove no absent {words.act} recorded for {author} false",
                      seq, author)
