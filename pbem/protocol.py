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
from dataclasses import dataclass, field, replace

from engine import find_game
from engine.contract import DEALER, AnyGame, Duty, IllegalAction, InvalidSetup, NotationError, NotYourDuty, UnknownGame
from engine.sarcophagus.actions import Open, Place, Reveal
from engine.sarcophagus.driver import Layout
from engine.sarcophagus.rules import audit_problem, legal_actions, opening

from . import crypto
from .acts import (Act, ConvictCoins, ConvictDeal, Deal, Dealt, Join, Joined, Unopenable, Verdict, format_act,
                   is_act, parse_act)
from .canonical import canonical
from .crypto import Identity, PublicKey, X25519Identity
from .dealing import (TILE_KEYS, coin_key, coin_slot, joint_deal, layout_from_tiles, layout_tiles, tile_key, tile_salt)
from .errors import (BadGenesis, BadOpening, BadSequence, BadSignature, BrokenChain, IllegalMove, KeyProblem,
                     NotOwed, PbemError, SealError, UnknownSigner, UsageError, WrongGame)
from .record import FORMAT, Dealer, Entry, GameFile, Genesis, Participant, core_id, payload

COMMITMENT_DOMAIN = "pbem/commitment/v2"
SEED = "seed"


def commit(binding: str, owner: str, slot: str, value: int | str, salt: str) -> str:
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
class Coin:
    """A placed coin as the record shows it: its owner, commitment and sealed opening."""

    owner: str
    commitment: str
    sealed: str


@dataclass
class Replay:
    """A record replayed and checked up to its last entry."""

    genesis: Genesis
    game: AnyGame
    state: object
    """The game's state: None until the joint deal is posted."""
    roster: dict[str, PublicKey]
    referee: str | None
    entries: list[Entry] = field(default_factory=list)
    coins: dict[int, Coin] = field(default_factory=dict)
    head: str = ""
    hashes: list[str] = field(default_factory=list)
    """The payload hash of the genesis and of every entry, in order (hashes[seq])."""
    events: list[tuple[int, object]] = field(default_factory=list)
    contributions: list[str] = field(default_factory=list)
    """Every share of the deal's randomness: the creator's, then each join's."""
    seed_commitment: str | None = None
    tile_commitments: dict[str, str] = field(default_factory=dict)
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
            return (Duty(DEALER, "deal", "deal the tiles and draw the first player"),)
        return self.game.duties(self.state)

    def outcome(self):
        """The game's own result (scores and winners), or None while it runs or when a verdict ended it."""
        if self.verdict or self.state is None:
            return None
        return self.game.outcome(self.state)

    @property
    def over(self) -> bool:
        return self.verdict is not None or self.outcome() is not None


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

    def bad(detail: str):
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
    if g.deal == "chosen" and (set(g.commitments or {}) != set(TILE_KEYS) or g.first not in [p.name for p in g.players]):
        raise bad("a chosen deal commits to every hidden tile and names a player to move first")
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
        if wanted and not _addressed(g.sealed["dealer"], [roster[referee]]):
            raise bad("the dealer's secret must be sealed to the referee alone")
    try:
        options = game.parse_options(g.options)
        state = game.setup(options, [p.name for p in g.players], g.first or g.players[0].name)
    except InvalidSetup as exc:
        raise bad(str(exc)) from None
    head = crypto.sha256(signed_bytes).hex()
    rep = Replay(g, game, state if g.deal == "chosen" else None, roster, referee, head=head, hashes=[head],
                 contributions=[g.contribution], seed_commitment=g.seed, tile_commitments=dict(g.commitments or {}),
                 first=g.first)
    return rep


def actor_for(rep: Replay, action) -> str:
    """Who the rules say performs an action: the dealer reveals, an owner opens, else the duty's holder."""
    if isinstance(action, Reveal):
        return DEALER
    if isinstance(action, Open):
        seats = rep.state.table.seats
        owners = {seats[rep.state.slot_seat[slot]].player for slot, _ in action.values
                  if 0 <= slot < len(rep.state.slot_seat)}
        if len(owners) > 1:
            return DEALER  # one opening for several owners: only the dealer holds them all
        return owners.pop() if owners else ""
    for duty in rep.duties():
        if duty.what in ("move", "discard"):
            return duty.who
    return ""


