"""The Path of Pharaohs notation: every action formats to text that parses back to it."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.contract import NotationError
from engine.path_of_pharaohs import GAME
from engine.path_of_pharaohs.actions import Build, Deal, Discard, Reveal, Sandstorm, Shuffle, Steal, Stop, Thief, Zero
from engine.path_of_pharaohs.cards import WILD
from engine.path_of_pharaohs.driver import random_game
from engine.path_of_pharaohs.notation import format_action, parse_action
from engine.path_of_pharaohs.state import Options

names = st.from_regex(r"[a-z][a-z0-9_-]{0,7}", fullmatch=True)
slots = st.integers(0, 999)
cards = st.integers(0, 13)


@st.composite
def terms(draw):
    """One to three cards as a player may write them: a value card counts +card or -card (a 0 only
    +0), a Wild any value."""
    out = []
    for _ in range(draw(st.integers(1, 3))):
        if draw(st.booleans()):
            card = draw(st.integers(0, 9))
            out.append((card, card if card == 0 or draw(st.booleans()) else -card))
        else:
            out.append((WILD, draw(st.integers(-9, 9))))
    return tuple(out)


@st.composite
def builds(draw):
    placed = draw(terms())
    named = draw(st.none() | st.lists(slots, min_size=len(placed), max_size=len(placed)).map(tuple))
    return Build(draw(st.integers(0, 5)), placed, named)


@st.composite
def slot_lists(draw):
    chosen = tuple(draw(st.lists(slots, min_size=1, max_size=5)))
    return chosen, draw(st.none() | st.lists(cards, min_size=len(chosen), max_size=len(chosen)).map(tuple))


@st.composite
def discards(draw):
    chosen = tuple(draw(st.lists(cards, min_size=1, max_size=6)))
    return Discard(chosen, draw(st.none() | st.lists(slots, min_size=len(chosen), max_size=len(chosen)).map(tuple)))


actions = st.one_of(
    builds(),
    st.builds(Zero, names, st.integers(0, 5), st.none() | slots),
    st.builds(Thief, names, st.none() | slots),
    st.builds(Sandstorm, names, st.none() | slots),
    st.just(Stop()), st.just(Shuffle()),
    discards(),
    st.builds(Reveal, cards),
    st.builds(lambda name, pair: Deal(name, *pair), names, slot_lists()),
    slot_lists().map(lambda pair: Steal(*pair)),
)


@settings(max_examples=300, deadline=None)
@given(actions)
@pytest.mark.slow
def test_every_action_round_trips_through_its_text(action):
    text = format_action(action)
    assert parse_action(text) == action
    assert format_action(parse_action(text)) == text


def test_the_texts_of_the_rules_page_parse_to_what_they_say():
    assert parse_action("7-1@2r") == Build(4, ((7, 7), (1, -1)))
    assert parse_action("5+2-1@3") == Build(5, ((5, 5), (2, 2), (1, -1)))
    assert parse_action("w6@2L") == Build(3, ((WILD, 6),))  # letters in either case
    assert parse_action("7-W1@3") == Build(5, ((7, 7), (WILD, -1)))
    assert parse_action("0@1m") == Build(1, ((0, 0),))
    assert parse_action("Z@ben:2r") == Zero("ben", 4)
    assert parse_action("t@ben") == Thief("ben")
    assert parse_action("S#4@ben") == Sandstorm("ben", 4)
    assert parse_action("discard 5 T") == Discard((5, 12))
    assert parse_action("  stop ") == Stop()
    assert parse_action("deal ann #12=5 #13=T") == Deal("ann", (12, 13), (5, 12))
    assert parse_action("steal #4 #9") == Steal((4, 9))
    assert format_action(parse_action("-1+7@2l")) == "-1+7@2l"  # as typed; `check` puts it in order


@pytest.mark.parametrize("text,why", [
    ("", "empty move"),
    ("5", "is not a move"),
    ("5@", "say where the cards go"),
    ("5@2x", "a pyramid position is one of"),
    ("+5@2l", "write the cards as"),
    ("5++3@2l", "write the cards as"),
    ("-0@2l", "a card counting 0 has no sign"),
    ("5#1+3@2l", "the slot of every card or of none"),
    ("Z@ben", "names a player and position"),
    ("T@ben:2l", "names a player only"),
    ("discard 5 X", "a card is 0-9"),
    ("discard 5#1 3", "the slot of every card or of none"),
    ("deal ann 5", "write each card as its slot"),
    ("steal #1=5 #2", "the card of every slot or of none"),
    ("reveal", "is not a move"),
    ("reveal 10", "a card is 0-9"),
])
def test_bad_text_is_a_notation_error_that_says_why(text, why):
    with pytest.raises(NotationError, match=why):
        parse_action(text)


def test_every_act_of_real_games_round_trips_in_private_and_public_form():
    seen = set()
    for seed in range(8):
        game = random_game(["ann", "ben", "cat", "dan"], Options(), random.Random(seed))
        for _, action in game.log:
            for form in (action, GAME.public(action)):
                text = format_action(form)
                assert parse_action(text) == form
                seen.add(type(form).__name__)
    assert seen >= {"Build", "Stop", "Reveal", "Deal", "Discard", "Thief", "Steal", "Sandstorm", "Zero"}
