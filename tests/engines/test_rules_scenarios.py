"""Each reading of docs/rules/sarcophagus.md, from states built by hand."""

import dataclasses

import pytest

from engine.contract import DEALER, IllegalAction, InvalidSetup, NotYourDuty
from engine.sarcophagus.actions import Discard, Open, Place, Reveal
from engine.sarcophagus.geometry import parse_pos
from engine.sarcophagus.notation import parse_action
from engine.sarcophagus.pieces import parse_tile
from engine.sarcophagus.rules import apply, duties, legal_actions, make_table, parse_options, setup
from engine.sarcophagus.scoring import score
from engine.sarcophagus.state import Options

from engine_support import build, texts

ABC = ["a", "b", "c"]
ROWS_1_TO_4 = ["1a", "2a", "2b", "3a", "3b", "3c", "4a", "4b", "4c", "4d"]


def act(state, actor, text):
    return apply(state, actor, parse_action(text))


def test_cascade_is_assessed_top_row_first_recomputing_after_each_removal():
    s = build(ABC, {"1a": ["a", "b", "c"], "2b": ["b", "b", "a", "c"], "3c": ["c", "c", "a", "b"],
                    "3a": ["a", "a", "b", "c"]},
              {"1a": "sun-2", "2a": "moon-2", "2b": "crown-2", "3a": "arms-2", "3c": "sun-3"})
    s, events = act(s, "a", "0")
    assert texts(events) == [
        "a placed a coin on 1a (a's 6th coin)",
        "a claims sun-2 from 1a",
        "b claims crown-2 from 2b",   # freed by 1a
        "c claims sun-3 from 3c",     # freed by 2b; 3a still has 2a above it
    ]
    assert duties(s)[0].detail == "place your second coin on any face-up tile with room"


def test_a_full_tile_with_one_free_side_waits():
    s = build(ABC, {"1a": ["a", "b"], "2a": ["a", "a", "b", "c"]}, {"1a": "sun-2", "2a": "moon-2", "2b": "crown-2"})
    s, events = act(s, "a", "0")
    assert texts(events) == ["a placed a coin on 1a (a's 4th coin)"]
    assert legal_actions(s, "a")  # a second coin to place; 2a stays full and unclaimed
    with pytest.raises(IllegalAction, match="2a is full"):
        act(s, "a", "0@2a")


def sarcophagus_state(coins_5c):
    return build(ABC, {"5c": coins_5c}, {"5c": "sun-5", "5d": "moon-2", "6c": "moon-5", "6d": "crown-null"},
                 removed=ROWS_1_TO_4 + ["5a", "5b"])


def test_claiming_above_the_sarcophagus_takes_it_unseen_and_entombs_the_claimers_coins():
    s, events = act(sarcophagus_state(["a", "b", "c"]), "a", "3")
    assert texts(events)[1:] == [
        "a claims sun-5 from 5c",
        "a takes the sarcophagus tile under 5c, unseen, and entombs 2 coins on it",
    ]
    assert s.under_owner[0] == 0 and s.under[0] is None
    assert s.hands == (4, 6, 6)  # a's two coins stay in the sarcophagus


def test_a_discarded_tile_above_the_sarcophagus_discards_it_unseen_and_all_coins_go_back():
    s = dataclasses.replace(sarcophagus_state(["a", "b", "a"]), turn=1)
    s, events = act(s, "b", "4")
    assert [(d.who, d.what) for d in duties(s)] == [("a", "open")]  # one at a time: no fork by email
    s, _ = apply(s, "a", Open(((0, 2), (2, 3))))
    assert [(d.who, d.what) for d in duties(s)] == [("b", "open")]
    s, events = apply(s, "b", Open(((1, 1), (3, 4))))
    assert texts(events)[1:] == [
        "tie on 5c: coin totals a 5, b 5",
        "nobody claims sun-5 from 5c: it is discarded",
        "the sarcophagus tile under 5c is discarded unseen",
    ]
    assert s.hands == (6, 6, 6) and s.under_owner[0] == -1


