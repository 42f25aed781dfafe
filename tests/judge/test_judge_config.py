"""judge.toml: a plainly valid file is read without pydantic (a git hook reads it on every push), and
that reading never takes what the strict model refuses nor gives other values than it does."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pbem.errors import UsageError
from pbem.judge import config

BASE: dict[str, Any] = {"home": "h", "key": "k", "address": "judge@example.org"}
FULL: dict[str, Any] = {**BASE, "games": "copies", "database": "postgresql://judge@db/pbem",
                        "mailbox": {"maildir": "m", "poll_seconds": 5},
                        "smtp": {"server": "smtp.example.org:587", "security": "tls", "user": "judge@example.org"},
                        "git": {"branch": "release/1.x", "games": "play/games/"},
                        "contacts": {"ann": "ann@example.org", "ben-2_": "b@c"}}
CHANGES: list[tuple[str, Any]] = [
    ("home", ""), ("home", "a\x00b"), ("home", 5), ("key", None), ("address", "judge"), ("address", "a@b\n"),
    ("address", "a b@c"), ("address", "a@b@c"), ("address", "a\x1c@b"), ("address", "a\u00a0@b"), ("address", "<a@b>"),
    ("games", ""), ("database", "d\x00"), ("extra", "x"), ("mailbox", 5), ("mailbox", {}),
    ("mailbox", {"maildir": "m", "imap": "imaps://a@b"}), ("mailbox", {"imap": "http://a"}),
    ("mailbox", {"imap": "imap://a@b/INBOX", "poll_seconds": 0.5}), ("mailbox", {"maildir": ""}),
    *[("mailbox", {"maildir": "m", "poll_seconds": poll})
      for poll in (0, -1, 86400, 86400.5, True, "60", float("nan"), float("inf"), 10**400, 1e-300)],
    ("mailbox", {"maildir": "m", "pol_seconds": 1}), ("smtp", []), ("smtp", {"server": ""}), ("smtp", {"server": "s"}),
    ("smtp", {"server": "s", "securty": "none"}), ("smtp", {"server": "s", "security": "TLS"}),
    ("smtp", {"server": "s", "security": "none", "user": 5}), ("smtp", {"server": 5}), ("git", "main"),
    ("git", {"branch": "main\n"}), ("git", {"branch": "a b"}), ("git", {"games": "games"}), ("git", {"games": "g//"}),
    ("git", {"games": "a/b/"}), ("git", {"branch": ""}), ("git", {"remote": "x"}), ("contacts", {"Ann": "a@b"}),
    ("contacts", {"ann": "bad"}), ("contacts", {"a" * 33: "a@b"}), ("contacts", {"ann": 5}), ("contacts", []),
    ("contacts", {}),
]


@pytest.mark.parametrize("base", [BASE, FULL])
def test_the_plain_reading_takes_only_what_the_model_takes_and_as_it_does(base):
    path = Path("judge.toml")
    assert config.plain(base) == config.modelled(base, path)
    for key, value in CHANGES:
        data = {**base, key: value} if value is not None else {k: v for k, v in base.items() if k != key}
        plain = config.plain(data)
        try:
            modelled = config.modelled(data, path)
        except UsageError:
            assert plain is None, (key, value)
            continue
        assert plain is None or plain == modelled, (key, value)


def test_a_git_hook_reads_a_plainly_valid_configuration_without_pydantic(tmp_path):
    path = tmp_path / "judge.toml"
    path.write_text('home = "h"\nkey = "k"\naddress = "judge@example.org"\n[git]\nbranch = "main"\n')
    code = ("import sys; from pathlib import Path; from pbem.judge import config; "
            f"c = config.load(Path({str(path)!r})); print(c.home, c.git.branch, 'pydantic' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (0, f"{tmp_path / 'h'} main False\n", "")
