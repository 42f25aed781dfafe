"""Sarcophagus (Phillip Lerche, piecepack): the rules as read in docs/rules/sarcophagus.md."""

from . import actions, notation, rules, views
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


GAME = Sarcophagus()

__all__ = ["GAME", "Options", "State"]
