"""The search bot: honest (it sees only its own knowledge), legal, and reachable from the CLI."""

import random
from collections import Counter

import pytest
from typer.testing import CliRunner

from engine.sarcophagus.actions import Open, Place
from engine.sarcophagus.driver import FullInformation, Layout, deal, greedy_policy, random_policy
from engine.sarcophagus.duties import hand_values
from engine.sarcophagus.geometry import SARCOPHAGUS_POSITIONS
from engine.sarcophagus.rules import duties, legal_actions
from engine.sarcophagus.search import SearchPolicy, choose, determinize
from engine.sarcophagus.state import Options
from pbem.cli import app

from engine_support import assert_same_search

PLAYERS = ["ann", "ben", "cat"]


def _until_ann_chooses(game: FullInformation, rng: random.Random, placements: int) -> None:
    """Random play until ann owes a move with several choices, after at least `placements` coins."""
    policies = dict.fromkeys(game.state.table.players, random_policy)
    while True:
        duty = duties(game.state)[0]
        if (duty.who == "ann" and duty.what == "move" and len(game.state.slot_seat) >= placements
                and len(legal_actions(game.state, "ann", game.known["ann"])) > 1):
            return
        game.step(policies, rng)


def _look_alike(game: FullInformation) -> FullInformation:
    """The same public play and ann's same coins, but other values under the opponents' coins and two
    face-down tiles swapped: a game ann cannot tell from `game`."""
    pyramid = list(game.layout.pyramid)
    face_down = [p for p, tile in enumerate(game.state.tiles) if tile is None and p not in SARCOPHAGUS_POSITIONS]
    a, b = face_down[0], face_down[-1]
    pyramid[a], pyramid[b] = pyramid[b], pyramid[a]
    other = FullInformation(Options(), PLAYERS, Layout(tuple(pyramid), game.layout.under), "ann")
    for actor, action in game.log:
        if isinstance(action, Place) and actor != "ann":
            others = [v for v in hand_values(other.state, other.state.turn, other.values) if v != action.value]
            action = Place(action.pos, others[-1] if others else action.value)
        other.act(actor, action)
    return other


@pytest.mark.slow
def test_two_games_that_look_the_same_to_the_bot_get_the_same_search_and_move():
    game = FullInformation(Options(), PLAYERS, deal(random.Random(11)), "ann")
    _until_ann_chooses(game, random.Random(11), placements=12)
    assert not any(isinstance(action, Open) for _, action in game.log)  # no opponent coin shown yet
    other = _look_alike(game)
    assert other.state == game.state and other.known["ann"] == game.known["ann"]
    assert other.values != game.values and other.layout != game.layout
    assert_same_search(choose, game, other, "ann", iterations=300)
    bot = {"ann": SearchPolicy(iterations=100)}  # the same through the driver, which hands ann her own coins
    game.step(bot, random.Random(5))
    other.step(bot, random.Random(5))
    assert game.log[-1] == other.log[-1]


@pytest.mark.parametrize("players, options, seed", [(PLAYERS, Options(), 1), (["ann", "ben"], Options("pooled"), 2),
                                                    (["ann", "ben"], Options("seats"), 3),
                                                    (["ann", "ben", "cat", "dan"], Options(), 4)])
def test_sampled_worlds_agree_with_what_the_bot_knows_and_vary_in_the_rest(players, options, seed):
    rng = random.Random(seed)
    game = FullInformation(options, players, deal(rng), "ben")
    _until_ann_chooses(game, rng, placements=20)
    state, seen = game.state, set()
    for _ in range(30):
        world = determinize(state, "ann", game.known["ann"], rng)
        layout = Layout(world.pyramid, world.under)  # raises unless the setup rules could deal it
        assert all(t is None or layout.pyramid[p] == t for p, t in enumerate(state.tiles))
        assert all(t is None or layout.under[k] == t for k, t in enumerate(state.under))
        assert set(world.values) == set(range(len(state.slot_seat)))
        assert all(world.values[slot] == value for slot, value in game.known["ann"].items())
        assert all(v is None or world.values[slot] == v for slot, v in enumerate(state.slot_value))
        for seat, coins in enumerate(state.out):
            assert not Counter(world.values[slot] for slot in coins) - Counter(state.table.seats[seat].coins)
        seen.add((layout, tuple(world.values[s] for s in range(len(state.slot_seat)))))
    assert len(seen) > 20


@pytest.mark.slow
def test_the_bot_plays_only_legal_moves_to_the_end_of_a_game():
    chosen = []

    def checked_bot(state, actor, actions, rng, known):
        action = SearchPolicy(iterations=30)(state, actor, actions, rng, known)
        assert action in list(legal_actions(state, actor, known))
        chosen.append(action)
        return action

    game = FullInformation(Options(), ["ann", "ben"], deal(random.Random(8)), "ann")
    game.play({"ann": checked_bot, "ben": greedy_policy}, random.Random(8))
    assert not duties(game.state) and len(chosen) >= 15


runner = CliRunner()


@pytest.mark.slow
def test_pbem_play_and_demo_with_the_search_bot(tmp_path, monkeypatch):
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    demo = runner.invoke(app, ["demo", "--players", "2", "--bot", "mcts", "--iterations", "5", "--seed", "1",
                               "--quiet", "--dir", str(tmp_path)])
    assert demo.exit_code == 0, demo.output
    lines = demo.output.splitlines()
    assert lines[0].startswith("Finished after ") and lines[1].startswith("Verified: every signature")
    assert runner.invoke(app, ["verify", "game.json"]).output.startswith("game.json: valid, finished, ")
    wrong = runner.invoke(app, ["play", "game.json", "--as", "ann", "--bot", "deep"])
    assert (wrong.exit_code, wrong.output) == (1, "Error: --bot for Sarcophagus is one of greedy, random, mcts\n")


def test_pbem_play_with_a_seed_and_an_iteration_budget_repeats_its_choices(tmp_path, monkeypatch):
    import json
    import shutil

    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    for name in ("ann", "ben"):
        runner.invoke(app, ["key", "new", name, "--no-passphrase"])
    created = runner.invoke(app, ["new", "sarcophagus", "-o", "g.json", "--as", "ann", "--player", "ann",
                                  "--player", "ben"])
    assert created.exit_code == 0, created.output
    assert runner.invoke(app, ["play", "g.json", "--as", "ben"]).exit_code in (0, 3)  # ben joins; his program deals
    first = json.loads(runner.invoke(app, ["show", "g.json", "--json"]).output)["duties"][0]["who"]
    shutil.copytree(tmp_path / "home", tmp_path / "home2")  # a second machine that has not seen the move
    shown = []
    for home, out in (("home", "a.json"), ("home2", "b.json")):
        monkeypatch.setenv("PBEM_HOME", str(tmp_path / home))
        played = runner.invoke(app, ["play", "g.json", "--as", first, "--bot", "mcts", "--iterations", "20",
                                     "--seed", "7", "-o", out])
        assert played.exit_code == 0 and f"Wrote {out} (entries 4-" in played.output, played.output
        shown.append(runner.invoke(app, ["show", out, "--as", first]).output)
    boards = [text.rsplit("Your turn", 1)[0].replace("b.json", "a.json") for text in shown]  # the command names the file
    assert boards[0] == boards[1] and f"Your hand ({first}): " in shown[0]
