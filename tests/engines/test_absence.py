"""What an absent player's duty becomes (engine/*/absence.py, docs/deadlines.md): each reading from a
state built by hand, then random games with absences at random duties, which must stay legal and end."""

import random

import pytest

from engine import find_game
from engine.contract import ABSENCES_OUT, DEALER, IllegalAction, NotYourDuty
from engine.path_of_pharaohs import absence as pop_absence
from engine.path_of_pharaohs.actions import Discard as PopDiscard
from engine.path_of_pharaohs.actions import Stop
from engine.path_of_pharaohs.board import card_total
from engine.path_of_pharaohs.driver import FullInformation as PopGame
from engine.path_of_pharaohs.driver import random_policy as pop_random
from engine.path_of_pharaohs.driver import shuffled_deck
from engine.path_of_pharaohs.state import OVER
from engine.path_of_pharaohs.state import Options as PopOptions
from engine.sarcophagus import absence
from engine.sarcophagus.actions import Discard, Open
from engine.sarcophagus.driver import FullInformation, deal, random_policy
from engine.sarcophagus.notation import parse_action
from engine.sarcophagus.pieces import parse_tile
from engine.sarcophagus.rules import apply, duties, legal_actions, outcome
from engine.sarcophagus.state import Options

from engine_support import build, texts
from pop_support import Table

ABC = ["a", "b", "c"]


def act(state, actor, text):
    return apply(state, actor, parse_action(text))


# ---------------------------------------------------------------- Sarcophagus, by hand

def test_an_absent_mover_passes_and_the_next_seat_owes_the_same_forced_tile():
    s = build(ABC, {}, {"1a": "sun-2"})
    s, events = absence.absent(s, "a")
    assert texts(events) == ["a is recorded absent (move): passes"]
    assert duties(s)[0].who == "b" and "1a (forced)" in duties(s)[0].detail
    assert s.hands == (6, 6, 6) and not s.slot_seat


def test_an_absent_mover_after_the_first_coin_ends_the_turn_with_one_coin_placed():
    s, _ = act(build(ABC, {}, {"1a": "sun-2", "2a": "moon-2", "2b": "crown-2"}), "a", "3")
    assert duties(s)[0] == ("a", "move", "place your second coin on any face-up tile with room")
    s, events = absence.absent(s, "a")
    assert texts(events) == ["a is recorded absent (move): passes (the turn ends)"]
    assert duties(s)[0].who == "b" and s.hands == (5, 6, 6)


def tie_state():
    """a and b tie 2-2 on 2a (b placed last): a owes the first opening."""
    s = build(["a", "b"], {"1a": ["a"], "2a": ["a", "b", "a"]}, {"1a": "sun-2", "2a": "moon-4", "2b": "crown-2",
                                                           "3a": "arms-2", "3b": "sun-3"},
              removed=["1a"], turn="b", placed=1)
    s, _ = act(s, "b", "1@2a")
    assert [(d.who, d.what) for d in duties(s)] == [("a", "open")]
    return s


def test_an_absent_opener_loses_the_tie_break_and_their_coins_go_back_unopened():
    s, events = absence.absent(tie_state(), "a")
    assert texts(events) == ["a is recorded absent (open): loses the tie-break on 2a: 2 coins go back unopened",
                             "b claims moon-4 from 2a"]
    assert [str(t) for t in s.claimed[1]] == ["moon-4"] and s.hands == (11, 12)
    assert s.slot_value[1] is None and s.slot_value[3] is None  # a's coins are still closed
    assert duties(s)[0].who == "a"  # the game goes on: a's turn


def test_an_absent_opener_in_a_three_way_tie_leaves_the_other_two_to_open():
    s = build(["a", "b", "c", "d"], {"1a": ["a", "b", "c"]}, {"1a": "sun-2", "2a": "moon-2", "2b": "crown-2"},
              turn="d")
    s, _ = act(s, "d", "2")
    assert [(d.who, d.what) for d in duties(s)] == [("a", "open")]
    s, _ = apply(s, "a", Open(((0, 4),)))  # a opens; b is absent
    s, events = absence.absent(s, "b")
    assert texts(events) == ["b is recorded absent (open): loses the tie-break on 1a: 1 coin goes back unopened"
                             .replace("goes", "go")]
    assert [(d.who, d.what) for d in duties(s)] == [("c", "open")]
    s, events = apply(s, "c", Open(((2, 1),)))
    assert "d opens" not in texts(events)
    assert [(d.who, d.what) for d in duties(s)] == [("d", "open")]


