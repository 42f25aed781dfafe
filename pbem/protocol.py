"""Signed entries applied to the engine: creating a game, replaying and checking a record, and a
participant's acts. `apply_entry` is the one path every entry takes, whether we just wrote it or
are verifying someone else's file.

A game runs in three phases: every participant but the creator signs a `join` (in roster order, the
referee first), the dealer posts the joint `deal`, then the game's own duties follow. A proven cheat
at any point is a `verdict` that ends the game (pbem.acts).
"""

from __future__ import annotations

import base64
import binascii
import json
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine import find_game
from engine.contract import (
    DEALER,
    AnyGame,
    Dealt,
    Duty,
    IllegalAction,
    InvalidSetup,
    NotationError,
    NotYourDuty,
    Secrets,
    UnknownGame,
    Value,
)

from . import crypto
from .acts import (
    Act,
    Audit,
    Audited,
    ConvictDeal,
    ConvictSecrets,
    Deal,
    Join,
    Joined,
    Unopenable,
    Verdict,
    format_act,
    is_act,
    parse_act,
)
from .acts import Dealt as DealPosted
from .canonical import canonical
from .crypto import Identity, PublicKey, X25519Identity
from .dealing import chance_pick, deal_random, item_salt, restocked, stock_key
from .errors import (
    BadGenesis,
    BadOpening,
    BadSequence,
    BadSignature,
    BrokenChain,
    IllegalMove,
    KeyProblem,
    NotOwed,
    PbemError,
    SealError,
    UnknownSigner,
    UsageError,
    WrongGame,
)
from .record import FORMAT, Dealer, Entry, GameFile, Genesis, Participant, core_id, payload

COMMITMENT_DOMAIN = "pbem/commitment/v2"
SEED = "seed"


def commit(binding: str, owner: str, slot: str, value: Value, salt: str) -> str:
    """SHA-256 over a domain-separated canonical object: what it is bound to (a coin: the genesis hash;
    the dealer's tiles and seed: the genesis nonce), its owner (a coin: the owner's public key), the
    slot, the value and a salt. Nothing committed in one game means anything in another."""
    return crypto.sha256(canonical({"domain": COMMITMENT_DOMAIN, "game": binding, "owner": owner, "slot": slot,
                                    "value": value, "salt": salt})).hex()


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def _unb64(text: str) -> bytes:
    """Strict base64: one encoding per byte string, so no two different files mean the same thing."""
    try:
        data = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):  # ValueError: non-ASCII text
        raise SealError("bad base64") from None
    if base64.b64encode(data).decode() != text:
        raise SealError("non-canonical base64")
    return data


def _salt() -> str:
    return crypto.random_bytes(32).hex()


@dataclass
class Item:
    """A hidden item the record committed to: how to check its opening, who may read its sealed value,
    and its value once opened. A card dealt from the stock keeps the key it was committed under."""

    commitment: str
    binding: str
    """What the commitment binds: the genesis hash (a player's own secret) or the nonce (the dealer's)."""
    owner: str
    """Who committed it: a player's public key in hex, or DEALER."""
    key: str
    readers: tuple[str, ...] = ()
    """Whom its sealed value is addressed to (the dealer reads every dealer item from its seed)."""
    sealed: str | None = None
    sealed_by: str = ""
    value: Value | None = None

    @property
    def players_own(self) -> bool:
        return self.owner != DEALER


@dataclass(frozen=True)
class Seeded:
    """Something the dealer posted that its seed must give: the deal, a reshuffle or a pick by chance.
    Checked by every program holding the seed as it is posted, and by everyone when the seed opens."""

    seq: int
    author: str
    what: str
    posted: object
    context: tuple[Any, ...] = ()


@dataclass
class Replay:
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


# ---------------------------------------------------------------- checking

def _verify_signature(signed: Genesis | Entry, signed_bytes: bytes, key: PublicKey, seq: int) -> None:
    try:
        crypto.verify_signature(key, signed_bytes, _unb64(signed.signature))
    except (crypto.SignatureInvalid, SealError) as exc:
        raise BadSignature(str(exc), seq, signed.author) from None


def _addressed(blob: str, recipients: list[PublicKey], native: int = 0) -> bool:
    """A sealed blob whose header names exactly these ssh-ed25519 recipients (and `native` X25519 ones)."""
    try:
        raw = _unb64(blob)
        return (crypto.recipient_count(raw) == len(recipients) + native
                and all(crypto.addressed_to(raw, key) for key in recipients))
    except SealError:
        return False