def trap_state(claimed):
    return build(ABC, {"1a": ["a", "b", "c"]}, {"1a": "sun-null", "2a": "moon-2", "2b": "crown-2"},
                 claimed={"a": claimed})


@pytest.mark.parametrize("held,report,left", [
    (["moon-ace", "moon-3", "arms-4"], "a springs a trap but a god protects them", ["moon-ace", "moon-3", "arms-4"]),
    (["arms-null"], "a springs a trap with no number tile to lose", ["arms-null"]),
    (["moon-3", "arms-ace"], "a springs a trap but a god protects them", ["moon-3", "arms-ace"]),
])
def test_traps_without_a_choice(held, report, left):
    s, events = act(trap_state(held), "a", "0")
    assert report in texts(events)
    assert [str(t) for t in s.claimed[0]] == left + ["sun-null"]


def test_a_trap_with_one_number_tile_takes_it():
    s, events = act(trap_state(["moon-3"]), "a", "0")
    assert texts(events)[-2:] == ["a springs a trap and must discard a number tile", "a discards moon-3 to the trap"]
    assert [str(t) for t in s.claimed[0]] == ["sun-null"]


def test_a_trap_with_several_number_tiles_is_the_claimers_choice():
    s, events = act(trap_state(["moon-3", "arms-4"]), "a", "0")
    assert [(d.who, d.what) for d in duties(s)] == [("a", "discard")]
    assert {str(x.tile) for x in legal_actions(s, "a")} == {"moon-3", "arms-4"}
    with pytest.raises(IllegalAction, match="choose one of your number tiles: moon-3, arms-4"):
        act(s, "a", "discard sun-5")
    with pytest.raises(NotYourDuty, match="not b's turn: waiting for a"):
        act(s, "b", "4@2a")
    s, events = act(s, "a", "discard moon-3")
    assert texts(events) == ["a discards moon-3 to the trap"]
    assert [str(t) for t in s.claimed[0]] == ["arms-4", "sun-null"]


def test_an_unrevealed_sarcophagus_tile_is_not_a_number_tile_for_a_trap():
    s = dataclasses.replace(trap_state(["moon-3"]), under_owner=(0, None, None))
    s, events = act(s, "a", "0")
    assert "a discards moon-3 to the trap" in texts(events)


def test_when_every_hand_is_empty_the_forced_tile_is_assessed_as_it_stands():
    coins = {"5a": ["a", "a", "b"], "5b": ["a", "b", "c"], "5c": ["a", "b", "c"], "5d": ["a", "b", "c"],
             "5e": ["a", "c", "c"], "6a": ["b", "b", "c"]}
    tiles = dict(zip(coins, ["sun-2", "sun-3", "sun-5", "moon-2", "moon-3", "moon-4"]))
    s = build(ABC, coins, tiles, removed=ROWS_1_TO_4, turn="c", placed=1)
    s = dataclasses.replace(s, reveal=(parse_pos("6b"),))
    assert s.hands == (0, 0, 0)
    s, events = apply(s, "dealer", parse_action("reveal 6b=crown-2"))
    assert texts(events) == [
        "6b is crown-2",
        "every hand is empty: 5a is assessed as it stands",
        "a claims sun-2 from 5a",
    ]
    assert s.hands == (2, 1, 0)
    assert [(d.who, d.what) for d in duties(s)] == [("b", "move")]


def test_an_empty_forced_tile_is_discarded_when_every_hand_is_empty():
    s = build(ABC, {"5b": ["a"] * 4 + [], }, {"5a": "sun-2", "5b": "sun-3"}, removed=ROWS_1_TO_4)
    s = dataclasses.replace(s, hands=(0, 0, 0), turn=1, placed=1, reveal=(parse_pos("6a"),))
    s, events = apply(s, "dealer", parse_action("reveal 6a=moon-2"))
    assert texts(events)[:3] == ["6a is moon-2", "every hand is empty: 5a is assessed as it stands",
                                 "nobody claims sun-2 from 5a: it is discarded"]


