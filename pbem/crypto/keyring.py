"""Identities on disk: OpenSSH ed25519 key files in the key directory, or any path given.

Key directory: $PBEM_HOME/keys if PBEM_HOME is set, else the platform's user data directory.
Passphrase: the environment variable PBEM_PASSPHRASE (for bots), else a prompt on a terminal;
never a command-line argument.
"""

from __future__ import annotations

import getpass
import os
import stat
import sys
from pathlib import Path

from pbem.crypto import Identity, PublicKey
from pbem.errors import KeyProblem, NoPassphrase, PbemError, Unreadable, UnsafeKeyFile, UsageError
from pbem.record.files import write_atomic
from pbem.record.names import check_name, is_name
from pbem.record.reading import read_file, read_text

PASSPHRASE_ENV = "PBEM_PASSPHRASE"
MAX_PRIVATE, MAX_PUBLIC = 64 * 1024, 16 * 1024
"""An OpenSSH ed25519 key file is about 400 bytes, its public line about 100."""


def home() -> Path:
    """Where pbem keeps its keys and per-game notes."""
    if os.environ.get("PBEM_HOME"):
        return Path(os.environ["PBEM_HOME"])
    if sys.platform == "win32":
        return Path(os.environ.get("APPDATA", Path.home() / "AppData" / "Roaming")) / "pbem"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "pbem"
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "pbem"


def key_dir() -> Path:
    return home() / "keys"


def _check_name(name: str) -> None:
    check_name(name)


def _is_path(name_or_path: str) -> bool:
    return "/" in name_or_path or os.sep in name_or_path or name_or_path.startswith("~")


def key_path(name_or_path: str) -> Path:
    """A key name in the key directory, or a path to a key file (e.g. ~/.ssh/id_ed25519)."""
    if _is_path(name_or_path):
        return Path(name_or_path).expanduser()
    _check_name(name_or_path)
    return key_dir() / name_or_path


def create_key(name: str, passphrase: bytes | None) -> tuple[Path, Identity]:
    """Write NAME (private, 0600) and NAME.pub in the key directory; never overwrites."""
    _check_name(name)
    path = key_dir() / name
    if path.exists():
        raise UsageError(f"a key named {name!r} already exists at {path}")
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    identity = Identity.generate(comment=name)
    write_atomic(path, identity.to_openssh(passphrase), mode=0o600)
    write_atomic(path.with_name(name + ".pub"), (identity.public.line() + "\n").encode())
    return path, identity


def list_keys() -> list[tuple[str, PublicKey]]:
    found = []
    directory = key_dir()
    if directory.is_dir():
        for pub in sorted(directory.glob("*.pub")):
            if not is_name(pub.stem):
                continue  # no key is made or added under such a name: a file put there by hand
            try:
                found.append((pub.stem, PublicKey.parse(read_text(pub, "a public key file", MAX_PUBLIC))))
            except PbemError:
                continue
    return found


def read_public(name_or_path: str) -> PublicKey:
    """A public key line, a .pub file, or a key name in the key directory."""
    text = name_or_path.strip()
    if text.startswith("ssh-"):
        return PublicKey.parse(text)
    path = key_path(text)
    candidates = [path] if path.suffix == ".pub" else [path.with_name(path.name + ".pub"), path]
    for candidate in candidates:
        if candidate.exists():
            try:
                data = read_file(candidate, "a public key file", MAX_PUBLIC)
            except Unreadable as exc:
                raise KeyProblem(str(exc)) from None
            try:
                return PublicKey.parse(data.decode(errors="replace").strip().splitlines()[0])
            except IndexError:
                raise KeyProblem(f"{candidate} is empty") from None
    raise KeyProblem(f"no public key {name_or_path!r} (give a key line, a .pub file or a key name)")


def passphrase_given() -> str | None:
    """The passphrase in PBEM_PASSPHRASE, if set: the one place pbem reads it."""
    return os.environ.get(PASSPHRASE_ENV)


