"""Every command's --help as a user reads it: each paragraph of its description flows as one text that the
terminal wraps, never a sentence broken where the docstring's source line ended."""

import inspect

import pytest
import typer
import typer.rich_utils
from typer.testing import CliRunner

from pbem.cli import app

runner = CliRunner()


def commands(group: typer.core.TyperCommand, path: tuple[str, ...] = ()) -> list:
    found = [(path, group)]
    if hasattr(group, "commands"):
        for name, sub in sorted(group.commands.items()):
            found += commands(sub, path + (name,))
    return found


def paragraphs(text: str | None) -> list[str]:
    return [" ".join(par.split()) for par in inspect.cleandoc(text or "").split("\n\n") if par.strip()]


def described(command) -> str | None:
    callback = getattr(command, "callback", None)
    return inspect.getdoc(callback) if callback and callback.__doc__ else command.help


ALL = commands(typer.main.get_command(app))


def test_every_command_is_reached():
    names = {" ".join(path) for path, _ in ALL}
    assert {"new", "play", "show", "mail", "inbox", "status", "key new", "contact add"} <= names


def test_no_help_text_is_cut_short_on_an_80_column_terminal():
    """Rich shortens a word too long for its column with an ellipsis: an example no one can read."""
    for path, _ in ALL:
        shown = runner.invoke(app, [*path, "--help"], terminal_width=80).output
        assert max(map(len, shown.splitlines())) <= 80 and "\u2026" not in shown, f"pbem {' '.join(path)} --help"


@pytest.mark.parametrize("path,command", ALL, ids=[" ".join(p) or "pbem" for p, _ in ALL])
def test_help_paragraphs_are_never_cut_mid_sentence(path, command, monkeypatch):
    monkeypatch.setattr(typer.rich_utils, "MAX_WIDTH", 2000)  # wide enough that a paragraph never wraps
    result = runner.invoke(app, [*path, "--help"])
    assert result.exit_code == 0
    lines = [" ".join(line.strip(" │").split()) for line in result.output.splitlines()]
    for text in paragraphs(described(command)) + paragraphs(command.epilog):
        assert text in lines, f"pbem {' '.join(path)} --help breaks this paragraph:\n{text}"
    if hasattr(command, "commands"):  # the listing of sub-commands: each description on its one line
        for name, sub in command.commands.items():
            first = paragraphs(described(sub))
            if first:
                assert any(line.startswith(name + " ") and line.endswith(first[0]) for line in lines), name
