"""Each reading of docs/rules/path-of-pharaohs.md, from states built by hand."""

import random

import pytest

from engine.contract import DEALER, IllegalAction, InvalidSetup, NotationError, NotYourDuty
from engine.path_of_pharaohs import GAME
from engine.path_of_pharaohs.actions import Build, Deal, Discard, Reveal, Steal, Stop
from engine.path_of_pharaohs.board import card_total
from engine.path_of_pharaohs.cards import SANDSTORM, THIEF, WILD, parse_card, parse_pos
from engine.path_of_pharaohs.driver import FullInformation
from engine.path_of_pharaohs.knowledge import DealerKnowledge
from engine.path_of_pharaohs.notation import parse_action
from engine.path_of_pharaohs.rules import duties, legal_actions, outcome, setup
from engine.path_of_pharaohs.state import Options

from pop_support import ABC, Table, cards

BASE_1_7_2 = {"ann": {"1l": "1", "1m": "7", "1r": "2"}}


# ---------------------------------------------------------------- bridging

def test_a_single_card_bridges_the_difference_and_moves_one():
    t = Table({"ann": "6 5 4 9"}, BASE_1_7_2)
    assert t.play("ann", "6@2l") == ["ann places 6 on 2l (6), moving 1", "ann's marker is now at 1"]
    assert t.play("ann", "5@2r") == ["ann places 5 on 2r (5), moving 1", "ann's marker is now at 2"]
    assert t.where("ann") == (2, None)  # holds no space until the turn ends
    t.refuse("ann", "4@3", "3 needs 1")
    t.refuse("ann", "9@1l", "dealt from the deck, never played from hand")


def test_a_wrong_single_card_or_an_unbridged_position_is_refused():
    t = Table({"ann": "5 6 2"}, BASE_1_7_2)
    t.refuse("ann", "5@2l", "2l needs 6")
    t.refuse("ann", "2@3", "3 needs both positions it bridges filled first")
    t.refuse("ann", "6@1m", "1m is already filled")


@pytest.mark.parametrize("combo", ["3+3", "4+2", "5+1", "7-1", "8-2", "9-3", "3+2+1", "5+2-1", "9-4+1", "-1+7"])
def test_signed_combinations_make_the_difference_even_when_one_card_would_do(combo):
    """The text's examples for a 6 ("two 3's, 4 and 2, 1 and 5, 7 and 1, 8 and 2, 9 and 3, 1 and 2 and
    3, or 2 and 5 and 1"), and two more written in other orders."""
    t = Table({"ann": "3 3 7 1 5 2 9 4 6 8"}, BASE_1_7_2)
    events = t.play("ann", f"{combo}@2l")
    canonical = {"-1+7": "7-1", "9-4+1": "9+1-4"}.get(combo, combo)  # recorded highest value first
    assert events[0] == f"ann places {canonical} on 2l (6), moving 1"
    assert t.state.pyramids[0][parse_pos("2l")][0] == 6


@pytest.mark.parametrize("combo,why", [
    ("4+3", "needs 6, and these cards make 7"),
    ("6+0", "no card counts 0"),
    ("9+3-3", "no two cards cancel"),
    ("3+2+1+0", "one to three cards"),
    ("-6", "a single card counts plus its value"),
    ("8-2", "a 8 counts 8 or -8"),
])
def test_combinations_that_dump_cards_or_miss_are_refused(combo, why):
    t = Table({"ann": "4 3 6 0 9 3 2 1 8"}, BASE_1_7_2)
    if combo == "8-2":
        action = Build(parse_pos("2l"), ((8, 8), (8, -2)))
        with pytest.raises(IllegalAction, match=why):
            GAME.check(t.state, "ann", action, t.game.knowledge("ann"))
        return
    t.refuse("ann", f"{combo}@2l", why)


def test_a_zero_difference_is_bridged_by_a_zero_or_by_a_signed_combination():
    t = Table({"ann": "0 5 2 3"}, {"ann": {"1l": "4", "1m": "4", "1r": "9"}})
    assert t.play("ann", "0@2l")[0] == "ann places 0 on 2l (0), moving 1"
    t2 = Table({"ann": "5 2 3"}, {"ann": {"1l": "4", "1m": "4", "1r": "9"}})
    assert t2.play("ann", "5-2-3@2l")[0] == "ann places 5-2-3 on 2l (0), moving 1"