def test_an_absent_trapped_claimer_discards_their_lowest_number_tile():
    s, _ = act(build(ABC, {"1a": ["a", "b", "c"]}, {"1a": "sun-null", "2a": "moon-2", "2b": "crown-2"},
                     claimed={"a": ["arms-4", "moon-3", "sun-3"]}), "a", "0")
    assert [(d.who, d.what) for d in duties(s)] == [("a", "discard")]
    assert absence.absence_act(s, "a") == Discard(parse_tile("sun-3"))  # rank 3, sun before moon
    with pytest.raises(IllegalAction, match="becomes"):
        absence.absent(s, "a", Discard(parse_tile("arms-4")))
    with pytest.raises(IllegalAction, match="becomes"):
        absence.absent(s, "a", None)
    s, events = absence.absent(s, "a", Discard(parse_tile("sun-3")))
    assert texts(events) == ["a is recorded absent (discard): discards their lowest number tile, sun-3",
                             "a discards sun-3 to the trap"]


def test_nobody_else_and_not_the_dealer_can_be_recorded_absent():
    s = build(ABC, {}, {"1a": "sun-2"})
    with pytest.raises(NotYourDuty, match="b owes nothing now: waiting for a"):
        absence.absent(s, "b")
    with pytest.raises(IllegalAction, match="trust layer"):
        absence.absent(s, DEALER)
    with pytest.raises(IllegalAction, match="becomes"):
        absence.absent(s, "a", parse_action("3"))


def audit_state():
    """The pyramid is empty and every sarcophagus tile revealed: a (10 fame) and b (5) owe the audit."""
    s = build(["a", "b"], {}, {}, removed=[f"{r}{c}" for r in range(1, 7) for c in "abcdef"[:r]],
              claimed={"a": ["sun-5", "moon-5"], "b": ["crown-5"]})
    s.__init__(**{**{f: getattr(s, f) for f in ("table", "present", "face_up", "tiles", "coins", "under",
                                               "under_owner", "claimed", "turn", "placed", "reveal", "tie",
                                               "traps")},
                  "under": (parse_tile("arms-2"),) * 3, "under_owner": (-1, -1, -1),
                  "slot_seat": (0, 1, 0), "slot_value": (None, None, None), "slot_back": (3, 3, 3),
                  "hands": (12, 12), "out": ((), ())})
    assert [(d.who, d.what) for d in duties(s)] == [("a", "open")]
    return s


def test_an_absent_player_at_the_end_audit_keeps_their_coins_closed_and_cannot_win():
    s, events = absence.absent(audit_state(), "a")
    assert texts(events) == ["a is recorded absent (open): their coins stay closed for good: they forfeit "
                             "(cannot win)"]
    assert s.slot_value == (absence.WITHHELD, None, absence.WITHHELD) and s.forfeits == ("a",)
    assert [(d.who, d.what) for d in duties(s)] == [("b", "open")]
    s, events = apply(s, "b", Open(((1, 3),)))
    result = outcome(s)
    assert result.scores == {"a": 10, "b": 5} and result.winners == ("b",)
    assert texts(events)[-1] == "final scores: a 10, b 5; b wins"


def test_three_absent_turns_in_a_row_end_the_game_and_the_absent_player_forfeits():
    s, _ = absence.absent(build(ABC, {}, {"1a": "sun-2"}), "a", strikes=2)  # not yet out
    assert duties(s)[0].who == "b"
    s, events = absence.absent(build(ABC, {"1a": ["b"]}, {"1a": "sun-2"}), "a", strikes=ABSENCES_OUT)
    assert texts(events)[-1] == ("a has been absent 3 turns in a row: the game ends; the 21 tiles left in the pyramid "
                                 "are discarded, a forfeits (cannot win)")
    assert not s.present and s.forfeits == ("a",) and s.under_owner == (-1, -1, -1)
    assert s.hands == (6, 6, 6)
    assert [(d.who, d.what) for d in duties(s)] == [(DEALER, "reveal")]  # the rules' own end follows


# ---------------------------------------------------------------- Path of Pharaohs, by hand

def test_an_absent_mover_stops_then_discards_their_lowest_cards_down_to_seven():
    t = Table({"ann": "T 9 2 W 5 2", "ben": "1"}, deck="0 8 S")
    assert pop_absence.absence_act(t.state, "ann") == Stop()
    t.game.state, events = pop_absence.absent(t.state, "ann")
    assert texts(events) == ["ann is recorded absent (move): stops", "ann ends the turn"]
    t.auto()
    assert [(d.who, d.what) for d in duties_of(t)] == [("ann", "discard")]
    with pytest.raises(IllegalAction, match="say what it holds"):
        pop_absence.absence_act(t.state, "ann")
    lowest = pop_absence.absence_act(t.state, "ann", t.game.knowledge("ann"))
    assert lowest == pop_absence.absence_act(t.state, "ann", t.game.knowledge(DEALER))
    assert lowest.cards == (0, 2)
    with pytest.raises(IllegalAction, match="becomes a discard"):
        pop_absence.absent(t.state, "ann", Stop())
    t.game.state, events = pop_absence.absent(t.state, "ann", lowest)
    assert texts(events)[:2] == ["ann is recorded absent (discard): discards their lowest cards, 0 2", "ann discards 0 2"]
    assert t.hand("ann") == sorted(["2", "5", "8", "9", "S", "T", "W"])
    assert duties_of(t)[0].who == "ben"


