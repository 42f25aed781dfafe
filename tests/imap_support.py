"""A real IMAP server on 127.0.0.1 for the tests: Debian's dovecot (dovecot-imapd) with a throwaway
configuration, IMAPS only, a self-signed certificate, one Maildir per user, and no penalty for a failed
login (dovecot's anvil makes every later login from the same address wait 2, then 4, 8, up to 15 s: each
test that tries a wrong password on purpose held up the next by 4 s). Skips with the reason when dovecot
is not installed (.ci/run installs it when it runs as root) or cannot start."""

from __future__ import annotations

import datetime
import grp
import ipaddress
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from mail_support import free_port

DOVECOT = shutil.which("dovecot") or ("/usr/sbin/dovecot" if os.path.exists("/usr/sbin/dovecot") else None)


def self_signed(directory: Path) -> tuple[Path, Path]:
    """A certificate for localhost and 127.0.0.1, and its key."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=2))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost"),
                                                        x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), True)
            .sign(key, hashes.SHA256()))
    cert_path, key_path = directory / "cert.pem", directory / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    key_path.chmod(0o600)
    return cert_path, key_path


CONFIG = """\
base_dir = {d}/run
state_dir = {d}/state
log_path = {d}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = required
ssl_cert = <{cert}
ssl_key = <{key}
ssl_min_protocol = TLSv1.2
default_internal_user = {internal}
default_internal_group = {group}
default_login_user = {login}
first_valid_uid = {uid}
first_valid_gid = {gid}
auth_mechanisms = plain
auth_failure_delay = 0
disable_plaintext_auth = yes
mail_location = maildir:~/Maildir
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {d}/passwd
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={d}/home/%u
}}
service imap-login {{
  inet_listener imap {{
    port = 0
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {port}
    ssl = yes
  }}
  chroot =
}}
service anvil {{
  chroot =
  unix_listener anvil-auth-penalty {{
    mode = 0
  }}
}}
service stats {{
  unix_listener stats-writer {{
    mode = 0666
  }}
}}
"""


class Dovecot:
    def __init__(self, directory: Path, port: int, cafile: Path, users: dict[str, str]):
        self.directory, self.port, self.cafile, self.users = directory, port, cafile, users

    def maildir(self, user: str) -> Path:
        """Where dovecot keeps the user's INBOX: mail written here (as a delivery agent would) is served."""
        return self.directory / "home" / user / "Maildir"

    def deliver(self, user: str, data: bytes) -> None:
        """Put a message in the user's INBOX as their mail client would: IMAP APPEND."""
        import imaplib
        import ssl

        with imaplib.IMAP4_SSL("127.0.0.1", self.port, ssl_context=ssl.create_default_context(cafile=self.cafile)) as conn:
            conn.login(user, self.users[user])
            conn.append("INBOX", None, None, data)

    def url(self, user: str) -> str:
        return f"imaps://{user}@127.0.0.1:{self.port}/INBOX"


@contextmanager
def imap_server(users: dict[str, str]):
    """Yield a running Dovecot serving `users` (name -> password) over IMAPS on 127.0.0.1. Its folder
    is its own, under the system's temporary folder: dovecot's users must be able to reach it."""
    if DOVECOT is None:
        pytest.skip("no IMAP server: install Debian's dovecot-imapd (.ci/run does when it runs as root)")
    directory = Path(tempfile.mkdtemp(prefix="pbem-dovecot-"))
    cert, key = self_signed(directory)
    port = free_port()
    # dovecot runs its login and mail processes as an ordinary user: as root, Debian's own users
    uid, gid = os.getuid(), os.getgid()
    internal = login = pwd.getpwuid(uid).pw_name
    if uid == 0:
        internal, login = "dovecot", "dovenull"
        uid, gid = pwd.getpwnam("nobody").pw_uid, grp.getgrnam("nogroup").gr_gid
    config = directory / "dovecot.conf"
    config.write_text(CONFIG.format(d=directory, cert=cert, key=key, internal=internal, login=login,
                                    group=grp.getgrgid(pwd.getpwnam(internal).pw_gid).gr_name, uid=uid, gid=gid,
                                    port=port))
    (directory / "passwd").write_text("".join(f"{u}:{{PLAIN}}{p}\n" for u, p in users.items()))
    directory.chmod(0o755)
    (directory / "passwd").chmod(0o644)
    for user in users:
        for sub in ("cur", "new", "tmp"):
            (directory / "home" / user / "Maildir" / sub).mkdir(parents=True, exist_ok=True)
    for path in [directory / "home", *(directory / "home").rglob("*")]:
        os.chown(path, uid, gid)
    process = subprocess.Popen([DOVECOT, "-F", "-c", str(config)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    out = process.stdout.read().decode(errors="replace") if process.stdout else ""
                    log = (directory / "dovecot.log").read_text() if (directory / "dovecot.log").exists() else ""
                    pytest.skip(f"dovecot did not start: {(out + log).strip()[-500:]}")
                time.sleep(0.05)
        yield Dovecot(directory, port, cert, users)
    finally:
        process.kill()  # its processes end with it; nothing of this server is kept
        process.wait()
        shutil.rmtree(directory, ignore_errors=True)