def test_cards_must_be_in_hand_and_slots_hold_what_they_are_said_to_hold():
    t = Table({"ann": "6 5", "ben": "6"}, BASE_1_7_2)
    t.refuse("ann", "3+3@2l", "not enough 3 in your hand")
    t.refuse("ann", "6#1@2l", "#1 holds a 5, not a 6")
    t.refuse("ann", "6#2@2l", "#2 is not in your hand")
    # without knowledge (a verifier replaying the record) the slot is taken on trust
    checked = GAME.check(t.state, "ann", parse_action("6#0@2l"))
    assert checked == Build(parse_pos("2l"), ((6, 6),), (0,))
    with pytest.raises(IllegalAction, match="say which slot"):
        GAME.check(t.state, "ann", parse_action("6@2l"))
    with pytest.raises(IllegalAction, match="#0 holds a card you do not know, not a 6"):  # knowledge without the slot
        GAME.check(t.state, "ann", parse_action("6#0@2l"), {})


def test_a_player_act_needs_a_hand_and_a_dealer_act_the_deck_not_the_other_way_round():
    t = Table({"ann": "6 5", "ben": "6"}, BASE_1_7_2)
    dealer = DealerKnowledge([1, 2, 3], {0: 6, 1: 5, 2: 6})
    with pytest.raises(TypeError, match="a player's act goes with a player's knowledge, not the dealer's"):
        GAME.check(t.state, "ann", parse_action("6@2l"), dealer)
    with pytest.raises(TypeError, match="a player's act goes with a player's knowledge"):
        legal_actions(t.state, "ann", dealer)
    game = FullInformation(Options(), ABC, cards("1 2 3 4 5 6") + [7] * 30, "ann", random.Random(0))
    with pytest.raises(TypeError, match=r"the dealer's act goes with the dealer's knowledge \(DealerKnowledge\)"):
        legal_actions(game.state, DEALER, {0: 1})
    assert legal_actions(game.state, DEALER, game.knowledge(DEALER))[0] == Reveal(1)


def test_the_middle_takes_any_one_value_card_or_wild_whenever_it_is_empty():
    t = Table({"ann": "0 W 4"})
    assert t.play("ann", "0@1m") == ["ann places 0 on 1m (0)"]
    t2 = Table({"ann": "W 4"})
    t2.refuse("ann", "4+W1@1m", "the level-1 middle takes one card")
    assert t2.play("ann", "W9@1m") == ["ann places W9 on 1m (9)"]


# ---------------------------------------------------------------- Wild

def test_a_wild_counts_the_value_its_player_chooses_fixed_when_placed():
    t = Table({"ann": "W W 7 5"}, BASE_1_7_2)
    assert t.play("ann", "W6@2l")[0] == "ann places W6 on 2l (6), moving 1"
    assert t.play("ann", "7-W2@2r")[0] == "ann places 7-W2 on 2r (5), moving 1"
    assert t.state.pyramids[0][parse_pos("2r")] == (5, ((7, 7), (WILD, -2)))
    assert t.state.slot_card[0] == WILD  # played: now public


def test_a_wild_in_a_combination_counts_1_to_9_and_cannot_cancel():
    t = Table({"ann": "W 6 3"}, BASE_1_7_2)
    t.refuse("ann", "6+W0@2l", "no card counts 0")
    t.refuse("ann", "3+W3-3@2l", "no two cards cancel")


# ---------------------------------------------------------------- Zero Block Value

def test_zero_block_value_only_on_an_opponents_fillable_upper_position():
    t = Table({"ann": "Z Z"}, {"ben": {"1l": "3", "1m": "5"}})
    t.refuse("ann", "Z@ben:3", "ben's 3 cannot be filled yet")
    t.refuse("ann", "Z@ben:2r", "ben's 2r cannot be filled yet")
    t.refuse("ann", "Z@ben:1r", "level-2 or level-3")
    t.refuse("ann", "Z@ann:2l", "on an opponent, not on yourself")
    assert t.play("ann", "Z@ben:2l") == ["ann plays a Zero Block Value on ben's 2l"]
    t.refuse("ann", "Z@ben:2l", "already holds a Zero Block Value")


