"""The terminal board as a user sees it: row labels and letters, a legend, suit colours only on a
terminal without NO_COLOR, ASCII where the terminal's encoding lacks the symbols, 80 columns; the
final position of a finished game; and the demo showing the game as it goes."""

from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest

from pbem.api import open_game
from pbem.presentation.style import Style, terminal_style
from pbem.presentation.terminal import board
from pbem.protocol.entries import apply_entry
from pbem.protocol.genesis import start

from cli_support import LAYOUT, pbem, two_coins_played
from pbem_support import played_game, sessions_for


@pytest.fixture
def game(tmp_path, monkeypatch):
    return two_coins_played(tmp_path, monkeypatch)


MAP = """\
Tiles: S=sun M=moon C=crown A=arms, then rank n=null a=ace 2-5 (M4 is moon-4).
Map: [M41] is moon-4 with 1 coin, [░░·] face down, no coin; 2@3b: row 3, tile b

1                      a[S31]
2                  a[M41]  b[A4·]
3              a[C2·]  b[Ca·]  c[░░·]
4          a[░░·]  b[░░·]  c[░░·]  d[░░·]
5      a[░░·]  b[░░·]  c[░░·]  d[░░·]  e[░░·]
6  a[░░·]  b[░░·]  c[░░·]  d[░░·]  e[░░·]  f[░░·]
"""


def test_the_board_has_row_labels_letters_and_a_legend_and_hides_others_values(game):
    result = pbem("show", game)
    assert result.exit_code == 0
    assert result.output == "Sarcophagus, table mode, ann, ben; entry 6; created by ann, who chose the deal\n" + MAP + f"""
Coins: 1a ben:?   2a ben:?
Sarcophagus: 5c buried   6c buried   6d buried
Player  hand  fame   holds
ann       12      0  nothing yet
ben       10      0  nothing yet

Next: ann (move: place a coin on 1a (forced))
Your turn (ann): pbem play {game} --as ann
"""


def test_a_player_sees_their_own_coin_values_and_hand(game):
    lines = pbem("show", game, "--as", "ben").output.splitlines()
    assert lines[11] == "Coins: 1a ben:3   2a ben:2"
    assert lines[-4] == "Your hand (ben): 0 0 1 1 2 3 4 4 5 5"


@pytest.mark.slow
def test_a_finished_game_shows_every_players_tiles_and_the_scores(game):
    rep = played_game(players=("ann", "ben", "cat"), layout=LAYOUT, first="cat", seed=5)
    from pbem.record.gamefile import save

    save(game.parent / "final.json", rep.record)
    result = pbem("show", game.parent / "final.json")
    assert result.exit_code == 0
    assert result.output == """\
Sarcophagus, table mode, ann, ben, cat; entry 123; created by ann, who chose the deal
Tiles: S=sun M=moon C=crown A=arms, then rank n=null a=ace 2-5 (M4 is moon-4).

The pyramid is empty: every tile has been claimed or discarded.
Sarcophagus: 5c ann's Cn   6c ann's A5   6d ben's Sn
Player  hand  score  holds
ann        0     24  S3 C4 S5 C5 Cn A5  (wins)
ben        2     17  A4 A3 M5 S4 Aa Sn
cat        6     18  M4 Ca A2 An M3 C3 M2 Mn Ma S2 Sa

Game over: ann 24, ben 17, cat 18; ann wins
"""


@pytest.mark.slow
def test_a_terminal_that_cannot_print_the_symbols_gets_ascii(game):
    """A cp1252 console (Windows) or latin-1 one: no UnicodeEncodeError, ## for a face-down tile."""
    env = {**os.environ, "PYTHONIOENCODING": "cp1252"}
    result = subprocess.run([sys.executable, "-m", "pbem.cli", "show", str(game)], capture_output=True, env=env)
    assert result.returncode == 0 and result.stderr == b""
    text = result.stdout.decode("cp1252")
    assert "6  a[##·]  b[##·]  c[##·]  d[##·]  e[##·]  f[##·]" in text.splitlines()
    latin1 = Style(encoding="latin-1")
    assert latin1.symbol("░░", "##") == "##" and latin1.symbol("·", ".") == "·"
    assert Style(encoding="ascii").symbol("·", ".") == "."


class Tty(io.StringIO):
    encoding = "utf-8"

    def isatty(self):
        return True


def test_suit_colours_only_on_a_terminal_and_never_under_no_color(game, monkeypatch):
    assert terminal_style(Tty()).colour and not terminal_style(io.StringIO()).colour
    monkeypatch.setenv("NO_COLOR", "1")
    assert not terminal_style(Tty()).colour
    assert "\x1b[" not in pbem("show", game).output  # not a terminal
    rep = open_game(game)
    coloured = board(rep, rep.game.view(rep.state, None), Style(colour=True))
    assert "a[\x1b[31m\x1b[1mS3\x1b[0m1]" in coloured  # a red sun
    assert "b[\x1b[34m\x1b[1mA4\x1b[0m·]" in coloured and "a[\x1b[1mM4\x1b[0m1]" in coloured  # blue arms, moon
    assert "1a \x1b[1mben\x1b[0m:?" in coloured  # ben's coin in his suit's colour (moon)


@pytest.mark.slow
def test_every_board_of_a_four_player_game_fits_in_80_columns():
    rep = played_game(players=("ann", "ben", "cat", "dan"), seed=2)
    knowledge = sessions_for(rep)["ann"].knowledge()
    replayed = start(rep.genesis)
    widest = 0
    for entry in rep.entries:
        apply_entry(replayed, entry)
        for observer in (None, "ann") if replayed.state is not None else ():
            text = board(replayed, replayed.game.view(replayed.state, observer, knowledge), Style())
            widest = max(widest, *map(len, text.splitlines()))
    assert 60 < widest <= 80


@pytest.mark.slow
def test_the_demo_shows_the_board_as_the_game_goes_and_a_game_that_verifies(tmp_path, monkeypatch):
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    result = pbem("demo", "--dir", tmp_path / "demo")
    assert result.exit_code == 0, result.output
    boards = result.output.split("\nSarcophagus, table mode, ann, ben, cat; entry ")[1:]
    assert len(boards) == 3  # a third of the way, two thirds, and the end
    assert "\n6  " in boards[0] and "\n1  " not in boards[1]
    final = boards[2].split("\nGame over: ")[1].split("\n")[0]
    assert "The pyramid is empty" in boards[2] and (final.endswith((" wins", " share the win")))
    lines = result.output.splitlines()
    assert lines[-3].startswith("Finished after ") and lines[-3].endswith(": " + final)
    game = tmp_path / "demo" / "game.json"
    assert lines[-1] == f"Look at it:  pbem html {game}   |   pbem log {game}   |   pbem verify {game}"
    verified = pbem("verify", game)
    assert verified.exit_code == 0 and verified.output.startswith(f"{game}: valid, finished, ")
    log = pbem("log", game).output.splitlines()
    assert log[0] == '[Game "sarcophagus"]' and log[2] == '[Players "ann, ben, cat"]'
    assert log[5:7] == ['[CreatedBy "ann"]', '[Deal "joint deal (seed committed by ann, shuffled with every join)"]']
    assert log[11] == "" and log[12:14] == ["   1. ben      join", "        ben joins the game"]
    assert log[16].startswith("   3. cat      deal first=")
