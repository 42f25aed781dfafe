"""Signed entries applied to the engine: creating a game, replaying and checking a record, and a
participant's acts. `apply_entry` is the one path every entry takes, whether we just wrote it or
are verifying someone else's file.
"""

from __future__ import annotations

import base64
import binascii
import json
import random
import time
from dataclasses import dataclass, field, replace

from engine import find_game
from engine.contract import DEALER, IllegalAction, InvalidSetup, NotationError, NotYourDuty, UnknownGame
from engine.sarcophagus.actions import Open, Place, Reveal
from engine.sarcophagus.driver import Layout
from engine.sarcophagus.rules import legal_actions, opening

from . import crypto
from .canonical import canonical
from .crypto import Identity, PublicKey, X25519Identity
from .dealing import TILE_KEYS, coin_key, coin_slot, layout_from_tiles, layout_tiles, random_layout, tile_key
from .errors import (AuditFailed, BadGenesis, BadOpening, BadSequence, BadSignature, BrokenChain, IllegalMove, KeyProblem,
                     NotOwed, PbemError, SealError, UnknownSigner, UsageError, WrongGame)
from .record import FORMAT, Dealer, Entry, GameFile, Genesis, Participant, payload

COMMITMENT_DOMAIN = "pbem/commitment/v1"


