"""The `pbem` command: parsing, prompting and printing over pbem.api, one module per command group
(games, turns, mail, demo, keys, contacts). Domain errors become one `Error: ...` line and an exit
code in one place (pbem.cli.common.handled)."""

from __future__ import annotations

import gc
import os
import sys
import types

# Start-up makes some 50,000 objects the garbage collector tracks, nearly all of them for the life of the
# process (functions, classes, their dicts). Collecting every 700 new ones, Python's default, it walks them
# again and again: 28 M instructions of `pbem show`, which frees some 130 objects that way.
gc.set_threshold(50_000)
# pbem uses no pydantic plugins; looking for them scans every installed package at start-up (~15 ms).
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")


def _no_plugin_loader() -> None:
    """With its plugins disabled, pydantic still imports its plugin loader when it builds its first validator,
    and the loader imports importlib.metadata (with email, zipfile and csv): 4% of the instructions of
    `pbem show`. What the loader answers then, no plugins, stands in for it. A PYDANTIC_DISABLE_PLUGINS of
    the user's naming some plugins only leaves the loader as it is."""
    if os.environ["PYDANTIC_DISABLE_PLUGINS"] in ("__all__", "1", "true"):
        loader = types.ModuleType("pydantic.plugin._loader")
        loader.get_plugins = lambda: ()  # type: ignore[attr-defined]
        sys.modules.setdefault(loader.__name__, loader)


_no_plugin_loader()

import inspect  # noqa: E402

import typer  # noqa: E402
from typer.models import CommandInfo, TyperInfo  # noqa: E402

from pbem.cli import contacts, demo, games, keys, mail, turns  # noqa: E402

app = typer.Typer(
    name="pbem", no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
    help="Play board games with hidden information by email or git, with signed, verifiable game files.",
)
for group in (games, turns, mail, demo):
    app.add_typer(group.app)
app.add_typer(keys.app, name="key")
app.add_typer(contacts.app, name="contact")


@app.callback()
def _every_command() -> None:
    # (no docstring: the app's help stays the one above)
    clock_warning()


def clock_warning() -> None:
    """One line on stderr before any command runs while PBEM_NOW is set: it moves the clock every signed
    time and every deadline is judged by (docs/deadlines.md), and is easily left set by mistake."""
    fixed = os.environ.get("PBEM_NOW", "")
    if not fixed:
        return
    if not fixed.isdigit():
        typer.echo(f"Warning: PBEM_NOW is set to {fixed!r}, which is no time in Unix seconds: ignored, pbem's clock "
                   "is this machine's (docs/deadlines.md)", err=True)
        return
    import time

    stamp = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(int(fixed)))
    typer.echo(f"Warning: PBEM_NOW is set: pbem's clock stands at {stamp} (a testing override: "
               "docs/deadlines.md)", err=True)


from pbem.cli import browser, judge  # noqa: E402, F401  (they register `pbem app` and `pbem judge`)


def reflowed(text: str | None) -> str | None:
    """A docstring as paragraphs: typer's rich help keeps a docstring's line breaks (a sentence cut in the
    middle of a line), so each paragraph becomes one line and the terminal wraps it."""
    if not text:
        return text
    return "\n\n".join(" ".join(par.split()) for par in inspect.cleandoc(text).split("\n\n"))


def _reflow(typer_app: typer.Typer) -> None:
    """Every command's help and epilog, every group's help, as paragraphs (all at once, here)."""
    typer_app.info.help = reflowed(typer_app.info.help)
    for command in typer_app.registered_commands:
        command.help = reflowed(command.help or (command.callback and command.callback.__doc__))
        command.epilog = reflowed(command.epilog)
    for group in typer_app.registered_groups:
        group.help = reflowed(group.help)
        if group.typer_instance:
            _reflow(group.typer_instance)


_reflow(app)


def command_names(typer_app: typer.Typer) -> dict[str, CommandInfo | TyperInfo]:
    """Each name `pbem NAME` runs: a command (of the app, or of one of its unnamed groups) or a named group."""
    from typer.main import get_command_name

    found: dict[str, CommandInfo | TyperInfo] = {}
    commands = list(typer_app.registered_commands)
    for group in typer_app.registered_groups:
        if group.name:
            found[group.name] = group
        elif group.typer_instance:
            commands += group.typer_instance.registered_commands
    for command in commands:
        name = command.name or (command.callback and get_command_name(command.callback.__name__))
        if name:
            found[name] = command
    return found


def narrowed(typer_app: typer.Typer, asked: str) -> typer.Typer:
    """The app with only the command or group `asked` (and the callback every command runs), or the whole
    app when `asked` names none (help, or a typo click answers with the names it knows). Typer builds
    click's parameters for every command of an app as it starts: some 12 ms of each run."""
    import copy

    registered = command_names(typer_app).get(asked)
    if registered is None:
        return typer_app
    only = copy.copy(typer_app)
    only.registered_commands = [registered] if isinstance(registered, CommandInfo) else []
    only.registered_groups = [registered] if isinstance(registered, TyperInfo) else []
    return only


def main() -> None:
    # The objects a command made are left for the process's end to free: collecting them then, with no
    # cycle worth freeing, walks every one of them (some 4% of `pbem show`). Frozen, they are not walked.
    import atexit
    import gc

    atexit.register(gc.freeze)
    narrowed(app, sys.argv[1] if len(sys.argv) > 1 else "")()


if __name__ == "__main__":
    main()
