"""Path of Pharaohs as people see it (pbem/presentation/games/path_of_pharaohs.py): the terminal board of a
hand-built position, exactly; the boards and prompts of random games, checked against the engine's
state (names, hands, counts, the path, closed spaces, 78 columns, examples that are legal moves);
what the demo tells; and the HTML replay's drawing, run in node when it is installed."""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest
from typer.testing import CliRunner

from engine.contract import DEALER
from engine.path_of_pharaohs import GAME
from engine.path_of_pharaohs.cards import MUMMIES, POSITION_NAMES, card_name
from engine.path_of_pharaohs.driver import FullInformation, random_policy, shuffled_deck
from engine.path_of_pharaohs.events import Built, CardsDealt, Completed, Finished, MummyWakes, Settled
from engine.path_of_pharaohs.notation import parse_action
from engine.path_of_pharaohs.rules import duties, legal_actions
from engine.path_of_pharaohs.state import Options
from pbem.cli import app
from pbem.errors import UsageError
from pbem.presentation.games import path_of_pharaohs as pop
from pbem.presentation.games import presentation
from pbem.presentation.html import static
from pbem.presentation.style import Style

from paths_support import EXAMPLES
from pop_support import Table

PLAIN = Style()


def hand_built() -> Table:
    """ann to move at 3 with 7 1 W Z; ben on 2A, a Zero Block Value on his 2r; cat at the start under
    a Sandstorm; one mummy awake (2B closed), the Sands of Time at 2."""
    return Table({"ann": "7 1 W Z", "ben": "3 3", "cat": "S"},
                 {"ann": {"1l": "1", "1m": "7", "1r": "2", "2l": "6"},
                  "ben": {"1l": "4", "1m": "9", "1r": "1", "2l": "W7-2"},
                  "cat": {"1l": "0", "1r": "8"}},
                 at={"ann": (3, "A"), "ben": (2, "A")}, zeros={"ben": ["2r"]}, storms=("cat",), sands=2,
                 mummies=1, deck="5 6 7", discards="8 S")


HAND_BUILT_BOARD = """\
Path          1    2    3    4    5    6    7    8    9   10   11   12   13
  space A     ·    b    a    ·    ·    ·    ·    ·    ·    ·    ·    ·    ·
  space B          ▓         ·         ·         ·         ·
At the start: cat.
13 is Alexandria; · a free space, ▓ closed by a mummy; a letter is a player's
  marker (their mark beside their name below).

Player   at     hand
ann (a)  3         4  to move
ben (b)  2A        2
cat (c)  start     1  Sandstorm in front: skips the next turn
Sands of Time 2/3 (at 3 a mummy wakes and closes 4B); 4 mummies left. Deck 3,
  discard pile 2, top S.

Pyramids, level 3 on 2l 2r on 1l 1m 1r: 7-1=6 is a 7 and a 1 counted minus,
  making 6; W6 a Wild counting 6; Z a Zero Block Value lies there (filling it
  moves 0); · empty.
ann                  ben                  cat
       3 ·                  3 ·                  3 ·
   2l 6   2r ·        2l W7-2=5   2r Z       2l ·   2r ·
1l 1   1m 7   1r 2   1l 4   1m 9   1r 1   1l 0   1m ·   1r 8

Your hand (4 cards): 1 7 Z W (Z Zero Block Value, W Wild)"""


def test_a_hand_is_shown_as_its_cards_are_typed_with_the_letters_named_and_no_slots():
    """Slots are the record's business (a player types 5@2l; the program finds the 5): the hand shows cards
    in a player's order, names each letter it holds once, and says what a "?" is."""
    def hand(*cards: str) -> str:
        return pop._hand_line(pop._sorted_hand([{"card": c, "slot": 20 - i} for i, c in enumerate(cards)]))

    assert hand("S", "2", "9", "S", "2") == "Your hand (5 cards): 2 2 9 S S (S Sandstorm)"
    assert hand("T", "W", "0", "Z") == "Your hand (4 cards): 0 Z W T (Z Zero Block Value, W Wild, T Thief)"
    assert hand("?", "4") == "Your hand (2 cards): 4 ? (? a card you no longer know)"
    assert hand("7") == "Your hand (1 card): 7"
    assert hand() == "Your hand (0 cards): empty"


def test_the_board_of_a_hand_built_position_shows_the_path_the_players_every_pyramid_and_my_hand():
    t = hand_built()
    assert pop.board_text(GAME.view(t.state, "ann", t.game.knowledge("ann")), PLAIN) == HAND_BUILT_BOARD
    public = pop.board_text(GAME.view(t.state, None), PLAIN)
    assert public == HAND_BUILT_BOARD.rsplit("\n\n", 1)[0]  # nobody's hand


