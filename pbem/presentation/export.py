"""`pbem export`: one entry of a game as files that stock tools check without pbem.

For entry N (0 is the genesis) it writes the exact bytes that were signed (RFC 8785 JSON of the entry
without its `signature`), the signature armored as `ssh-keygen -Y sign` writes it, an `allowed_signers`
file made from the genesis roster, and each sealed blob as a raw age file; and it says the one
`ssh-keygen -Y verify` or `age -d` command that checks or opens each."""

from __future__ import annotations

import base64
import shlex
from dataclasses import dataclass
from pathlib import Path

from pbem.crypto import PublicKey, armor_signature, recipients
from pbem.crypto.keyring import key_dir
from pbem.errors import KeyProblem, PbemError, UsageError
from pbem.presentation.games import presentation
from pbem.protocol.entries import apply_entry
from pbem.protocol.genesis import start
from pbem.record.canonical import canonical
from pbem.record.files import write_atomic
from pbem.record.models import GameFile, payload

NAMESPACE = "pbem"


@dataclass(frozen=True)
class Exported:
    """Files written for one check, and the command that makes it."""

    what: str
    files: list[Path]
    command: str


def _roster(record: GameFile) -> dict[str, str]:
    """Every participant's key line, as the genesis holds it."""
    g = record.genesis
    people = list(g.players) + ([g.dealer.referee] if g.dealer.referee else [])
    return {person.name: person.key for person in people}


def _key_for(names: list[str]) -> str:
    """The private key file that opens a blob: the first recipient's key here, else the usual OpenSSH one."""
    for name in names:
        if (key_dir() / name).is_file():
            return shlex.quote(str(key_dir() / name))
    return "~/.ssh/id_ed25519"


def export_entry(record: GameFile, seq: int, directory: Path) -> list[Exported]:
    """Write entry `seq`'s signed bytes, signature, allowed signers and sealed blobs into `directory`."""
    last = len(record.entries)
    if not 0 <= seq <= last:
        raise UsageError(f"--entry {seq}: this game has entries 0 (the genesis) to {last}")
    signed = record.genesis if seq == 0 else record.entries[seq - 1]
    stem = "genesis" if seq == 0 else f"entry-{seq}"
    roster = _roster(record)
    directory.mkdir(parents=True, exist_ok=True)
    message, signature = directory / f"{stem}.json", directory / f"{stem}.json.sig"
    allowed = directory / "allowed_signers"
    try:
        blob = base64.b64decode(signed.signature, validate=True)
    except ValueError:
        raise PbemError(f"{stem}: its signature is not base64") from None
    write_atomic(message, canonical(payload(signed)))
    write_atomic(signature, armor_signature(blob).encode())
    write_atomic(allowed, "".join(f'{name} namespaces="{NAMESPACE}" {key}\n' for name, key in roster.items()).encode())
    out = [Exported(f"to check the signature by {signed.author}, run",
                    [message, signature, allowed],
                    f"ssh-keygen -Y verify -f {shlex.quote(str(allowed))} -I {signed.author} -n {NAMESPACE} "
                    f"-s {shlex.quote(str(signature))} < {shlex.quote(str(message))}")]
    keys = {}
    for name, line in roster.items():
        try:
            keys[name] = PublicKey.parse(line)
        except KeyProblem:
            continue
    drawing = presentation(record.genesis.game)
    item = drawing.HIDDEN_ITEM  # a coin, a card: each game names its own
    events = _events_of(record, seq)
    for slot, text in sorted((signed.sealed or {}).items()):
        path = directory / f"{stem}-{slot.replace('#', item + '-')}.age"
        try:
            sealed = base64.b64decode(text, validate=True)
            names = recipients(sealed, keys)
        except (ValueError, PbemError):
            raise PbemError(f"{stem}: the sealed blob for {slot} is not an age file") from None
        write_atomic(path, sealed)
        called = drawing.hidden_item_name(events or [], slot)  # a game's own names: "ann's 2nd coin"
        opening = _SEALED.get(slot, f"the opening of {called or f'{item} {slot}'}")
        what = f"{opening}, sealed to {', '.join(names) or 'nobody'}"
        if names and all(name in roster for name in names):
            out.append(Exported(f"{what}; to open it, run", [path],
                                f"age -d -i {_key_for(names)} {shlex.quote(str(path))}"))
        else:
            out.append(Exported(f"{what} (its secret is in genesis-table_key.age; age takes it only as an "
                                "AGE-SECRET-KEY line, so this one has no one-line command)", [path], ""))
    return out


def _events_of(record: GameFile, seq: int) -> list[object] | None:
    """What entry `seq` did, in the game's events, which name what it sealed ("ann's 2nd coin"); None when
    the record does not replay that far (export still writes a bad entry's files, for stock tools to check)."""
    try:
        rep = start(record.genesis)
        events: list[object] = []
        for entry in record.entries[:seq]:
            events = apply_entry(rep, entry)
        return events
    except PbemError:
        return None


_SEALED = {"dealer": "the dealer's secret (a joint deal's seed, or a chosen deal's tiles and salts)",
           "table_key": "the table key's secret", "seed": "the referee's secret seed"}
