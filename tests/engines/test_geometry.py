import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.sarcophagus.geometry import (
    ALL_MASK,
    INDEX,
    NEIGHBOURS,
    POSITIONS,
    SARCOPHAGUS_POSITIONS,
    forced_position,
    free_sides,
    parse_pos,
    pos_name,
    positions_in,
)


def mask(*names):
    m = 0
    for n in names:
        m |= 1 << parse_pos(n)
    return m


def test_positions_and_names_round_trip():
    assert len(POSITIONS) == 21
    assert [pos_name(i) for i in range(4)] == ["1a", "2a", "2b", "3a"]
    assert pos_name(20) == "6f"
    for i in range(21):
        assert parse_pos(pos_name(i)) == i
    assert [pos_name(p) for p in SARCOPHAGUS_POSITIONS] == ["5c", "6c", "6d"]


@pytest.mark.parametrize("text", ["1b", "7a", "0a", "3", "a3", "", "66", "6g"])
def test_bad_positions_are_refused(text):
    with pytest.raises(ValueError):
        parse_pos(text)


def test_neighbours_of_every_position():
    def expected(r, c):
        cells = [(r - 1, c - 1), (r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c), (r + 1, c + 1)]
        return sorted(INDEX[rc] for rc in cells if rc in INDEX)

    for i, (r, c) in enumerate(POSITIONS):
        assert sorted(NEIGHBOURS[i]) == expected(r, c)
    assert [pos_name(p) for p in NEIGHBOURS[parse_pos("1a")]] == ["2a", "2b"]
    assert len(NEIGHBOURS[parse_pos("4b")]) == 6
    # adjacency is symmetric
    for i in range(21):
        for j in NEIGHBOURS[i]:
            assert i in NEIGHBOURS[j]


@pytest.mark.parametrize("bottom_edge_free", [True, False])
def test_free_sides_of_every_position_in_a_full_pyramid(bottom_edge_free):
    for i, (r, c) in enumerate(POSITIONS):
        sides = (r == 1) + (c == 1) + (c == r) + (r == 6 and bottom_edge_free)
        assert free_sides(i, ALL_MASK, bottom_edge_free) == sides, pos_name(i)


def test_a_top_side_is_free_only_when_both_tiles_above_are_gone():
    # The seed's example: moon-4 at 2a has one free side until sun-3 (1a) goes.
    assert free_sides(parse_pos("2a"), ALL_MASK) == 1
    assert free_sides(parse_pos("2a"), ALL_MASK & ~mask("1a")) == 2
    # 3b touches 2a and 2b above: half of its top edge free is not a free side.
    assert free_sides(parse_pos("3b"), ALL_MASK & ~mask("1a", "2a")) == 0
    assert free_sides(parse_pos("3b"), ALL_MASK & ~mask("1a", "2a", "2b")) == 1
    assert free_sides(parse_pos("3b"), ALL_MASK & ~mask("1a", "2a", "2b", "3a")) == 2


def test_bottom_edge_reading():
    base = parse_pos("6c")
    assert free_sides(base, ALL_MASK, bottom_edge_free=True) == 1
    assert free_sides(base, ALL_MASK, bottom_edge_free=False) == 0
    assert free_sides(base, ALL_MASK & ~mask("6b"), bottom_edge_free=False) == 1


def test_forced_position_is_leftmost_of_the_top_row():
    assert pos_name(forced_position(ALL_MASK)) == "1a"
    assert pos_name(forced_position(ALL_MASK & ~mask("1a", "2a"))) == "2b"
    assert pos_name(forced_position(mask("6f", "5e"))) == "5e"
    with pytest.raises(ValueError, match="the pyramid is empty"):
        forced_position(0)


@given(st.integers(min_value=0, max_value=ALL_MASK))
def test_positions_in_a_mask_are_its_set_bits_in_order(m):
    assert positions_in(m) == tuple(i for i in range(21) if m >> i & 1)
