"""The judge's command line (`pbem judge ...`, which runs `python -m pbem.judge ...`): parsing and
printing only, over the service (service.py), its store (store.py), the git hooks (git_hook.py,
which git's hooks reach without this module: __main__.py), hosted CI (hosted_ci.py) and status (status.py).

    pbem judge run CONFIG [--once]       the judge by mail, until stopped (or one pass, for cron)
    pbem judge web CONFIG [--port N]     the judge by mail, and its web pages for browser seats (docs/web.md)
    pbem judge invite CONFIG GAME SEAT...  a game whose seats browsers take by link (and players by mail)
    pbem judge creator-link CONFIG       a link with which a browser makes such games (--revoke: none does)
    pbem judge tables CONFIG             those games: whose seat is taken, and the game once made
    pbem judge relink CONFIG TABLE SEAT  a new link for a seat nobody has taken (the old one dies)
    pbem judge status CONFIG             the games it holds
    pbem judge migrate CONFIG            take a home of files (before the database) into the database
    pbem judge export CONFIG FOLDER      write every game it holds as its game file
    pbem judge hooks REPO CONFIG         install the git hooks in a bare repository
    pbem judge pre-receive CONFIG        (run by git) refuse a push that rolls back, forks or deletes
    pbem judge post-receive CONFIG       (run by git) the referee's duties, committed
    pbem judge ci KEY [REPO]             hosted CI, on the protected branch: check every ref, then the duties

Each command imports what it runs inside itself: git runs the hooks on every push, and one command
should not pay for loading another's modules (the mail service, IMAP, the web of the git checks).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, ParamSpec, TypeVar

import typer

from pbem.errors import error_text

app = typer.Typer(name="pbem judge", no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
                  help="The judge: an unattended referee by mail or in git (docs/judge.md).")
P = ParamSpec("P")
R = TypeVar("R")


def _handled(func: Callable[P, R]) -> Callable[P, R]:
    """A domain error or a file that cannot be read: one `Error: ...` line and exit status 1."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except Exception as exc:
            text = error_text(exc)
            if text is None:
                raise
            typer.echo(f"Error: {text}", err=True)
            raise typer.Exit(1) from None

    return wrapper
ConfigArg = Annotated[Path, typer.Argument(help="The judge's configuration (judge.toml).")]


@app.command("run")
@_handled
def run(config: ConfigArg,
        once: Annotated[bool, typer.Option("--once", help="One pass, then exit (for cron).")] = False) -> None:
    """Read mail, apply the turns, do every referee duty, mail what was signed; one log line per action."""
    from pbem.judge import config as settings
    from pbem.judge.service import Judge

    judge = Judge(settings.load(config))
    judge.once() if once else judge.run()


@app.command("web")
@_handled
def web(config: ConfigArg,
        host: Annotated[str, typer.Option(help="The address to listen on (a TLS reverse proxy in front).")] = "127.0.0.1",
        port: Annotated[int, typer.Option(help="The port to listen on (0: any free one, logged).")] = 8080,
        url: Annotated[str | None, typer.Option(help="The address players open, as the proxy serves it "
                                                     "(https://...); default: http://HOST:PORT.")] = None) -> None:
    """Serve the pages that let a player with only a browser play (docs/web.md), and read mail as `run` does."""
    from pbem.judge import config as settings
    from pbem.judge.web_server import serve

    serve(settings.load(config), host, port, url)


