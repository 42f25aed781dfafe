"""The examples of the rules text itself (../shared/seeds/sarcophagus-v2.0.txt), played from fixed layouts."""

from engine.sarcophagus.geometry import parse_pos
from engine.sarcophagus.pieces import parse_tile
from engine.sarcophagus.rules import duties
from engine.sarcophagus.scoring import fame

from engine_support import Scripted, layout_with

PLAYERS = ["sun", "moon", "crown"]
LAYOUT = layout_with({"1a": "sun-3", "2a": "moon-4", "2b": "arms-4"})


def face_up(state):
    return {p for p in range(21) if state.face_up >> p & 1}


def test_opening_reveals_the_apex_then_its_neighbours_then_moon_4s():
    g = Scripted(PLAYERS, LAYOUT, "sun")
    assert g.events and str(g.events[0]) == "1a is sun-3"
    assert face_up(g.state) == {parse_pos("1a")}
    assert g.play("sun", "2") == ["sun placed a coin on 1a (sun's 1st coin)", "2a is moon-4", "2b is arms-4"]
    assert g.play("sun", "3@2a") == ["sun placed a coin on 2a (sun's 2nd coin)", "3a is " + str(LAYOUT.pyramid[3]),
                                     "3b is " + str(LAYOUT.pyramid[4])]
    assert duties(g.state)[0].who == "moon"


def test_fourth_coin_on_sun_3_claims_it_and_the_freed_tiles_are_assessed():
    g = Scripted(PLAYERS, LAYOUT, "sun")
    g.play("sun", "5", "2@2a")
    g.play("moon", "1", "0@2b")
    g.play("crown", "0", "1@2b")
    happened = g.play("sun", "4")
    assert happened[:2] == ["sun placed a coin on 1a (sun's 3rd coin)", "sun claims sun-3 from 1a"]
    assert g.state.claimed[0] == (parse_tile("sun-3"),)
    assert g.state.hands == (5, 5, 5)  # coins back: each now has one on 2a or 2b
    # moon-4 and arms-4 have two free sides now but fewer than 4 coins: nothing more, sun places again
    assert duties(g.state)[0].detail.startswith("place your second coin")


def test_tie_on_moon_4_goes_to_the_higher_total():
    g = Scripted(PLAYERS, LAYOUT, "sun")
    g.play("sun", "5", "2@2a")
    g.play("moon", "1", "0@2a")
    g.play("crown", "0", "1@2b")
    g.play("sun", "4", "3@2a")
    happened = g.play("moon", "4")
    assert happened == [
        "moon placed a coin on 2a (moon's 3rd coin)",
        "sun opens coins: sun's 2nd coin is a 2, sun's 4th coin is a 3",
        "moon opens coins: moon's 2nd coin is a 0, moon's 3rd coin is a 4",
        "tie on 2a: coin totals sun 5, moon 4",
        "sun claims moon-4 from 2a",
    ]
    assert [str(t) for t in g.state.claimed[0]] == ["sun-3", "moon-4"]


def test_scoring_example_is_33():
    tiles = [parse_tile(t) for t in
             ["sun-5", "moon-2", "moon-3", "moon-4", "moon-5", "crown-2", "crown-3", "arms-4"]]
    assert fame(tiles) == 33
