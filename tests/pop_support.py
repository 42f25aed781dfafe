"""Helpers for Path of Pharaohs tests: plays built by hand on the engine (Table), seeded games played at
random to some point (random_point), whole games through the trust layer (pop_game, play_until), and a
sealed opening as a cheater's program would write one (sealed_blob)."""

from __future__ import annotations

import base64
import random

import pytest

from engine.contract import DEALER, IllegalAction
from engine.path_of_pharaohs import GAME
from engine.path_of_pharaohs.cards import A, B, parse_card, parse_pos
from engine.path_of_pharaohs.driver import FullInformation, random_policy, shuffled_deck
from engine.path_of_pharaohs.notation import parse_action
from engine.path_of_pharaohs.rules import duties, legal_actions, make_table
from engine.path_of_pharaohs.state import PLAY, Options, State
from pbem import crypto
from pbem.protocol.genesis import new_game
from pbem.record.canonical import canonical

from pbem_support import identity, sessions_for

# ---------------------------------------------------------------- plays built by hand

ABC = ("ann", "ben", "cat")


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def filled(text: str, pos: str):
    """A filled position from its cards as notation writes them: '7', '7-1', 'W6'."""
    terms = parse_action(f"{text}@{pos}").terms
    return (sum(v for _, v in terms), terms)


class Table:
    """A hand-built play driven by the full-information driver: the dealer's duties happen on their
    own (a steal takes `steal` — the index among the possible choices, as randomness would)."""

    def __init__(self, hands: dict[str, str], pyramids: dict[str, dict[str, str]] | None = None, *,
                 players=ABC, turn="ann", deck="", discards="", at: dict[str, tuple] | None = None,
                 zeros: dict[str, list[str]] | None = None, storms=(), sands=0, mummies=0, phase=PLAY):
        table = make_table(Options(), players)
        slots, hand_slots, known = [], [], {p: {} for p in players}
        for p in players:
            mine = []
            for card in cards(hands.get(p, "")):
                known[p][len(slots)] = card
                mine.append(len(slots))
                slots.append(card)
            hand_slots.append(tuple(mine))
        pyramid_of = []
        for p in players:
            spec = (pyramids or {}).get(p, {"1l": "5", "1r": "5"})  # by default, a base dealt
            pyramid_of.append(tuple(filled(spec[name], name) if name in spec else None
                                    for name in ("1l", "1m", "1r", "2l", "2r", "3")))
        where = dict.fromkeys(players, (0, None))
        where.update({p: (loc, {"A": A, "B": B, None: None}[sp]) for p, (loc, sp) in (at or {}).items()})
        zero_masks = tuple(sum(1 << parse_pos(x) for x in (zeros or {}).get(p, ())) for p in players)
        state = State(
            table=table, deck=len(cards(deck)), discards=tuple(cards(discards)), slot_card=(None,) * len(slots),
            hands=tuple(hand_slots), pyramids=tuple(pyramid_of), zeros=zero_masks,
            location=tuple(where[p][0] for p in players), space=tuple(where[p][1] for p in players),
            sands=sands, mummies=mummies, storms=tuple(p in storms for p in players),
            turn=players.index(turn), phase=phase,
        )
        self.game = FullInformation(Options(), players, cards(deck), players[0], random.Random(0))
        self.game.state = state
        self.game.known = known
        self.game.cards.update(enumerate(slots))
        self.steal = 0
        self.events: list = []

    @property
    def state(self) -> State:
        return self.game.state

    def auto(self) -> None:
        while duties(self.state) and duties(self.state)[0].who == DEALER:
            what = duties(self.state)[0].what
            actions = legal_actions(self.state, DEALER, self.game.knowledge(DEALER))
            self.events += self.game.act(DEALER, actions[self.steal if what == "steal" else 0])

    def play(self, actor: str, *moves: str) -> list[str]:
        """Moves as `actor` (checked with their knowledge); returns what happened, as text."""
        start = len(self.events)
        for text in moves:
            self.events += self.game.act(actor, parse_action(text))
            self.auto()
        return [str(e) for e in self.events[start:]]

    def refuse(self, actor: str, text: str, match: str, error=IllegalAction) -> None:
        with pytest.raises(error, match=match):
            GAME.check(self.state, actor, parse_action(text), self.game.knowledge(actor))

    def hand(self, player: str) -> list[str]:
        known = self.game.known[player]
        return sorted(str(known[slot]) if known[slot] <= 9 else "ZWTS"[known[slot] - 10]
                      for slot in self.state.hands[self.state.table.players.index(player)])

    def where(self, player: str) -> tuple:
        i = self.state.table.players.index(player)
        space = self.state.space[i]
        return self.state.location[i], None if space is None else "AB"[space]