@app.command("invite")
@_handled
def invite(config: ConfigArg,
           game: Annotated[str, typer.Argument(help="The game, by name (a name pbem does not know lists those "
                                                    "it does).")],
           seats: Annotated[list[str], typer.Argument(help="Each seat's name, in turn order: a browser's (a link is "
                                                           "printed) unless --key gives it a key.")],
           key: Annotated[list[str] | None, typer.Option(help="NAME=KEY: a player by mail, their public key (a .pub "
                                                             "file or an ssh-ed25519 line).")] = None,
           mail: Annotated[list[str] | None, typer.Option(help="NAME=ADDRESS: the mail address of a player by mail.")] = None,
           option: Annotated[list[str] | None, typer.Option(help="A game option, KEY=VALUE.")] = None,
           deadlines: Annotated[str | None, typer.Option(help="A deadline policy every seat agrees to: default, or "
                                                              "e.g. turn=48,grace=24 (docs/deadlines.md).")] = None,
           url: Annotated[str, typer.Option(help="The address the judge's pages are served at.")] = "http://127.0.0.1:8080"
           ) -> None:
    """A game the judge makes and referees once every seat has a key: one link per browser seat, each good
    for its seat, once. The judge signs the invitation; each player signs their own moves."""
    import time

    from pbem import api
    from pbem.judge import config as settings
    from pbem.judge.store import open_store
    from pbem.judge.web_tables import REFEREE, new_table

    def pairs(given: list[str] | None, what: str) -> dict[str, str]:
        found = {}
        for item in given or []:
            name, sep, value = item.partition("=")
            if not sep or name not in seats:
                raise api.UsageError(f"{item!r}: give NAME={what} for one of the seats")
            found[name] = value
        return found

    if game not in api.game_names():
        raise api.UsageError(f"no game {game!r}: pbem plays {', '.join(api.game_names())}")
    keys, addresses = pairs(key, "KEY"), pairs(mail, "ADDRESS")
    for name, value in keys.items():
        if not value.startswith("ssh-"):
            keys[name] = api.read_file(Path(value), "a public key file", 16 * 1024).decode(errors="replace").strip()
    missing = [name for name in keys if name not in addresses]
    if missing:
        raise api.UsageError(f"a player by mail needs --mail NAME=ADDRESS: {', '.join(missing)}")
    loaded = settings.load(config)
    os.environ["PBEM_HOME"] = str(loaded.home)
    store = open_store(loaded.database, loaded.games, loaded.home)
    table, tokens = new_table(store, game, [(n, keys.get(n), addresses.get(n)) for n in seats], option or [],
                              deadlines, time.time())
    typer.echo(f"Table {table.table_id}: {game} with {', '.join(seats)}; the judge referees it as {REFEREE}.")
    for seat in table.seats:
        if seat.name in tokens:
            typer.echo(f"{seat.name}: {url.rstrip('/')}/join/{tokens[seat.name]}")
        else:
            typer.echo(f"{seat.name}: by mail, {seat.address}")
    typer.echo("Each link takes its seat once; the game starts when every seat is taken.")


@app.command("creator-link")
@_handled
def creator_link(config: ConfigArg,
                 revoke: Annotated[bool, typer.Option("--revoke", help="Revoke every creator link given so far.")] = False,
                 url: Annotated[str, typer.Option(help="The address the judge's pages are served at.")] = "http://127.0.0.1:8080"
                 ) -> None:
    """A link whose holder makes tables in a browser, as `invite` makes them (docs/web.md), until revoked."""
    import time

    from pbem.judge import config as settings
    from pbem.judge import web_creators
    from pbem.judge.store import open_store

    loaded = settings.load(config)
    os.environ["PBEM_HOME"] = str(loaded.home)
    store = open_store(loaded.database, loaded.games, loaded.home)
    if revoke:
        count = web_creators.revoke(store, time.time())
        typer.echo(f"Revoked {count} creator link{'' if count == 1 else 's'}: none makes a table any more.")
        return
    typer.echo(f"{url.rstrip('/')}/new/{web_creators.new_link(store, time.time())}")
    typer.echo("Whoever opens this link can make tables on this judge, until `pbem judge creator-link CONFIG --revoke`.")


@app.command("tables")
@_handled
def tables(config: ConfigArg) -> None:
    """One line per table made by `invite`: each seat, taken or free, and its game once every seat is taken."""
    from pbem.judge import config as settings
    from pbem.judge import web_tables
    from pbem.judge.store import open_store

    loaded = settings.load(config)
    os.environ["PBEM_HOME"] = str(loaded.home)
    found = web_tables.tables(open_store(loaded.database, loaded.games, loaded.home))
    for table in found:
        seats = ", ".join(f"{s.name} ({'by mail' if not s.browser else 'taken' if s.key else 'free'})" for s in table.seats)
        game = f"game {table.game_id[:8]}" if table.game_id else "waiting for its seats"
        typer.echo(f"{table.table_id} {table.game}: {seats}; {game}")
    typer.echo(f"{len(found)} table{'s' * (len(found) != 1)}.")


