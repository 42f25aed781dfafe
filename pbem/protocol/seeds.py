"""The joint deal's seed: what it gives (the deal, each reshuffle, each pick by chance), checked when
the dealer opens it at the end audit or when a player proves the dealer posted something else."""

from __future__ import annotations

import random
import threading
from collections.abc import Sequence

from engine.contract import (
    DEALER,
    Dealt,
    Value,
)
from pbem.errors import (
    BadOpening,
    IllegalMove,
)
from pbem.protocol.acts import (
    Audited,
    Verdict,
)
from pbem.protocol.commitments import SEED, Seeded, commit
from pbem.protocol.dealing import chance_pick, deal_random, item_salt, restocked, stock_key
from pbem.protocol.replay import Replay
from pbem.record.models import Entry


def deal_shape(rep: Replay) -> Dealt:
    """The deal's shape (its keys and stock size), which no randomness changes."""
    game = rep.game
    return game.deal(game.parse_options(rep.genesis.options), rep.players, random.Random(0))


def seeded_deal(rep: Replay, seed: str) -> tuple[Dealt, dict[str, Value], dict[str, str]]:
    """What a joint deal's seed gives: the deal, every hidden item's value by key, and the commitment
    to every item that the `deal` entry must post. Worked out once a process for a game's deal (the
    genesis fixes the game, its options and players; the seed and the contributions the rest): a
    referee's every turn and every check for a cheat asked it again, a commitment an item each time,
    about a third of a judge's time a turn."""
    key = (rep.genesis_hash, seed, tuple(rep.contributions))
    with _DEALS_LOCK:  # a web judge's threads share it
        found = _DEALS.pop(key, None)
    if found is None:
        found = _deal_from_seed(rep, seed)
    with _DEALS_LOCK:
        _DEALS[key] = found  # the newest last: the oldest is forgotten first
        while len(_DEALS) > DEALS_KEPT:
            del _DEALS[next(iter(_DEALS))]
    dealt, values, commitments = found
    return dealt, dict(values), dict(commitments)  # the caller's own dicts: the kept ones stay as worked out


DEALS_KEPT = 1024
_DEALS_LOCK = threading.Lock()
_DEALS: dict[tuple[str, str, tuple[str, ...]], tuple[Dealt, dict[str, Value], dict[str, str]]] = {}


def _deal_from_seed(rep: Replay, seed: str) -> tuple[Dealt, dict[str, Value], dict[str, str]]:
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


def seeded_values(rep: Replay, seed: str) -> dict[str, Value]:
    """Every dealer item's value by the key it was committed under: the deal's and each reshuffle's."""
    values = seeded_deal(rep, seed)[1]
    for posted in rep.seeded:
        if posted.what.startswith("reshuffle "):
            values.update(seeded_restock(rep, seed, *posted.context))
    return values


ABSENT_DISCARD = "an absent player's discard"
"""What an absence that discards hidden cards by rule posts: the lowest cards of a hand nobody else sees,
checked when the seed opens (docs/deadlines.md)."""


def lowest_by_seed(rep: Replay, seed: str, posted: Seeded) -> str:
    """The act the game's rule gives an absent player, from the hand the seed says they held."""
    values = seeded_values(rep, seed)
    return lowest_given(rep, posted, {key: values[source] for key, source in posted.context[2].items()})


def lowest_given(rep: Replay, posted: Seeded, hand: dict[str, Value]) -> str:
    """The act the game's rule gives an absent player who held `hand` (each card by its key) then."""
    state, party, _ = posted.context
    game = rep.game
    act = game.absence_act(state, party, game.knowledge(state, party, hand, []))
    return "" if act is None else str(game.format_action(game.public(act)))


def _seed_gives(rep: Replay, seed: str, posted: Seeded) -> bool:
    """Whether the seed gives what the dealer posted (the deal, a reshuffle, a pick by chance), or what an
    absence chose by rule from a hidden hand (its lowest cards)."""
    g = rep.genesis
    if posted.what == ABSENT_DISCARD:
        return posted.posted == lowest_by_seed(rep, seed, posted)
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


def check_seed(rep: Replay, entry: Entry, seq: int, proving: bool) -> list[object]:
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
    rep.verdict = Verdict(false.author, false_text(rep, seed, false), seq, author)
    return [rep.verdict]


def false_text(rep: Replay, seed: str, false: Seeded) -> str:
    """What the opened seed proves false, in words (the game's for its hand: engine.contract.HandWords)."""
    if false.what == ABSENT_DISCARD:
        party, chosen = false.context[1], rep.game.hand_words.chosen
        return (f"signed {party}'s absence (from entry {false.seq}) with the act {false.posted!r}, but the dealer's "
                f"committed seed shows {party}'s {chosen} then gave {lowest_by_seed(rep, seed, false)!r}")
    return f"posted {false.what} (entry {false.seq}) that the dealer's committed seed does not give"