def start(g: Genesis) -> Replay:
    """Check the genesis and set up the engine; the entries are applied by `apply_entry`."""

    def bad(detail: str) -> BadGenesis:
        return BadGenesis(detail, 0, g.author)

    try:
        game = find_game(g.game)
    except UnknownGame as exc:
        raise bad(str(exc)) from None
    roster: dict[str, PublicKey] = {}
    participants = list(g.players) + ([g.dealer.referee] if g.dealer.referee else [])
    for person in participants:
        if person.name in roster or person.name == DEALER:
            raise bad(f"the name {person.name!r} is used twice or reserved")
        try:
            roster[person.name] = PublicKey.parse(person.key)
        except KeyProblem as exc:
            raise bad(f"{person.name}'s key: {exc}") from None
    if len({k.raw for k in roster.values()}) != len(roster):
        raise bad("two participants share one key")
    if g.author not in roster:
        raise UnknownSigner(f"{g.author!r} is not in the roster", 0, g.author)
    signed_bytes = canonical(payload(g))
    _verify_signature(g, signed_bytes, roster[g.author], 0)
    if g.game_id != core_id(g):
        raise bad("the game id is not derived from the genesis (it must hash the invitation)")
    referee = g.dealer.referee.name if g.dealer.referee else None
    dealer_is_creator = g.author == referee if referee else True
    if g.deal == "joint" and (g.seed is not None) != dealer_is_creator:
        raise bad("the seed of a joint deal is committed by the dealer: in the genesis only if the dealer made it")
    if g.dealer.mode == "table":
        if g.dealer.table_key is None or len(_unb64(g.dealer.table_key)) != 32:
            raise bad("the table key is not an X25519 key")
        if set(g.sealed) != {"dealer", "table_key"}:
            raise bad("a table-mode genesis seals the dealer's secret and the table key")
        if not _addressed(g.sealed["table_key"], [roster[p.name] for p in g.players]):
            raise bad("the table key must be sealed to every player, and to nobody else")
        if not _addressed(g.sealed["dealer"], [], native=1):
            raise bad("the dealer's secret must be sealed to the table key alone")
    else:
        wanted = {"dealer"} if (g.deal == "chosen" or dealer_is_creator) else set()
        if set(g.sealed) != wanted:
            raise bad("a referee-mode genesis seals the dealer's secret only if it holds the deal")
        if wanted and referee and not _addressed(g.sealed["dealer"], [roster[referee]]):
            raise bad("the dealer's secret must be sealed to the referee alone")
    players = [p.name for p in g.players]
    try:
        options = game.parse_options(g.options)
        state = game.setup(options, players, g.first or players[0])
        shape = game.deal(options, players, random.Random(0))
    except InvalidSetup as exc:
        raise bad(str(exc)) from None
    head = crypto.sha256(signed_bytes).hex()
    rep = Replay(g, game, None, roster, referee, head=head, hashes=[head], contributions=[g.contribution],
                 seed_commitment=g.seed)
    if g.deal == "chosen":
        if shape.stock:
            raise bad(_NO_CHOSEN_STOCK.format(title=game.title))
        if set(g.commitments or {}) != set(_deal_keys(shape)) or g.first not in players:
            raise bad("a chosen deal commits to every hidden item and names a player to move first")
        _post_deal(rep, dict(g.commitments or {}), g.first, g.author, state)
    return rep


_NO_CHOSEN_STOCK = ("{title} has no chosen deal: its stock is reshuffled and picked from by chance, which only a "
                    "joint deal's seed can do")
"""A chosen deal commits items in named places only: a stock needs the seed (the audit could not account
for a chosen stock's cards, nor prove a reshuffle or a pick)."""


def _deal_keys(dealt: Dealt) -> list[str]:
    """The keys a deal commits: its named items, then its stock in drawing order."""
    return list(dealt.named) + [stock_key(0, i) for i in range(len(dealt.stock))]


def _post_deal(rep: Replay, commitments: dict[str, str], first: str, by: str, state: Any = None) -> None:
    """The deal is posted: every hidden item committed, the first player named; the game begins."""
    nonce = rep.genesis.nonce
    rep.items = {key: Item(commitment, nonce, DEALER, key) for key, commitment in commitments.items()}
    rep.stock = sorted((key for key in commitments if key.startswith("s0.")), key=lambda k: int(k[3:]))
    rep.first, rep.dealt_by = first, by
    game = rep.game
    rep.state = state if state is not None else game.setup(game.parse_options(rep.genesis.options), rep.players, first)


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
    _verify_signature(entry, signed_bytes, rep.roster[author], seq)
    if entry.prev != rep.head:
        raise BrokenChain("prev does not hash the entry before it", seq, author)
    if rep.verdict:
        raise NotOwed(f"{entry.action}: the game is over: {rep.verdict}", seq, author)
    if (entry.contribution is not None) != (entry.action == "join"):
        raise IllegalMove("a join, and only a join, carries a contribution to the deal", seq, author)
    if is_act(entry.action):
        events = _apply_act(rep, entry, seq)
    else:
        events = _apply_move(rep, entry, seq)
    rep.entries.append(entry)
    rep.head = crypto.sha256(signed_bytes).hex()
    rep.hashes.append(rep.head)
    rep.events += [(seq, e) for e in events]
    return list(events)


