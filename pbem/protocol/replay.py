"""A record replayed: the state of a game as its entries built it, and who may act for whom."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import field, fields, replace
from typing import Any

from engine.contract import (
    DEALER,
    AnyGame,
    Dealt,
    Duty,
    Value,
)
from engine.frozen import Mutable
from pbem.crypto import PublicKey
from pbem.protocol.acts import (
    Verdict,
)
from pbem.protocol.commitments import Item, Seeded
from pbem.protocol.dealing import stock_key
from pbem.record.models import Entry, GameFile, Genesis


class Replay(Mutable):
    """A record replayed and checked up to its last entry."""

    genesis: Genesis
    game: AnyGame
    state: Any
    """The game's state: None until the joint deal is posted."""
    roster: dict[str, PublicKey]
    referee: str | None
    entries: list[Entry] = field(default_factory=list)
    items: dict[str, Item] = field(default_factory=dict)
    stock: list[str] = field(default_factory=list)
    """The keys of the dealer's stock not yet drawn, top first."""
    head: str = ""
    hashes: list[str] = field(default_factory=list)
    """The payload hash of the genesis and of every entry, in order (hashes[seq])."""
    events: list[tuple[int, object]] = field(default_factory=list)
    contributions: list[str] = field(default_factory=list)
    """Every share of the deal's randomness: the creator's, then each join's."""
    seed_commitment: str | None = None
    seed: str | None = None
    """The dealer's seed, once opened (the end audit)."""
    seeded: list[Seeded] = field(default_factory=list)
    restocks: int = 0
    first: str | None = None
    dealt_by: str | None = None
    verdict: Verdict | None = None
    began: dict[str, int] = field(default_factory=dict)
    """When each party's present duty began: the entry after which they owe it (pbem.protocol.absence)."""
    held: dict[str, int] = field(default_factory=dict)
    """Since which entry each party has answered for a duty without a break, their own entries not breaking
    it: what `pbem status` shows of a game without a deadline policy."""
    strikes: dict[str, int] = field(default_factory=dict)
    """Each player's absent turns in a row (none of their own acts since)."""
    pending: tuple[str, tuple[str, ...]] | None = None
    """An absence that several must sign, as far as it is signed: its text and who signed it."""
    absences: list[Any] = field(default_factory=list)
    """Every absence recorded (pbem.protocol.absence.Absence), in order."""

    def fork(self) -> Replay:
        """A copy to go on from, leaving this one as it is: apply_entry changes only this replay's own lists
        and dicts, which the copy gets afresh; what they hold (entries, items, events, the engine's state) is
        never changed in place, so it is shared."""
        return replace(self, **{f.name: copy.copy(getattr(self, f.name)) for f in fields(self)
                                if isinstance(getattr(self, f.name), (list, dict, set))})

    @property
    def record(self) -> GameFile:
        """The record as it stands (already validated entry by entry)."""
        return GameFile.model_construct(genesis=self.genesis, entries=list(self.entries))

    @property
    def players(self) -> list[str]:
        return [p.name for p in self.genesis.players]

    @property
    def mode(self) -> str:
        return self.genesis.dealer.mode

    @property
    def dealer_signer(self) -> str | None:
        """Who signs the dealer's acts: the referee in referee mode; None at a table, where any player's
        program deals (the one definition: the checks, the messages, status and mail use it)."""
        return self.referee if self.mode == "referee" else None

    @property
    def seq(self) -> int:
        return len(self.entries)

    @property
    def genesis_hash(self) -> str:
        return self.hashes[0]

    @property
    def joiners(self) -> list[str]:
        """Who must join, in order: the referee first (it commits the seed before anyone contributes),
        then the players in seat order; never the creator, whose genesis is their acceptance."""
        order = ([self.referee] if self.referee else []) + self.players
        return [name for name in order if name != self.genesis.author]

    @property
    def awaiting_join(self) -> list[str]:
        return self.joiners[len(self.contributions) - 1:]

    @property
    def deal_text(self) -> str:
        g = self.genesis
        if g.deal == "chosen":
            return f"deal chosen by {g.author}"
        return f"joint deal (seed committed by {self.referee or g.author}, shuffled with every join)"

    def duties(self) -> tuple[Duty, ...]:
        if self.verdict:
            return ()
        if self.awaiting_join:
            return (Duty(self.awaiting_join[0], "join", "join the game (sign it and add randomness to the deal)"),)
        if self.state is None:
            return (Duty(DEALER, "deal", "deal the hidden items and draw the first player"),)
        owed = self.game.duties(self.state)
        if not owed and self.seed_commitment and self.seed is None:
            return (Duty(DEALER, "audit", "open the dealer's seed"),)
        return owed

    def outcome(self) -> Any:
        """The game's own result (scores and winners), or None while it runs or when a verdict ended it."""
        if self.verdict or self.state is None:
            return None
        return self.game.outcome(self.state)

    @property
    def over(self) -> bool:
        return self.verdict is not None or (self.outcome() is not None and not self.duties())


def actor_for(rep: Replay, action: Any) -> str:
    """Who the rules say performs an action (the game decides: engine.contract.Game.actor)."""
    return rep.game.actor(rep.state, action)


TABLE_DEALS = "any player (the table deals)"
"""The dealer's duty at a table, as messages name its holder."""


def party_names(rep: Replay) -> dict[str, str]:
    """How messages name the rules' parties: in referee mode the dealer is a person or bot with a name."""
    return {DEALER: f"the referee {rep.referee}"} if rep.referee else {}


def owes_opening(rep: Replay, actor: str) -> bool:
    return any(d.who == actor and d.what == "open" for d in rep.duties())


def may_act_for(rep: Replay, author: str, actor: str) -> bool:
    """The author signs for the actor: themselves; in table mode any player deals; a referee deals and
    (holding every secret a player commits) opens for anyone who owes an opening."""
    if author == actor and actor != rep.referee:
        return True
    if actor == DEALER:
        return author == rep.dealer_signer if rep.dealer_signer else author in rep.players
    return author == rep.referee and owes_opening(rep, actor)


def players_own(rep: Replay, opened: Sequence[tuple[str, Value]]) -> bool:
    """Whether every item opened is one a player committed (a coin), not one the dealer dealt."""
    return all(key in rep.items and rep.items[key].players_own for key, _ in opened)


def waiting_text(rep: Replay) -> str:
    duty = rep.duties()[0]
    who = party_names(rep).get(duty.who, TABLE_DEALS if duty.who == DEALER else duty.who)
    return f"waiting for {who} to {duty.detail.split(' (')[0]}"


def deal_keys(dealt: Dealt) -> list[str]:
    """The keys a deal commits: its named items, then its stock in drawing order."""
    return list(dealt.named) + [stock_key(0, i) for i in range(len(dealt.stock))]


def post_deal(rep: Replay, commitments: dict[str, str], first: str, by: str, state: Any = None) -> None:
    """The deal is posted: every hidden item committed, the first player named; the game begins."""
    nonce = rep.genesis.nonce
    rep.items = {key: Item(commitment, nonce, DEALER, key) for key, commitment in commitments.items()}
    rep.stock = sorted((key for key in commitments if key.startswith("s0.")), key=lambda k: int(k[3:]))
    rep.first, rep.dealt_by = first, by
    game = rep.game
    rep.state = state if state is not None else game.setup(game.parse_options(rep.genesis.options), rep.players, first)
