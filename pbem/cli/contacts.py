"""`pbem contact ...`: the address book, each participant's mail address."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from pbem.cli.common import handled

if TYPE_CHECKING:
    pass

app = typer.Typer(no_args_is_help=True, help="The address book: each participant's mail address.")


@app.command("add")
@handled
def contact_add(name: Annotated[str, typer.Argument(help="The participant's name in games (yours too).")],
                address: Annotated[str, typer.Argument(help="Their mail address, e.g. bob@example.org.")]) -> None:
    """Add or change a participant's mail address."""
    from pbem import api  # loaded when a command runs, so --help and option errors stay fast

    api.add_contact(name, address)
    typer.echo(f"{name} <{address.strip()}> is in the address book ({api.book_path()}).")


@app.command("list")
@handled
def contact_list() -> None:
    """List the address book."""
    from pbem import api  # loaded when a command runs, so --help and option errors stay fast

    book = api.address_book()
    if not book:
        typer.echo(f"The address book is empty ({api.book_path()}). Add with: pbem contact add NAME ADDRESS")
    for name, address in sorted(book.items()):
        typer.echo(f"{name:<16} {address}")