TABLE_DEALS = "any player (the table deals)"
"""The dealer's duty at a table, as messages name its holder."""


def party_names(rep: Replay) -> dict[str, str]:
    """How messages name the rules' parties: in referee mode the dealer is a person or bot with a name."""
    return {DEALER: f"the referee {rep.referee}"} if rep.referee else {}


def may_act_for(rep: Replay, author: str, actor: str, action) -> bool:
    """The author signs for the actor: themselves; in table mode any player deals; a referee deals and
    (holding every coin's opening) opens for anyone."""
    if author == actor and actor != rep.referee:
        return True
    if actor == DEALER:
        return author == rep.dealer_signer if rep.dealer_signer else author in rep.players
    return author == rep.referee and isinstance(action, Open)


def apply_entry(rep: Replay, entry: Entry) -> list:
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


def _apply_move(rep: Replay, entry: Entry, seq: int) -> list:
    """A game action: owed by its author (or one they act for), legal, its attachments matching."""
    game, author = rep.game, entry.author
    if rep.state is None or rep.awaiting_join:
        raise NotOwed(f"{entry.action}: the game has not started: {_waiting(rep)}", seq, author)
    try:
        action = game.parse_action(entry.action)
    except NotationError as exc:
        raise IllegalMove(str(exc), seq, author) from None
    if isinstance(action, Place) and (action.value is not None or action.pos is None):
        raise IllegalMove("a placement in the record names its tile and hides its value (e.g. @3b)", seq, author)
    actor = actor_for(rep, action)
    if not actor:
        raise IllegalMove(f"{entry.action}: nobody may do this now", seq, author)
    if not may_act_for(rep, author, actor, action):
        raise NotOwed(f"{entry.action}: {author} may not act for {actor}", seq, author)
    try:
        checked = game.check(rep.state, actor, action)
    except NotYourDuty as exc:
        raise NotOwed(exc.naming(party_names(rep)), seq, author) from None
    except IllegalAction as exc:
        if isinstance(action, Open):  # true openings that contradict earlier play convict the coins' owner
            return _convict_coins(rep, entry, action.values, seq, str(exc))
        raise IllegalMove(str(exc), seq, author) from None
    _check_attachments(rep, entry, checked, actor, seq)
    rep.state, applied = game.apply(rep.state, actor, checked)
    if author != actor:  # the report names who signed the act: "ref opens #1=0", not the owner or "dealer"
        applied = tuple(replace(e, player=author) if getattr(e, "player", None) == actor else e for e in applied)
    events = list(applied)
    if isinstance(checked, Reveal) and SEED in (entry.openings or {}):
        events += _check_seed(rep, entry, seq, proving=False)
    return events


def _expect_keys(found: dict | None, wanted: set[str], what: str, seq: int, author: str) -> dict:
    if set(found or {}) != wanted:
        names = ", ".join(sorted(wanted)) or "none"
        raise IllegalMove(f"this action carries {what} for exactly: {names}", seq, author)
    return found or {}


def _check_attachments(rep: Replay, entry: Entry, action, actor: str, seq: int) -> None:
    """Commitments, sealed openings and openings: exactly what the action needs, each matching."""
    g, author = rep.genesis, entry.author
    new_coin = {coin_key(len(rep.state.slot_seat))} if isinstance(action, Place) else set()
    commitments = _expect_keys(entry.commitments, new_coin, "commitments", seq, author)
    sealed = _expect_keys(entry.sealed, new_coin, "sealed openings", seq, author)
    if isinstance(action, Reveal):
        opened = {tile_key(pos, action.under): str(tile) for pos, tile in action.tiles}
        final = action.under and g.deal == "joint"  # the last reveal opens the seed: the deal's audit
        salts = _expect_keys(entry.openings, set(opened) | ({SEED} if final else set()), "openings", seq, author)
        for key, tile in opened.items():
            if commit(g.nonce, DEALER, key, tile, salts[key]) != rep.tile_commitments[key]:
                raise BadOpening(f"{key}={tile} does not match the tile committed in the deal", seq, author)
    elif isinstance(action, Open):
        _check_coin_openings(rep, entry, action.values, seq)
    else:
        _expect_keys(entry.openings, set(), "openings", seq, author)
    for key in new_coin:
        recipients = [rep.roster[actor]] + ([rep.roster[rep.referee]] if rep.referee else [])
        if not _addressed(sealed[key], recipients):
            whom = f"{actor} and the referee {rep.referee}" if rep.referee else actor
            raise IllegalMove(f"the coin's value must be sealed to {whom}, and to nobody else", seq, author)
        rep.coins[coin_slot(key)] = Coin(actor, commitments[key], sealed[key])


