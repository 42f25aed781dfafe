"""The genesis: making a game's signed invitation, and checking one to start a replay."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine import find_game
from engine.contract import (
    DEALER,
    AnyGame,
    InvalidSetup,
    UnknownGame,
    Value,
)
from pbem import crypto
from pbem.crypto import Identity, PublicKey, X25519Identity, X25519Recipient
from pbem.errors import (
    BadGenesis,
    BadSetup,
    KeyProblem,
    UnknownSigner,
)
from pbem.protocol.absence import FUTURE_TOLERANCE, note_duties, span
from pbem.protocol.commitments import SEED, addressed, b64, check_signature, commit, new_salt, unb64
from pbem.protocol.replay import Replay, deal_keys, post_deal
from pbem.record.canonical import canonical
from pbem.record.deadlines import DeadlinePolicy, now
from pbem.record.models import FORMAT, Dealer, Genesis, Participant, SignedBytes, core_id, signed_bytes


def start(g: Genesis, signed: SignedBytes | None = None) -> Replay:
    """Check the genesis and set up the engine; the entries are applied by `apply_entry`. `signed`: the
    genesis's signed bytes, if the caller has worked them out already."""
    try:
        game = find_game(g.game)
    except UnknownGame as exc:
        raise _bad(g, str(exc)) from None
    roster = _roster(g)
    signed = _check_signed(g, roster, signed or signed_bytes(g))
    _check_time(g)
    referee = g.dealer.referee.name if g.dealer.referee else None
    _check_dealer(g, roster, referee)
    players = [p.name for p in g.players]
    try:
        options = game.parse_options(g.options)
        state = game.setup(options, players, g.first or players[0])
        shape = game.deal(options, players, random.Random(0))
    except InvalidSetup as exc:
        raise _bad(g, str(exc)) from None
    rep = Replay(g, game, None, roster, referee, head=signed.hash, hashes=[signed.hash], contributions=[g.contribution],
                 seed_commitment=g.seed)
    if g.deal == "chosen":
        if shape.stock:
            raise _bad(g, _NO_CHOSEN_STOCK.format(title=game.title))
        if set(g.commitments or {}) != set(deal_keys(shape)) or g.first not in players:
            raise _bad(g, "a chosen deal commits to every hidden item and names a player to move first")
        post_deal(rep, dict(g.commitments or {}), g.first, g.author, state)
    note_duties(rep)
    return rep


def _bad(g: Genesis, detail: str) -> BadGenesis:
    return BadGenesis(detail, 0, g.author)


def _roster(g: Genesis) -> dict[str, PublicKey]:
    """Every participant's key by name: names once each and none reserved, keys readable and distinct."""
    roster: dict[str, PublicKey] = {}
    for person in list(g.players) + ([g.dealer.referee] if g.dealer.referee else []):
        if person.name in roster or person.name == DEALER:
            raise _bad(g, f"the name {person.name!r} is used twice or reserved")
        try:
            roster[person.name] = PublicKey.parse(person.key)
        except KeyProblem as exc:
            raise _bad(g, f"{person.name}'s key: {exc}") from None
    if len({k.raw for k in roster.values()}) != len(roster):
        raise _bad(g, "two participants share one key")
    return roster


def _check_signed(g: Genesis, roster: dict[str, PublicKey], signed: SignedBytes) -> SignedBytes:
    """Signed by a participant, and its id derived from it; returns the bytes signed."""
    if g.author not in roster:
        raise UnknownSigner(f"{g.author!r} is not in the roster", 0, g.author)
    check_signature(g, signed.data, roster[g.author], 0)
    if g.game_id != core_id(g):
        raise _bad(g, "the game id is not derived from the genesis (it must hash the invitation)")
    return signed


def _check_time(g: Genesis) -> None:
    """A game with deadlines: its invitation's signed time, which every duty's clock and every entry's time
    follow, is there and not ahead of this program's clock."""
    if g.deadlines is None:
        return
    if g.time is None:
        raise _bad(g, "a game with deadlines has a signed time on every entry, its invitation too")
    if g.time > now() + FUTURE_TOLERANCE:
        raise _bad(g, f"its signed time ({g.time}) is {span(g.time - now())} ahead of this program's clock ({now()}): "
                      "an invitation dated in the future is refused until that time comes (every entry after it "
                      "would be too)")


def _check_dealer(g: Genesis, roster: dict[str, PublicKey], referee: str | None) -> None:
    """The dealer's secrets as the mode wants them: who commits the seed, and to whom each secret is sealed."""
    dealer_is_creator = g.author == referee if referee else True
    if g.deal == "joint" and (g.seed is not None) != dealer_is_creator:
        raise _bad(g, "the seed of a joint deal is committed by the dealer: in the genesis only if the dealer made it")
    if g.dealer.mode == "table":
        if g.dealer.table_key is None or len(unb64(g.dealer.table_key)) != 32:
            raise _bad(g, "the table key is not an X25519 key")
        if set(g.sealed) != {"dealer", "table_key"}:
            raise _bad(g, "a table-mode genesis seals the dealer's secret and the table key")
        if not addressed(g.sealed["table_key"], [roster[p.name] for p in g.players]):
            raise _bad(g, "the table key must be sealed to every player, and to nobody else")
        if not addressed(g.sealed["dealer"], [], native=1):
            raise _bad(g, "the dealer's secret must be sealed to the table key alone")
    else:
        wanted = {"dealer"} if (g.deal == "chosen" or dealer_is_creator) else set()
        if set(g.sealed) != wanted:
            raise _bad(g, "a referee-mode genesis seals the dealer's secret only if it holds the deal")
        if wanted and referee and not addressed(g.sealed["dealer"], [roster[referee]]):
            raise _bad(g, "the dealer's secret must be sealed to the referee alone")


