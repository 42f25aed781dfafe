"""The judge reading its mail from a real IMAP server (dovecot, IMAPS): the invitation delivered there is
fetched, applied, joined and answered by SMTP; `pbem judge status` then lists the game."""

from __future__ import annotations

from contextlib import contextmanager

from pbem.judge import config as judge_config
from pbem.judge.service import Judge
from pbem.transport import imap

from imap_support import imap_server
from judge_support import cli, fast_cli, ok, setup_players, start_game, write_config
from mail_support import smtp_server

PLAYERS = ["ann", "ben", "cat"]
SECRET = "judge's secret"


@contextmanager
def judge_on_imap(base, monkeypatch):
    """A judge reading a real dovecot's IMAPS folder, a real SMTP server delivering there, and ann's Path of
    Pharaohs game with the judge as referee mailed to it. Yields its config, the SMTP handler and dovecot."""
    fast_cli(monkeypatch)
    monkeypatch.chdir(base)
    with imap_server({"judge@example.org": SECRET}) as dovecot:
        boxes = {f"{n}@example.org": base / "mail" / n for n in PLAYERS}
        boxes["judge@example.org"] = dovecot.maildir("judge@example.org")  # the SMTP server delivers to dovecot's
        with smtp_server(boxes) as (port, server):
            for sub in ("new", "cur", "tmp"):  # delivered by this test's SMTP server: dovecot must read them
                (dovecot.maildir("judge@example.org") / sub).chmod(0o777)
            keys = setup_players(base, port, PLAYERS)
            config = write_config(base, port, imap=dovecot.url("judge@example.org"))
            start_game(base, port, "path-of-pharaohs", PLAYERS, keys, base / "game.json")
            for mail in (dovecot.maildir("judge@example.org") / "new").iterdir():
                mail.chmod(0o644)
            monkeypatch.setenv(imap.PASSWORD_ENV, SECRET)
            monkeypatch.setenv(imap.CAFILE_ENV, str(dovecot.cafile))
            yield config, server, dovecot


def test_the_judge_reads_imap_and_answers_by_smtp(base, monkeypatch):
    with judge_on_imap(base, monkeypatch) as (config, server, _):
        lines: list[str] = []
        judge = Judge(judge_config.load(config), log=lines.append)
        judge.once()
        kinds = [line.split(" ")[1] for line in lines]
        assert kinds == ["fetched", "applied", "signed", "mailed"], lines
        assert len(server.received) == 2 and b"[pbem path-of-pharaohs" in server.received[-1]
        judge.once()
        assert len(lines) == 4  # nothing fetched twice, nothing mailed twice
    status = ok(cli(base, 0, "judge", "status", config))
    assert status.startswith("path-of-pharaohs ") and "ann, ben, cat  #1  ben to join" in status, status
    assert "(mailed up to #1)" in status


def test_a_hostile_mail_fetched_by_imap_is_answered_safely_and_the_game_goes_on(base, monkeypatch):
    """The attack of issue 32 through IMAP: a forged From naming a player, a Subject that decodes to CR LF,
    a damaged turn. The judge fetches it with the invitation, answers the player on one line (no header
    smuggled in), and plays the game beside it."""
    from email import message_from_bytes, policy

    with judge_on_imap(base, monkeypatch) as (config, server, dovecot):
        dovecot.deliver("judge@example.org", b"From: ann <ann@example.org>\r\nTo: judge@example.org\r\n"
                        b"Subject: =?utf-8?q?turn=0D=0AX-Injected=3A_yes?=\r\n\r\n"
                        b"-----BEGIN PBEM TURN-----\r\nH4sIAAAAAAAA/damaged\r\n-----END PBEM TURN-----\r\n")
        lines: list[str] = []
        judge = Judge(judge_config.load(config), log=lines.append)
        judge.once()
        kinds = [line.split(" ")[1] for line in lines]
        assert kinds[:1] == ["fetched"] and "signed" in kinds and "answered" in kinds, lines
        [told] = [m for m in (message_from_bytes(r, policy=policy.default) for r in server.received)
                  if m["Auto-Submitted"] == "auto-replied"]
        assert told["Subject"] == "Re: turn X-Injected: yes" and told["X-Injected"] is None
        assert not any(b"\nX-Injected" in r for r in server.received)
        judge.once()
        assert kinds == [line.split(" ")[1] for line in lines]  # nothing read or mailed twice