def _apply_move(rep: Replay, entry: Entry, seq: int) -> list[object]:
    """A game action: owed by its author (or one they act for), legal, its attachments matching."""
    game, author = rep.game, entry.author
    if rep.state is None or rep.awaiting_join:
        raise NotOwed(f"{entry.action}: the game has not started: {_waiting(rep)}", seq, author)
    if rep.duties() and rep.duties()[0].what == "audit":
        raise NotOwed(f"{entry.action}: the game is over: {_waiting(rep)}", seq, author)
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
        if opened and _players_own(rep, opened):  # true openings that contradict earlier play convict the owner
            return _convict(rep, entry, opened, seq, str(exc))
        raise IllegalMove(str(exc), seq, author) from None
    complete = game.format_action(game.public(checked))
    if complete != entry.action:
        raise IllegalMove(f"{entry.action}: the record holds an action complete and public, as {complete!r}",
                          seq, author)
    secrets = game.secrets(rep.state, actor, checked)
    pick = _chance_pick(rep, entry, checked, seq) if secrets.chance else None
    _check_attachments(rep, entry, secrets, actor, seq)
    if pick is not None:
        rep.seeded.append(pick)
    rep.state, applied = game.apply(rep.state, actor, checked)
    if author != actor:  # the report names who signed the act: "ref opens #1=0", not the owner or "dealer"
        applied = tuple(replace(e, player=author) if getattr(e, "player", None) == actor else e for e in applied)
    return list(applied)


def _players_own(rep: Replay, opened: Sequence[tuple[str, Value]]) -> bool:
    return all(key in rep.items and rep.items[key].players_own for key, _ in opened)


def _expect_keys(found: dict[str, Any] | None, wanted: set[str], what: str, seq: int, author: str) -> dict[str, Any]:
    if set(found or {}) != wanted:
        names = ", ".join(sorted(wanted)) or "none"
        raise IllegalMove(f"this action carries {what} for exactly: {names}", seq, author)
    return found or {}


def _sealed_to(rep: Replay, blob: str, readers: Sequence[str], what: str, seq: int, author: str) -> None:
    if not _addressed(blob, [rep.roster[name] for name in readers]):
        whom = " and ".join(f"the referee {n}" if n == rep.referee else n for n in readers)
        raise IllegalMove(f"{what} must be sealed to {whom}, and to nobody else", seq, author)


def _check_attachments(rep: Replay, entry: Entry, secrets: Secrets, actor: str, seq: int) -> None:
    """Commitments, sealed values and openings: exactly what the action's secrets need, each matching."""
    author, g = entry.author, rep.genesis
    if (secrets.draws or secrets.shows) and len(rep.stock) < len(secrets.draws) + len(secrets.shows):
        raise IllegalMove(f"{entry.action}: the dealer's stock holds only {len(rep.stock)} items", seq, author)
    if secrets.restock and rep.seed_commitment is None:
        raise IllegalMove(f"{entry.action}: a chosen deal has no seed to shuffle from", seq, author)
    drawn = rep.stock[:len(secrets.draws) + len(secrets.shows)]
    number = rep.restocks + 1
    restock_keys = [stock_key(number, i) for i in range(len(secrets.restock))]
    new_keys = [key for key, _ in secrets.commits] + [key for key, _ in secrets.draws]
    if any(key in rep.items for key in new_keys) or len(set(new_keys)) != len(new_keys):
        raise IllegalMove(f"{entry.action}: an item of that name exists already", seq, author)
    commitments = _expect_keys(entry.commitments, {k for k, _ in secrets.commits} | set(restock_keys),
                               "commitments", seq, author)
    sealed = _expect_keys(entry.sealed, set(new_keys) | {k for k, _ in secrets.gives}, "sealed values", seq, author)
    shown = list(zip(drawn[len(secrets.draws):], secrets.shows))
    salts = _expect_keys(entry.openings, {k for k, _ in secrets.opens} | {k for k, _ in shown}, "openings", seq,
                         author)
    for key, value in list(secrets.opens) + shown:
        item = rep.items.get(key)
        if item is None or item.value is not None:
            raise IllegalMove(f"{entry.action}: {key} is not a hidden item", seq, author)
        if commit(item.binding, item.owner, item.key, value, salts[key]) != item.commitment:
            raise BadOpening(f"{key}={value} does not match {_committed(rep, item)}", seq, author)
    for key, _ in secrets.gives:
        if key not in rep.items or rep.items[key].value is not None or rep.items[key].players_own:
            raise IllegalMove(f"{entry.action}: {key} is not a hidden item the dealer dealt", seq, author)
    readers = (actor,) + ((rep.referee,) if rep.referee else ())
    for key, _ in secrets.commits:
        _sealed_to(rep, sealed[key], readers, f"the value of {key}", seq, author)
    for key, player in secrets.draws:
        _sealed_to(rep, sealed[key], (player,), f"the item dealt as {key}", seq, author)
    for key, player in secrets.gives:
        _sealed_to(rep, sealed[key], (player,), f"the item given as {key}", seq, author)
    # the checks are done: record what the entry commits, seals and opens (new Items, never changed in place:
    # a copy of the replay that shares them stays as it was, turns.extend)
    for key, _ in secrets.commits:
        rep.items[key] = Item(commitments[key], rep.genesis_hash, rep.roster[actor].raw.hex(), key, readers,
                              sealed[key], author)
    for (key, player), source in zip(secrets.draws, drawn):
        rep.items[key] = replace(rep.items.pop(source), readers=(player,), sealed=sealed[key], sealed_by=author)
    for key, player in secrets.gives:
        rep.items[key] = replace(rep.items[key], readers=(player,), sealed=sealed[key], sealed_by=author)
    for key, value in list(secrets.opens) + shown:
        rep.items[key] = replace(rep.items[key], value=value)
    del rep.stock[:len(drawn)]
    if secrets.restock:
        rep.restocks = number
        rep.seeded.append(Seeded(seq, author, f"reshuffle {number}", [commitments[k] for k in restock_keys],
                                 (number, tuple(secrets.restock))))
        rep.items.update({k: Item(commitments[k], g.nonce, DEALER, k) for k in restock_keys})
        rep.stock += restock_keys