_NO_CHOSEN_STOCK = ("{title} has no chosen deal: its stock is reshuffled and picked from by chance, which only a "
                    "joint deal's seed can do")
"""A chosen deal commits items in named places only: a stock needs the seed (the audit could not account
for a chosen stock's cards, nor prove a reshuffle or a pick)."""




def new_game(game_name: str, options: dict[str, str], players: list[tuple[str, PublicKey]], creator: str,
             identity: Identity, referee: tuple[str, PublicKey] | None = None, layout: Mapping[str, Value] | None = None,
             first: str | None = None, deadline_hours: int | None = None,
             deadlines: DeadlinePolicy | None = None) -> Replay:
    """The invitation, signed by `creator` (a player or the referee). A joint deal (the default) commits
    the dealer's seed if the creator deals (table mode, or the referee itself); a referee invited by a
    player commits its seed when it joins. `layout` (every hidden item's value by key, as the game's
layout file gives it) makes a chosen deal, recorded as the creator's. `deadlines`: the deadline policy
every join agrees to (docs/deadlines.md)."""
    try:
        game = find_game(game_name)
        game.setup(game.parse_options(options), [p for p, _ in players], first or players[0][0])
    except (UnknownGame, InvalidSetup) as exc:
        raise BadSetup(str(exc)) from None
    if layout is None and first is not None:
        raise BadSetup("the first player is drawn by the joint deal; choose it only with a chosen layout")
    nonce = crypto.random_bytes(32).hex()
    body: dict[str, Any] = {"format": FORMAT, "nonce": nonce, "game": game.name, "options": dict(options),
                  "players": [{"name": name, "key": _key_text(key)} for name, key in players],
                  "contribution": crypto.random_bytes(32).hex(), "author": creator, "time": now(),
                  **({"deadline_hours": deadline_hours} if deadline_hours else {}),
                  **({"deadlines": deadlines.model_dump()} if deadlines else {})}
    secret: dict[str, Any] | None  # the dealer's, sealed in the genesis (none if a referee deals who joins later)
    if layout is not None:
        deal, secret = _chosen_deal(game, options, [p for p, _ in players], layout, first, nonce)
    else:
        deal, secret = _joint_deal(nonce, dealer_is_creator=referee is None or creator == referee[0])
    body.update(deal)
    to_seal: dict[str, tuple[dict[str, Any], list[PublicKey | X25519Recipient]]] = {}
    """What the genesis seals (bound to its id), and to whom."""
    if referee:
        dealer = Dealer(mode="referee", referee=Participant(name=referee[0], key=_key_text(referee[1])))
        dealer_reader: PublicKey | X25519Recipient = referee[1]
    else:  # the table's key: every player holds it, and the dealer's secret is sealed to it alone
        table = X25519Identity.generate()
        dealer = Dealer(mode="table", table_key=b64(table.recipient.public))
        to_seal["table_key"] = ({"table_key": table.secret.hex()}, [key for _, key in players])
        dealer_reader = table.recipient
    if secret is not None:
        to_seal["dealer"] = (secret, [dealer_reader])
    body["dealer"] = dealer.model_dump(exclude_none=True)
    game_id = core_id(body)
    body.update(game_id=game_id, sealed={what: b64(crypto.seal(canonical({"game": game_id, **value}), readers))
                                         for what, (value, readers) in to_seal.items()})
    signature = b64(identity.sign(canonical(body)))
    try:
        genesis = Genesis.model_validate({**body, "signature": signature})
    except Exception as exc:  # noqa: BLE001 (pydantic ValidationError: a bad name or option reaches here)
        raise BadSetup(f"cannot make this game: {exc.errors()[0]['msg'] if hasattr(exc, 'errors') else exc}") from None
    return start(genesis)


def _chosen_deal(game: AnyGame, options: dict[str, str], names: list[str], layout: Mapping[str, Value],
                 first: str | None, nonce: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The genesis's fields of a chosen deal (every hidden item committed, the first player), and the
    dealer's secret (the items and their salts)."""
    shape = game.deal(game.parse_options(options), names, random.Random(0))
    if shape.stock:
        raise BadSetup(_NO_CHOSEN_STOCK.format(title=game.title))
    keys = deal_keys(shape)
    if set(layout) != set(keys):
        raise BadSetup(f"a chosen deal gives every hidden item of {game.title}: {', '.join(keys)}")
    items = {key: layout[key] for key in keys}
    salts = {key: new_salt() for key in keys}
    fields = {"deal": "chosen", "first": first or random.SystemRandom().choice(names),
              "commitments": {key: commit(nonce, DEALER, key, items[key], salts[key]) for key in keys}}
    return fields, {"items": items, "salts": salts}


def _joint_deal(nonce: str, dealer_is_creator: bool) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The genesis's fields of a joint deal, and the dealer's secret: the seed, committed here if the creator
    deals (a referee invited by a player commits its own when it joins)."""
    if not dealer_is_creator:
        return {"deal": "joint"}, None
    seed = crypto.random_bytes(32).hex()
    return {"deal": "joint", "seed": commit(nonce, DEALER, SEED, seed, "")}, {"seed": seed}


def _key_text(key: PublicKey) -> str:
    """The roster holds the key without its comment: the comment is the owner's business."""
    return " ".join(key.line().split(" ")[:2])