def _check_coin_openings(rep: Replay, entry: Entry, values, seq: int) -> None:
    opened = {coin_key(slot): value for slot, value in values}
    salts = _expect_keys(entry.openings, set(opened), "openings", seq, entry.author)
    for key, value in opened.items():
        coin = rep.coins[coin_slot(key)]
        if commit(rep.genesis_hash, rep.roster[coin.owner].raw.hex(), key, value, salts[key]) != coin.commitment:
            raise BadOpening(f"coin {key}={value} does not match its commitment", seq, entry.author)


def _convict_coins(rep: Replay, entry: Entry, values, seq: int, why: str) -> list:
    """Openings that match their commitments and prove an impossible hand: a verdict against the owner."""
    state, author = rep.state, entry.author
    slots = [slot for slot, _ in values]
    if (len(set(slots)) != len(slots) or not all(0 <= slot < len(state.slot_seat) for slot in slots)
            or any(state.slot_value[slot] is not None for slot in slots) or not all(0 <= v <= 5 for _, v in values)):
        raise IllegalMove(f"{entry.action}: {why}", seq, author)
    problem = audit_problem(state, values)
    if problem is None:
        raise IllegalMove(f"{entry.action}: {why}", seq, author)
    _expect_keys(entry.commitments, set(), "commitments", seq, author)
    _expect_keys(entry.sealed, set(), "sealed openings", seq, author)
    _check_coin_openings(rep, entry, values, seq)
    rep.verdict = Verdict(problem[0], f"placed a coin they did not hold: {problem[1]}", seq, author)
    return [rep.verdict]


def _apply_act(rep: Replay, entry: Entry, seq: int) -> list:
    """A join, the deal or a verdict (pbem.acts): who may sign it, and what it must carry."""
    author, g = entry.author, rep.genesis
    try:
        act: Act = parse_act(entry.action)
    except UsageError as exc:
        raise IllegalMove(str(exc), seq, author) from None
    attachments = {"commitments": set(), "sealed": set(), "openings": set()}
    if isinstance(act, Join):
        if not rep.awaiting_join or rep.awaiting_join[0] != author:
            waiting = f"waiting for {rep.awaiting_join[0]} to join" if rep.awaiting_join else "everyone has joined"
            raise NotOwed(f"join: {author} may not join now ({waiting})", seq, author)
        if entry.contribution is None:
            raise IllegalMove("a join carries a contribution to the deal", seq, author)
        if author == rep.referee and g.deal == "joint":  # the referee commits the seed it deals from
            attachments["commitments"] = attachments["sealed"] = {SEED}
    elif isinstance(act, Deal):
        if not rep.duties() or rep.duties()[0].what != "deal":
            raise NotOwed("deal: nothing is to be dealt now", seq, author)
        if not may_act_for(rep, author, DEALER, act):
            raise NotOwed(f"deal: {author} may not deal", seq, author)
        if act.first not in rep.players:
            raise IllegalMove(f"deal: {act.first!r} is not a player", seq, author)
        attachments["commitments"] = set(TILE_KEYS)
    elif isinstance(act, ConvictCoins):
        if rep.state is None:
            raise IllegalMove("verdict: no coin has been placed", seq, author)
        return _convict_coins(rep, entry, act.values, seq, "these openings prove nothing against anyone")
    elif isinstance(act, ConvictDeal):
        if rep.state is None or rep.seed_commitment is None:
            raise IllegalMove("verdict deal: there is no joint deal to check yet", seq, author)
        attachments["openings"] = {SEED}
    elif isinstance(act, Unopenable):
        if author != rep.referee:
            raise NotOwed("verdict unopenable: only the referee, who must open every coin, may say so", seq, author)
        if rep.state is None or act.slot not in rep.coins or rep.state.slot_value[act.slot] is not None:
            raise IllegalMove(f"verdict unopenable: there is no unopened coin #{act.slot}", seq, author)
    for what, wanted in attachments.items():
        _expect_keys(getattr(entry, what), wanted, what, seq, author)

    if isinstance(act, Join):
        rep.contributions.append(entry.contribution)
        if SEED in attachments["commitments"]:
            rep.seed_commitment = entry.commitments[SEED]
            if not _addressed(entry.sealed[SEED], [rep.roster[author]]):
                raise IllegalMove("the referee's seed must be sealed to the referee alone", seq, author)
        return [Joined(author)]
    if isinstance(act, Deal):
        rep.tile_commitments, rep.first, rep.dealt_by = dict(entry.commitments), act.first, author
        rep.state = rep.game.setup(rep.game.parse_options(g.options), rep.players, act.first)
        return [Dealt(author, act.first)]
    if isinstance(act, Unopenable):
        owner = rep.coins[act.slot].owner
        rep.verdict = Verdict(owner, f"the referee {author} says the sealed value of coin #{act.slot} does not open "
                                     "(the referee's word: nobody else can check it)", seq, author)
        return [rep.verdict]
    return _check_seed(rep, entry, seq, proving=True)