def test_a_zeroed_position_gives_no_movement_but_the_completion_bonus_is_paid():
    t = Table({"ben": "2 1 1 8 8"}, {"ben": {"1l": "3", "1m": "5", "1r": "6"}}, turn="ben",
              zeros={"ben": ["2l", "3"]}, deck="4 6 T 2 2 2")
    assert t.play("ben", "2@2l") == ["ben places 2 on 2l (2)"]
    assert t.where("ben") == (0, None)
    assert t.play("ben", "1@2r") == ["ben places 1 on 2r (1), moving 1", "ben's marker is now at 1"]
    events = t.play("ben", "1@3")
    assert events[:3] == [
        "ben places 1 on 3 (1)",
        "ben completes a pyramid and moves 2 more; its 8 cards are discarded",
        "ben's marker is now at 3",
    ]
    assert t.state.discards.count(10) == 2  # both Zero cards went with the pyramid
    assert t.state.zeros[1] == 0


# ---------------------------------------------------------------- completing a pyramid

def test_completing_a_pyramid_discards_it_deals_a_new_base_and_the_turn_goes_on():
    t = Table({"ann": "6 5 1 3"}, BASE_1_7_2, deck="T 8 S 4 9")
    t.play("ann", "6@2l", "5@2r")
    events = t.play("ann", "1@3")
    assert events == [
        "ann places 1 on 3 (1), moving 2",
        "ann completes a pyramid and moves 2 more; its 6 cards are discarded",
        "ann's marker is now at 6",
        "a Thief turned up for ann's base is discarded",
        "ann's 1l base is an 8",
        "a Sandstorm turned up for ann's base is discarded",
        "the Sands of Time advance to 1",
        "ann's 1r base is a 4",
    ]
    assert t.state.discards == (1, 7, 2, 6, 5, 1, THIEF, SANDSTORM)
    assert [None if f is None else f[0] for f in t.state.pyramids[0]] == [8, None, 4, None, None, None]
    assert duties(t.state)[0].who == "ann"  # the turn goes on
    assert t.play("ann", "3@1m")[0] == "ann places 3 on 1m (3)"


def test_a_completed_pyramid_is_discarded_before_its_new_base_is_dealt():
    """The deck is empty: the pyramid's own cards are reshuffled into the deck for its new base."""
    t = Table({"ann": "6 5 1"}, BASE_1_7_2, deck="")
    t.play("ann", "6@2l", "5@2r")
    events = t.play("ann", "1@3")
    assert "the discard pile (6 cards) is shuffled into a new deck" in events
    assert sum(f is not None for f in t.state.pyramids[0]) == 2


# ---------------------------------------------------------------- setup

def test_setup_deals_bases_left_then_right_from_the_first_player_then_five_cards_each():
    deck = cards("T 1 2 3 4 5 6") + [7] * 15
    game = FullInformation(Options(), ABC, deck + cards("8 8 8 8 8 8"), "ben", random.Random(0))
    events = []
    while duties(game.state)[0].who == DEALER:
        duty = duties(game.state)[0]
        events.append(duty.detail)
        game.act(DEALER, legal_actions(game.state, DEALER, game.knowledge(DEALER))[0])
    assert events == [
        "turn up a base card for ben's 1l", "turn up a base card for ben's 1l",
        "turn up a base card for ben's 1r", "turn up a base card for cat's 1l",
        "turn up a base card for cat's 1r", "turn up a base card for ann's 1l",
        "turn up a base card for ann's 1r",
        "deal 5 cards to ben", "deal 5 cards to cat", "deal 5 cards to ann",
    ]
    assert [p[0][0] for p in game.state.pyramids] == [5, 1, 3]
    assert game.state.discards == (THIEF,)
    assert duties(game.state)[0].who == "ben"
    assert card_total(game.state) == 80


def test_a_mummy_can_wake_during_setup():
    deck = cards("S S 4 S 5") + [1] * 40
    game = FullInformation(Options(), ABC, deck, "ann", random.Random(0))
    while duties(game.state)[0].who == DEALER:
        game.act(DEALER, legal_actions(game.state, DEALER, game.knowledge(DEALER))[0])
    assert game.state.mummies == 1 and game.state.sands == 0


