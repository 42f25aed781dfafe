"""A throwaway PostgreSQL cluster for the judge's store tests: Debian's postgresql, initdb and pg_ctl on a
temporary folder, listening on a unix socket only (no port, no network). As root (CI), the cluster runs as
Debian's `postgres` user, since PostgreSQL refuses to run as root. Each test gets a database of its own."""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


def _tool(name: str) -> str | None:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return found[-1] if found else shutil.which(name)


INITDB, PG_CTL = _tool("initdb"), _tool("pg_ctl")
_numbers = itertools.count()


class Cluster:
    def __init__(self, socket_dir: Path):
        self.socket_dir = socket_dir

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://pbem@/{database}?host={self.socket_dir}"

    def new_database(self) -> str:
        """A fresh, empty database: its URL."""
        import psycopg

        name = f"judge_{os.getpid()}_{next(_numbers)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)


@contextmanager
def postgres_cluster() -> Iterator[Cluster]:
    if INITDB is None or PG_CTL is None:
        pytest.skip("no PostgreSQL server: install Debian's postgresql (.ci/run does when it runs as root)")
    directory = Path(tempfile.mkdtemp(prefix="pbem-pg-"))
    directory.chmod(0o755)
    run_as: list[str] = []
    if os.getuid() == 0:
        user = pwd.getpwnam("postgres")
        os.chown(directory, user.pw_uid, user.pw_gid)
        run_as = ["runuser", "-u", "postgres", "--"]
    data, log = directory / "data", directory / "log"
    try:
        subprocess.run([*run_as, INITDB, "-D", str(data), "-A", "trust", "-U", "pbem", "--no-sync", "-E", "UTF8"],
                       check=True, capture_output=True)
        started = subprocess.run([*run_as, PG_CTL, "-D", str(data), "-l", str(log), "-w", "-t", "60", "-o",
                                  f"-k {directory} -c listen_addresses='' -F -c max_connections=200", "start"],
                                 capture_output=True, check=False)
        if started.returncode != 0:
            pytest.skip(f"PostgreSQL did not start: {started.stderr.decode(errors='replace')[-300:]}"
                        f"{log.read_text()[-300:] if log.exists() else ''}")
        yield Cluster(directory)
    finally:
        subprocess.run([*run_as, PG_CTL, "-D", str(data), "-m", "immediate", "stop"], capture_output=True, check=False)
        shutil.rmtree(directory, ignore_errors=True)