def duties_of(t):
    return find_game("path-of-pharaohs").duties(t.state)


def test_three_absent_turns_in_a_row_end_the_game_and_the_furthest_other_marker_wins():
    t = Table({"ann": "1 2", "ben": "1", "cat": "2"}, deck="1 2 3 4 5 6 7 8 9", at={"ben": (5, "A"), "cat": (7, "A")})
    t.game.state, events = pop_absence.absent(t.state, "ann", strikes=ABSENCES_OUT)
    assert texts(events)[-1] == ("ann has been absent 3 turns in a row: the game ends, the furthest marker of the "
                                 "others wins; cat wins")
    result = find_game("path-of-pharaohs").outcome(t.state)
    assert result.winners == ("cat",) and result.how == "stalled" and t.state.phase == OVER
    with pytest.raises(NotYourDuty, match=r"the game is over|owes nothing"):
        pop_absence.absent(t.state, "ben")


def test_pop_refuses_an_absence_of_someone_who_owes_nothing_or_of_the_dealer():
    t = Table({"ann": "1 2", "ben": "1"}, deck="1 2 3")
    with pytest.raises(NotYourDuty, match="ben owes nothing now: waiting for ann"):
        pop_absence.absent(t.state, "ben")
    with pytest.raises(IllegalAction, match="trust layer"):
        pop_absence.absence_act(t.state, DEALER)


# ---------------------------------------------------------------- random games with absences

def play_with_absences(driver, game, rng: random.Random, rate: float, knowledge) -> int:
    """Play to the end, recording each player's owed duty absent with probability `rate` (counting absent
    turns in a row as the trust layer does); returns how many absences were recorded."""
    strikes = dict.fromkeys(driver.state.table.players, 0)
    recorded = 0
    for _ in range(20_000):
        owed = game.duties(driver.state)
        if not owed:
            return recorded
        duty = owed[0]
        if duty.who != DEALER and rng.random() < rate:
            if duty.what == "move":
                strikes[duty.who] += 1
            act = game.absence_act(driver.state, duty.who, knowledge(driver, duty.who))
            driver.state, _ = game.absent(driver.state, duty.who, None if act is None else game.public(act),
                                          strikes[duty.who])
            recorded += 1
        else:
            if duty.what in ("move", "discard"):
                strikes[duty.who] = 0
            driver.step(dict.fromkeys(driver.state.table.players, policy_of(game)), rng)
    raise AssertionError("the game did not end")


def policy_of(game):
    return random_policy if game.name == "sarcophagus" else pop_random


@pytest.mark.parametrize("players,two_player", [(2, "pooled"), (2, "seats"), (3, "pooled"), (4, "pooled")])
def test_sarcophagus_random_games_with_absences_stay_legal_and_end(players, two_player):
    game = find_game("sarcophagus")
    names = ["ann", "ben", "cat", "dan"][:players]
    total = 0
    for seed in range(12):
        rng = random.Random(seed)
        driver = FullInformation(Options(two_player=two_player), names, deal(rng), rng.choice(names))
        total += play_with_absences(driver, game, rng, (0.05, 0.3, 0.7)[seed % 3], lambda d, who: d.known[who])
        s = driver.state
        result = outcome(s)
        assert result is not None and not duties(s)
        assert not set(result.winners) & set(s.forfeits)
        for seat, coins in enumerate(s.table.seats):
            assert s.hands[seat] + len(s.out[seat]) == len(coins.coins)
        for slot, value in enumerate(s.slot_value):
            withheld = value == absence.WITHHELD
            assert value is not None and (not withheld or s.table.seats[s.slot_seat[slot]].player in s.forfeits)
        assert legal_actions(s, names[0]) == []
    assert total > 100


@pytest.mark.parametrize("players", [3, 4, 6])
def test_pop_random_games_with_absences_stay_legal_and_end(players):
    game = find_game("path-of-pharaohs")
    names = ["ann", "ben", "cat", "dan", "eve", "fay"][:players]
    total = 0
    for seed in range(8):
        rng = random.Random(seed)
        driver = PopGame(PopOptions(), names, shuffled_deck(PopOptions(), rng), rng.choice(names), rng)
        total += play_with_absences(driver, game, rng, (0.05, 0.3, 0.7)[seed % 3], lambda d, who: d.knowledge(who))
        s = driver.state
        assert s.phase == OVER and game.outcome(s) is not None and not game.duties(s)
        assert card_total(s) == s.table.options.deck_size
    assert total > 50


def test_an_absent_discard_in_the_record_is_checked_for_its_kind_and_count_without_the_hand():
    t = Table({"ann": "T 9 2 W 5 2", "ben": "1"}, deck="0 8 S")
    t.game.state, _ = pop_absence.absent(t.state, "ann")
    t.auto()
    with pytest.raises(IllegalAction, match="discard exactly 2"):
        pop_absence.absent(t.state, "ann", PopDiscard((2,), (1,)))