def test_two_player_pooled_gives_each_player_twelve_coins_in_one_seat():
    table = make_table(Options(two_player="pooled"), ["al", "bo"])
    assert [(s.name, s.suit_names, len(s.coins)) for s in table.seats] == [("al", "sun+crown", 12),
                                                                           ("bo", "moon+arms", 12)]
    assert table.seats[0].coins == (0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5)


def test_two_player_seats_gives_each_suit_its_own_turns_claims_and_score():
    options = Options(two_player="seats")
    table = make_table(options, ["al", "bo"])
    assert [s.name for s in table.seats] == ["al/sun", "bo/moon", "al/crown", "bo/arms"]
    s = build(["al", "bo"], {"1a": ["al/sun", "al/crown", "bo/arms"], "2a": ["al/sun", "al/crown", "bo/moon"]},
              {"1a": "sun-2", "2a": "moon-2", "2b": "crown-2"}, turn="bo/moon", options=options)
    assert duties(s)[0].who == "bo"
    s, events = act(s, "bo", "1")
    # four suits with one coin each on 1a: al opens both her seats' coins, bo both of his
    assert [(d.who, d.what) for d in duties(s)] == [("al", "open")]
    s, _ = apply(s, "al", Open(((0, 4), (1, 2))))
    assert [(d.who, d.what) for d in duties(s)] == [("bo", "open")]
    s, events = apply(s, "bo", Open(((2, 0), (6, 1))))
    assert texts(events)[1:3] == ["tie on 1a: coin totals al/sun 4, bo/moon 1, al/crown 2, bo/arms 0",
                                  "al/sun claims sun-2 from 1a"]
    assert [len(c) for c in s.claimed] == [1, 0, 0, 0]
    result = score(table, tuple(tuple(parse_tile(t) for t in ts) for ts in
                                [["sun-2", "sun-3"], ["moon-4"], ["crown-5"], []]))
    assert result.scores == {"al": 2 + 3 + 1 + 5, "bo": 4}


def test_tie_for_most_fame_goes_to_fewest_tiles_and_then_is_shared():
    table = make_table(Options(), ABC)
    tiles = lambda *names: tuple(parse_tile(n) for n in names)  # noqa: E731
    result = score(table, (tiles("sun-5"), tiles("moon-5", "moon-null"), tiles("crown-2")))
    assert result.winners == ("a",)
    result = score(table, (tiles("sun-5"), tiles("moon-5"), tiles("crown-2")))
    assert result.winners == ("a", "b")


def test_errors_name_the_action_and_the_reason():
    s = build(ABC, {"1a": ["a"]}, {"1a": "sun-2", "2a": "moon-2"}, placed=1)
    with pytest.raises(IllegalAction, match=r"^5@2b: 2b is face down$"):
        apply(s, "a", Place(parse_pos("2b"), 5))
    with pytest.raises(IllegalAction, match="say where this one goes"):
        apply(s, "a", Place(None, 5))
    with pytest.raises(NotYourDuty, match=r"^0@2a: not b's turn: waiting for a$"):
        act(s, "b", "0@2a")
    from engine.sarcophagus.rules import check
    with pytest.raises(IllegalAction, match=r"no coin of value 5 in your hand \(you hold 0, 1, 2, 3, 4\)"):
        check(s, "a", Place(parse_pos("2a"), 5), {0: 5})
    with pytest.raises(NotYourDuty, match="owes nothing of the kind"):
        apply(s, "c", Discard(parse_tile("sun-2")))