def test_setup_refuses_a_wrong_table():
    with pytest.raises(InvalidSetup, match="3 to 6 players"):
        setup(Options(), ["ann", "ben"], "ann")
    with pytest.raises(InvalidSetup, match="distinct"):
        setup(Options(), ["ann", "ann", "ben"], "ann")
    with pytest.raises(InvalidSetup, match="first player"):
        setup(Options(), ABC, "dan")
    with pytest.raises(InvalidSetup, match="cannot hold spaces"):
        setup(Options(), ["ann", "b@n", "cat"], "ann")
    with pytest.raises(InvalidSetup, match="four counts"):
        GAME.parse_options({"actions": "5,5,5"})
    assert GAME.parse_options({"actions": "2,3,4,5"}).deck_size == 74


# ---------------------------------------------------------------- Sandstorm, the Sands of Time

def test_a_sandstorm_skips_the_next_turn_but_not_the_draw_then_is_discarded():
    t = Table({"ann": "S S 5", "ben": "1 2 3 4 5 6 7", "cat": "9"}, deck="0 0 0 1 1 1 2 2 2")
    assert t.play("ann", "S@ben") == ["ann gives a Sandstorm to ben", "the Sands of Time advance to 1"]
    t.refuse("ann", "S@ben", "a Sandstorm already lies in front of ben")
    t.refuse("ann", "S@ann", "not on yourself")
    events = t.play("ann", "stop")
    assert events == ["ann ends the turn", "ann is dealt 3 cards", "ben skips the turn (a Sandstorm)",
                      "ben is dealt 3 cards"]
    assert duties(t.state)[0].what == "discard" and duties(t.state)[0].who == "ben"
    assert t.play("ben", "discard 1 2 3") == ["ben discards 1 2 3", "ben's Sandstorm is discarded"]
    assert t.state.discards == (1, 2, 3, SANDSTORM) and t.state.sands == 1  # discarding does not advance
    assert duties(t.state)[0].who == "cat"


def test_a_sandstorm_in_front_cannot_be_stolen_and_a_skipping_player_can_be_zeroed():
    t = Table({"ann": "Z T", "ben": "4"}, {"ben": {"1l": "1", "1m": "2"}}, storms=("ben",))
    t.play("ann", "Z@ben:2l")
    t.play("ann", "T@ben")
    assert t.hand("ann") == ["4"] and t.state.storms[1]


# ---------------------------------------------------------------- mummies

@pytest.mark.parametrize("woken", range(5))
def test_each_mummy_wakes_in_turn_and_sends_a_marker_on_its_b_space_back(woken):
    x = 2 + 2 * woken
    t = Table({"ann": "S 9"}, sands=2, mummies=woken, at={"ben": (x, "B")})
    events = t.play("ann", "S@cat")
    assert events[1:] == ["the Sands of Time advance to 3", f"a mummy wakes and closes {x}B for the rest of the game",
                          f"ben flees the mummy back to {x - 1 if x > 1 else 'the start'}"]
    assert t.state.mummies == woken + 1 and t.state.sands == 0
    assert t.where("ben") == (x - 1, "A")


def test_the_retreat_goes_on_down_to_a_free_space():
    t = Table({"ann": "S 9"}, sands=2, mummies=1, at={"ben": (4, "B"), "cat": (3, "A")})
    t.play("ann", "S@cat")
    assert t.where("ben") == (2, "A")  # 3 holds cat; 2's B is closed by the first mummy, its A is free


def test_with_no_mummy_left_the_track_does_nothing():
    t = Table({"ann": "S 9"}, sands=0, mummies=5)
    assert t.play("ann", "S@ben") == ["ann gives a Sandstorm to ben"]
    assert t.state.sands == 0


# ---------------------------------------------------------------- bumping

def test_a_marker_ending_on_an_occupied_single_location_bumps_it_three_back():
    t = Table({"ann": "1 9"}, {"ann": {"1l": "3", "1m": "4"}}, at={"ann": (4, "A"), "ben": (5, "A")})
    t.play("ann", "1@2l")
    assert t.play("ann", "stop")[:3] == ["ann ends the turn", "ann's marker takes 5", "ben is bumped back to 2A"]
    assert t.where("ann") == (5, "A")