def _committed(rep: Replay, item: Item) -> str:
    return "the item committed in the deal" if item.owner == DEALER else "its commitment"


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
    if (len(set(keys)) != len(keys) or not _players_own(rep, opened)
            or any(rep.items[key].value is not None for key in keys)):
        raise IllegalMove(f"{entry.action}: {why}", seq, author)
    problem = rep.game.audit_problem(rep.state, opened)
    if problem is None:
        raise IllegalMove(f"{entry.action}: {why}", seq, author)
    _expect_keys(entry.commitments, set(), "commitments", seq, author)
    _expect_keys(entry.sealed, set(), "sealed values", seq, author)
    salts = _expect_keys(entry.openings, set(keys), "openings", seq, author)
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
    elif isinstance(act, (Deal, Audit)):
        kind = "deal" if isinstance(act, Deal) else "audit"
        # the trust layer's own duty, not a game's of the same name (Path of Pharaohs deals cards: a `deal
        # first=` then would post the deal again and set the game back to its start)
        ours = rep.state is None if kind == "deal" else not rep.game.duties(rep.state)
        if not rep.duties() or rep.duties()[0].what != kind or not ours:
            raise NotOwed(f"{kind}: nothing is owed of the kind now", seq, author)
        if not may_act_for(rep, author, DEALER):
            raise NotOwed(f"{kind}: {author} may not act for the dealer", seq, author)
        if isinstance(act, Deal):
            if act.first not in rep.players:
                raise IllegalMove(f"deal: {act.first!r} is not a player", seq, author)
            attachments["commitments"] = set(_deal_keys(_shape(rep)))
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
    elif isinstance(act, Unopenable):
        if author != rep.referee:
            raise NotOwed("verdict unopenable: only the referee, who opens every secret a player commits, may say so",
                          seq, author)
        item = rep.items.get(act.key) if rep.state is not None else None
        if item is None or not item.players_own or item.value is not None or author not in item.readers:
            raise IllegalMove(f"verdict unopenable: there is no unopened {act.key} sealed to the referee", seq, author)
    for what, wanted in attachments.items():
        _expect_keys(getattr(entry, what), wanted, what, seq, author)

    if isinstance(act, Join):
        if entry.sealed and not _addressed(entry.sealed[SEED], [rep.roster[author]]):
            raise IllegalMove("the referee's seed must be sealed to the referee alone", seq, author)
        rep.contributions.append(entry.contribution or "")
        if entry.commitments:
            rep.seed_commitment = entry.commitments[SEED]
        return [Joined(author)]
    if isinstance(act, Deal):
        _post_deal(rep, dict(entry.commitments or {}), act.first, author)
        rep.seeded.append(Seeded(seq, author, "a deal", (act.first, dict(entry.commitments or {}))))
        return [DealPosted(author, act.first)]
    if isinstance(act, Unopenable):
        item = rep.items[act.key]
        rep.verdict = Verdict(item.sealed_by, f"the referee {author} says the sealed value of {act.key} does not "
                                              "open (the referee's word: nobody else can check it)", seq, author)
        return [rep.verdict]
    return _check_seed(rep, entry, seq, proving=isinstance(act, ConvictDeal))


def _shape(rep: Replay) -> Dealt:
    """The deal's shape (its keys and stock size), which no randomness changes."""
    game = rep.game
    return game.deal(game.parse_options(rep.genesis.options), rep.players, random.Random(0))


def seeded_deal(rep: Replay, seed: str) -> tuple[Dealt, dict[str, Value], dict[str, str]]:
    """What a joint deal's seed gives: the deal, every hidden item's value by key, and the commitment
    to every item that the `deal` entry must post."""
    game = rep.game
    dealt = game.deal(game.parse_options(rep.genesis.options), rep.players,
                      deal_random(rep.genesis_hash, seed, rep.contributions))
    values: dict[str, Value] = dict(dealt.named)
    values.update({stock_key(0, i): value for i, value in enumerate(dealt.stock)})
    return dealt, values, {k: commit(rep.genesis.nonce, DEALER, k, v, item_salt(seed, k)) for k, v in values.items()}


def seeded_restock(rep: Replay, seed: str, number: int, values: Sequence[Value]) -> dict[str, Value]:
    """The K-th reshuffle's items by key, as the seed orders them."""
    order = restocked(rep.genesis_hash, seed, rep.contributions, number, values)
    return {stock_key(number, i): value for i, value in enumerate(order)}


def _seed_gives(rep: Replay, seed: str, posted: Seeded) -> bool:
    """Whether the seed gives what the dealer posted (the deal, a reshuffle, a pick by chance)."""
    g = rep.genesis
    if posted.what == "a deal":
        dealt, _, commitments = seeded_deal(rep, seed)
        return posted.posted == (dealt.first, commitments)
    if posted.what == "pick by chance":
        after, choices = posted.context
        return posted.posted == chance_pick(rep.genesis_hash, seed, rep.contributions, after, choices)
    number, values = posted.context
    items = seeded_restock(rep, seed, number, values)
    return posted.posted == [commit(g.nonce, DEALER, k, v, item_salt(seed, k)) for k, v in items.items()]