@app.command("relink")
@_handled
def relink(config: ConfigArg, table: Annotated[str, typer.Argument(help="The table (pbem judge tables).")],
           seat: Annotated[str, typer.Argument(help="The browser seat nobody has taken.")],
           url: Annotated[str, typer.Option(help="The address the judge's pages are served at.")] = "http://127.0.0.1:8080"
           ) -> None:
    """A new link for a browser seat nobody has taken (the old link lost, or sent to the wrong person): the
    old link takes nothing any more."""
    from pbem.judge import config as settings
    from pbem.judge import web_tables
    from pbem.judge.store import open_store

    loaded = settings.load(config)
    os.environ["PBEM_HOME"] = str(loaded.home)
    token = web_tables.relink(open_store(loaded.database, loaded.games, loaded.home), table, seat)
    typer.echo(f"{seat}: {url.rstrip('/')}/join/{token}")
    typer.echo("The seat's old link takes nothing any more.")


@app.command("status")
@_handled
def status(config: ConfigArg) -> None:
    """One line per game the judge holds: players, entries, who owes what, what was mailed."""
    from pbem.judge import config as settings
    from pbem.judge.status import lines

    for line in lines(settings.load(config)):
        typer.echo(line)


@app.command("migrate")
@_handled
def migrate(config: ConfigArg) -> None:
    """Take a judge home of files (from before its database) into its database: its games, the marks of
    what was mailed, the addresses learned, the answers and deadline notes. Nothing is removed; `run` does
    it too on its first start on a new SQLite file."""
    import time

    from pbem.judge import config as settings
    from pbem.judge.moving_in import import_home, moved_text
    from pbem.judge.store import open_store

    loaded = settings.load(config)
    os.environ["PBEM_HOME"] = str(loaded.home)
    store = open_store(loaded.database, loaded.games, loaded.home)
    if store.game_ids():
        typer.echo(f"The database {loaded.database} holds games already: nothing moved.")
        return
    counts = import_home(store, loaded.home, time.time())
    typer.echo(f"Moved into {loaded.database}: {moved_text(counts)}.")


@app.command("export")
@_handled
def export(config: ConfigArg,
           folder: Annotated[Path, typer.Argument(help="Where to write the game files (made if missing).")]) -> None:
    """Write every game the judge holds as its game file, the portable record anyone verifies
    (`pbem verify FOLDER/*.json`)."""
    from pbem.judge import config as settings
    from pbem.judge.store import open_store

    loaded = settings.load(config)
    os.environ["PBEM_HOME"] = str(loaded.home)
    written = open_store(loaded.database, loaded.games, loaded.home).export(folder)
    for path in written:
        typer.echo(f"Wrote {path}")
    typer.echo(f"{len(written)} game file{'s' * (len(written) != 1)} from {loaded.database}.")


@app.command("hooks")
@_handled
def hooks(repo: Annotated[Path, typer.Argument(help="A bare git repository.")], config: ConfigArg) -> None:
    """Install the pre-receive and post-receive hooks that make the judge referee this repository."""
    from pbem.judge.git import install_hooks

    for hook in install_hooks(repo, config.resolve()):
        typer.echo(f"Wrote {hook}")


@app.command("pre-receive")
def pre_receive(config: ConfigArg) -> None:
    """(Run by git.) Refuse a push that deletes, rolls back, forks or invalidates a game file."""
    from pbem.judge.git_hook import run_hook

    if run_hook("pre-receive", config):
        raise typer.Exit(1)


@app.command("post-receive")
def post_receive(config: ConfigArg) -> None:
    """(Run by git.) Sign the referee's duties on the branch as it stands, and commit them on it."""
    from pbem.judge.git_hook import run_hook

    if run_hook("post-receive", config):
        raise typer.Exit(1)


@app.command("ci")
@_handled
def ci(key: Annotated[Path, typer.Argument(help="The judge's private key file (from a CI secret).")],
       repo: Annotated[Path, typer.Argument(help="The checkout, with its whole history.")] = Path("."),
       games: Annotated[str, typer.Option(help="The folder of game files in the repository.")] = "games/",
       branch: Annotated[str, typer.Option(help="The protected branch: the only one the judge acts on.")] = "main") -> None:
    """Hosted CI, on the protected branch only: refuse a game file behind or forked from any version in
    the history, or a place the judge's key signed on another ref; then do the referee's duties in the
    work tree (the workflow commits and pushes them)."""
    from pbem.judge.hosted_ci import ci_referee

    log: list[str] = []
    written = ci_referee(repo, key.resolve(), games, log, branch)
    for line in log:
        typer.echo(line)
    typer.echo(f"Wrote {len(written)} game file{'s' * (len(written) != 1)}.")
