"""Sarcophagus (Phillip Lerche, piecepack): the rules as read in docs/rules/sarcophagus.md."""

from engine.contract import HandWords, Pace, Policy

from . import absence, actions, driver, hidden, notation, rules, views
from .state import Options, State


class Sarcophagus:
    """The game's entry in the engine registry: the contract of engine.contract.Game."""

    name = "sarcophagus"
    title = "Sarcophagus"
    parse_options = staticmethod(rules.parse_options)
    setup = staticmethod(rules.setup)
    duties = staticmethod(rules.duties)
    legal_actions = staticmethod(rules.legal_actions)
    check = staticmethod(rules.check)
    apply = staticmethod(rules.apply)
    public = staticmethod(actions.public)
    view = staticmethod(views.view)
    outcome = staticmethod(rules.outcome)
    parse_action = staticmethod(notation.parse_action)
    format_action = staticmethod(notation.format_action)
    deal = staticmethod(hidden.deal)
    actor = staticmethod(hidden.actor)
    secrets = staticmethod(hidden.secrets)
    knowledge = staticmethod(hidden.knowledge)
    audit_problem = staticmethod(hidden.audit_problem)
    absence_act = staticmethod(absence.absence_act)
    absent = staticmethod(absence.absent)
    min_players, max_players = 2, 4
    """How many players it takes: setup refuses another count, as engine.contract.players_problem says it."""
    pace = Pace(turn_hours=48, reminders=(12,))
    """Deadlines by default: a turn is one or two coins: two days; a reminder half a day before."""
    hand_words = HandWords()
    """The dealer deals no one a hand (the tiles lie in the pyramid, a coin is its player's own)."""
    bots: tuple[str, ...] = ("greedy", "random", "mcts")

    @staticmethod
    def policy(bot: str, think: float | None = 1.0, iterations: int | None = None) -> Policy:
        """greedy and random look only at the legal moves; mcts searches (search.py)."""
        if bot == "mcts":
            from .search import SearchPolicy

            return SearchPolicy(None if iterations else think, iterations)
        return {"greedy": driver.greedy_policy, "random": driver.random_policy}[bot]


GAME = Sarcophagus()

__all__ = ["GAME", "Options", "State"]