def seed_contradiction(rep: Replay, seed: str, since: int = 0) -> Seeded | None:
    """The first thing the dealer posted (from `rep.seeded[since]` on) that the seed does not give."""
    return next((posted for posted in rep.seeded[since:] if not _seed_gives(rep, seed, posted)), None)


def _check_seed(rep: Replay, entry: Entry, seq: int, proving: bool) -> list[object]:
    """The opened seed against its commitment; all the dealer posted against what the seed gives. A
    difference convicts whoever posted it; a verdict that finds none is refused."""
    g, author, seed = rep.genesis, entry.author, (entry.openings or {})[SEED]
    if commit(g.nonce, DEALER, SEED, seed, "") != rep.seed_commitment:
        raise BadOpening("the opened seed does not match the dealer's commitment", seq, author)
    false = seed_contradiction(rep, seed)
    if false is None:
        if proving:
            raise IllegalMove("verdict deal: the posted deal is exactly what the seed gives", seq, author)
        rep.seed = seed
        return [Audited(author)]
    rep.verdict = Verdict(false.author, f"posted {false.what} (entry {false.seq}) that the dealer's committed seed "
                                        "does not give", seq, author)
    return [rep.verdict]


def replay(record: GameFile) -> Replay:
    """Check a whole record from the genesis on; raises a VerifyError naming the first bad entry."""
    rep = start(record.genesis)
    for entry in record.entries:
        apply_entry(rep, entry)
    return rep


# ---------------------------------------------------------------- a participant

