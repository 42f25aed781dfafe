"""Killed at any moment while writing, a game file or key file is the old one or the new one, whole."""

import os
import random
import signal
import subprocess
import sys
import textwrap
import time

import pytest

pytestmark = pytest.mark.slow

WRITER = textwrap.dedent("""
    import os, sys
    from pathlib import Path
    from pbem.record.files import write_atomic
    path, old, new = Path(sys.argv[1]), sys.argv[2].encode(), sys.argv[3].encode()
    size = int(sys.argv[4])
    for _ in sys.stdin:  # a writer forked for each line: its process id said, it writes until killed
        child = os.fork()
        if child == 0:
            print(os.getpid(), flush=True)
            flip = False
            while True:
                write_atomic(path, (new if flip else old) * size, mode=0o600)
                flip = not flip
        os.waitpid(child, 0)
        print("dead", flush=True)
""")


def test_a_killed_writer_never_leaves_half_a_file(tmp_path):
    """25 writers killed at random moments, each a process of its own: forked by one Python process
    that imported pbem once (a Python started for each cost about 40 ms of CPU)."""
    target = tmp_path / "game.json"
    old, new, size = "A", "B", 400_000
    target.write_bytes(old.encode() * size)
    rng = random.Random(5)
    forks = subprocess.Popen([sys.executable, "-c", WRITER, str(target), old, new, str(size)],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        for _ in range(25):
            forks.stdin.write("write\n")
            forks.stdin.flush()
            writer = int(forks.stdout.readline())
            time.sleep(rng.uniform(0, 0.05))
            os.kill(writer, signal.SIGKILL)
            assert forks.stdout.readline() == "dead\n"
            data = target.read_bytes()
            assert data in (old.encode() * size, new.encode() * size), f"torn file of {len(data)} bytes"
    finally:
        forks.kill()
        forks.wait()
    leftovers = [p.name for p in tmp_path.iterdir() if p.name != "game.json"]
    # a kill between creating the temp file and renaming it can leave a temp file, never a torn target
    assert all(name.startswith(".game.json.") and name.endswith(".tmp") for name in leftovers)


def test_key_files_are_whole_or_absent(tmp_path):
    script = textwrap.dedent("""
        import os, sys
        os.environ["PBEM_HOME"] = sys.argv[1]
        from pbem.crypto.keyring import create_key
        print("ready", flush=True)
        for i in range(10**6):
            create_key(f"k{i}", None)
    """)
    home = tmp_path / "home"
    proc = subprocess.Popen([sys.executable, "-c", script, str(home)], stdout=subprocess.PIPE)
    assert proc.stdout.readline() == b"ready\n"
    time.sleep(random.Random(6).uniform(0.05, 0.15))  # hundreds of keys written by then; the kill lands inside one
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    from pbem.crypto import Identity, PublicKey

    keys = [p for p in (home / "keys").iterdir() if not p.name.startswith(".")]
    assert len(keys) > 4
    for path in keys:
        if path.suffix == ".pub":
            PublicKey.parse(path.read_text())
        else:
            assert os.stat(path).st_mode & 0o777 == 0o600
            Identity.from_openssh(path.read_bytes(), None)