def test_on_an_a_b_location_the_mover_takes_a_free_space_else_bumps_b():
    t = Table({"ann": "1 1"}, {"ann": {"1l": "3", "1m": "4"}}, at={"ann": (5, "A"), "ben": (6, "A")})
    t.play("ann", "1@2l", "stop")
    assert t.where("ann") == (6, "B") and t.where("ben") == (6, "A")
    t2 = Table({"ann": "1 1"}, {"ann": {"1l": "3", "1m": "4"}},
               at={"ann": (5, "A"), "ben": (6, "A"), "cat": (6, "B")})
    assert t2.play("ann", "1@2l", "stop")[3:5] == ["ann's marker takes 6B", "cat is bumped back to 3"]
    assert t2.where("ben") == (6, "A")


def test_a_bumped_marker_goes_on_down_to_a_free_space_and_bumps_no_one():
    players = ("ann", "ben", "cat", "dan")
    t = Table({"ann": "1"}, {"ann": {"1l": "3", "1m": "4"}}, players=players,
              at={"ann": (6, "A"), "ben": (7, "A"), "cat": (4, "A"), "dan": (4, "B")}, mummies=0)
    t.play("ann", "1@2l")
    assert t.where("ben") == (3, "A")  # 4 is full (A and B): on to 3
    assert t.where("cat") == (4, "A") and t.where("dan") == (4, "B")


def test_a_bumped_marker_never_goes_below_the_start_which_holds_everyone():
    t = Table({"ann": "1"}, {"ann": {"1l": "3", "1m": "4"}}, at={"ben": (1, "A")})
    t.play("ann", "1@2l")
    assert t.where("ben") == (0, None) and t.where("ann") == (1, "A")


def test_after_a_mummy_an_a_b_location_holds_one_marker_and_the_one_on_a_is_bumped():
    t = Table({"ann": "1 9"}, {"ann": {"1l": "3", "1m": "4"}}, mummies=2, at={"ann": (3, "A"), "ben": (4, "A")})
    events = t.play("ann", "1@2l", "stop")
    assert events[3:5] == ["ann's marker takes 4A", "ben is bumped back to 1"]
    assert [t.state.location.count(4)] == [1]


# ---------------------------------------------------------------- Thief, drawing, discarding

def test_a_thief_takes_two_random_cards_beyond_seven_and_a_stolen_thief_plays_at_once():
    t = Table({"ann": "T 1 2 3 4 5 6", "ben": "T 9", "cat": "8"}, deck="0 0 0 0 0 0")
    t.steal = 0  # the randomness picks ben's slots #7 and #8: his Thief and his 9
    assert t.play("ann", "T@ben") == ["ann plays a Thief on ben", "ann takes 2 random cards from ben"]
    assert len(t.state.hands[0]) == 8 and t.hand("ann") == sorted(["1", "2", "3", "4", "5", "6", "T", "9"])
    assert t.state.hands[1] == ()
    t.refuse("ann", "T@ben", "ben holds no cards")
    assert t.play("ann", "T@cat")[1] == "ann takes 1 random card from cat"  # one card if that is all
    assert t.play("ann", "stop")[-1] == "ann is dealt 3 cards"
    assert len(t.state.hands[0]) == 11
    assert duties(t.state)[0].detail == "discard 4 cards, down to seven"


def test_the_steal_is_one_of_every_choice_of_the_victims_slots():
    t = Table({"ann": "T", "ben": "1 2 3"})
    t.game.act("ann", parse_action("T@ben"))
    choices = list(legal_actions(t.state, DEALER, t.game.knowledge(DEALER)))
    assert choices == [Steal((1, 2), (1, 2)), Steal((1, 3), (1, 3)), Steal((2, 3), (2, 3))]
    assert GAME.public(choices[0]) == Steal((1, 2))
    with pytest.raises(IllegalAction, match="take 2 distinct slots from ben's hand"):
        GAME.check(t.state, DEALER, Steal((1, 0)))
    with pytest.raises(NotYourDuty, match="the dealer must move 2 random cards from ben's hand to ann first: "
                                          "waiting for dealer"):
        GAME.check(t.state, "ann", Stop())