def commit(game_id: str, owner: str, slot: str, value: int | str, salt: str) -> str:
    """SHA-256 over a domain-separated canonical object binding game, owner, slot, value and salt."""
    return crypto.sha256(canonical({"domain": COMMITMENT_DOMAIN, "game": game_id, "owner": owner, "slot": slot,
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
    game: object
    state: object
    roster: dict[str, PublicKey]
    referee: str | None
    entries: list[Entry] = field(default_factory=list)
    coins: dict[int, Coin] = field(default_factory=dict)
    head: str = ""
    hashes: list[str] = field(default_factory=list)
    """The payload hash of the genesis and of every entry, in order (hashes[seq])."""
    events: list[tuple[int, object]] = field(default_factory=list)

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
    def seq(self) -> int:
        return len(self.entries)

    def duties(self):
        return self.game.duties(self.state)

    def outcome(self):
        return self.game.outcome(self.state)


# ---------------------------------------------------------------- checking

def _verify_signature(signed: Genesis | Entry, signed_bytes: bytes, key: PublicKey, seq: int) -> None:
    try:
        crypto.verify_signature(key, signed_bytes, _unb64(signed.signature))
    except (crypto.SignatureInvalid, SealError) as exc:
        raise BadSignature(str(exc), seq, signed.author) from None


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
    if set(g.commitments) != set(TILE_KEYS):
        raise bad("the genesis must commit to every hidden tile")
    wanted = {"dealer", "table_key"} if g.dealer.mode == "table" else {"dealer"}
    if set(g.sealed) != wanted:
        raise bad("sealed secrets do not match the dealer mode")
    if g.dealer.table_key is not None and len(_unb64(g.dealer.table_key)) != 32:
        raise bad("the table key is not an X25519 key")
    try:
        options = game.parse_options(g.options)
        state = game.setup(options, [p.name for p in g.players], g.first)
    except InvalidSetup as exc:
        raise bad(str(exc)) from None
    referee = g.dealer.referee.name if g.dealer.referee else None
    head = crypto.sha256(signed_bytes).hex()
    return Replay(g, game, state, roster, referee, head=head, hashes=[head])


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


def party_names(rep: Replay) -> dict[str, str]:
    """How messages name the rules' parties: in referee mode the dealer is a person or bot with a name."""
    return {DEALER: f"the referee {rep.referee}"} if rep.referee else {}


def may_act_for(rep: Replay, author: str, actor: str, action) -> bool:
    """The author signs for the actor: themselves; in table mode any player deals; a referee deals and
    (holding every coin's opening) opens for anyone."""
    if author == actor and actor != rep.referee:
        return True
    if actor == DEALER:
        return author == rep.referee if rep.mode == "referee" else author in rep.players
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
    game = rep.game
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
        action = game.check(rep.state, actor, action)
    except NotYourDuty as exc:
        raise NotOwed(exc.naming(party_names(rep)), seq, author) from None
    except IllegalAction as exc:
        if isinstance(action, Open):  # openings that contradict earlier play: the audit's finding
            raise AuditFailed(str(exc), seq, author) from None
        raise IllegalMove(str(exc), seq, author) from None
    _check_attachments(rep, entry, action, actor, seq)
    rep.state, events = game.apply(rep.state, actor, action)
    if author != actor:  # the report names who signed the act: "ref opens #1=0", not the owner or "dealer"
        events = tuple(replace(e, player=author) if getattr(e, "player", None) == actor else e for e in events)
    rep.entries.append(entry)
    rep.head = crypto.sha256(signed_bytes).hex()  # record.payload_hash, without canonicalizing twice
    rep.hashes.append(rep.head)
    rep.events += [(seq, e) for e in events]
    return list(events)


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
        salts = _expect_keys(entry.openings, set(opened), "openings", seq, author)
        for key, tile in opened.items():
            if commit(g.game_id, DEALER, key, tile, salts[key]) != g.commitments[key]:
                raise BadOpening(f"{key}={tile} does not match the tile committed at setup", seq, author)
    elif isinstance(action, Open):
        opened = {coin_key(slot): value for slot, value in action.values}
        salts = _expect_keys(entry.openings, set(opened), "openings", seq, author)
        for key, value in opened.items():
            coin = rep.coins[coin_slot(key)]
            if commit(g.game_id, coin.owner, key, value, salts[key]) != coin.commitment:
                raise BadOpening(f"coin {key}={value} does not match its commitment", seq, author)
    else:
        _expect_keys(entry.openings, set(), "openings", seq, author)
    for key in new_coin:
        rep.coins[coin_slot(key)] = Coin(actor, commitments[key], sealed[key])


def replay(record: GameFile) -> Replay:
    """Check a whole record from the genesis on; raises a VerifyError naming the first bad entry."""
    rep = start(record.genesis)
    for entry in record.entries:
        apply_entry(rep, entry)
    return rep


# ---------------------------------------------------------------- a participant

class Session:
    """One participant at the table: what their key opens, and the acts they sign."""

    def __init__(self, rep: Replay, name: str, identity: Identity):
        if name not in rep.roster:
            raise UsageError(f"{name!r} is not in this game (participants: {', '.join(rep.roster)})")
        if not rep.roster[name].same_key(identity.public):
            raise KeyProblem(f"this key is not {name}'s key in this game (expected {rep.roster[name].fingerprint()})")
        self.rep, self.name, self.identity = rep, name, identity
        self._values: dict[int, tuple[int, str]] = {}
        self._dealer: tuple[Layout, dict[str, str]] | None = None

    @property
    def is_referee(self) -> bool:
        return self.name == self.rep.referee

    def can_deal(self) -> bool:
        return self.is_referee or (self.rep.mode == "table" and self.name in self.rep.players)

    def _open_coin(self, slot: int) -> tuple[int, str]:
        if slot not in self._values:
            coin = self.rep.coins[slot]
            try:
                opening = json.loads(crypto.unseal(_unb64(coin.sealed), self.identity))
                value, salt = opening["value"], opening["salt"]
                fits = (opening.get("game"), opening.get("owner"), opening.get("slot")) == (
                    self.rep.genesis.game_id, coin.owner, coin_key(slot))
            except (SealError, ValueError, KeyError, TypeError):
                raise SealError(f"cannot open the sealed value of coin #{slot}") from None
            if not fits or commit(self.rep.genesis.game_id, coin.owner, coin_key(slot), value, salt) != coin.commitment:
                raise SealError(f"the sealed value of coin #{slot} does not match its commitment")
            self._values[slot] = (value, salt)
        return self._values[slot]

    def knowledge(self) -> dict[int, int]:
        """The value of every coin this participant may open: their own (a referee: all)."""
        return {slot: self._open_coin(slot)[0] for slot, coin in self.rep.coins.items()
                if coin.owner == self.name or self.is_referee}

    def dealer_secret(self) -> tuple[Layout, dict[str, str]]:
        """The layout and its salts, opened through the table key (table mode) or the referee's key."""
        if self._dealer is None:
            g = self.rep.genesis
            try:
                if self.rep.mode == "table":
                    table = json.loads(crypto.unseal(_unb64(g.sealed["table_key"]), self.identity))
                    opener = X25519Identity(bytes.fromhex(table["table_key"]))
                else:
                    opener = self.identity
                secret = json.loads(crypto.unseal(_unb64(g.sealed["dealer"]), opener))
                tiles, salts = secret["layout"], secret["salts"]
                layout = layout_from_tiles(tiles)
            except (PbemError, ValueError, KeyError, TypeError, InvalidSetup):
                raise SealError("cannot open the dealer's secret with this key") from None
            for key in TILE_KEYS:
                if commit(g.game_id, DEALER, key, tiles[key], salts[key]) != g.commitments[key]:
                    raise SealError(f"the dealer's secret does not match the commitment for {key}")
            self._dealer = (layout, salts)
        return self._dealer

    # -- acts

    def sign(self, body: dict) -> Entry:
        body = {"game_id": self.rep.genesis.game_id, "seq": self.rep.seq + 1, "prev": self.rep.head,
                "author": self.name, **{k: v for k, v in body.items() if v}, "time": int(time.time())}
        signature = _b64(self.identity.sign(canonical(body)))
        return Entry.model_validate({**body, "signature": signature})

    def entry_for(self, action, actor: str) -> Entry:
        """Turn a checked action into a signed entry, with its commitment, seal or openings."""
        game, g = self.rep.game, self.rep.genesis
        if isinstance(action, Place):
            slot, salt = len(self.rep.state.slot_seat), _salt()
            key = coin_key(slot)
            opening = canonical({"game": g.game_id, "owner": actor, "slot": key, "value": action.value, "salt": salt})
            recipients = [self.rep.roster[actor]] + ([self.rep.roster[self.rep.referee]] if self.rep.referee else [])
            return self.sign({"action": game.format_action(game.public(action)),
                              "commitments": {key: commit(g.game_id, actor, key, action.value, salt)},
                              "sealed": {key: _b64(crypto.seal(opening, recipients))}})
        if isinstance(action, Reveal):
            _, salts = self.dealer_secret()
            keys = [tile_key(pos, action.under) for pos, _ in action.tiles]
            return self.sign({"action": game.format_action(action), "openings": {k: salts[k] for k in keys}})
        if isinstance(action, Open):
            return self.sign({"action": game.format_action(action),
                              "openings": {coin_key(s): self._open_coin(s)[1] for s, _ in action.values}})
        return self.sign({"action": game.format_action(action)})

    def act(self, action) -> list:
        """Check an action with this participant's knowledge, sign it, apply it; returns the events."""
        game = self.rep.game
        # a move or a choice is always one's own; reveals are the dealer's, openings the coins' owner's
        actor = actor_for(self.rep, action) if isinstance(action, (Reveal, Open)) else self.name
        if isinstance(action, Place) and action.value is None:
            raise UsageError("say which coin to place: its value, e.g. 4@3b or 4")
        try:
            action = game.check(self.rep.state, actor or self.name, action, self.knowledge())
        except NotYourDuty as exc:
            raise UsageError(exc.naming(party_names(self.rep))) from None
        except IllegalAction as exc:
            raise UsageError(str(exc)) from None
        if not may_act_for(self.rep, self.name, actor, action):
            raise UsageError(f"{game.format_action(action)}: {self.name} may not act for {actor}")
        return apply_entry(self.rep, self.entry_for(action, actor))

    def automatic(self) -> list:
        """Fulfil every duty this participant can without a decision: reveals they may deal, and
        openings they hold. Returns the events."""
        events: list = []
        while True:
            action = self._next_automatic()
            if action is None:
                return events
            events += self.act(action)

    def _next_automatic(self):
        for duty in self.rep.duties():
            if duty.what == "reveal" and self.can_deal():
                return legal_actions(self.rep.state, DEALER, self.dealer_secret()[0])[0]
            if duty.what == "open" and (duty.who == self.name or self.is_referee):
                # a referee opens every owed coin in one entry; a player opens their own
                return opening(self.rep.state, DEALER if self.is_referee else duty.who, self.knowledge())
        return None


# ---------------------------------------------------------------- a new game

def new_game(game_name: str, options: dict[str, str], players: list[tuple[str, PublicKey]], creator: str,
             identity: Identity, referee: tuple[str, PublicKey] | None = None, layout: Layout | None = None,
             first: str | None = None, deadline_hours: int | None = None) -> Replay:
    """Deal, commit and seal a new game, signed by `creator` (a player or the referee)."""
    try:
        game = find_game(game_name)
        game.setup(game.parse_options(options), [p for p, _ in players], first or players[0][0])
    except (UnknownGame, InvalidSetup) as exc:
        raise UsageError(str(exc)) from None
    game_id = crypto.random_bytes(16).hex()
    layout = layout or random_layout()
    first = first or random.SystemRandom().choice([p for p, _ in players])
    tiles = layout_tiles(layout)
    salts = {key: _salt() for key in TILE_KEYS}
    secret = canonical({"game": game_id, "layout": tiles, "salts": salts})
    keys = [key for _, key in players]
    if referee:
        dealer = Dealer(mode="referee", referee=Participant(name=referee[0], key=_key_text(referee[1])))
        sealed = {"dealer": _b64(crypto.seal(secret, [referee[1]]))}
    else:
        table = X25519Identity.generate()
        dealer = Dealer(mode="table", table_key=_b64(table.recipient.public))
        sealed = {"dealer": _b64(crypto.seal(secret, [table.recipient])),
                  "table_key": _b64(crypto.seal(canonical({"game": game_id, "table_key": table.secret.hex()}), keys))}
    body = {
        "format": FORMAT, "game_id": game_id, "game": game.name, "options": dict(options),
        "players": [{"name": name, "key": _key_text(key)} for name, key in players],
        "dealer": dealer.model_dump(exclude_none=True), "first": first,
        "commitments": {key: commit(game_id, DEALER, key, tiles[key], salts[key]) for key in TILE_KEYS},
        "sealed": sealed, "author": creator, "time": int(time.time()),
        **({"deadline_hours": deadline_hours} if deadline_hours else {}),
    }
    signature = _b64(identity.sign(canonical(body)))
    try:
        genesis = Genesis.model_validate({**body, "signature": signature})
    except Exception as exc:  # pydantic ValidationError: a bad name or option reaches here
        raise UsageError(f"cannot make this game: {exc.errors()[0]['msg'] if hasattr(exc, 'errors') else exc}") from None
    return replay(GameFile(genesis=genesis, entries=[]))


def _key_text(key: PublicKey) -> str:
    """The roster holds the key without its comment: the comment is the owner's business."""
    return " ".join(key.line().split(" ")[:2])
