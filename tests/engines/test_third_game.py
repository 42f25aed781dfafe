"""Closest, the tests' third game (tests/third_game/): its rules on hand-built states, its notation, its
rule of absence, and pbem's commands on it once it is plugged in, with nothing in pbem/ naming it."""

import pytest
from typer.testing import CliRunner

from engine import GAMES
from engine.contract import DEALER, Absent, IllegalAction, NotationError, Secrets
from pbem.cli import app

from paths_support import ROOT
from third_game import plugged_in, presentation
from third_game.closest import GAME
from third_game.closest.actions import Open, Reveal, Seal
from third_game.closest.rules import Finished, State


def test_a_game_from_the_seals_to_the_nearest_guess():
    s = GAME.setup(GAME.parse_options({}), ["ann", "ben", "cat"], "ben")
    assert [tuple(d) for d in GAME.duties(s)] == [("ben", "move", "seal a guess from 1 to 9")]
    for who, guess in (("ben", 3), ("cat", 8), ("ann", 6)):
        assert GAME.secrets(s, who, Seal(guess)) == Secrets(commits=((f"#{s.seat_of(who)}", guess),))
        s, events = GAME.apply(s, who, GAME.public(GAME.check(s, who, Seal(guess))))
        assert [str(e) for e in events] == [f"{who} seals a guess"]
    assert GAME.legal_actions(s, DEALER, {"target": 7}) == [Reveal(7)]
    s, _ = GAME.apply(s, DEALER, Reveal(7))
    for who, guess in (("ben", 3), ("cat", 8), ("ann", 6)):
        assert GAME.legal_actions(s, who, {f"#{s.seat_of(who)}": guess}) == [Open(who, guess)]
        s, events = GAME.apply(s, who, Open(who, guess))
    assert [str(e) for e in events] == ["ann guessed 6", "final scores: ann 8, ben 5, cat 8; ann and cat share the win"]
    assert GAME.outcome(s).winners == ("ann", "cat")
    assert presentation.score_lines(s, GAME.outcome(s)) == ["ann: 8 (wins)", "cat: 8 (wins)", "ben: 5"]  # the app's


def test_only_the_player_whose_turn_it_is_seals_and_a_guess_is_1_to_9():
    s = GAME.setup(GAME.parse_options({}), ["ann", "ben"], "ann")
    with pytest.raises(IllegalAction, match="ben owes nothing now: waiting for ann"):
        GAME.check(s, "ben", Seal(4))
    with pytest.raises(IllegalAction, match="a guess is from 1 to 9"):
        GAME.check(s, "ann", Seal(12))
    assert GAME.audit_problem(s, [("#1", 12)]) == ("ben", "sealed 12, not a guess from 1 to 9")
    assert GAME.audit_problem(s, [("#1", 9), ("target", 3)]) is None


@pytest.mark.parametrize("text", ["seal", "seal 4", "reveal 9", "open ann 1"])
def test_the_notation_round_trips(text):
    assert GAME.format_action(GAME.parse_action(text)) == text


@pytest.mark.parametrize("text, error", [("seal 0", "'0' is not a number from 1 to 9"),
                                         ("guess 4", "'guess 4' is not an act of Closest")])
def test_text_that_is_no_act_is_named(text, error):
    with pytest.raises(NotationError, match=error):
        GAME.parse_action(text)


def test_an_absent_player_s_guess_is_void_and_cannot_win():
    s = GAME.setup(GAME.parse_options({}), ["ann", "ben"], "ann")
    assert GAME.absence_act(s, "ann") is None
    s, events = GAME.absent(s, "ann")
    assert events == (Absent("ann", "move", "seals nothing: their guess is void, they cannot win"),)
    s, _ = GAME.apply(s, "ben", Seal())
    s, _ = GAME.apply(s, DEALER, Reveal(2))
    s, events = GAME.apply(s, "ben", Open("ben", 9))
    assert str(events[-1]) == "final scores: ann 0, ben 2; ben wins" and isinstance(events[-1], Finished)
    assert isinstance(s, State) and s.void == ("ann",)


def test_pbem_plays_it_once_plugged_in_and_forgets_it_after(tmp_path):
    runner = CliRunner()
    env = {"PBEM_HOME": str(tmp_path / "home"), "PBEM_GAMES": None}
    with plugged_in():
        demo = runner.invoke(app, ["demo", "--game", "closest", "--players", "2", "--dir", str(tmp_path / "d")],
                             env=env)
        assert demo.exit_code == 0, demo.output
        assert demo.output.startswith(f"Demo: ann, ben play Closest in {tmp_path / 'd' / 'game.json'}\n")
        assert "Verified: every signature, every rule, the end audit." in demo.output
        shown = runner.invoke(app, ["show", str(tmp_path / "d" / "game.json")], env=env)
        assert shown.exit_code == 0, shown.output
        assert "Target: " in shown.output and "Guesses: ann 5, ben 5." in shown.output
        page = runner.invoke(app, ["html", str(tmp_path / "d" / "game.json"), "--as", "ann", "-o",
                                   str(tmp_path / "page.html")], env={**env, "PBEM_HOME": str(tmp_path / "d" / "home")})
        assert page.exit_code == 0, page.output
        html = (tmp_path / "page.html").read_text()
        assert "<title>Closest" in html and '"yours":5' in html  # the generic drawing, with ann's own guess
    assert "closest" not in GAMES
    gone = runner.invoke(app, ["verify", str(tmp_path / "d" / "game.json")], env=env)
    assert gone.exit_code == 1
    assert "unknown game 'closest' (known: path-of-pharaohs, sarcophagus)" in gone.output


