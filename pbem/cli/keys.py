"""`pbem key ...`: make, add, list and show your identity keys."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pbem.cli.common import handled
from pbem.errors import NoPassphrase

if TYPE_CHECKING:
    pass

app = typer.Typer(no_args_is_help=True, help="Make and show your identity keys (ssh-ed25519).")

EmailOption = Annotated[str | None, typer.Option("--email", help="Your mail address, put in the address "
                                                                       "book for pbem mail (pbem contact).")]


def _new_passphrase(name: str) -> bytes:
    from pbem import api  # loaded when a command runs, so --help and option errors stay fast

    given = api.passphrase_given()
    if given is not None:
        return given.encode()
    if not sys.stdin.isatty():
        raise NoPassphrase(f"a passphrase for key {name} is needed: set {api.PASSPHRASE_ENV}, run on a terminal, "
                           "or use --no-passphrase")
    text: str = typer.prompt(f"Passphrase for the new key {name}", hide_input=True, confirmation_prompt=True)
    return text.encode()


def _check_email(email: str | None) -> None:
    """A bad address is refused before any key is written."""
    from pbem import api  # loaded when a command runs, so --help and option errors stay fast

    if email is not None:
        api.check_address(email)


def _add_contact(name: str, email: str | None) -> None:
    from pbem import api  # loaded when a command runs, so --help and option errors stay fast

    if email is not None:
        api.add_contact(name, email)
        typer.echo(f"{name} <{email.strip()}> is in the address book.")


@app.command("new")
@handled
def key_new(name: Annotated[str, typer.Argument(help="Your name, as the other players will see it.")],
            no_passphrase: Annotated[bool, typer.Option("--no-passphrase", help="Leave the key unprotected "
                                                        "(for bots and CI).")] = False,
            email: EmailOption = None) -> None:
    """Create a key pair in the key directory; prints the public key line to send to the others."""
    from pbem import api  # loaded when a command runs, so --help and option errors stay fast

    _check_email(email)
    passphrase = None if no_passphrase else _new_passphrase(name)
    path, identity = api.create_key(name, passphrase)
    typer.echo(f"Created key {name} at {path}" + ("" if passphrase else " (no passphrase)"))
    _add_contact(name, email)
    typer.echo("Your public key (send this line to the other players):")
    typer.echo(identity.public.line())


@app.command("add")
@handled
def key_add(name: Annotated[str, typer.Argument(help="Your name in games.")],
            source: Annotated[Path, typer.Option("--from", help="Your private key file, e.g. ~/.ssh/id_ed25519.")],
            email: EmailOption = None) -> None:
    """Use a key you already have under NAME, so that --as NAME finds it without --key (it is linked,
    not copied)."""
    from pbem import api  # loaded when a command runs, so --help and option errors stay fast

    _check_email(email)
    path, line = api.add_key(name, source)
    typer.echo(f"Added key {name}: {path} -> {path.resolve()}")
    _add_contact(name, email)
    typer.echo("Your public key (send this line to the other players):")
    typer.echo(line)


@app.command("list")
@handled
def key_list() -> None:
    """List the keys in the key directory."""
    from pbem import api  # loaded when a command runs, so --help and option errors stay fast

    found = api.list_keys()
    if not found:
        typer.echo(f"No keys in {api.key_dir()}. Create one with: pbem key new NAME")
    for name, public in found:
        typer.echo(f"{name:<16} {public.fingerprint()}")


@app.command("show")
@handled
def key_show(name: Annotated[str, typer.Argument(help="A key name (or a key file).")]) -> None:
    """Print a public key line, to send to the other players."""
    from pbem import api  # loaded when a command runs, so --help and option errors stay fast

    typer.echo(api.read_public(name).line())