def ask_passphrase(name: str) -> bytes:
    """PBEM_PASSPHRASE, else a prompt on a terminal; NoPassphrase saying how to give one when neither
    is there (an empty PBEM_PASSPHRASE counts as none: no protected key has an empty passphrase)."""
    given = passphrase_given()
    if given:
        return given.encode()
    if sys.stdin is not None and sys.stdin.isatty():
        return getpass.getpass(f"Passphrase for {name}: ").encode()
    empty = f" and {PASSPHRASE_ENV} is empty" if given == "" else ""
    raise NoPassphrase(f"{name} has a passphrase{empty}: set {PASSPHRASE_ENV} to it, or run on a terminal to be asked")


def load_identity(name_or_path: str) -> Identity:
    """Load a private key, asking for its passphrase only if it has one. Refuses unsafe files."""
    path = key_path(name_or_path)
    try:
        info = path.stat()
    except FileNotFoundError:
        raise KeyProblem(f"no key {name_or_path!r} (looked for {path}){_keys_here(name_or_path)}") from None
    except OSError as exc:
        raise KeyProblem(f"cannot read key {path}: {exc.strerror}") from None
    data = read_key_file(path)
    if data.lstrip().startswith((b"ssh-", b"ecdsa-", b"sk-")):
        private = path.with_suffix("") if path.suffix == ".pub" else None
        hint = f" ({private})" if private and private.exists() else ""
        raise KeyProblem(f"{path} is a public key: give the private key file{hint}")
    if os.name == "posix" and info.st_mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise UnsafeKeyFile(f"key file {path} is readable by others: run 'chmod 600 {path}'")
    name = f"key {path.name}"
    try:
        return Identity.from_openssh(data, None, name=name, comment=path.name)
    except NoPassphrase:
        passphrase = ask_passphrase(name)
    if not passphrase:
        raise KeyProblem(f"{name} has a passphrase, and none was typed")
    return Identity.from_openssh(data, passphrase, name=name, comment=path.name)


def read_key_file(path: Path) -> bytes:
    """A private key file's bytes, through the gate every read passes (a regular file, at most 64 KB)."""
    try:
        return read_file(path, "a key file", MAX_PRIVATE)
    except Unreadable as exc:
        raise KeyProblem(str(exc)) from None


def _keys_here(name_or_path: str) -> str:
    """The rest of a missing-key message: the keys there are, and how to add or make one."""
    if _is_path(name_or_path):
        return ""
    found = ", ".join(name for name, _ in list_keys() if (key_dir() / name).exists())
    there = f"; the keys here are {found}" if found else ""
    return (f"{there}. Use your own key with 'pbem key add {name_or_path} --from ~/.ssh/id_ed25519', or make "
            f"one with 'pbem key new {name_or_path}'")


def add_key(name: str, private: Path) -> tuple[Path, str]:
    """Remember an existing private key under NAME: a link to it in the key directory (the secret is
    not copied) and NAME.pub beside it. Loads the key first, so a wrong file or passphrase shows now.
    Returns the link and the public key line."""
    _check_name(name)
    path = key_dir() / name
    if path.exists() or path.is_symlink():
        raise UsageError(f"a key named {name!r} already exists at {path}")
    source = Path(private).expanduser().absolute()
    identity = load_identity(str(source))
    line = " ".join(identity.public.line().split()[:2] + [name])  # the .pub is named NAME, like pbem's own
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.symlink(source, path)
    write_atomic(path.with_name(name + ".pub"), (line + "\n").encode())
    return path, line


def unlock_key(name: str, passphrase: bytes | None = None) -> Identity:
    """A key of the key directory, opened once for a front end to hold in memory: without a passphrase if it
    has none (or PBEM_PASSPHRASE gives it), else with the one given; NoPassphrase if one is needed."""
    try:
        return load_identity(name)
    except NoPassphrase:
        if not passphrase:
            raise
    return Identity.from_openssh(read_key_file(key_dir() / name), passphrase, name=f"key {name}", comment=name)