def test_the_prompt_of_the_hand_built_position_groups_the_ways_to_fill_and_gives_legal_examples():
    t = hand_built()
    choices = list(legal_actions(t.state, "ann", t.game.knowledge("ann")))
    assert pop.choices_text(GAME, t.state, choices) == """\
Positions you can fill:
2r needs 5: 6 ways, e.g. W5@2r, 7-W2@2r, W6-1@2r, W4+1@2r
Or stop to end your turn."""


def test_ascii_and_colour_terminals():
    t = hand_built()
    shown = GAME.view(t.state, "ann", t.game.knowledge("ann"))
    ascii_board = pop.board_text(shown, Style(encoding="ascii"))
    assert "  space B          #         .         .         .         ." in ascii_board.splitlines()
    assert ascii_board.encode("ascii")
    coloured = pop.board_text(shown, Style(colour=True))
    assert "\x1b[31m\x1b[1mann\x1b[0m (a)" in coloured and "\x1b[32m\x1b[1mb\x1b[0m" in coloured  # ann red, ben green
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == pop.board_text(shown, PLAIN)


def test_the_presentation_is_registered_and_has_no_layout_files():
    assert presentation("path-of-pharaohs") is pop
    with pytest.raises(UsageError, match=r"layout deal\.json: Path of Pharaohs has no layout files"):
        pop.read_layout({}, "deal.json")


def test_marks_are_distinct_even_when_names_share_an_initial():
    assert pop.marks(["ann", "alf", "al", "ben"]) == {"ann": "a", "alf": "l", "al": "b", "ben": "e"}


# ---------------------------------------------------------------- random games

def random_games():
    """Three whole random games (3, 4 and 6 players), as (driver, state, events) after every act."""
    for seed, players in ((1, ["ann", "ben", "cat"]), (2, ["ann", "ben", "cat", "dan"]),
                          (3, ["alexander", "alexis", "bo", "cy", "dee", "eve"])):
        rng = random.Random(seed)
        game = FullInformation(Options(), players, shuffled_deck(Options(), rng), players[1], rng)
        policies = dict.fromkeys(players, random_policy)
        while duties(game.state):
            events = game.step(policies, rng)
            yield game, game.state, events