def seeded_deal(rep: Replay, seed: str) -> tuple[Layout, str, dict[str, str]]:
    """What a joint deal's seed gives: the layout, the first player, and the commitment to every tile
    that the `deal` entry must post."""
    layout, first = joint_deal(rep.genesis_hash, seed, rep.contributions, rep.players)
    tiles = layout_tiles(layout)
    return layout, first, {k: commit(rep.genesis.nonce, DEALER, k, tiles[k], tile_salt(seed, k)) for k in TILE_KEYS}


def _posted_as_seeded(rep: Replay, seed: str) -> bool:
    _, first, commitments = seeded_deal(rep, seed)
    return first == rep.first and commitments == rep.tile_commitments


def _check_seed(rep: Replay, entry: Entry, seq: int, proving: bool) -> list:
    """The opened seed against its commitment; the posted deal against the deal the seed gives. A deal
    that differs convicts whoever posted it; a verdict that finds no difference is refused."""
    g, author, seed = rep.genesis, entry.author, entry.openings[SEED]
    if commit(g.nonce, DEALER, SEED, seed, "") != rep.seed_commitment:
        raise BadOpening("the opened seed does not match the dealer's commitment", seq, author)
    if _posted_as_seeded(rep, seed):
        if proving:
            raise IllegalMove("verdict deal: the posted deal is exactly what the seed gives", seq, author)
        return []
    rep.verdict = Verdict(rep.dealt_by or "dealer", "posted a deal that the dealer's committed seed does not give",
                          seq, author)
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
        self._values: dict[int, tuple[int, str]] = {}
        self._secret: dict | None = None
        self._deal_checked = False

    @property
    def is_referee(self) -> bool:
        return self.name == self.rep.referee

    def can_deal(self) -> bool:
        return self.is_referee or (self.rep.mode == "table" and self.name in self.rep.players)

    # -- what this key opens

    def _unseal(self, blob: str, opener, binding: str, what: str) -> dict:
        """A sealed JSON object, checked to be bound to this game."""
        try:
            secret = json.loads(crypto.unseal(_unb64(blob), opener))
            if not isinstance(secret, dict) or secret.get("game") != binding:
                raise ValueError("bound to another game")
            return secret
        except (PbemError, ValueError):
            raise SealError(f"cannot open {what} with {self.name}'s key for this game") from None

    def _open_coin(self, slot: int) -> tuple[int, str]:
        """A coin's value and salt from its sealed opening, which must be bound to this game, its owner's
        key and its slot, and match its commitment: a blob carried over from another game opens nothing."""
        if slot not in self._values:
            coin, rep = self.rep.coins[slot], self.rep
            owner_key = rep.roster[coin.owner].raw.hex()
            opening = self._unseal(coin.sealed, self.identity, rep.genesis_hash, f"the sealed value of coin #{slot}")
            value, salt = opening.get("value"), opening.get("salt")
            if (opening.get("owner"), opening.get("slot")) != (owner_key, coin_key(slot)) or not isinstance(salt, str) \
                    or commit(rep.genesis_hash, owner_key, coin_key(slot), value, salt) != coin.commitment:
                raise SealError(f"the sealed value of coin #{slot} does not match its commitment")
            self._values[slot] = (value, salt)
        return self._values[slot]

    def knowledge(self) -> dict[int, int]:
        """The value of every coin this participant may open: their own (a referee: all)."""
        return {slot: self._open_coin(slot)[0] for slot, coin in self.rep.coins.items()
                if coin.owner == self.name or self.is_referee}

    def _dealer_opener(self):
        if self.rep.mode == "referee":
            return self.identity
        g = self.rep.genesis
        table = self._unseal(g.sealed["table_key"], self.identity, g.game_id, f"the table key sealed by {g.author}")
        try:
            return X25519Identity(bytes.fromhex(table["table_key"]))
        except (KeyError, TypeError, ValueError, SealError):
            raise SealError(f"the table key sealed by {g.author} is malformed") from None

    def dealer_secret(self) -> dict:
        """What the dealer deals from, opened through the table key (table mode) or the referee's key, and
        checked against its commitment: `seed` for a joint deal; `layout` and `salts` for a chosen one."""
        if self._secret is None:
            rep, g = self.rep, self.rep.genesis
            if g.deal == "joint" and g.seed is None:  # the referee committed its seed in its join
                join = next(e for e in rep.entries if e.author == rep.referee and e.action == "join")
                secret = self._unseal(join.sealed[SEED], self.identity, rep.genesis_hash, "the referee's seed")
            else:
                secret = self._unseal(g.sealed["dealer"], self._dealer_opener(), g.game_id,
                                      f"the dealer's secret sealed by {g.author}")
            if g.deal == "joint":
                if commit(g.nonce, DEALER, SEED, secret.get("seed"), "") != rep.seed_commitment:
                    raise SealError("the dealer's seed does not match its commitment")
            else:
                try:
                    tiles, salts = secret["layout"], secret["salts"]
                    layout_from_tiles(tiles)
                    matches = all(commit(g.nonce, DEALER, k, tiles[k], salts[k]) == rep.tile_commitments[k]
                                  for k in TILE_KEYS)
                except (KeyError, TypeError, InvalidSetup):
                    matches = False
                if not matches:
                    raise SealError(f"the deal sealed by {g.author} does not match its commitments")
            self._secret = secret
        return self._secret

    def layout(self) -> tuple[Layout, dict[str, str], str | None]:
        """The layout, each tile's salt, and (a joint deal) the seed."""
        secret, rep = self.dealer_secret(), self.rep
        if rep.genesis.deal == "chosen":
            return layout_from_tiles(secret["layout"]), secret["salts"], None
        seed = secret["seed"]
        return seeded_deal(rep, seed)[0], {key: tile_salt(seed, key) for key in TILE_KEYS}, seed

    # -- acts

    def sign(self, body: dict) -> Entry:
        body = {"game_id": self.rep.genesis.game_id, "seq": self.rep.seq + 1, "prev": self.rep.head,
                "author": self.name, **{k: v for k, v in body.items() if v}, "time": int(time.time())}
        signature = _b64(self.identity.sign(canonical(body)))
        return Entry.model_validate({**body, "signature": signature})

    def entry_for(self, action, actor: str) -> Entry:
        """Turn a checked action into a signed entry, with its commitment, seal or openings."""
        rep, game = self.rep, self.rep.game
        if isinstance(action, Place):
            slot, salt = len(rep.state.slot_seat), _salt()
            key, owner_key = coin_key(slot), rep.roster[actor].raw.hex()
            opening = canonical({"game": rep.genesis_hash, "owner": owner_key, "slot": key, "value": action.value,
                                 "salt": salt})
            recipients = [rep.roster[actor]] + ([rep.roster[rep.referee]] if rep.referee else [])
            return self.sign({"action": game.format_action(game.public(action)),
                              "commitments": {key: commit(rep.genesis_hash, owner_key, key, action.value, salt)},
                              "sealed": {key: _b64(crypto.seal(opening, recipients))}})
        if isinstance(action, Reveal):
            _, salts, seed = self.layout()
            openings = {k: salts[k] for k in (tile_key(pos, action.under) for pos, _ in action.tiles)}
            if action.under and seed is not None:
                openings[SEED] = seed
            return self.sign({"action": game.format_action(action), "openings": openings})
        if isinstance(action, Open):
            return self.sign({"action": game.format_action(action),
                              "openings": {coin_key(s): self._open_coin(s)[1] for s, _ in action.values}})
        return self.sign({"action": game.format_action(action)})

    def act(self, action) -> list:
        """Check an action with this participant's knowledge, sign it, apply it; returns the events."""
        rep, game = self.rep, self.rep.game
        if rep.state is None or rep.awaiting_join:
            raise UsageError(f"the game has not started: {_waiting(rep)}")
        # a move or a choice is always one's own; reveals are the dealer's, openings the coins' owner's
        actor = actor_for(rep, action) if isinstance(action, (Reveal, Open)) else self.name
        if isinstance(action, Place) and action.value is None:
            raise UsageError("say which coin to place: its value, e.g. 4@3b or 4")
        try:
            action = game.check(rep.state, actor or self.name, action, self.knowledge())
        except NotYourDuty as exc:
            raise UsageError(exc.naming(party_names(rep))) from None
        except IllegalAction as exc:
            if not (isinstance(action, Open) and audit_problem(rep.state, action.values)):
                raise UsageError(str(exc)) from None
            # the true values of coins placed falsely: the program opens them anyway, and the record convicts
        if not may_act_for(rep, self.name, actor, action):
            raise UsageError(f"{game.format_action(action)}: {self.name} may not act for {actor}")
        return apply_entry(rep, self.entry_for(action, actor))

    def _sign_act(self, act: Act, **attachments) -> list:
        return apply_entry(self.rep, self.sign({"action": format_act(act), **attachments}))

    def join(self) -> list:
        """Accept the game: check every secret sealed to this key, then sign a join with fresh randomness
        (the referee of a joint deal also commits to its secret seed, sealed to itself)."""
        rep, g = self.rep, self.rep.genesis
        if (self.name in rep.players and rep.mode == "table") or (self.is_referee and g.deal == "chosen"):
            self.dealer_secret()  # a creator who sealed the table or the deal badly is caught here, before play
        attachments: dict = {"contribution": crypto.random_bytes(32).hex()}
        if self.is_referee and g.deal == "joint":
            seed = crypto.random_bytes(32).hex()
            attachments["commitments"] = {SEED: commit(g.nonce, DEALER, SEED, seed, "")}
            blob = crypto.seal(canonical({"game": rep.genesis_hash, "seed": seed}), [self.identity.public])
            attachments["sealed"] = {SEED: _b64(blob)}
        return self._sign_act(Join(), **attachments)

    def deal(self) -> list:
        """Post the joint deal: a commitment to every hidden tile and the first player, from the seed and
        every contribution."""
        _, first, commitments = seeded_deal(self.rep, self.dealer_secret()["seed"])
        return self._sign_act(Deal(first), commitments=commitments)

    def automatic(self) -> list:
        """Fulfil every duty this participant can without a decision (joins, the deal, reveals they may
        deal, openings they hold), after checking what they can check; returns the events."""
        events: list = []
        while True:
            verdict = self._cheat_found()
            if verdict is not None:
                act, attachments = verdict
                return events + self._sign_act(act, **attachments)
            step = self._next_automatic()
            if step is None:
                return events
            events += step()

    def _cheat_found(self) -> tuple[Act, dict] | None:
        """A verdict this participant can prove now: a deal its seed contradicts (anyone holding the seed),
        or (the referee, who opens every coin) a coin that does not open or was not in its owner's hand."""
        rep = self.rep
        if rep.verdict or rep.state is None:
            return None
        if rep.seed_commitment and self.can_deal() and rep.dealt_by != self.name and not self._deal_checked:
            seed = self.dealer_secret()["seed"]
            if not _posted_as_seeded(rep, seed):
                return ConvictDeal(), {"openings": {SEED: seed}}
            self._deal_checked = True  # the posted deal never changes: checked once per run
        if self.is_referee:
            for slot in sorted(rep.coins):
                if rep.state.slot_value[slot] is None:
                    try:
                        self._open_coin(slot)
                    except SealError:
                        return Unopenable(slot), {}
            unopened = [(slot, self._values[slot][0]) for slot in sorted(rep.coins)
                        if rep.state.slot_value[slot] is None]
            problem = audit_problem(rep.state, unopened) if unopened else None
            if problem:
                theirs = tuple((slot, value) for slot, value in unopened if rep.coins[slot].owner == problem[0])
                return ConvictCoins(theirs), {"openings": {coin_key(s): self._values[s][1] for s, _ in theirs}}
        return None

    def _next_automatic(self):
        rep = self.rep
        for duty in rep.duties():
            if duty.what == "join" and duty.who == self.name:
                return self.join
            if duty.what == "deal" and self.can_deal():
                return self.deal
            if duty.what == "reveal" and self.can_deal():
                action = legal_actions(rep.state, DEALER, self.layout()[0])[0]
                return lambda: self.act(action)
            if duty.what == "open" and (duty.who == self.name or self.is_referee):
                # a referee opens every owed coin in one entry; a player opens their own
                action = opening(rep.state, DEALER if self.is_referee else duty.who, self.knowledge())
                return lambda: self.act(action)
        return None