def test_drawing_three_then_discarding_down_to_seven():
    t = Table({"ann": "1 2 3 4 5 6", "ben": "1"}, deck="7 8 9 0")
    assert t.play("ann", "stop") == ["ann ends the turn", "ann is dealt 3 cards"]
    t.refuse("ann", "discard 1", "discard exactly 2 cards")
    t.refuse("ann", "discard 1 0", "not enough 0")
    t.refuse("ben", "discard 1 2", "not ben's turn|owes nothing", NotYourDuty)
    assert t.play("ann", "discard 9 1")[0] == "ann discards 9 1"
    assert t.hand("ann") == sorted(["2", "3", "4", "5", "6", "7", "8"])
    assert t.state.deck == 1 and duties(t.state)[0].who == "ben"


def test_an_empty_hand_at_the_start_of_a_turn_just_draws():
    t = Table({"ann": "1"}, deck="1 2 3 4 5 6 7 8 9")
    events = t.play("ann", "stop")
    assert events[2:4] == ["ben skips the turn (no cards)", "ben is dealt 3 cards"]


def test_a_hand_played_out_ends_the_turn():
    t = Table({"ann": "6"}, BASE_1_7_2, deck="1 2 3 4 5 6")
    events = t.play("ann", "6@2l")
    assert events[2:4] == ["ann ends the turn", "ann's marker takes 1"]


# ---------------------------------------------------------------- the deck

def test_the_discard_pile_is_reshuffled_when_a_card_must_be_drawn_from_an_empty_deck():
    t = Table({"ann": "1", "ben": "1"}, deck="5", discards="7 8 T")
    events = t.play("ann", "stop")
    assert events[:4] == ["ann ends the turn", "ann is dealt 1 card",
                      "the discard pile (3 cards) is shuffled into a new deck", "ann is dealt 2 cards"]
    hand = t.hand("ann")
    for card in ("1", "5"):
        hand.remove(card)
    assert len(hand) == 2 and set(hand) < {"7", "8", "T"}  # two of the old discards
    assert t.game.deck == [
        parse_card(x) for x in {"7", "8", "T"}.difference(hand)]
    assert len(t.state.hands[0]) == 4 and t.state.deck == 1 and t.state.discards == ()


def test_with_deck_and_discards_empty_a_draw_draws_nothing():
    t = Table({"ann": "1"})
    assert t.play("ann", "stop")[:1] == ["ann ends the turn"]
    assert len(t.state.hands[0]) == 1


def test_a_base_with_no_value_card_left_in_deck_or_discards_stays_empty():
    t = Table({"cat": "1", "ann": "5"}, {"ann": {}}, turn="cat", deck="4 4 4 S")
    events = t.play("cat", "stop")
    assert events[2:] == [
        "a Sandstorm turned up for ann's base is discarded", "the Sands of Time advance to 1",
        "no value card is left to deal: ann's 1l stays empty",
        "no value card is left to deal: ann's 1r stays empty",
    ]
    assert t.state.discards == (SANDSTORM,)  # only an action card there: nothing to reshuffle for a base
    assert duties(t.state)[0].who == "ann"


def test_an_empty_base_is_dealt_again_when_its_owners_turn_starts():
    cat = {"1l": "1", "1m": "7", "1r": "2", "2l": "6", "2r": "5"}
    t = Table({"cat": "1", "ann": "5"}, {"cat": cat, "ann": {}}, turn="cat")
    events = t.play("cat", "1@3")
    assert events[3] == "the discard pile (6 cards) is shuffled into a new deck"
    assert events[6:9] == ["cat ends the turn", "cat's marker takes 4A", "cat is dealt 3 cards"]
    assert events[9].startswith("ann's 1l base is a ")
    assert events[10:] == ["no value card is left to deal: ann's 1r stays empty"]
    assert t.state.pyramids[0][0] is not None and t.state.pyramids[0][2] is None


# ---------------------------------------------------------------- the end

def test_ending_a_turn_on_13_wins_and_a_move_past_13_stops_there():
    t = Table({"ann": "6 5 1 9"}, BASE_1_7_2, at={"ann": (10, "A"), "ben": (12, "A")})
    t.play("ann", "6@2l", "5@2r")
    assert t.where("ann") == (12, None)
    events = t.play("ann", "1@3")
    assert events[2] == "ann's marker is now at 13" and t.where("ann") == (13, None)
    assert not events[-1].startswith("ann reaches")  # the turn goes on until ann stops
    assert t.play("ann", "stop")[-1] == "ann reaches Alexandria and wins"
    result = outcome(t.state)
    assert result.winners == ("ann",) and result.how == "alexandria"
    assert result.ranking == (("ann",), ("ben",), ("cat",))
    assert duties(t.state) == ()
    t.refuse("ben", "stop", "the game is over", NotYourDuty)


