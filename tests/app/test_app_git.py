"""`pbem app` on a game played by git (docs/git.md): the game file in a repository's games/ folder, no
mail server. Sign and send signs and writes the file, then says the commit to make and push (the app
never runs git itself); nothing is called unsent. The page's own requests, as its script sends them."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from pbem.api import open_game
from pbem.crypto import Identity
from pbem.record.files import write_atomic
from pbem.record.gamefile import save

from app_support import App, near_the_end

pytestmark = pytest.mark.slow

if not shutil.which("git"):
    pytest.skip("git is not installed", allow_module_level=True)


def test_a_turn_of_a_game_in_a_git_repository_is_written_and_the_commit_to_make_shown(tmp_path):
    people = {name: Identity.from_seed(bytes([i + 90]) * 32, comment=name) for i, name in enumerate(["ann", "ben"])}
    rep = near_the_end("sarcophagus", list(people), people, 2)
    repo = tmp_path / "league"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    game = repo / "games" / "final.json"
    game.parent.mkdir()
    save(game, rep.record)
    home = tmp_path / "home"
    for name, identity in people.items():  # one machine holding both keys: whoever owes plays
        (home / "keys").mkdir(parents=True, exist_ok=True, mode=0o700)
        write_atomic(home / "keys" / name, identity.to_openssh(None), mode=0o600)
        write_atomic(home / "keys" / f"{name}.pub", (identity.public.line() + "\n").encode())
    app = App(home, App.launch(App.environment({"PBEM_HOME": str(home), "PBEM_GAMES": str(repo / "games")})))
    try:
        assert rep.genesis.game_id in app.get("/")
        data = app.game_data(rep.genesis.game_id)
        assert data["choices"] and data["unsent"] == 0
        for _ in range(4):  # the commit to push is said once the turn is done (the second coin)
            status, answer = app.post(f"/game/{rep.genesis.game_id}/move",
                                      {"head": data["head"], "action": data["choices"][0]["notation"]})
            assert status == 200, answer
            if "commit and push" in answer["message"]:
                break
            assert "the commit to push comes when your turn is done" in answer["message"], answer
            data = app.game_data(rep.genesis.game_id)
        assert f"The game is in the git repository {repo}: commit and push it: git -C {repo} add games/final.json" \
               in answer["message"], answer
        said = answer["message"]  # the act that ends the turn: a coin, or a tile given up to a trap (by the deal)
        assert (" placed a coin on " in said or " to the trap." in said) and ". Signed and wrote entr" in said
        assert open_game(game).seq > rep.seq
        assert app.game_data(rep.genesis.game_id)["unsent"] == 0
    finally:
        app.stop()
