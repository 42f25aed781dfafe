"""What a newcomer reads first: the README's first screen and the first steps of docs/git.md."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


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
