"""What to type next: the command a person at this machine runs for a game (`show`, `inbox`, `play`),
and what is written here but not yet sent.

Sending: with $PBEM_SMTP set, turns go by SMTP (`--send`); else they are written as .eml files to send
by hand (`--mail`). $PBEM_SEND=1 (with $PBEM_SMTP) makes `pbem play` send every turn it writes unless
told `--no-send`, so the suggestions leave the flag out then."""

from __future__ import annotations

import os
import shlex
from pathlib import Path

from pbem.crypto.keyring import list_keys
from pbem.protocol.absence import offered
from pbem.protocol.replay import TABLE_DEALS, Replay
from pbem.record.deadlines import now
from pbem.record.models import GameFile
from pbem.transport import copies

SMTP_ENV, SEND_ENV = "PBEM_SMTP", "PBEM_SEND"


def smtp_configured() -> bool:
    return bool(os.environ.get(SMTP_ENV))


def sends_by_default() -> bool:
    """Whether `pbem play` sends what it writes without being told (PBEM_SEND=1 and a server)."""
    return smtp_configured() and os.environ.get(SEND_ENV, "").strip().lower() in ("1", "true", "yes", "on")


def send_flag() -> str:
    """The flag that gets a turn to the others from here: none when sending is the default, --send with a
    server, else --mail (an .eml file to send by hand)."""
    return "" if sends_by_default() else " --send" if smtp_configured() else " --mail"


def my_names(rep: Replay) -> list[str]:
    """The participants whose key is in this home's key directory, in roster order."""
    mine = {key.raw for _, key in list_keys()}
    return [name for name, key in rep.roster.items() if key.raw in mine] if mine else []


def only_name(record: GameFile, given: Path) -> str:
    """`--as` left out: the one participant of the game whose key is in this home's key directory."""
    from pbem.crypto import PublicKey
    from pbem.errors import UsageError

    g = record.genesis
    people = list(g.players) + ([g.dealer.referee] if g.dealer.referee else [])
    mine = {key.raw for _, key in list_keys()}
    names = [p.name for p in people if PublicKey.parse(p.key).raw in mine]
    if len(names) == 1:
        return names[0]
    if names:
        raise UsageError(f"this home holds the keys of {' and '.join(names)} in {given}: say which with --as NAME")
    raise UsageError(f"no key in this home is in {given} (participants: {', '.join(p.name for p in people)}): "
                     "say who you are with --as NAME (and --key FILE for a key kept elsewhere)")


def by_mail(game_id: str) -> bool:
    """Whether this game travels by mail here: a mail of it was written, sent or read on this machine."""
    return copies.shared(game_id) is not None


def unsent(rep: Replay) -> int | None:
    """The last entry the others have had by mail, when entries after it were signed here (by one of this
    home's keys) and not sent; entries that came in a mail are not ours to send."""
    shared = copies.shared(rep.genesis.game_id)
    if shared is None or rep.seq <= shared:
        return None
    mine = my_names(rep)
    return shared if any(entry.author in mine for entry in rep.entries[shared:]) else None


def mail_command(path: str, name: str) -> str:
    return f"pbem mail {shlex.quote(path)} --as {name}{' --send' if smtp_configured() else ''}"


def unsent_line(rep: Replay, path: str) -> str | None:
    """`show`'s line for entries written here that nobody else has: how to send them."""
    after, mine = unsent(rep), my_names(rep)
    if after is None or not mine:
        return None
    span = f"entry {rep.seq}" if rep.seq == after + 1 else f"entries {after + 1}-{rep.seq}"
    return f"written here, not sent: {span}: {mail_command(path, _sender(rep, mine))}"


def _sender(rep: Replay, mine: list[str]) -> str:
    """Which of my names mails: the last of them to sign an entry, else the first."""
    return next((e.author for e in reversed(rep.entries) if e.author in mine), mine[0])


def next_command(rep: Replay, path: str, holders: list[str]) -> str | None:
    """The last line of `show`: the exact command to type here, or whom the game waits for (None when the
    game is over)."""
    mine = my_names(rep)
    game = shlex.quote(path)
    if rep.over or not holders:
        return None
    if holders == [TABLE_DEALS]:  # the table deals: any player's program, when it next acts
        holders = [name for name in mine if name in rep.players][:1] or holders
    for name in holders:
        if name in mine:
            if name == rep.referee:
                return f"Your turn ({name}): pbem referee {game} --as {name}"
            flag = send_flag() if by_mail(rep.genesis.game_id) else ""
            return f"Your turn ({name}): pbem play {game} --as {name}{flag}"
    if unsent(rep) is not None and mine:
        return f"Send your turn: {mail_command(path, _sender(rep, mine))}"
    for name in mine:  # a duty once a deadline and its grace have passed: recording an absent party
        for party, _, _ in offered(rep, name, now()):
            return f"You may record {party} absent ({name}): pbem absent {game} {party} --as {name}"
    waiting = ", ".join(holders)
    if by_mail(rep.genesis.game_id):
        return f"Waiting for {waiting}: when their mail comes, pbem inbox"
    return f"Waiting for {waiting}: pbem show {game} again when the file comes back."
