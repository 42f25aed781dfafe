"""Path of Pharaohs (Rob Fosnaugh, 2004), a documented reconstruction: docs/rules/path-of-pharaohs.md.

Hidden information, and how each act carries it (the input to a generic trust layer, issue 10):

- The deck order: secret to all but the dealer (referee or table key), who commits to a shuffled
  deck at the start. In the state the deck is a count. The dealer's acts use it:
  - `Reveal(card)`: the top card turned face up for all (a base card). Public in full; the trust
    layer proves it was the deck's next card.
  - `Deal(player, slots, cards)`: the top cards dealt privately into new slots of one hand. The
    record holds the public form (`cards` None); `cards` is sealed to the receiver alone.
  - `Shuffle()`: the discard pile (public, so its multiset is known) becomes a new deck in a fresh
    secret order, committed anew by the dealer.
- Hands: each card dealt to a hand is an opaque slot, numbered in dealing order, whose card only its
  owner (and the dealer, who dealt it) knows; everyone sees how many slots each hand holds. A card
  played, discarded or given (`Build`, `Zero`, `Thief`, `Sandstorm`, `Discard`) names its slot and
  shows its card: from then on it is public, and the trust layer proves the slot held that card.
- Theft: `Steal(slots, cards)` is the dealer's act after a Thief; which slots move is chosen by
  randomness neither the thief nor the victim controls (the trust layer supplies it and proves it;
  `legal_actions` lists every choice it may make). The public form names the slots; `cards` is sealed
  to the thief (the victim knew them already).
- Everything else is public: bases, pyramids, Zero Block Value cards, Sandstorms in front, the
  discard pile, the path, the Sands of Time and the mummies.

Chance acts as the DEALER, OpenSpiel style: its duties are "reveal", "deal", "shuffle" and "steal"
(engine.contract.DUTY_KINDS says what each asks of the trust layer); the players' are "move" and "discard".
One party owes at a time. `legal_actions(state, actor, knowledge)` takes what the actor privately
knows: a player's slot -> card, or the dealer's `DealerKnowledge(deck, cards)`; `check` without
knowledge accepts what only the trust layer can prove (a slot's card, the deck's top cards), so a
verifier replays the public record with no secret at all.
"""

from engine.contract import Pace, Policy

from . import absence, actions, driver, hidden, notation, rules, views
from .knowledge import DealerKnowledge
from .rules import Outcome
from .state import Options, State


class PathOfPharaohs:
    """The game's entry for the engine registry: the contract of engine.contract.Game (mypy holds it
    to it: engine/__init__.py)."""

    name = "path-of-pharaohs"
    title = "Path of Pharaohs"
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
    min_players, max_players = 3, 6
    """How many players it takes: setup refuses another count, as engine.contract.players_problem says it."""
    pace = Pace(turn_hours=72, reminders=(24,))
    """Deadlines by default: a turn is a plan of builds and action cards: three days; a reminder a day before."""
    hand_words = absence.HAND_WORDS
    """A hand of cards, whose lowest an absent player's discard is (absence.py)."""
    bots: tuple[str, ...] = ("greedy", "random", "mcts")

    @staticmethod
    def policy(bot: str, think: float | None = 1.0, iterations: int | None = None) -> Policy:
        """greedy and random look only at the legal moves (driver.py); mcts searches (search.py)."""
        if bot == "mcts":
            from .search import SearchPolicy

            return SearchPolicy(None if iterations else think, iterations)
        chosen = {"greedy": driver.greedy_policy, "random": driver.random_policy}[bot]
        return lambda state, actor, actions, rng, known: chosen(state, actor, list(actions), rng)


GAME = PathOfPharaohs()

__all__ = ["GAME", "DealerKnowledge", "Options", "Outcome", "State"]