class Session:
    """One participant at the table: what their key opens, and the acts they sign. A session checks every
    secret addressed to it when it first needs it, and turns what it can prove into a verdict."""

    def __init__(self, rep: Replay, name: str, identity: Identity):
        if name not in rep.roster:
            raise UsageError(f"{name!r} is not in this game (participants: {', '.join(rep.roster)})")
        if not rep.roster[name].same_key(identity.public):
            raise KeyProblem(f"this key is not {name}'s key in this game (expected {rep.roster[name].fingerprint()})")
        self.rep, self.name, self.identity = rep, name, identity
        self._opened: dict[str, tuple[Value, str]] = {}
        self._secret: dict[str, Any] | None = None
        self._dealer_items: dict[str, Value] = {}
        self._dealer_restocks = 0
        self._seeded_checked = 0

    @property
    def is_referee(self) -> bool:
        return self.name == self.rep.referee

    def can_deal(self) -> bool:
        return self.is_referee or (self.rep.mode == "table" and self.name in self.rep.players)

    # -- what this key opens

    def _unseal(self, blob: str, opener: Any, binding: str, what: str) -> dict[str, Any]:
        """A sealed JSON object, checked to be bound to this game."""
        try:
            secret = json.loads(crypto.unseal(_unb64(blob), opener))
            if not isinstance(secret, dict) or secret.get("game") != binding:
                raise ValueError("bound to another game")
            return secret
        except (PbemError, ValueError):
            raise SealError(f"cannot open {what} with {self.name}'s key for this game") from None

    def _open_item(self, key: str) -> tuple[Value, str]:
        """An item's value and salt from its sealed value, which must name this game and this key and match
        the item's commitment: a blob carried over from another game or item opens nothing."""
        if key not in self._opened:
            item, rep = self.rep.items[key], self.rep
            if not item.players_own and self.can_deal():
                # a table player holds the dealer's seed: a dealt card is what the seed says, whatever was sealed
                self._opened[key] = (self.dealer_values()[item.key], self._dealer_salt(item.key))
                return self._opened[key]
            if item.sealed is None:
                raise SealError(f"{key} has no sealed value")
            try:
                opening = self._unseal(item.sealed, self.identity, rep.genesis_hash, f"the sealed value of {key}")
                value, salt = opening.get("value"), opening.get("salt")
                if opening.get("key") != key or not isinstance(salt, str) or not isinstance(value, (int, str)) \
                        or commit(item.binding, item.owner, item.key, value, salt) != item.commitment:
                    raise SealError(f"the sealed value of {key} does not match its commitment")
            except SealError as exc:
                raise SealError(f"{exc} (sealed by {item.sealed_by})") from None
            self._opened[key] = (value, salt)
        return self._opened[key]

    def _readable(self) -> list[str]:
        return [key for key, item in self.rep.items.items() if self.name in item.readers]

    def known(self) -> dict[str, Value]:
        """Every hidden item this participant may read now: what was sealed to them; a dealer: everything."""
        known = {key: item.value for key, item in self.rep.items.items() if item.value is not None}
        known.update({key: self._open_item(key)[0] for key in self._readable()})
        if self.can_deal() and self.rep.state is not None:
            values = self.dealer_values()
            known.update({key: values[item.key] for key, item in self.rep.items.items() if not item.players_own})
        return known

    def knowledge(self, as_dealer: bool | None = None) -> Any:
        """This participant's private knowledge in the game's own form: as a player (their own secrets), or
        as the dealer (the referee by default; a table player when asked) with the stock's order too."""
        rep = self.rep
        dealer = self.is_referee if as_dealer is None else as_dealer
        if dealer:
            values = self.dealer_values()
            return rep.game.knowledge(rep.state, DEALER, self.known(), [values[k] for k in rep.stock])
        own = {key: self._open_item(key)[0] for key in self._readable()}
        return rep.game.knowledge(rep.state, self.name, own, [])

    def _dealer_opener(self) -> Any:
        if self.rep.mode == "referee":
            return self.identity
        g = self.rep.genesis
        table = self._unseal(g.sealed["table_key"], self.identity, g.game_id, f"the table key sealed by {g.author}")
        try:
            return X25519Identity(bytes.fromhex(table["table_key"]))
        except (KeyError, TypeError, ValueError, SealError):
            raise SealError(f"the table key sealed by {g.author} is malformed") from None

    def dealer_secret(self) -> dict[str, Any]:
        """What the dealer deals from, opened through the table key (table mode) or the referee's key, and
        checked against its commitment: `seed` for a joint deal; `items` and `salts` for a chosen one."""
        if self._secret is None:
            rep, g = self.rep, self.rep.genesis
            if g.deal == "joint" and g.seed is None:  # the referee committed its seed in its join
                join = next(e for e in rep.entries if e.author == rep.referee and e.action == "join")
                secret = self._unseal((join.sealed or {})[SEED], self.identity, rep.genesis_hash, "the referee's seed")
            else:
                secret = self._unseal(g.sealed["dealer"], self._dealer_opener(), g.game_id,
                                      f"the dealer's secret sealed by {g.author}")
            if g.deal == "joint":
                seed = secret.get("seed")
                if not isinstance(seed, str) or commit(g.nonce, DEALER, SEED, seed, "") != rep.seed_commitment:
                    raise SealError("the dealer's seed does not match its commitment")
            elif not self._chosen_matches(secret):
                raise SealError(f"the deal sealed by {g.author} does not match its commitments")
            self._secret = secret
        return self._secret

    def _chosen_matches(self, secret: dict[str, Any]) -> bool:
        rep, g = self.rep, self.rep.genesis
        try:
            items, salts = secret["items"], secret["salts"]
            shape = _shape(rep)
            rep.game.knowledge(rep.game.setup(rep.game.parse_options(g.options), rep.players, g.first or ""),
                               DEALER, {k: items[k] for k in shape.named}, [])  # a possible deal, by the game
            return set(items) == set(g.commitments or {}) and all(
                commit(g.nonce, DEALER, k, items[k], salts[k]) == (g.commitments or {})[k] for k in items)
        except (KeyError, TypeError, ValueError, InvalidSetup):
            return False

    def dealer_values(self) -> dict[str, Value]:
        """Every dealer item's value by the key it was committed under: the deal's and each reshuffle's."""
        rep, secret = self.rep, self.dealer_secret()
        if not self._dealer_items:
            self._dealer_items = dict(secret["items"]) if "items" in secret else seeded_deal(rep, secret["seed"])[1]
        while self._dealer_restocks < rep.restocks:
            self._dealer_restocks += 1
            posted = next(p for p in rep.seeded if p.what == f"reshuffle {self._dealer_restocks}")
            self._dealer_items.update(seeded_restock(rep, secret["seed"], *posted.context))
        return self._dealer_items

    def _dealer_salt(self, key: str) -> str:
        secret = self.dealer_secret()
        return secret["salts"][key] if "salts" in secret else item_salt(secret["seed"], key)

    def _salt_of(self, key: str) -> str:
        item = self.rep.items[key]
        if self.name in item.readers:
            return self._open_item(key)[1]
        return self._dealer_salt(item.key)

    # -- acts

    def sign(self, body: dict[str, Any]) -> Entry:
        body = {"game_id": self.rep.genesis.game_id, "seq": self.rep.seq + 1, "prev": self.rep.head,
                "author": self.name, **{k: v for k, v in body.items() if v}, "time": int(time.time())}
        signature = _b64(self.identity.sign(canonical(body)))
        return Entry.model_validate({**body, "signature": signature})

    def _sealed_value(self, key: str, value: Value, salt: str, readers: Sequence[str]) -> str:
        opening = canonical({"game": self.rep.genesis_hash, "key": key, "value": value, "salt": salt})
        return _b64(crypto.seal(opening, [self.rep.roster[name] for name in readers]))

    def entry_for(self, action: Any, actor: str) -> Entry:
        """Turn a checked action into a signed entry, with the commitments, sealed values and openings its
        secrets need (engine.contract.Secrets)."""
        rep, game = self.rep, self.rep.game
        secrets = game.secrets(rep.state, actor, action)
        commitments: dict[str, str] = {}
        sealed: dict[str, str] = {}
        openings: dict[str, str] = {}
        readers = (actor,) + ((rep.referee,) if rep.referee else ())
        for key, value in secrets.commits:
            if value is None:
                raise UsageError(f"{game.format_action(action)}: say which value to commit")
            salt, owner = _salt(), rep.roster[actor].raw.hex()
            commitments[key] = commit(rep.genesis_hash, owner, key, value, salt)
            sealed[key] = self._sealed_value(key, value, salt, readers)
        if secrets.draws or secrets.shows or secrets.gives or secrets.restock:
            values = self.dealer_values()
            drawn = rep.stock[:len(secrets.draws) + len(secrets.shows)]
            for (key, player), source in zip(secrets.draws, drawn):
                sealed[key] = self._sealed_value(key, values[source], self._dealer_salt(source), (player,))
            for source in drawn[len(secrets.draws):]:
                openings[source] = self._dealer_salt(source)
            for key, player in secrets.gives:
                source = rep.items[key].key
                sealed[key] = self._sealed_value(key, values[source], self._dealer_salt(source), (player,))
            if secrets.restock:
                number, seed = rep.restocks + 1, self.dealer_secret()["seed"]
                for key, value in seeded_restock(rep, seed, number, secrets.restock).items():
                    commitments[key] = commit(rep.genesis.nonce, DEALER, key, value, item_salt(seed, key))
        for key, _ in secrets.opens:
            openings[key] = self._salt_of(key)
        return self.sign({"action": game.format_action(game.public(action)), "commitments": commitments,
                          "sealed": sealed, "openings": openings})

    def act(self, action: Any) -> list[object]:
        """Check an action with this participant's knowledge, sign it, apply it; returns the events."""
        rep, game = self.rep, self.rep.game
        if rep.state is None or rep.awaiting_join:
            raise UsageError(f"the game has not started: {_waiting(rep)}")
        # a move or a choice is always one's own; the dealer's acts are the dealer's, openings their owner's
        actor = actor_for(rep, action)
        if actor != DEALER and not owes_opening(rep, actor):
            actor = self.name
        try:
            action = game.check(rep.state, actor or self.name, action, self.knowledge(as_dealer=actor == DEALER))
        except NotYourDuty as exc:
            raise UsageError(exc.naming(party_names(rep))) from None
        except IllegalAction as exc:
            opened = game.secrets(rep.state, actor, action).opens
            if not (opened and _players_own(rep, opened) and game.audit_problem(rep.state, opened)):
                raise UsageError(str(exc)) from None
            # the true values of secrets committed falsely: the program opens them anyway, and the record convicts
        if not may_act_for(rep, self.name, actor):
            raise UsageError(f"{game.format_action(action)}: {self.name} may not act for {actor}")
        return apply_entry(rep, self.entry_for(action, actor))

    def _sign_act(self, act: Act, **attachments: Any) -> list[object]:
        return apply_entry(self.rep, self.sign({"action": format_act(act), **attachments}))

    def join(self) -> list[object]:
        """Accept the game: check every secret sealed to this key, then sign a join with fresh randomness
        (the referee of a joint deal also commits to its secret seed, sealed to itself)."""
        rep, g = self.rep, self.rep.genesis
        if (self.name in rep.players and rep.mode == "table") or (self.is_referee and g.deal == "chosen"):
            self.dealer_secret()  # a creator who sealed the table or the deal badly is caught here, before play
        attachments: dict[str, Any] = {"contribution": crypto.random_bytes(32).hex()}
        if self.is_referee and g.deal == "joint":
            seed = crypto.random_bytes(32).hex()
            attachments["commitments"] = {SEED: commit(g.nonce, DEALER, SEED, seed, "")}
            blob = crypto.seal(canonical({"game": rep.genesis_hash, "seed": seed}), [self.identity.public])
            attachments["sealed"] = {SEED: _b64(blob)}
        return self._sign_act(Join(), **attachments)

    def deal(self) -> list[object]:
        """Post the joint deal: a commitment to every hidden item and the first player, from the seed and
        every contribution."""
        dealt, _, commitments = seeded_deal(self.rep, self.dealer_secret()["seed"])
        return self._sign_act(Deal(dealt.first), commitments=commitments)

    def audit(self) -> list[object]:
        """The end audit: open the seed, so anyone can recompute the deal and all that came from it."""
        return self._sign_act(Audit(), openings={SEED: self.dealer_secret()["seed"]})

    def automatic(self) -> list[object]:
        """Fulfil every duty this participant can without a decision (joins, the deal, the dealer's acts,
        openings they hold, the end audit), after checking what they can check; returns the events."""
        events: list[object] = []
        while True:
            verdict = self._cheat_found()
            if verdict is not None:
                act, attachments = verdict
                return events + self._sign_act(act, **attachments)
            step = self._next_automatic()
            if step is None:
                return events
            events += step()

    def _cheat_found(self) -> tuple[Act, dict[str, Any]] | None:
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

    def _next_automatic(self) -> Callable[[], list[object]] | None:
        rep, game = self.rep, self.rep.game
        for duty in rep.duties():
            if duty.what == "join" and duty.who == self.name:
                return self.join
            if duty.who != DEALER and duty.what != "open":
                continue
            if duty.what == "deal" and rep.state is None and self.can_deal():
                return self.deal
            if duty.what == "audit" and self.can_deal():
                return self.audit
            if duty.who == DEALER and self.can_deal():
                return self._dealer_step()
            if duty.what == "open" and (duty.who == self.name or self.is_referee):
                # a referee opens every owed secret in one entry where the game lets it; a player their own
                choices = (list(game.legal_actions(rep.state, DEALER, self.knowledge())) if self.is_referee else [])
                choices = choices or list(game.legal_actions(rep.state, duty.who, self.knowledge()))
                if choices:
                    action = choices[0]
                    return lambda: self.act(action)
        return None

    def dealer_action(self) -> Any:
        """The dealer's act owed now, as this program signs it: the only one, or chance's pick by the seed;
        None if the dealer owes nothing."""
        rep, game = self.rep, self.rep.game
        choices = list(game.legal_actions(rep.state, DEALER, self.knowledge(as_dealer=True)))
        if not choices:
            return None
        if game.secrets(rep.state, DEALER, game.public(choices[0])).chance:
            seed = self.dealer_secret().get("seed")
            if seed is None:
                raise UsageError("a chosen deal has no seed for chance to pick with")
            return choices[chance_pick(rep.genesis_hash, seed, rep.contributions, rep.head, len(choices))]
        return choices[0]

    def _dealer_step(self) -> Callable[[], list[object]] | None:
        action = self.dealer_action()
        return None if action is None else lambda: self.act(action)


