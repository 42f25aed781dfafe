import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.contract import NotationError
from engine.sarcophagus.actions import Discard, Open, Place, Reveal, public
from engine.sarcophagus.geometry import SARCOPHAGUS_POSITIONS, parse_pos
from engine.sarcophagus.notation import format_action, parse_action
from engine.sarcophagus.pieces import ALL_TILES, Tile, parse_tile


@pytest.mark.parametrize("text,action", [
    ("4@3b", Place(parse_pos("3b"), 4)),
    ("4", Place(None, 4)),
    ("@3b", Place(parse_pos("3b"))),
    ("discard moon-4", Discard(Tile(1, 4))),
    ("reveal 2a=moon-4 2b=sun-null", Reveal(((1, Tile(1, 4)), (2, Tile(0, 0))))),
    ("reveal sarcophagus 5c=moon-5", Reveal(((SARCOPHAGUS_POSITIONS[0], Tile(1, 5)),), under=True)),
    ("open #3=4 #7=0", Open(((3, 4), (7, 0)))),
])
def test_parse_and_format_are_inverse(text, action):
    assert parse_action(text) == action
    assert format_action(action) == text


def test_tile_names():
    assert [str(t) for t in ALL_TILES[:6]] == ["sun-null", "sun-ace", "sun-2", "sun-3", "sun-4", "sun-5"]
    assert parse_tile("CROWN-ACE") == Tile(2, 1)
    assert parse_tile("arms-0") == Tile(3, 0)


@pytest.mark.parametrize("text,message", [
    ("", "empty move"),
    ("7@3b", "a coin value is 0 to 5, not '7'"),
    ("4@9z", "not a position: '9z'"),
    ("discard moon-9", "not a tile: 'moon-9'"),
    ("reveal 2a", "write each revealed tile as position=tile"),
    ("open 3=4", "write each opened coin as #slot=value"),
    ("fly away", "is not a move"),
])
def test_syntax_errors_say_what_is_wrong(text, message):
    with pytest.raises(NotationError) as err:
        parse_action(text)
    assert message in str(err.value)


positions = st.integers(0, 20)
tiles = st.sampled_from(ALL_TILES)
actions = st.one_of(
    st.builds(Place, st.one_of(st.none(), positions), st.integers(0, 5)),
    st.builds(Place, positions, st.none()),
    st.builds(Discard, tiles),
    st.builds(lambda ts: Reveal(tuple(ts)), st.lists(st.tuples(positions, tiles), min_size=1, max_size=6)),
    st.builds(lambda ts: Reveal(tuple(ts), True),
              st.lists(st.tuples(st.sampled_from(SARCOPHAGUS_POSITIONS), tiles), min_size=1, max_size=3)),
    st.builds(lambda vs: Open(tuple(vs)), st.lists(st.tuples(st.integers(0, 500), st.integers(0, 5)), min_size=1)),
)


@given(actions)
@pytest.mark.slow
def test_format_then_parse_is_identity(action):
    assert parse_action(format_action(action)) == action


@given(st.text(max_size=40))
@pytest.mark.slow
def test_any_text_parses_or_raises_a_notation_error(text):
    try:
        parse_action(text)
    except NotationError:
        pass


def test_public_form_hides_the_coin_value():
    assert public(Place(5, 4)) == Place(5)
    assert format_action(public(Place(5, 4))) == "@3c"
