"""What a newcomer reads first (the README's first screen, the first steps of docs/git.md) and what a developer
reads first (docs/architecture.md, which must name only what exists)."""

import re

from paths_support import ROOT


def shell_lines(text: str) -> list[str]:
    blocks = re.findall(r"```(?:sh|yaml)\n(.*?)```", text, re.DOTALL)
    return [line.strip() for block in blocks for line in block.splitlines()]


def test_the_readme_first_screen_has_a_player_install_beside_the_developer_one():
    first_screen = "\n".join((ROOT / "README.md").read_text().splitlines()[:24])
    lines = shell_lines(first_screen)
    player = [line for line in lines if "pip install . " in line + " " and "[test]" not in line]
    developer = [line for line in lines if "pip install '.[test]'" in line]
    assert player and player[0].endswith("pbem demo")
    assert developer and developer[0].endswith("python -m pytest")


def test_git_docs_protect_the_branch_first_and_never_hide_a_failed_push():
    text = (ROOT / "docs" / "git.md").read_text()
    first_steps = text.split("\n## ")[1]
    assert first_steps.startswith("First steps")
    assert "Protect the branch" in first_steps and "denyNonFastForwards" in first_steps
    assert not [line for line in shell_lines(text) if "|| true" in line]
    assert any(line.startswith("if ! git diff --cached --quiet; then") and "git push" in line
               for line in shell_lines(text))


def test_the_readme_first_game_by_email_runs_as_written(tmp_path, monkeypatch):
    """The README's first game, its commands as written (a key line and a mailbox put in for the
    placeholders), by two players with homes of their own and a real SMTP server: what Bob's inbox prints
    is what the README shows, and the command it prints joins him to the game."""
    import shlex

    from typer.testing import CliRunner

    from pbem.cli import app

    from mail_support import smtp_server

    text = (ROOT / "README.md").read_text()
    section = text.split("## A first game by email")[1].split("\n## ")[0]
    commands = [line.split("   #")[0].split("     #")[0].strip() for line in shell_lines(section)]
    assert commands[:5] == [
        "pbem key new alice --email alice@example.org", "pbem contact add bob bob@example.org",
        'pbem new sarcophagus -o game.json --as alice --player alice --player bob="ssh-ed25519 AAAA...bob"',
        "pbem mail game.json --as alice --send", "pbem inbox ~/Maildir"]
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    boxes = {f"{n}@example.org": tmp_path / "mail" / n for n in ("alice", "bob")}
    with smtp_server(boxes) as (port, _):
        def pbem(who: str, line: str):
            env = {"PBEM_HOME": str(tmp_path / who), "PBEM_SMTP": f"127.0.0.1:{port}", "PBEM_SMTP_SECURITY": "none",
                   "PBEM_NOW": None, "PBEM_GAMES": None, "PBEM_PASSPHRASE": None}
            done = runner.invoke(app, shlex.split(line)[1:], env=env)
            return done

        bob_key = pbem("bob", "pbem key new bob --email bob@example.org --no-passphrase").output.splitlines()[-1]
        assert pbem("bob", "pbem contact add alice alice@example.org").exit_code == 0
        assert pbem("alice", commands[0] + " --no-passphrase").exit_code == 0
        assert pbem("alice", commands[1]).exit_code == 0
        assert pbem("alice", commands[2].replace("ssh-ed25519 AAAA...bob", bob_key)).exit_code == 0
        assert pbem("alice", commands[3]).exit_code == 0
        read = pbem("bob", commands[4].replace("~/Maildir", str(tmp_path / "mail" / "bob")))
        assert read.exit_code == 0, read.output
        lines = read.output.splitlines()
        assert lines[0].startswith("Updated ") and lines[0].endswith(": the invitation.")
        assert re.fullmatch(r"\* sarcophagus [0-9a-f]{8}  alice, bob  #0  you \(bob\) to join for .+", lines[2]), lines
        assert re.fullmatch(r"    pbem play [0-9a-f]{8} --as bob --send", lines[3]), lines
        joined = pbem("bob", lines[3].strip())
        assert joined.exit_code in (0, 3) and "  bob joins the game" in joined.output, joined.output


ARCHITECTURE = ROOT / "docs" / "architecture.md"
REPO_PATH = re.compile(r"(?<![\w./-])((?:pbem|engine|tests|docs|benchmarks|examples|schemas)/[\w./-]*)")
"""A path of this repository as docs/architecture.md writes one: from a top folder, to a file or a folder."""


def named_paths(text: str) -> set[str]:
    """The repository paths a page names: in backquotes or as a link, to a file (`pbem/api/playing.py`) or a
    folder (`pbem/web/static/`). A name that is not a path (the format `pbem/3`) ends in neither."""
    spans = re.findall(r"`([^`]+)`", text) + [f"docs/{target}" for target in re.findall(r"\]\(([\w./-]+\.md)\)", text)]
    found = {m.rstrip(".") for span in spans for m in REPO_PATH.findall(span)}
    return {p for p in found if p.endswith("/") or re.search(r"\.[a-z]+$", p)}


def test_architecture_names_only_paths_that_exist():
    """The living design stays true with the code: a file moved or removed fails here until the page says
    where it went."""
    named = named_paths(ARCHITECTURE.read_text())
    assert len(named) > 60  # the page names the code it describes
    assert sorted(p for p in named if not (ROOT / p).exists()) == []


def test_architecture_names_every_package_of_pbem():
    """A package added to pbem/ gets its place in the layers on this page."""
    text = ARCHITECTURE.read_text()
    packages = sorted(f"pbem/{p.parent.name}/" for p in (ROOT / "pbem").glob("*/__init__.py"))
    assert len(packages) >= 10
    assert [p for p in packages if f"`{p}`" not in text] == []


DEFINED_IN = re.compile(r"`(\w+(?:\.\w+)?)` (?:in `|\(`)([\w/.-]+\.py)`")
"""A definition named with its file: "`sync` in `pbem/judge/store.py`", "`Session` (`pbem/protocol/session.py`"."""


def test_architecture_names_only_definitions_that_exist():
    """A function or class the page names with its file is defined there, and each `api.NAME` is in pbem.api:
    a rename or a move fails here until the page follows it."""
    import ast

    from pbem import api

    text = ARCHITECTURE.read_text()
    pairs = DEFINED_IN.findall(text)
    assert len(pairs) > 15
    missing = []
    for name, path in pairs:
        tree = ast.parse((ROOT / path).read_text())
        defined = {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
        defined |= {t.id for n in ast.walk(tree) if isinstance(n, (ast.Assign, ast.AnnAssign))
                    for t in (n.targets if isinstance(n, ast.Assign) else [n.target]) if isinstance(t, ast.Name)}
        if not set(name.split(".")) <= defined:
            missing.append(f"{name} in {path}")
    names = re.findall(r"`api\.(\w+)`", text)
    assert names
    missing += [f"api.{name}" for name in names if not hasattr(api, name)]
    assert missing == []


def test_named_paths_reads_files_and_folders_not_names():
    text = "`pbem/3` and `pbem/record/models.py`, [the judge](judge.md), `pbem/web/static/`."
    assert named_paths(text) == {"pbem/record/models.py", "docs/judge.md", "pbem/web/static/"}