def test_a_full_round_without_a_card_placed_or_drawn_ends_the_game_the_furthest_marker_wins():
    t = Table({"ann": "1", "ben": "1", "cat": "1"}, at={"ann": (5, "A"), "ben": (7, "A"), "cat": (7, "B")})
    t.play("ann", "stop")
    t.play("ben", "stop")
    assert outcome(t.state) is None
    assert t.play("cat", "stop")[-1] == ("a full round without a card placed or drawn: the game is over; "
                                         "ben and cat share the win")
    result = outcome(t.state)
    assert result.winners == ("ben", "cat") and result.how == "stalled"
    assert result.ranking == (("ben", "cat"), ("ann",))


def test_not_your_turn_names_who_is_awaited():
    t = Table({"ann": "1", "ben": "1"})
    with pytest.raises(NotYourDuty, match="not ben's turn: waiting for ann"):
        GAME.check(t.state, "ben", Stop())
    with pytest.raises(NotYourDuty, match="must place cards"):
        GAME.check(t.state, "ann", Discard((1,)))


def test_the_dealer_deals_the_top_of_the_deck_into_the_next_slots():
    t = Table({"ann": "1"}, deck="4 5 6 7")
    t.game.act("ann", Stop())
    knowledge = t.game.knowledge(DEALER)
    assert legal_actions(t.state, DEALER, knowledge) == [Deal("ann", (1, 2, 3), (4, 5, 6))]
    with pytest.raises(IllegalAction, match="not the top cards"):
        GAME.check(t.state, DEALER, Deal("ann", (1, 2, 3), (4, 5, 7)), knowledge)
    with pytest.raises(IllegalAction, match="into slots #1 to #3"):
        GAME.check(t.state, DEALER, Deal("ann", (1, 2)))
    assert GAME.check(t.state, DEALER, Deal("ann", (1, 2, 3))) == Deal("ann", (1, 2, 3))


def test_a_reveal_of_a_card_already_all_face_up_is_refused():
    t = Table({"ann": "6 5 1"}, BASE_1_7_2, discards="9 9 9 9 9 9", deck="9")
    t.game.act("ann", parse_action("6@2l"))
    t.game.act("ann", parse_action("5@2r"))
    t.game.act("ann", parse_action("1@3"))
    with pytest.raises(IllegalAction, match="every 9 of the deck is already face up"):
        GAME.check(t.state, DEALER, parse_action("reveal 9"))


def test_without_the_hand_a_card_is_refused_only_when_every_copy_is_already_face_up():
    t = Table({"ann": "6 9"}, {"ann": {"1l": "1", "1m": "7", "1r": "2"}}, discards="6 6 6 6 6")
    assert GAME.check(t.state, "ann", parse_action("6#0@2l")) == Build(parse_pos("2l"), ((6, 6),), (0,))
    t.state.discards += (6,)
    with pytest.raises(IllegalAction, match="every 6 of the deck is already face up"):
        GAME.check(t.state, "ann", parse_action("6#0@2l"))
    with pytest.raises(IllegalAction, match="only value cards and Wilds are placed on a pyramid, not 15"):
        GAME.check(t.state, "ann", Build(parse_pos("2l"), ((15, 6),), (0,)))
    with pytest.raises(IllegalAction, match="no such position"):
        GAME.check(t.state, "ann", Build(7, ((6, 6),), (0,)))


def test_notation_errors_are_named():
    for text in ["", "5@", "5@9z", "Q@ben", "discard", "deal ann 5", "Z@ben", "T@ben:2l", "+5@2l", "-0@2l"]:
        with pytest.raises(NotationError):
            GAME.parse_action(text)


def test_a_bumped_marker_takes_b_where_a_is_held():
    t = Table({"ann": "1 9"}, {"ann": {"1l": "3", "1m": "4"}}, at={"ann": (4, "A"), "ben": (5, "A"), "cat": (2, "A")})
    assert t.play("ann", "1@2l", "stop")[3:5] == ["ann's marker takes 5", "ben is bumped back to 2B"]
    assert t.where("cat") == (2, "A")
