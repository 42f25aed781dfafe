"""The live app on an IMAP mailbox (issue 34): with PBEM_MAIL naming an IMAP folder of a real server
(dovecot, IMAPS), a mail appended there is fetched by the app's IDLE watch and applied, and the change is
published to the pages, within 2 s and no click."""

from __future__ import annotations

import threading
import time

import pytest

from pbem.app.state import AppState
from pbem.app.watch import Watcher
from pbem.transport import imap

from imap_support import imap_server
from judge_support import cli, fast_cli, ok

pytestmark = pytest.mark.slow

SECRET = "ben's secret"


def test_a_mail_appended_to_the_imap_folder_reaches_the_live_app_within_two_seconds(tmp_path, monkeypatch):
    fast_cli(monkeypatch)
    monkeypatch.chdir(tmp_path)
    ann_key = ok(cli(tmp_path / "ann", 0, "key", "new", "ann", "--no-passphrase")).splitlines()[-1]
    ben_key = ok(cli(tmp_path / "ben", 0, "key", "new", "ben", "--no-passphrase")).splitlines()[-1]
    assert ann_key
    for who in ("ann", "ben"):
        for name in ("ann", "ben"):
            ok(cli(tmp_path / who, 0, "contact", "add", name, f"{name}@example.org"))
    ok(cli(tmp_path / "ann", 0, "new", "sarcophagus", "-o", "game.json", "--as", "ann", "--player", "ann",
           "--player", f"ben={ben_key}"))
    ok(cli(tmp_path / "ann", 0, "mail", "game.json", "--as", "ann", "--output", tmp_path / "invitation.eml"))
    with imap_server({"ben@example.org": SECRET}) as dovecot:
        monkeypatch.setenv("PBEM_HOME", str(tmp_path / "ben"))
        monkeypatch.setenv("PBEM_MAIL", dovecot.url("ben@example.org"))
        monkeypatch.setenv(imap.PASSWORD_ENV, SECRET)
        monkeypatch.setenv(imap.CAFILE_ENV, str(dovecot.cafile))
        idle = threading.Event()
        real_wait = imap.Connection.wait

        def waits(self, timeout):
            idle.set()
            return real_wait(self, timeout)

        monkeypatch.setattr(imap.Connection, "wait", waits)
        state = AppState()
        watcher = Watcher(state)
        watcher.start()
        try:
            assert idle.wait(10), "the watch never waited on IDLE"  # connected, the mail there read, IDLE next
            seen = state.live.count
            sent = time.monotonic()
            dovecot.deliver("ben@example.org", (tmp_path / "invitation.eml").read_bytes())
            while state.live.count == seen and time.monotonic() - sent < 10:
                time.sleep(0.05)
            took = time.monotonic() - sent
        finally:
            watcher.stop()
    assert state.live.count > seen, "the mail never reached the app"
    assert took < 2.0, f"{took:.2f} s from the IMAP server to the app"
    assert list((tmp_path / "ben" / "games-files").glob("sarcophagus-*.json"))