def _waiting(rep: Replay) -> str:
    duty = rep.duties()[0]
    who = party_names(rep).get(duty.who, TABLE_DEALS if duty.who == DEALER else duty.who)
    return f"waiting for {who} to {duty.detail.split(' (')[0]}"


# ---------------------------------------------------------------- a new game

def new_game(game_name: str, options: dict[str, str], players: list[tuple[str, PublicKey]], creator: str,
             identity: Identity, referee: tuple[str, PublicKey] | None = None, layout: Mapping[str, Value] | None = None,
             first: str | None = None, deadline_hours: int | None = None) -> Replay:
    """The invitation, signed by `creator` (a player or the referee). A joint deal (the default) commits
    the dealer's seed if the creator deals (table mode, or the referee itself); a referee invited by a
    player commits its seed when it joins. `layout` (every hidden item's value by key, as the game's
layout file gives it) makes a chosen deal, recorded as the creator's."""
    try:
        game = find_game(game_name)
        game.setup(game.parse_options(options), [p for p, _ in players], first or players[0][0])
    except (UnknownGame, InvalidSetup) as exc:
        raise UsageError(str(exc)) from None
    if layout is None and first is not None:
        raise UsageError("the first player is drawn by the joint deal; choose it only with a chosen layout")
    nonce = crypto.random_bytes(32).hex()
    dealer_is_creator = referee is None or creator == referee[0]
    body: dict[str, Any] = {"format": FORMAT, "nonce": nonce, "game": game.name, "options": dict(options),
                  "players": [{"name": name, "key": _key_text(key)} for name, key in players],
                  "contribution": crypto.random_bytes(32).hex(), "author": creator, "time": int(time.time()),
                  **({"deadline_hours": deadline_hours} if deadline_hours else {})}
    if layout is not None:
        names = [p for p, _ in players]
        shape = game.deal(game.parse_options(options), names, random.Random(0))
        if shape.stock:
            raise UsageError(_NO_CHOSEN_STOCK.format(title=game.title))
        keys = _deal_keys(shape)
        if set(layout) != set(keys):
            raise UsageError(f"a chosen deal gives every hidden item of {game.title}: {', '.join(keys)}")
        items = {key: layout[key] for key in keys}
        salts = {key: _salt() for key in keys}
        body.update(deal="chosen", first=first or random.SystemRandom().choice(names),
                    commitments={key: commit(nonce, DEALER, key, items[key], salts[key]) for key in keys})
        secret: dict[str, Any] | None = {"items": items, "salts": salts}
    else:
        seed = crypto.random_bytes(32).hex()
        body["deal"] = "joint"
        if dealer_is_creator:
            body["seed"] = commit(nonce, DEALER, SEED, seed, "")
        secret = {"seed": seed} if dealer_is_creator else None
    if referee:
        body["dealer"] = Dealer(mode="referee", referee=Participant(name=referee[0], key=_key_text(referee[1])))
    else:
        table = X25519Identity.generate()
        body["dealer"] = Dealer(mode="table", table_key=_b64(table.recipient.public))
    body["dealer"] = body["dealer"].model_dump(exclude_none=True)
    game_id = core_id(body)
    sealed = {}
    if referee is None:
        sealed["table_key"] = _b64(crypto.seal(canonical({"game": game_id, "table_key": table.secret.hex()}),
                                               [key for _, key in players]))
    if secret is not None:
        opener = [referee[1]] if referee else [table.recipient]
        sealed["dealer"] = _b64(crypto.seal(canonical({"game": game_id, **secret}), opener))
    body.update(game_id=game_id, sealed=sealed)
    signature = _b64(identity.sign(canonical(body)))
    try:
        genesis = Genesis.model_validate({**body, "signature": signature})
    except Exception as exc:  # noqa: BLE001 (pydantic ValidationError: a bad name or option reaches here)
        raise UsageError(f"cannot make this game: {exc.errors()[0]['msg'] if hasattr(exc, 'errors') else exc}") from None
    return replay(GameFile(genesis=genesis, entries=[]))


def _key_text(key: PublicKey) -> str:
    """The roster holds the key without its comment: the comment is the owner's business."""
    return " ".join(key.line().split(" ")[:2])