def _waiting(rep: Replay) -> str:
    duty = rep.duties()[0]
    who = party_names(rep).get(duty.who, TABLE_DEALS if duty.who == DEALER else duty.who)
    return f"waiting for {who} to {duty.detail.split(' (')[0]}"


# ---------------------------------------------------------------- a new game

def new_game(game_name: str, options: dict[str, str], players: list[tuple[str, PublicKey]], creator: str,
             identity: Identity, referee: tuple[str, PublicKey] | None = None, layout: Layout | None = None,
             first: str | None = None, deadline_hours: int | None = None) -> Replay:
    """The invitation, signed by `creator` (a player or the referee). A joint deal (the default) commits
    the dealer's seed if the creator deals (table mode, or the referee itself); a referee invited by a
    player commits its seed when it joins. `layout` makes a chosen deal, recorded as the creator's."""
    try:
        game = find_game(game_name)
        game.setup(game.parse_options(options), [p for p, _ in players], first or players[0][0])
    except (UnknownGame, InvalidSetup) as exc:
        raise UsageError(str(exc)) from None
    if layout is None and first is not None:
        raise UsageError("the first player is drawn by the joint deal; choose it only with a chosen layout")
    nonce = crypto.random_bytes(32).hex()
    dealer_is_creator = referee is None or creator == referee[0]
    body: dict = {"format": FORMAT, "nonce": nonce, "game": game.name, "options": dict(options),
                  "players": [{"name": name, "key": _key_text(key)} for name, key in players],
                  "contribution": crypto.random_bytes(32).hex(), "author": creator, "time": int(time.time()),
                  **({"deadline_hours": deadline_hours} if deadline_hours else {})}
    if layout is not None:
        tiles = layout_tiles(layout)
        salts = {key: _salt() for key in TILE_KEYS}
        body.update(deal="chosen", first=first or random.SystemRandom().choice([p for p, _ in players]),
                    commitments={key: commit(nonce, DEALER, key, tiles[key], salts[key]) for key in TILE_KEYS})
        secret: dict | None = {"layout": tiles, "salts": salts}
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
