"""Computer players: they act through a Session, knowing only what their own key opens."""

from __future__ import annotations

import random

from engine.contract import TURN_DUTIES, AnyGame, Policy
from pbem.errors import UnknownBot
from pbem.protocol.session import Session


def policy_for(game: AnyGame, bot: str, think: float = 1.0, iterations: int | None = None) -> Policy:
    """The game's computer player by name (engine.contract.Game.policy); `think` (seconds a move) or
    `iterations` bound a search."""
    if bot not in game.bots:
        raise UnknownBot(f"--bot for {game.title} is one of {', '.join(game.bots)}")
    return game.policy(bot, think, iterations)


def bot_turn(session: Session, policy: str | Policy | None = None, rng: random.Random | None = None) -> list[object]:
    """Do everything this participant owes now: automatic duties, and choices by the policy (a bot of the
    game's by name; by default its first)."""
    rng = rng or random.Random()
    rep = session.rep
    choose = policy_for(rep.game, policy or rep.game.bots[0]) if policy is None or isinstance(policy, str) else policy
    events = session.automatic()
    while True:
        owed = [d for d in rep.duties() if d.who == session.name and d.what in TURN_DUTIES]
        if not owed:
            return events
        known = session.knowledge()
        actions = list(rep.game.legal_actions(rep.state, session.name, known))
        events += session.act(choose(rep.state, session.name, actions, rng, known))
        events += session.automatic()


def play_out(sessions: dict[str, Session], policy: str | Policy | None = None, rng: random.Random | None = None,
             limit: int = 5000) -> None:
    """Play until nobody owes anything, each participant acting through their own session."""
    rng = rng or random.Random()
    rep = next(iter(sessions.values())).rep
    for _ in range(limit):
        owed = rep.duties()
        if not owed:
            return
        progressed = False
        for who in dict.fromkeys([d.who for d in owed]):
            actor = who if who in sessions else next(n for n, s in sessions.items() if s.can_deal())
            if bot_turn(sessions[actor], policy, rng):
                progressed = True
        if not progressed:
            raise RuntimeError("no participant could act")
    raise RuntimeError("the game did not end")
