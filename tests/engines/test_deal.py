"""The deal constraint, defined once (engine/sarcophagus/deal.py): the setup's deal, a search's deal of
unseen tiles, and the check of a layout or a reveal all follow it."""

import random

import pytest

from engine.contract import InvalidSetup
from engine.sarcophagus.deal import UNDER, deal_problem, deal_unseen, layout_problem, shown_places
from engine.sarcophagus.driver import Layout, deal
from engine.sarcophagus.geometry import SARCOPHAGUS_POSITIONS, parse_pos
from engine.sarcophagus.pieces import ALL_TILES, NULL, parse_tile


def reference_deal(rng: random.Random) -> tuple[tuple, tuple]:
    """The setup's shuffles, written out: a record's deal is derived from exactly these calls."""
    nulls = [t for t in ALL_TILES if t.rank == NULL]
    rng.shuffle(nulls)
    pool = nulls[:2] + [t for t in ALL_TILES if t.rank == 5]
    rest = nulls[2:] + [t for t in ALL_TILES if 1 <= t.rank <= 4]
    rng.shuffle(pool)
    rng.shuffle(rest)
    pyramid = [None] * 21
    for pos in SARCOPHAGUS_POSITIONS:
        pyramid[pos] = pool.pop()
    for pos in range(21):
        if pyramid[pos] is None:
            pyramid[pos] = rest.pop()
    return tuple(pyramid), tuple(pool)


def test_the_deal_makes_the_setups_shuffles_in_the_same_order():
    for seed in range(300):
        layout, rng = deal(random.Random(seed)), random.Random(seed)
        assert (layout.pyramid, layout.under) == reference_deal(rng)
    rng_a, rng_b = random.Random(5), random.Random(5)
    deal(rng_a), reference_deal(rng_b)
    assert rng_a.getstate() == rng_b.getstate()  # the same draws, so what follows the deal is the same too


def test_dealing_the_unseen_tiles_keeps_what_is_shown_and_the_constraint():
    rng = random.Random(2)
    layout = deal(rng)
    shown = [None] * 21
    for pos in (0, 1, 2, SARCOPHAGUS_POSITIONS[0], 20):
        shown[pos] = layout.pyramid[pos]
    under = (None, layout.under[1], None)
    dealt = set()
    for _ in range(50):
        pyramid, sarcophagus = deal_unseen(shown, under, rng)
        Layout(pyramid, sarcophagus)  # raises unless the setup could deal it
        assert all(s is None or s == t for s, t in zip(shown + list(under), pyramid + sarcophagus))
        dealt.add(pyramid + sarcophagus)
    assert len(dealt) == 50


def test_a_layout_or_a_reveal_that_breaks_the_constraint_is_refused_with_why():
    layout = deal(random.Random(3))
    five = next(p for p in SARCOPHAGUS_POSITIONS if layout.pyramid[p].rank == 5)
    swapped = list(layout.pyramid)
    swapped[five], swapped[0] = swapped[0], swapped[five]
    assert layout_problem(swapped, layout.under) == ("the sarcophagus and the three tiles above it must be two "
                                                     "nulls and the four 5s")
    with pytest.raises(InvalidSetup, match="impossible layout: the sarcophagus"):
        Layout(tuple(swapped), layout.under)
    shown = shown_places([parse_tile("sun-null")] + [None] * 20, [None, parse_tile("sun-5"), None])

    def problem(*placed):
        return deal_problem(shown, [(parse_pos(p) if p[0].isdigit() else UNDER + int(p[-1]), parse_tile(t))
                                    for p, t in placed])

    assert problem(("2a", "sun-null")) == "sun-null is already at 1a"
    assert problem(("2a", "sun-5")) == "sun-5 is already at the sarcophagus under 6c"
    assert problem(("2a", "moon-5")) == "a 5 lies only in or above the sarcophagus, not at 2a"
    assert problem(("6c", "moon-3")) == "only nulls and 5s lie in or above the sarcophagus, not moon-3"
    assert problem(("under 2", "moon-3")) == "only nulls and 5s lie in or above the sarcophagus, not moon-3"
    assert problem(("2a", "moon-null"), ("2b", "arms-null")) == (
        "the deal has two nulls in and above the sarcophagus and two elsewhere")
    assert problem(("2a", "moon-null"), ("6c", "arms-null"), ("under 0", "crown-null")) is None
    assert problem(("6c", "arms-null"), ("under 0", "crown-null"), ("5c", "moon-null")) == (
        "the deal has two nulls in and above the sarcophagus and two elsewhere")