# ---------------------------------------------------------------- seeded games at random

PLAYERS = ["ann", "ben", "cat", "dan", "eve", "fay"]
DECKS = [Options(), Options((2, 8, 1, 9)), Options((0, 0, 0, 0)), Options((0, 0, 20, 20)), Options((20, 20, 20, 20))]
"""The default deck; few Zeros and Thieves, many Sandstorms (mummies); no action card (games stall);
Thieves and Sandstorms only; every action card four times over."""


def seeded_start(n_players: int, options: Options, seed: int) -> tuple[FullInformation, random.Random]:
    """A new game of the first `n_players` of PLAYERS with a deck shuffled from `seed`, and its generator."""
    rng = random.Random(seed)
    players = PLAYERS[:n_players]
    return FullInformation(options, players, shuffled_deck(options, rng), rng.choice(players), rng), rng


def random_point(n_players: int, seed: int, most: int) -> tuple[FullInformation, random.Random]:
    """A seeded game (of one of DECKS) played at random for up to `most` acts, and its generator."""
    game, rng = seeded_start(n_players, DECKS[seed % len(DECKS)], seed)
    policies = dict.fromkeys(PLAYERS[:n_players], random_policy)
    for _ in range(rng.randrange(most)):
        if not duties(game.state):
            break
        game.step(policies, rng)
    return game, rng


# ---------------------------------------------------------------- whole games through the trust layer

FOUR = ("ann", "ben", "cat", "dan")


def pop_game(mode: str, players=FOUR, seed: int = 1, finish: bool = True):
    referee = ("ref", identity("ref").public) if mode == "referee" else None
    creator = "ref" if referee else players[0]
    rep = new_game("path-of-pharaohs", {}, [(n, identity(n).public) for n in players], creator, identity(creator),
                   referee)
    sessions = sessions_for(rep)
    if finish:
        play_until(rep, sessions, lambda rep: False, random.Random(seed))
    return rep, sessions


def play_until(rep, sessions, stop, rng, limit: int = 3000) -> bool:
    """Every party acts one entry at a time (the dealer's program: its own act, a player: greedy) until
    `stop(rep)` or the end; True if `stop` came first."""
    dealer = sessions[rep.referee or rep.players[0]]
    for _ in range(limit):
        if stop(rep):
            return True
        if not rep.duties():
            return False
        duty = rep.duties()[0]
        if duty.who == DEALER or duty.what in ("join", "audit"):
            party = sessions[duty.who] if duty.what == "join" else dealer
            if duty.what in ("join", "deal", "audit"):
                party.automatic() if duty.what != "audit" else party.audit()
            else:
                party.act(party.dealer_action())
        else:
            session = sessions[duty.who]
            actions = list(rep.game.legal_actions(rep.state, duty.who, session.knowledge()))
            session.act(rep.game.policy("greedy")(rep.state, duty.who, actions, rng, None))
    raise AssertionError("the game did not end")


def sealed_blob(rep, key: str, value, salt: str, readers) -> str:
    opening = canonical({"game": rep.genesis_hash, "key": key, "value": value, "salt": salt})
    return base64.b64encode(crypto.seal(opening, [rep.roster[name] for name in readers])).decode()