def test_a_count_of_players_the_game_does_not_take_is_answered_from_its_definition(tmp_path):
    """`pbem demo` and `pbem new` ask the game (its min_players and max_players), before any file is made or
    any key read: the demo writes no count of its own."""
    runner = CliRunner()
    env = {"PBEM_HOME": str(tmp_path / "home"), "PBEM_GAMES": None}
    with plugged_in():
        demo = runner.invoke(app, ["demo", "--game", "closest", "--players", "4", "--dir", str(tmp_path / "d")],
                             env=env)
        new = runner.invoke(app, ["new", "closest", "-o", str(tmp_path / "g.json"), "--as", "ann",
                                  *(f"--player={name}" for name in ("ann", "ben", "cat", "dan", "eve"))], env=env)
    assert (demo.exit_code, demo.output) == (1, "Error: Closest is for 2 or 3 players, not 4\n")
    assert (new.exit_code, new.output) == (1, "Error: Closest is for 2 or 3 players, not 5\n")
    assert not (tmp_path / "d").exists() and not (tmp_path / "g.json").exists()


@pytest.mark.slow
def test_pbem_names_no_game_outside_the_games_presentations():
    """What lets a third game touch nothing else in pbem/ (docs/adding-a-game.md): outside each game's own
    presentation module, no code of pbem/ imports a game's package or writes a game's name or title, and the
    duty kinds of a turn come from engine.contract (TURN_DUTIES, STRIKE_KIND), not "move" and "discard"
    written out or compared with. What pbem says (its layers, the command line, the library, the app) names
    no game's hidden items (each presentation's HIDDEN_ITEM: "your coins"; the definition's hand_words: "the
    lowest cards"), its rule of absence (ABSENCE_BY_RULE) or its bots ("greedy, random or mcts"): it asks the
    game. The judge is left out: its web pages still say "card and coin". Docstrings and comments may name the
    games, as examples."""
    import ast
    import re
    from dataclasses import astuple

    from engine.contract import TURN_DUTIES, HandWords
    from pbem.presentation.games import generic, presentation

    names = {word for game in GAMES.values() for word in (game.name, game.name.replace("-", "_"), game.title.lower())}
    shared = {generic.HIDDEN_ITEM, *astuple(HandWords()), "random"}  # what any game may say (random: the word too)
    own = {word for name, game in GAMES.items() for word in (presentation(name).HIDDEN_ITEM, game.hand_words.item,
                                                             game.hand_words.chosen, *game.bots)} - shared
    items = re.compile(rf"\b({'|'.join(map(re.escape, sorted(own)))})s?\b", re.I)
    rules = [presentation(name).ABSENCE_BY_RULE for name in GAMES]
    shown, wording = ROOT / "pbem" / "presentation" / "games", [p for p in (ROOT / "pbem").iterdir() if p.name != "judge"]
    found = []
    for path in sorted((ROOT / "pbem").rglob("*.py")):
        if path.is_relative_to(shown) and path.relative_to(shown).parts[0].removesuffix(".py") in names:
            continue
        text = path.read_text()
        worded = any(path.is_relative_to(folder) for folder in wording)
        if not any(word in text.lower() for word in (*names, "discard", "engine.", '"move"')) and not (
                worded and items.search(text)):
            continue  # nothing to look at closer: most files
        tree = ast.parse(text)
        said = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}  # docstrings
        for node in ast.walk(tree):
            where = f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[:2] in [["engine", n] for n in names]:
                found.append(f"{where} imports {node.module}")
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in said:
                if any(name in node.value.lower() for name in names) or node.value == "discard":
                    found.append(f"{where} {node.value[:60]!r}")
                elif worded and (items.search(node.value) or any(rule in node.value for rule in rules)):
                    found.append(f"{where} {node.value[:60]!r}: a game's own words")
            elif isinstance(node, ast.Compare):
                written = [c.value for c in (node.left, *node.comparators) if isinstance(c, ast.Constant)]
                found += [f"{where} compares with {kind!r}" for kind in TURN_DUTIES if kind in written]
            elif isinstance(node, (ast.Tuple, ast.Call)):
                words = [c.value for c in ast.iter_child_nodes(node) if isinstance(c, ast.Constant)]
                if "move" in words and "discard" in words:
                    found.append(f"{where} 'move', 'discard'")
    assert found == []
