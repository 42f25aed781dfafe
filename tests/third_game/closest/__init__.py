"""Closest, the tests' third game (docs/adding-a-game.md's worked example): two or three players each seal
a guess of a hidden number from 1 to 9, in turn; the dealer turns the number up; the guesses are opened;
the nearest guess wins (each scores 9 less its distance). Its rules page is this docstring.

Its engine package (this one: standard library and engine.contract only), one registry entry
(tests/third_game/__init__.py plugs it in, as the line in engine.GAMES would), and its presentation
(tests/third_game/presentation.py) are all a game writes."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.contract import HandWords, Pace, Policy

from . import actions, hidden, rules
from .rules import Options, State


def _random(state: Any, actor: str, legal: list[Any], rng: random.Random, knowledge: Any) -> Any:
    return rng.choice(legal)


def _middle(state: Any, actor: str, legal: list[Any], rng: random.Random, knowledge: Any) -> Any:
    """The guess nearest the middle: the least far from any target, on average."""
    return legal[len(legal) // 2] if len(legal) > 1 else legal[0]


class Closest:
    """The game's entry in the registry: the contract of engine.contract.Game."""

    name = "closest"
    title = "Closest"
    min_players, max_players = 2, 3
    """How many players it takes: setup refuses another count, as engine.contract.players_problem says it."""
    pace = Pace(turn_hours=24, reminders=(6,))
    parse_options = staticmethod(rules.parse_options)
    setup = staticmethod(rules.setup)
    duties = staticmethod(rules.duties)
    legal_actions = staticmethod(rules.legal_actions)
    check = staticmethod(rules.check)
    apply = staticmethod(rules.apply)
    public = staticmethod(actions.public)
    view = staticmethod(rules.view)
    outcome = staticmethod(rules.outcome)
    parse_action = staticmethod(actions.parse_action)
    format_action = staticmethod(actions.format_action)
    deal = staticmethod(hidden.deal)
    actor = staticmethod(hidden.actor)
    secrets = staticmethod(hidden.secrets)
    knowledge = staticmethod(hidden.knowledge)
    audit_problem = staticmethod(hidden.audit_problem)
    absence_act = staticmethod(rules.absence_act)
    absent = staticmethod(rules.absent)
    hand_words = HandWords()
    """The dealer deals no one a hand: a guess is its player's own, the target the dealer's."""
    bots: tuple[str, ...] = ("greedy", "random")

    @staticmethod
    def policy(bot: str, think: float | None = 1.0, iterations: int | None = None) -> Policy:
        """greedy guesses the middle; random guesses anything."""
        return {"greedy": _middle, "random": _random}[bot]


GAME = Closest()

if TYPE_CHECKING:  # mypy holds the game to the contract with its own types
    from engine.contract import Game

    from .actions import Action

    _CHECKED: Game[Options, State, Action, Mapping[str, Any]] = GAME

__all__ = ["GAME", "Options", "State"]