def test_every_board_of_random_games_tells_the_truth_and_fits_78_columns():
    checked = closed_seen = 0
    for step, (game, state, _) in enumerate(random_games()):
        if step % 5:
            continue
        players = state.table.players
        observer = players[step // 5 % len(players)]
        known = game.knowledge(observer)
        text = pop.board_text(GAME.view(state, observer, known), PLAIN)
        lines = text.splitlines()
        assert max(map(len, lines)) <= 78
        mark = pop.marks(list(players))
        table = {line.split()[0]: line for line in lines if re.match(r"\S+ \(.\) ", line)}
        assert set(table) == set(players)
        row_a, row_b = lines[1], lines[2]
        for i, player in enumerate(players):
            where, hand = table[player].split()[2:4]
            assert int(hand) == len(state.hands[i])
            location, space = state.location[i], state.space[i]
            if location == 0:
                assert where == "start"
            elif space is None:
                assert re.search(rf"Moving this turn: .*\b{player} at {location}\b", text)
            else:
                row = row_a if space == 0 else row_b
                assert row[10 + 5 * location - 1] == mark[player]
                assert where == f"{location}{'AB'[space] if location in (2, 4, 6, 8, 10) else ''}"
        for k, location in enumerate(MUMMIES):
            assert (row_b[10 + 5 * location - 1] == "▓") == (k < state.mummies)
        closed_seen += state.mummies
        mine = sorted(card_name(known[slot]) for slot in state.hands[players.index(observer)])
        at = next(i for i, line in enumerate(lines) if line.startswith("Your hand"))
        hand_line = " ".join([lines[at]] + [line.strip() for line in lines[at + 1:] if line.startswith("  ")])
        cards = hand_line.split(": ", 1)[1].split(" (", 1)[0].split()
        assert cards == (sorted(mine, key="0123456789ZWTS".index) or ["empty"])
        key = ", ".join(f"{letter} {name}" for letter, name in
                        zip("ZWTS", ("Zero Block Value", "Wild", "Thief", "Sandstorm")) if letter in mine)
        assert hand_line.endswith(f" ({key})" if key else cards[-1])
        assert "Your hand" not in pop.board_text(GAME.view(state, None), PLAIN)
        checked += 1
    assert checked > 100 and closed_seen


def test_pyramid_positions_show_their_cards_and_values():
    last = list(random_games())[-1][1]  # the end of the six-player game
    shown = GAME.view(last, None)
    text = pop.board_text(shown, PLAIN)
    for pyramid in shown["pyramids"].values():
        for name in POSITION_NAMES:
            spot = pyramid[name]
            cell = pop.position_text(spot, PLAIN)
            if spot["cards"] is not None:
                value = parse_action(f"{spot['cards']}@{name}").terms
                assert sum(v for _, v in value) == spot["value"]
                assert cell.endswith(spot["cards"] if len(value) == 1 else f"{spot['cards']}={spot['value']}")
            assert f"{name} {cell}" in text


def test_the_prompt_of_random_turns_counts_the_ways_and_its_examples_are_legal():
    prompts = 0
    for step, (game, state, _) in enumerate(random_games()):
        owed = duties(state)
        if step % 3 or not owed or owed[0].who == DEALER:
            continue
        who = owed[0].who
        choices = list(legal_actions(state, who, game.knowledge(who)))
        text = pop.choices_text(GAME, state, choices)
        assert max(map(len, text.splitlines())) <= 78
        if owed[0].what == "discard":
            k = len(state.hands[state.turn]) - 7
            assert text.startswith(f"Discard {k} card")
        else:
            for pos, ways in re.findall(r"^(\w+) (?:needs \d|takes any).*?: (\d+) ways?", text, re.M):
                assert int(ways) == sum(1 for a in choices if GAME.format_action(a).endswith(f"@{pos}"))
            assert ("stop" in text) and len(text.splitlines()) <= 8
        for example in re.findall(r"(?:discard [\dZWTS ]+$|[\w+-]+@[\w:]+)", text, re.M):
            GAME.check(state, who, parse_action(example.strip()), game.knowledge(who))  # raises if illegal
        prompts += 1
    assert prompts > 50


def test_the_demo_tells_completions_mummies_and_the_finish_not_every_card():
    told, seen, progress = [], [], []
    for _, state, events in random_games():
        seen += events
        told += [e for e in events if pop.notable(e)]
        progress.append(pop.progress(GAME.view(state, None)))
    kinds = {type(e) for e in told}
    assert {Completed, MummyWakes, Finished} <= kinds
    assert not kinds & {Built, CardsDealt, Settled} and len(told) < len(seen) / 5
    assert all(0 <= p <= 1 for p in progress) and progress[-1] == 1.0 and min(progress) == 0


# ---------------------------------------------------------------- the HTML replay

NODE = shutil.which("node")


def drawn(shown: dict) -> ET.Element:
    """What drawBoard puts into the page's board and side areas, run by node (no browser needed:
    the drawing is markup built as text)."""
    script = static(pop.HTML_STATIC + ".js") + (
        "\nconst areas = {board: {}, side: {}};\n"
        f"drawBoard(areas, {json.dumps(pop.html_board(shown))}, {json.dumps(pop.html_meta(shown))});\n"
        "process.stdout.write(areas.board.innerHTML + areas.side.innerHTML);")
    out = subprocess.run([NODE, "-e", script], capture_output=True, text=True, check=True, timeout=30)
    return ET.fromstring(f"<root>{out.stdout}</root>")


@pytest.mark.skipif(not NODE, reason="node is not installed: the HTML drawing is not run")
def test_the_html_drawing_shows_each_marker_pyramid_and_hand_of_the_view():
    t = hand_built()
    t.play("ann", "W5@2r")  # ann moves on: a marker in motion, a position filled by a Wild
    shown = GAME.view(t.state, "ann", t.game.knowledge("ann"))
    json.dumps(pop.html_board(shown))
    root = drawn(shown)
    markers = {}
    for location in root.iter("g"):
        if location.get("class") == "location":
            for marker in location.iter("g"):
                if marker.get("class", "").startswith("marker"):
                    markers[marker.get("data-owner")] = (int(location.get("data-location")), marker.get("class"))
    assert markers == {"ann": (4, "marker moving"), "ben": (2, "marker"), "cat": (0, "marker")}
    spots = {g.get("data-space"): g.get("data-closed") for g in root.iter("g") if g.get("class") == "spot"}
    assert len(spots) == 18 and spots["2B"] == "yes" and list(spots.values()).count("yes") == 1
    pyramids = {div.get("data-name"): {g.get("data-pos"): (g.get("data-value"), g.get("data-cards"), g.get("data-zero"))
                                       for g in div.iter("g") if g.get("class") == "position"}
                for div in root.iter("div") if div.get("class") == "pyramid"}
    assert pyramids["ann"]["2r"] == ("5", "W5", "no") and pyramids["ben"]["2r"] == ("", "", "yes")
    assert pyramids["ben"]["2l"] == ("5", "W7-2", "no") and pyramids["cat"]["1m"] == ("", "", "no")
    players = {div.get("data-name"): div for div in root.iter("div") if div.get("class", "").startswith("player ")
               or div.get("class") == "player"}
    assert {p: int(next(s for s in d.iter("span") if s.get("class") == "hand").get("data-hand"))
            for p, d in players.items()} == shown["hands"]
    assert "Sandstorm" in "".join(players["cat"].itertext()) and "turn" in players["ann"].get("class")
    mine = next(d for d in root.iter("div") if d.get("class") == "mine")
    assert next(mine.iter("span")).text == "Your hand: 3 cards"
    cards = [(li.get("class"), li.get("data-card"), li.get("data-slot"), li.get("title"), "".join(li.itertext()))
             for li in mine.iter("li")]  # a card face each: its value, or an action card's letter and name
    assert cards == [("card card-value", "1", "1", "a value card, 1", "1"), ("card card-value", "7", "0", "a value card, 7", "7"),
                     ("card card-Z", "Z", "3", "Zero Block Value", "ZZero")]
    assert not [d for d in drawn(GAME.view(t.state, None)).iter("div") if d.get("class") == "mine"]


# ---------------------------------------------------------------- through the commands, on a real record

EXAMPLE = EXAMPLES / "pharaohs-table-4-players.json"
runner = CliRunner()


@pytest.fixture
def ann_key(tmp_path):
    """The example's test key of ann, readable by its owner only (pbem refuses any other)."""
    key = tmp_path / "ann"
    shutil.copy(EXAMPLE.parent / "test-keys" / "ann", key)
    key.chmod(0o600)
    return key


def test_show_draws_the_finished_example_for_everyone_and_for_ann(ann_key):
    public = runner.invoke(app, ["show", str(EXAMPLE)])
    mine = runner.invoke(app, ["show", str(EXAMPLE), "--as", "ann", "--key", str(ann_key)])
    assert public.exit_code == 0 and mine.exit_code == 0, public.output + mine.output
    lines = public.output.splitlines()
    assert lines[0] == "Path of Pharaohs, table mode, ann, ben, cat, dan; entry 146; created by ann"
    assert lines[-1] == "Game over: ann 6, ben 11, cat 5, dan 13; dan wins"
    assert "dan (d)  13        2  wins" in lines and max(map(len, lines)) <= 80
    assert "Your hand" not in public.output
    assert mine.output.replace("\nYour hand (3 cards): 2 3 5\n", "") == public.output


@pytest.mark.slow
def test_the_html_replay_of_the_example_draws_every_frame(tmp_path, ann_key):
    out = tmp_path / "game.html"
    result = runner.invoke(app, ["html", str(EXAMPLE), "-o", str(out), "--as", "ann", "--key", str(ann_key)])
    assert result.exit_code == 0, result.output
    text = out.read_text()
    data = json.loads(re.search(r'<script type="application/json" id="game-data">(.*?)</script>', text, re.S)
                      .group(1).replace("<\\/", "</"))
    assert data["meta"] == {"players": ["ann", "ben", "cat", "dan"], "colours": list(pop.HTML_COLOURS[:4]),
                            "marks": ["a", "b", "c", "d"], "cardNames": {"Z": "Zero Block Value", "W": "Wild",
                                                                         "T": "Thief", "S": "Sandstorm"}}
    assert len(data["frames"]) == 147 and static(pop.HTML_STATIC + ".js") in text
    last = data["frames"][-1]["board"]
    assert last["winners"] == ["dan"] and last["markers"]["dan"] == [13, "A"]
    assert last["mine"] == [["2", 84], ["3", 85], ["5", 83]]
    # each frame drawn with what ann knew then: every card of her hand at that moment, none unknown
    hands = [[card for card, _ in frame["board"].get("mine", [])] for frame in data["frames"]]
    assert all("?" not in cards for cards in hands) and max(map(len, hands)) >= 5
    if NODE:  # the page's own data, drawn: a frame in mid-game and the last
        for frame in (data["frames"][70], data["frames"][-1]):
            script = static(pop.HTML_STATIC + ".js") + (
                "\nconst areas = {board: {}, side: {}};\n"
                f"drawBoard(areas, {json.dumps(frame['board'])}, {json.dumps(data['meta'])});\n"
                "process.stdout.write(areas.board.innerHTML + areas.side.innerHTML);")
            drawing = subprocess.run([NODE, "-e", script], capture_output=True, text=True, check=True, timeout=30)
            root = ET.fromstring(f"<root>{drawing.stdout}</root>")
            assert sorted(g.get("data-owner") for g in root.iter("g") if g.get("data-owner")) == ["ann", "ben",
                                                                                                "cat", "dan"]
