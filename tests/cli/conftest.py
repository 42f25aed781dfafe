"""Fixtures of the command-line tests."""

import pytest


@pytest.fixture
def table(tmp_path, monkeypatch):
    """ann and ben, each with a key and an address book in their own home (tmp_path/NAME); ann has made a game
    (ben first, on cli_support's LAYOUT) and mailed it; ben has read it into his copy. Returns
    run(NAME, *args, **env), a command as NAME types it."""
    from pbem.cli import app

    from cli_support import runner, write_layout

    monkeypatch.chdir(tmp_path)
    for variable in ("PBEM_GAMES", "PBEM_SMTP", "PBEM_SEND", "PBEM_SMTP_USER", "PBEM_SMTP_SECURITY"):
        monkeypatch.delenv(variable, raising=False)

    def run(name, *args, **env):
        return runner.invoke(app, [str(a) for a in args], env={"PBEM_HOME": str(tmp_path / name),
                                                               "PBEM_PASSPHRASE": None, **env})

    keys = {name: run(name, "key", "new", name, "--no-passphrase").output.splitlines()[-1] for name in ("ann", "ben")}
    for name in ("ann", "ben"):
        for other in ("ann", "ben"):
            run(name, "contact", "add", other, f"{other}@example.org")
    write_layout(tmp_path / "layout.json", "ben")
    made = run("ann", "new", "sarcophagus", "-o", "game.json", "--as", "ann", "--player", "ann",
               f"--player=ben={keys['ben']}", "--layout", "layout.json")
    assert made.exit_code == 0, made.output
    assert run("ann", "mail", "game.json", "--as", "ann", "-o", "first.eml").exit_code == 0
    assert run("ben", "inbox", "first.eml").exit_code == 0
    return run
