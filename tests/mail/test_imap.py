"""Mail read from a real IMAP server (dovecot on 127.0.0.1, IMAPS with its own certificate): new
messages copied once into a local Maildir that `pbem inbox` reads, IDLE waking the reader, and the
password never taken from anywhere but the environment or a prompt."""

from __future__ import annotations

import threading
import time

import pytest

from pbem.errors import PbemError, UsageError
from pbem.transport import imap, inbox
from pbem.transport.mail import compose

from imap_support import imap_server
from pbem_support import identity, played_game

USER, SECRET = "ben@example.org", "correct horse"


@pytest.fixture(scope="module")
def server():
    with imap_server({USER: SECRET}) as running:
        yield running


def invitation() -> bytes:
    rep = played_game("table", players=("ann", "ben"), finish=False, started=False)
    book = {"ann": "ann@example.org", "ben": USER}
    return bytes(compose(rep, "ann", None, book=book))


@pytest.mark.slow
def test_new_mail_is_copied_once_and_the_inbox_applies_it(server, tmp_path, monkeypatch):
    box = imap.parse_url(server.url(USER), cafile=str(server.cafile))
    assert (box.host, box.user, box.port, box.tls, box.folder) == ("127.0.0.1", USER, server.port, True, "INBOX")
    server.deliver(USER, invitation())
    server.deliver(USER, b"Subject: not a game\r\n\r\nhello\r\n")
    local, state = tmp_path / "spool", tmp_path / "imap-state.json"
    monkeypatch.setenv(imap.PASSWORD_ENV, SECRET)
    assert imap.fetch(box, local, state) == 2
    assert imap.fetch(box, local, state) == 0  # only what is new since the last UID copied
    assert len(list((local / "new").iterdir())) == 2 and not list((local / "tmp").iterdir())
    (tmp_path / "home" / "keys").mkdir(parents=True)  # ben's key, so the inbox keeps the game
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    (tmp_path / "home" / "keys" / "ben.pub").write_text(identity("ben").public.line() + "\n")
    report = inbox.read([local], tmp_path / "games")
    assert (report.mails, len(report.updated), report.problems) == (2, 1, [])
    server.deliver(USER, b"Subject: later\r\n\r\nagain\r\n")
    assert imap.fetch(box, local, state) == 1
    state.write_text(state.read_text().replace('"uidvalidity": ', '"uidvalidity": 1'))  # the folder was rebuilt
    assert imap.fetch(box, local, state) == 3  # a new UIDVALIDITY: every message again (the inbox skips known ones)


@pytest.mark.slow
def test_idle_wakes_the_reader_when_mail_arrives(server, tmp_path):
    box = imap.parse_url(server.url(USER), cafile=str(server.cafile))
    with imap.Connection(box, SECRET) as conn:
        conn.fetch_into(tmp_path / "spool", tmp_path / "state.json")
        assert conn.wait(0.2) is False
        threading.Timer(0.2, server.deliver, (USER, b"Subject: x\r\n\r\ny\r\n")).start()
        started = time.monotonic()
        assert conn.wait(10) is True and time.monotonic() - started < 5
        assert conn.fetch_into(tmp_path / "spool", tmp_path / "state.json") == 1


@pytest.mark.slow
def test_a_wrong_password_or_certificate_is_one_clear_error(server, tmp_path, monkeypatch):
    box = imap.parse_url(server.url(USER), cafile=str(server.cafile))
    with pytest.raises(PbemError, match=f"^the IMAP server 127.0.0.1 refused {USER}: .*Authentication failed"):
        imap.fetch(box, tmp_path / "spool", tmp_path / "state.json", "wrong")
    untrusted = imap.parse_url(server.url(USER), cafile="")
    with pytest.raises(PbemError, match=f"^cannot talk TLS with 127.0.0.1:{server.port}: CERTIFICATE_VERIFY_FAILED"):
        imap.fetch(untrusted, tmp_path / "spool", tmp_path / "state.json", SECRET)
    monkeypatch.delenv(imap.PASSWORD_ENV, raising=False)
    with pytest.raises(UsageError, match=f"set {imap.PASSWORD_ENV} or run on a terminal"):
        imap.fetch(box, tmp_path / "spool", tmp_path / "state.json")
    assert not (tmp_path / "state.json").exists()


@pytest.mark.parametrize("url, problem", [
    ("imaps://imap.example.org", "name the user and the server"),
    ("pop3://a@b", "an IMAP mailbox is imaps://"),
    ("imaps://a@b:x", "the port must be a number"),
])
def test_a_bad_mailbox_address_is_refused(url, problem):
    with pytest.raises(UsageError, match=problem):
        imap.parse_url(url)


