"""The conformance test every registered game passes (OpenSpiel's random-playout test, through the trust
layer): whole games among random bots in both dealer modes, each action's notation round-tripping, every
duty of a known kind, and a record that verifies with its end audit."""

import random

import pytest

from engine import GAMES
from engine.contract import DEALER, DUTY_KINDS
from pbem.protocol.genesis import new_game
from pbem.protocol.verify import verify
from pbem.record.models import from_json, to_json

from pbem_support import identity, sessions_for

PLAYERS = {"sarcophagus": ("ann", "ben", "cat"), "path-of-pharaohs": ("ann", "ben", "cat")}


def test_every_registered_game_is_covered_here():
    assert set(PLAYERS) == set(GAMES)


@pytest.mark.parametrize("mode", ["table", "referee"])
@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_a_random_game_through_the_trust_layer(name, mode):
    game, players, rng = GAMES[name], PLAYERS[name], random.Random(11)
    referee = ("ref", identity("ref").public) if mode == "referee" else None
    creator = "ref" if referee else players[0]
    rep = new_game(name, {}, [(n, identity(n).public) for n in players], creator, identity(creator), referee)
    sessions = sessions_for(rep)
    dealer = sessions[rep.referee or players[0]]
    random_bot = game.policy("random")
    for _ in range(5000):
        owed = rep.duties()
        if not owed:
            break
        duty = owed[0]
        assert duty.what in DUTY_KINDS + ("join", "deal", "audit")
        if duty.who == DEALER or duty.what in ("join", "open") or duty.who not in sessions:
            (sessions[duty.who] if duty.what == "join" else dealer if duty.who == DEALER else
             sessions[duty.who]).automatic()
            continue
        session = sessions[duty.who]
        known = session.knowledge()
        actions = list(game.legal_actions(rep.state, duty.who, known))
        assert actions, f"{duty} has no legal action"
        action = random_bot(rep.state, duty.who, actions, rng, known)
        text = game.format_action(action)
        assert game.format_action(game.parse_action(text)) == text
        session.act(action)
    else:
        raise AssertionError("the game did not end")
    checked = verify(from_json(to_json(rep.record).encode()))
    assert checked.outcome() is not None and checked.verdict is None and checked.entries[-1].action == "audit"
    assert checked.over and set(checked.outcome().scores) == set(players)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_has_a_presentation_that_keeps_the_protocol(name):
    """A game's presentation is found by its name alone (no registry in pbem/ to edit): each registered
    game has one, with every member the Protocol asks for, and its page's files."""
    from pbem.presentation.games import Presentation, generic, presentation
    from pbem.presentation.html import static

    shown = presentation(name)
    assert shown is not generic, f"{name} has no module {name.replace('-', '_')}.py in pbem/presentation/games/"
    members = [m for m in dir(Presentation) if not m.startswith("_")] + list(Presentation.__annotations__)
    assert [m for m in members if not hasattr(shown, m)] == []
    assert all(static(shown.HTML_STATIC + suffix) is not None for suffix in (".js", ".css", ".svg"))
