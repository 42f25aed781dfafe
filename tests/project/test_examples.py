"""The published example games verify, from a clean checkout."""

import pytest
from typer.testing import CliRunner

from pbem.cli import app
from pbem.protocol.verify import verify
from pbem.record.gamefile import load

from paths_support import EXAMPLES

FOUR = ["ann", "ben", "cat", "dan"]


@pytest.mark.parametrize("name,game,players,mode", [
    ("table-3-players.json", "sarcophagus", ["ann", "ben", "cat"], "table"),
    ("referee-2-players.json", "sarcophagus", ["ann", "ben"], "referee"),
    ("pharaohs-table-4-players.json", "path-of-pharaohs", FOUR, "table"),
    ("pharaohs-referee-4-players.json", "path-of-pharaohs", FOUR, "referee")])
@pytest.mark.slow
def test_example_games_are_finished_and_verify(name, game, players, mode):
    rep = verify(load(EXAMPLES / name)[0])
    assert rep.genesis.game == game and rep.players == players and rep.mode == mode
    assert rep.seed is not None and rep.entries[-1].action == "audit"  # the seed opened: the deal recomputed
    assert rep.outcome() is not None and not rep.duties()
    result = CliRunner().invoke(app, ["verify", str(EXAMPLES / name)])
    assert result.exit_code == 0 and ": valid, finished, " in result.output


def test_example_test_keys_are_the_games_keys():
    from pbem.crypto import PublicKey

    rep = verify(load(EXAMPLES / "pharaohs-table-4-players.json")[0])
    for name in rep.players:
        assert PublicKey.parse((EXAMPLES / "test-keys" / f"{name}.pub").read_text()).same_key(rep.roster[name])
    assert "TEST KEYS" in (EXAMPLES / "README.md").read_text()
