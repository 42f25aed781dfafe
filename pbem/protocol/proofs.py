"""The verdicts a participant's program can prove from what its key opens, checked before it signs
anything else (Session.automatic): a dealer's post its seed contradicts, a card or coin that does not
open, a coin its owner did not hold, and (the absent player) a discard recorded for them that was not
their lowest cards. Each returns the act to sign and its attachments."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.contract import Value
from pbem.errors import SealError
from pbem.protocol.acts import Act, ConvictAbsence, ConvictDeal, ConvictSecrets, Unopenable
from pbem.protocol.commitments import SEED
from pbem.protocol.seeds import ABSENT_DISCARD, lowest_given, seed_contradiction

if TYPE_CHECKING:
    from pbem.protocol.session import Session

Proof = tuple[Act, dict[str, Any]]
"""A verdict to sign, and its attachments (the openings that prove it)."""


def cheat_found(self: Session) -> Proof | None:
    """A verdict this participant can prove now: something the dealer posted that its seed contradicts
    (anyone holding the seed), or (the referee, who opens every secret a player commits) a secret that
    does not open or was not its owner's to choose."""
    rep = self.rep
    if rep.verdict or rep.state is None:
        return None
    if rep.seed_commitment and self.can_deal() and len(rep.seeded) > self._seeded_checked:
        seed = self.dealer_secret()["seed"]
        false = seed_contradiction(rep, seed, self._seeded_checked)
        if false is not None and false.author != self.name:
            return ConvictDeal(), {"openings": {SEED: seed}}
        self._seeded_checked = len(rep.seeded)  # what was posted never changes: checked once
    if rep.referee and not self.is_referee:  # a card the referee dealt or moved to me must open for me
        for key in self._readable():
            item = rep.items[key]
            if not item.players_own and item.value is None and item.sealed_by == rep.referee:
                try:
                    self._open_item(key)
                except SealError:
                    return Unopenable(key), {}
        proof = false_discard(self)
        if proof is not None:
            return proof
    if self.is_referee:
        unopened = [key for key, item in rep.items.items()
                    if item.players_own and item.value is None and self.name in item.readers]
        for key in unopened:
            try:
                self._open_item(key)
            except SealError:
                return Unopenable(key), {}
        values = [(key, self._opened[key][0]) for key in unopened]
        problem = rep.game.audit_problem(rep.state, values) if values else None
        if problem:
            owner = rep.roster[problem[0]].raw.hex()
            theirs = tuple((key, value) for key, value in values if rep.items[key].owner == owner)
            return ConvictSecrets(theirs), {"openings": {key: self._opened[key][1] for key, _ in theirs}}
    return None


def false_discard(self: Session) -> Proof | None:
    """An absence that discarded other cards than my lowest (referee mode: only the referee's seed shows
    my hand to all, at the end): my program opens the cards I held then, which proves it now."""
    rep = self.rep
    for posted in rep.seeded:
        if posted.what != ABSENT_DISCARD or posted.context[1] != self.name:
            continue
        hand: dict[str, str] = posted.context[2]
        values: dict[str, Value] = {}
        try:
            for key in hand:
                known = rep.items[key].value
                values[key] = known if known is not None else self._open_item(key)[0]
        except SealError:  # a card since given to another player: not mine to open
            continue
        if lowest_given(rep, posted, values) != posted.posted:
            hidden = [key for key in hand if rep.items[key].value is None]
            return (ConvictAbsence(tuple((key, values[key]) for key in hidden)),
                    {"openings": {key: self._open_item(key)[1] for key in hidden}})
    return None


__all__ = ["Proof", "cheat_found", "false_discard"]