def test_a_wrong_turn_names_who_is_awaited_so_a_caller_can_name_the_dealer():
    s = dataclasses.replace(build(ABC, {}, {"1a": "sun-2"}), reveal=(1, 2))
    with pytest.raises(NotYourDuty) as raised:
        act(s, "a", "0")
    assert raised.value.waiting == ("dealer",)
    assert str(raised.value) == "0: not a's turn: waiting for dealer"
    assert raised.value.naming({"dealer": "the referee ref"}) == "0: not a's turn: waiting for the referee ref"
    assert raised.value.naming({}) == str(raised.value)
    with pytest.raises(NotYourDuty) as raised:
        act(build(ABC, {"1a": ["a"]}, {"1a": "sun-2", "2a": "moon-2"}, placed=1), "a", "discard sun-2")
    assert raised.value.waiting == () and raised.value.naming({"a": "x"}) == str(raised.value)


def test_the_dealer_cannot_reveal_an_impossible_deal():
    s = build(ABC, {}, {"1a": "sun-2"})
    s = dataclasses.replace(s, reveal=(1, 2))
    with pytest.raises(IllegalAction, match="sun-2 is already at 1a"):
        apply(s, "dealer", Reveal(((1, parse_tile("sun-2")), (2, parse_tile("moon-2")))))
    with pytest.raises(IllegalAction, match="a 5 lies only in or above the sarcophagus"):
        apply(s, "dealer", Reveal(((1, parse_tile("sun-5")), (2, parse_tile("moon-2")))))
    with pytest.raises(IllegalAction, match="must reveal exactly 2a, 2b"):
        apply(s, "dealer", Reveal(((1, parse_tile("sun-4")),)))


def test_an_opening_that_contradicts_the_hand_fails_the_audit():
    s = sarcophagus_state(["a", "b", "a"])
    s = dataclasses.replace(s, turn=1)
    s, _ = act(s, "b", "4")
    # a's coins #0 and #2 were both out of hand at once: two 5s is impossible with one 5
    with pytest.raises(IllegalAction, match="a's 2nd coin opened as 5, but a had no coin of that value left"):
        apply(s, "a", Open(((0, 5), (2, 5))))


def test_the_dealer_may_open_every_owed_coin_in_one_act():
    s = dataclasses.replace(sarcophagus_state(["a", "b", "a"]), turn=1)
    s, _ = act(s, "b", "4")
    with pytest.raises(IllegalAction, match="dealer must open exactly #0, #1, #2, #3"):
        apply(s, "dealer", Open(((0, 2), (2, 3))))
    s, events = apply(s, "dealer", Open(((0, 2), (1, 1), (2, 3), (3, 4))))
    assert texts(events)[:2] == ["dealer opens coins: a's 1st coin is a 2, b's 1st coin is a 1, "
                                 "a's 2nd coin is a 3, b's 2nd coin is a 4",
                                 "tie on 5c: coin totals a 5, b 5"]


def test_setup_refuses_a_wrong_table_or_options():
    with pytest.raises(InvalidSetup, match=r"^Sarcophagus is for 2 to 4 players, not 5$"):
        setup(Options(), ["a", "b", "c", "d", "e"], "a")
    for players in (["a", "a"], ["a", ""], ["a", DEALER]):
        with pytest.raises(InvalidSetup, match="player names must be distinct, non-empty and not 'dealer'"):
            setup(Options(), players, "a")
    with pytest.raises(InvalidSetup, match=r"^the first player 'd' is not among the players$"):
        setup(Options(), ABC, "d")
    with pytest.raises(InvalidSetup, match=r"^option two_player is one of pooled, seats, not 'both'$"):
        parse_options({"two_player": "both"})
    with pytest.raises(InvalidSetup, match=r"^option bottom_edge_free is true or false, not 'yes'$"):
        parse_options({"bottom_edge_free": "yes"})
    with pytest.raises(InvalidSetup, match=r"^unknown option 'speed' \(options: two_player, bottom_edge_free\)$"):
        parse_options({"speed": "fast"})
    assert parse_options({"two_player": "SEATS", "bottom_edge_free": "False"}) == Options("seats", False)
    assert parse_options({}) == Options()
    seats = setup(parse_options({"two_player": "seats"}), ["a", "b"], "b").table.seats
    assert [seat.name for seat in seats] == ["a/sun", "b/moon", "a/crown", "b/arms"]
