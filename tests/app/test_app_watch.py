"""The app's watching threads (pbem/app/watch.py) once the app has stopped: what the mail server does
then (it closes the connection, it goes away) is no news, and nothing is printed (a CI run saw such a
line land in another test's output, from a thread of an app stopped before)."""

from __future__ import annotations

import threading

from pbem.app import watch
from pbem.app.watch import Watcher


def _stopped_by(monkeypatch, function: str) -> Watcher:
    watcher = Watcher.__new__(Watcher)  # its threads are not started: each is run here, in this thread
    watcher.stopping, watcher.arrived, watcher.poll = threading.Event(), threading.Event(), 0.01

    def fails(*args: object) -> object:
        watcher.stopping.set()  # the app stops while the thread waits on the server
        raise OSError("the IMAP server 127.0.0.1 closed the connection")

    monkeypatch.setattr(watch.library, function, fails)
    return watcher


def test_the_imap_thread_of_a_stopped_app_says_nothing(monkeypatch, capsys):
    _stopped_by(monkeypatch, "imap_session").idle("imaps://judge@127.0.0.1/INBOX")
    assert capsys.readouterr().err == ""


def test_the_imap_thread_of_a_running_app_says_what_failed(monkeypatch, capsys):
    watcher = _stopped_by(monkeypatch, "imap_session")
    calls = []

    def fails_once(url: str) -> object:
        calls.append(url)
        if len(calls) == 2:
            watcher.stopping.set()
        raise OSError("the IMAP server 127.0.0.1 closed the connection")

    monkeypatch.setattr(watch.library, "imap_session", fails_once)
    monkeypatch.setattr(watcher.stopping, "wait", lambda seconds: None)
    watcher.idle("imaps://judge@127.0.0.1/INBOX")
    assert capsys.readouterr().err == "pbem app: IMAP: the IMAP server 127.0.0.1 closed the connection\n"


def test_the_mail_watching_thread_of_a_stopped_app_says_nothing(monkeypatch, capsys):
    watcher = _stopped_by(monkeypatch, "mailbox")
    looks = iter([None])  # the first look, before the loop, finds no mailbox; the next one fails

    def mailbox() -> object:
        for found in looks:
            return found
        watcher.stopping.set()
        raise OSError("the Maildir went away")

    monkeypatch.setattr(watch.library, "mailbox", mailbox)
    monkeypatch.setattr(watch.library, "mailbox_stamp", lambda box: None)
    monkeypatch.setattr(watch, "_copies_stamp", dict)
    watcher.watch()
    assert capsys.readouterr().err == ""
