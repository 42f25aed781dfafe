"""Two players acting on one version: two files, a reported fork, and no building on an old file."""

import json
import shutil

from cli_support import pbem


def test_a_fork_is_reported_and_an_old_file_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    for name in ("ann", "ben", "cat"):
        pbem("key", "new", name, "--no-passphrase")
    created = pbem("new", "sarcophagus", "-o", "game.json", "--as", "ann", "--player", "ann", "--player", "ben",
                   "--player", "cat")
    assert created.exit_code == 0, created.output
    for name in ("ben", "cat"):  # they join; cat's program deals
        assert pbem("play", "game.json", "--as", name).exit_code in (0, 3)  # 3: the joiner owes the first move
    first = json.loads(pbem("show", "game.json", "--json").output)["duties"][0]["who"]
    shutil.copy("game.json", "copy.json")
    # the same version answered twice, on two machines (two PBEM_HOMEs)
    assert pbem("play", "game.json", "--as", first, "--bot", "greedy").exit_code == 0
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    shutil.copy("copy.json", "other.json")
    other_home = tmp_path / "other-home"
    shutil.copytree(tmp_path / "home" / "keys", other_home / "keys")
    monkeypatch.setenv("PBEM_HOME", str(other_home))
    second = pbem("play", "other.json", "--as", first, "0")
    assert second.exit_code == 3, second.output  # the first coin: the turn goes on
    forked = pbem("verify", "game.json", "other.json")
    assert forked.exit_code == 1
    assert forked.output.splitlines()[-1].startswith(f"Error: game.json and other.json: entry 5 by {first}: {first} "
                                                     "signed two different entries for seq 5")
    # back on the first machine, the stale copy is refused
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    before = (tmp_path / "copy.json").read_bytes()
    stale = pbem("play", "copy.json", "--as", first, "0")
    assert (stale.exit_code, stale.output) == (1, "Error: this file stops at entry 4, but entry "
                                               f"{json.loads((tmp_path / 'game.json').read_text())['entries'][-1]['seq']}"
                                               " of this game was already seen here: use the newer file: "
                                               f"{tmp_path / 'game.json'}\n")
    assert (tmp_path / "copy.json").read_bytes() == before
    assert pbem("play", "other.json", "--as", "ann").output.startswith("Error: this file's entry ")