def test_the_user_may_hold_an_at_sign_and_the_folder_is_named():
    box = imap.parse_url("imap://alice@example.org@imap.example.org:1143/Games/pbem")
    assert (box.user, box.host, box.port, box.tls, box.folder) == ("alice@example.org", "imap.example.org", 1143,
                                                                    False, "Games/pbem")


@pytest.mark.slow
def test_pbem_inbox_reads_an_imap_mailbox(server, tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from pbem.cli import app

    server.deliver(USER, invitation())
    home = tmp_path / "home"
    (home / "keys").mkdir(parents=True)
    (home / "keys" / "ben.pub").write_text(identity("ben").public.line() + "\n")
    env = {"PBEM_HOME": str(home), imap.PASSWORD_ENV: SECRET, imap.CAFILE_ENV: str(server.cafile),
           "PBEM_GAMES": None, "PBEM_MAIL": None}
    read = CliRunner().invoke(app, ["inbox", server.url(USER)], env=env)
    assert read.exit_code == 0, read.output
    updated = [line for line in read.output.splitlines() if line.startswith("Updated ")]  # this invitation and
    assert updated and all(line.startswith(f"Updated {home / 'games-files'}/sarcophagus-")  # the earlier tests'
                           and line.endswith(": the invitation.") for line in updated)
    assert f": {len(updated)} game{'s' * (len(updated) != 1)} updated." in read.output
    again = CliRunner().invoke(app, ["inbox"], env={**env, "PBEM_MAIL": server.url(USER)})  # $PBEM_MAIL may be IMAP
    assert again.exit_code == 0 and "nothing new" in again.output.splitlines()[0], again.output
    wrong = CliRunner().invoke(app, ["inbox", server.url(USER)], env={**env, imap.PASSWORD_ENV: "nope"})
    assert (wrong.exit_code, wrong.output.splitlines()[-1]) == (
        1, f"Error: the IMAP server 127.0.0.1 refused {USER}: [AUTHENTICATIONFAILED] Authentication failed.")


@pytest.mark.slow
def test_a_message_over_the_size_limit_is_never_downloaded_and_the_next_is_read(server, tmp_path, monkeypatch):
    box = imap.parse_url(server.url(USER), cafile=str(server.cafile))
    local, state = tmp_path / "spool", tmp_path / "state.json"
    with imap.Connection(box, SECRET) as conn:
        conn.fetch_into(local, state)  # what the other tests left
    fetched: list[str] = []
    real_uid = imap.imaplib.IMAP4.uid

    def watched(self, command, *args):
        fetched.append(" ".join([command, *map(str, args)]))
        return real_uid(self, command, *args)

    monkeypatch.setattr(imap.imaplib.IMAP4, "uid", watched)
    monkeypatch.setattr(imap, "MAX_MESSAGE", 1000)
    server.deliver(USER, b"Subject: huge\r\n\r\n" + b"x" * 5000 + b"\r\n")
    server.deliver(USER, b"Subject: small\r\n\r\nhello\r\n")
    with imap.Connection(box, SECRET) as conn:
        assert conn.fetch_into(local, state) == 1
        assert conn.fetch_into(local, state) == 0  # the huge one is passed over for good, not retried
    bodies = [m.read_bytes() for m in (local / "new").iterdir()]
    assert any(b"Subject: small" in b for b in bodies) and not any(b"Subject: huge" in b for b in bodies)
    assert sum("BODY.PEEK[]" in f for f in fetched) == 1  # only the small one's body was asked for


@pytest.mark.slow
def test_a_server_gone_during_idle_is_an_error_at_once_not_a_busy_wait(tmp_path):
    """The app waits on IDLE for minutes at a time: a server that closes the connection meanwhile (a
    restart) must end the wait with an error at once, not leave a thread spinning on the closed socket."""
    outcome: dict[str, object] = {}

    def waits(conn: imap.Connection) -> None:
        started = time.thread_time()
        try:
            conn.wait(10)
        except PbemError as exc:
            outcome["error"] = str(exc)
        outcome["cpu"], outcome["at"] = time.thread_time() - started, time.monotonic()

    with imap_server({USER: SECRET}) as gone:
        box = imap.parse_url(gone.url(USER), cafile=str(gone.cafile))
        conn = imap.Connection(box, SECRET).__enter__()
        waiter = threading.Thread(target=waits, args=(conn,), daemon=True)
        waiter.start()
        time.sleep(0.3)  # the IDLE is on
    stopped = time.monotonic()
    waiter.join(10)
    assert outcome.get("error") == "the IMAP server 127.0.0.1 closed the connection"
    assert float(outcome["at"]) - stopped < 2 and float(outcome["cpu"]) < 0.5, outcome
