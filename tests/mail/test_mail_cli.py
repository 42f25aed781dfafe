"""pbem contact, mail, inbox and status as two players run them, each with their own PBEM_HOME."""

import json
import mailbox
import shutil
import ssl
import subprocess
from email import message_from_bytes, policy

import pytest
from aiosmtpd.smtp import AuthResult
from typer.testing import CliRunner

from pbem.cli import app
from pbem.record.status import Status

from engine_support import layout_with
from mail_support import smtp_server

runner = CliRunner()
LAYOUT = layout_with({"1a": "sun-3", "2a": "moon-4", "2b": "arms-4", "3a": "crown-2", "3b": "crown-ace"})


@pytest.fixture
def table(tmp_path, monkeypatch):
    """ann and ben with keys and address books; ann has made a game (ben first, 24 h a duty)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBEM_GAMES", raising=False)

    def run(name, *args):
        return runner.invoke(app, [str(a) for a in args], env={"PBEM_HOME": str(tmp_path / name),
                                                               "PBEM_PASSPHRASE": None})

    keys = {}
    for name in ("ann", "ben"):
        keys[name] = run(name, "key", "new", name, "--no-passphrase").output.splitlines()[-1]
    for name in ("ann", "ben"):
        for other in ("ann", "ben"):
            run(name, "contact", "add", other, f"{other}@example.org")
    layout = LAYOUT.to_names()
    layout["first"] = "ben"
    (tmp_path / "layout.json").write_text(json.dumps(layout))
    made = run("ann", "new", "sarcophagus", "-o", "game.json", "--as", "ann", "--player", "ann",
               f"--player=ben={keys['ben']}", "--layout", "layout.json", "--late-after", "24h")
    assert made.exit_code == 0, made.output
    return run


def eml(path):
    return message_from_bytes(path.read_bytes(), policy=policy.default)


def test_the_address_book(table, tmp_path, monkeypatch):
    assert table("ann", "contact", "list").output == "ann              ann@example.org\nben              ben@example.org\n"
    bad = table("ann", "contact", "add", "cat", "cat@example.org\nBcc: eve@example.org")
    assert (bad.exit_code, bad.output) == (1, "Error: 'cat@example.org\\nBcc: eve@example.org' is not a mail address "
                                              "(write it as name@example.org)\n")
    assert table("ann", "contact", "add", "Cat", "cat@example.org").output.startswith("Error: 'Cat' is not a usable name")
    for variable in ("PBEM_MAIL", "MAIL"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    nowhere = table("ann", "inbox")
    assert (nowhere.exit_code, nowhere.output) == (1, "Error: say where your mail is: pbem inbox ~/Maildir (a Maildir, "
                                                      "an mbox or .eml files), or set PBEM_MAIL\n")
    (tmp_path / "ann" / "contacts.json").unlink()
    missing = table("ann", "mail", "game.json", "--as", "ann")
    assert (missing.exit_code, missing.output) == (1, "Error: no mail address for ann, ben: add with 'pbem contact add "
                                                      "NAME ADDRESS'\n")


def test_a_turn_by_mail_and_back(table, tmp_path, monkeypatch):
    first = table("ann", "mail", "game.json", "--as", "ann", "-o", "first.eml")
    game_id = json.loads((tmp_path / "game.json").read_text())["genesis"]["game_id"]
    short = game_id[:8]
    assert (first.exit_code, first.output) == (0, f"Wrote first.eml to ben <ben@example.org>: [pbem sarcophagus "
                                                  f"{short}] #0: ben to join\n")
    mail = eml(tmp_path / "first.eml")
    assert mail["From"] == "ann <ann@example.org>" and mail["Cc"] is None
    assert mail["Message-ID"].endswith(f".{game_id}@pbem.invalid>") and mail["In-Reply-To"] is None
    assert [p.get_filename() for p in mail.iter_attachments()] == [f"sarcophagus-{short}.json"]
    again = table("ann", "mail", "game.json", "--as", "ann")
    assert (again.exit_code, again.output) == (1, "Error: nothing new to mail: entry 0 was already mailed (--since N "
                                                  "mails again from entry N; --attach sends the whole file)\n")

    copy = tmp_path / "ben" / "games-files" / f"sarcophagus-{short}.json"
    read = table("ben", "inbox", "first.eml")
    assert read.exit_code == 0, read.output
    assert read.output.splitlines()[:2] == [f"Updated {copy}: the invitation.", "Read 1 mail: 1 game updated."]
    assert read.output.splitlines()[2].startswith(f"* sarcophagus {short}  ann, ben  #0  you (ben) to join for ")
    assert read.output.splitlines()[3] == f"    pbem play {short} --as ben --mail"
    before = copy.read_bytes()
    monkeypatch.setenv("PBEM_MAIL", str(tmp_path / "first.eml"))  # where the mail is by default
    twice = table("ben", "inbox")
    assert twice.output.splitlines()[0] == "Read 1 mail: nothing new." and copy.read_bytes() == before
    twice = table("ben", "inbox", "first.eml", tmp_path / "first.eml")
    assert twice.output.splitlines()[0] == "Read 2 mails: nothing new." and copy.read_bytes() == before

    status = table("ben", "status", "--json")
    assert status.exit_code == 1
    parsed = Status.model_validate_json(status.output)
    assert parsed.i_owe and [(d.party, d.what, d.since_entry, d.mine) for d in parsed.games[0].duties] == [
        ("ben", "join", 0, True)]  # since the invitation

    played = table("ben", "play", copy, "--as", "ben", "3", "2@2a", "--mail")
    assert played.exit_code == 0, played.output
    assert played.output.splitlines()[-1] == (f"Wrote sarcophagus-{short}-6.eml to ann <ann@example.org>: "
                                              f"[pbem sarcophagus {short}] #6: ann to move")
    turn = eml(tmp_path / f"sarcophagus-{short}-6.eml")
    assert turn["In-Reply-To"].strip() == mail["Message-ID"] and mail["Message-ID"] in turn["References"]
    assert "-----BEGIN PBEM TURN-----" in turn.get_content() and not list(turn.iter_attachments())
    assert turn.get_content().startswith(f"ben signed entries 1-6 of Sarcophagus {short} (ann, ben).\n"
                                         "  ben joins the game\n  1a is sun-3\n  ben placed a coin on 1a (ben's 1st coin)\n")

    back = table("ann", "inbox", f"sarcophagus-{short}-6.eml")
    assert back.output.splitlines()[0] == f"Updated {tmp_path / 'ann' / 'games-files' / copy.name}: entries 1-6."
    ann_status = table("ann", "status")
    assert ann_status.exit_code == 1
    assert ann_status.output.startswith(f"* sarcophagus {short}  ann, ben  #6  you (ann) to move for ")
    assert ann_status.output.endswith("  (deadline 24 h)\n")
    since = Status.model_validate_json(table("ann", "status", "--json").output).games[0].duties[0].since
    late = table("ann", "status", "--at", str(since + 25 * 3600))  # from ben's signed time, not the run's clock
    assert "you (ann) to move for 25 h LATE  (deadline 24 h)" in late.output
    shown = table("ann", "show", tmp_path / "ann" / "games-files" / copy.name)
    ann_copy = tmp_path / "ann" / "games-files" / copy.name
    assert shown.output.endswith(f"Deadline 24 h a duty: nobody is late.\nYour turn (ann): pbem play {ann_copy} --as ann "
                                 "--mail\n")
    assert table("ben", "status").exit_code == 0


def test_a_rival_turn_is_flagged_as_a_fork_and_kept(table, tmp_path):
    table("ann", "mail", "game.json", "--as", "ann", "-o", "first.eml")
    shutil.copy(tmp_path / "game.json", tmp_path / "old.json")
    table("ben", "inbox", "first.eml")
    copy = next((tmp_path / "ben" / "games-files").glob("*.json"))
    assert table("ben", "play", copy, "--as", "ben", "3", "2@2a", "--mail").exit_code == 0
    # ben signs a second version of his turn on another machine (no memory of the first) and mails it too
    shutil.copytree(tmp_path / "ben" / "keys", tmp_path / "ben2" / "keys")
    shutil.copy(tmp_path / "ben" / "contacts.json", tmp_path / "ben2" / "contacts.json")
    assert table("ben2", "play", "old.json", "--as", "ben", "3", "2@2b").exit_code == 0
    assert table("ben2", "mail", "old.json", "--as", "ben", "--since", "0", "-o", "rival.eml").exit_code == 0
    short = copy.stem.split("-")[1]
    assert table("ann", "inbox", f"sarcophagus-{short}-6.eml").exit_code == 0
    kept = (tmp_path / "ann" / "games-files" / copy.name).read_bytes()
    rival = table("ann", "inbox", "rival.eml", f"sarcophagus-{short}-6.eml")
    assert rival.exit_code == 1
    lines = [line for line in rival.output.splitlines() if line.startswith("Error: FORK:")]
    assert len(lines) == 1 and "entry 1 by ben: ben signed two different entries for seq 1: 'join' in both" in lines[0]
    assert (tmp_path / "ann" / "games-files" / copy.name).read_bytes() == kept
    evidence = lines[0].split("pbem verify ")[1].rstrip(")").split()
    checked = table("ann", "verify", *evidence)
    assert checked.exit_code == 1 and "ben signed two different entries for seq 1" in checked.output


@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")  # the implicit-TLS server: it is TLS
@pytest.mark.slow
def test_sending_needs_tls_and_never_writes_the_password(table, tmp_path, monkeypatch):
    """STARTTLS with a login against a real server; the password comes from the environment only."""
    if not shutil.which("openssl"):
        pytest.skip("openssl is needed to make the test server's certificate")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost",
                    "-keyout", tmp_path / "key.pem", "-out", tmp_path / "cert.pem"], check=True, capture_output=True)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(tmp_path / "cert.pem", tmp_path / "key.pem")
    logins = []

    def authenticator(server, session, envelope, mechanism, auth_data):
        logins.append((auth_data.login, auth_data.password))
        return AuthResult(success=auth_data.password == b"s3cret-horse", handled=False)  # handled: no reply of its own

    monkeypatch.setenv("PBEM_SMTP_CAFILE", str(tmp_path / "cert.pem"))
    with smtp_server({"ben@example.org": tmp_path / "box"}, tls_context=context, require_starttls=True,
                     authenticator=authenticator, auth_required=True) as (port, server):
        monkeypatch.setenv("PBEM_SMTP_PASSWORD", "wrong")
        refused = table("ann", "mail", "game.json", "--as", "ann", "--send", "--smtp", f"localhost:{port}",
                        "--smtp-user", "ann")
        assert (refused.exit_code, refused.output) == (1, "Error: the SMTP server localhost refused the login of ann\n")
        monkeypatch.setenv("PBEM_SMTP_PASSWORD", "s3cret-horse")
        sent = table("ann", "mail", "game.json", "--as", "ann", "--send", "--smtp", f"localhost:{port}",
                     "--smtp-user", "ann")
        assert sent.exit_code == 0, sent.output
        assert sent.output.startswith("Sent to ben <ben@example.org>: [pbem sarcophagus ")
        clear = table("ann", "mail", "game.json", "--as", "ann", "--send", "--smtp", f"smtp.example.org:{port}",
                      "--smtp-security", "none", "--since", "0")
        assert clear.output == "Error: --smtp-security none sends in clear: only to a server on this machine " \
                               "(localhost)\n"
    # aiosmtpd offers AUTH only after its own STARTTLS unless told that the implicit TLS is enough
    with smtp_server({"ben@example.org": tmp_path / "box"}, ssl_context=context, authenticator=authenticator,
                     auth_required=True, auth_require_tls=False) as (port, implicit):
        sent = table("ann", "mail", "game.json", "--as", "ann", "--send", "--smtp", f"localhost:{port}",
                     "--smtp-user", "ann", "--smtp-security", "tls", "--since", "0")
        assert sent.exit_code == 0, sent.output
        assert len(implicit.received) == 1  # implicit TLS (port 465 style): encrypted from the first byte
    # smtplib tries each offered mechanism before it gives up, so the wrong password may come twice
    assert set(logins) == {(b"ann", b"wrong"), (b"ann", b"s3cret-horse")} and len(server.received) == 1
    for path in tmp_path.rglob("*"):
        if path.is_file():
            assert b"s3cret-horse" not in path.read_bytes(), path


@pytest.mark.slow
def test_an_mbox_with_turns_out_of_order_and_a_strangers_game(table, tmp_path):
    table("ann", "mail", "game.json", "--as", "ann", "-o", "1.eml")
    table("ben", "inbox", "1.eml")
    copy = next((tmp_path / "ben" / "games-files").glob("*.json"))
    short = copy.stem.split("-")[1]
    assert table("ben", "play", copy, "--as", "ben", "3", "2@2a", "--mail").exit_code == 0
    table("ann", "inbox", f"sarcophagus-{short}-6.eml")
    ann_copy = tmp_path / "ann" / "games-files" / copy.name
    assert table("ann", "play", ann_copy, "--as", "ann", "--bot", "greedy", "--mail").exit_code == 0
    third = max(tmp_path.glob(f"sarcophagus-{short}-*.eml"), key=lambda p: int(p.stem.split("-")[-1]))
    # cat's game, which ben is not in, arrives too
    table("cat", "key", "new", "cat", "--no-passphrase")
    table("cat", "contact", "add", "cat", "cat@example.org")
    table("cat", "contact", "add", "ann", "ann@example.org")
    table("cat", "new", "sarcophagus", "-o", "cat.json", "--as", "cat", "--player", "cat",
          f"--player=ann={(tmp_path / 'ann' / 'keys' / 'ann.pub').read_text().strip()}")
    stranger = table("cat", "mail", "cat.json", "--as", "cat", "-o", "stranger.eml")
    assert stranger.exit_code == 0, stranger.output
    box = mailbox.mbox(tmp_path / "ben.mbox")  # newest first: the later turn waits for the earlier
    for name in (third.name, f"sarcophagus-{short}-6.eml", "1.eml", "stranger.eml"):
        box.add((tmp_path / name).read_bytes())
    box.close()
    before = copy.read_bytes()
    shutil.rmtree(tmp_path / "ben" / "games-files")
    read = table("ben", "inbox", tmp_path / "ben.mbox")
    assert read.exit_code == 1, read.output
    cat_short = json.loads((tmp_path / "cat.json").read_text())["genesis"]["game_id"][:8]
    assert read.output.splitlines()[:2] == [f"Updated {copy}: entries 1-{third.stem.split('-')[-1]}.",
                                            "Error: " + str(tmp_path / "ben.mbox") + "#4 (sarcophagus-" +
                                            read.output.split("(sarcophagus-")[1].split(")")[0] +
                                            f"): a game of cat and ann (sarcophagus {cat_short}, made by cat) in "
                                            "which none of this home's keys plays. Not kept; its mails are set aside "
                                            "quietly from now on."]
    quiet = table("ben", "inbox", tmp_path / "ben.mbox")  # said once: then set aside, counted
    assert (quiet.exit_code, quiet.output.splitlines()[0]) == (0, "Read 4 mails: nothing new (1 set aside, as said "
                                                                  "before: --again reads it again).")
    assert copy.read_bytes() != before and table("ben", "verify", copy).exit_code == 0
    assert [p.name for p in (tmp_path / "ben" / "games-files").glob("*.json")] == [copy.name]


def test_show_and_status_name_who_is_late(tmp_path, monkeypatch):
    """Entries carry their signer's clock: a game signed two hours ago with one hour a duty is late."""
    import time

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("PBEM_GAMES", str(tmp_path / "games"))
    now = 1_800_000_000
    monkeypatch.setattr(time, "time", lambda: now - 2 * 3600)  # the clock, for signers and readers
    for name in ("ann", "ben"):
        runner.invoke(app, ["key", "new", name, "--no-passphrase"])
    (tmp_path / "games").mkdir()
    made = runner.invoke(app, ["new", "sarcophagus", "-o", "games/g.json", "--as", "ann", "--player", "ann",
                               "--player", "ben", "--late-after", "1h"])
    assert made.exit_code == 0, made.output
    monkeypatch.setattr(time, "time", lambda: now)
    shown = runner.invoke(app, ["show", "games/g.json"])
    assert shown.output.endswith("Deadline 1 h a duty: ben to join for 2 h LATE\n"
                                 "Your turn (ben): pbem play games/g.json --as ben\n")
    status = runner.invoke(app, ["status"])
    assert status.exit_code == 1  # this home holds both keys: "I" owe
    assert status.output.endswith("you (ben) to join for 2 h LATE  (deadline 1 h)\n")


def test_a_key_made_or_added_with_an_email_is_in_the_address_book(tmp_path, monkeypatch):
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    made = runner.invoke(app, ["key", "new", "ann", "--no-passphrase", "--email", "ann@example.org"])
    assert made.exit_code == 0 and made.output.splitlines()[1] == "ann <ann@example.org> is in the address book."
    bad = runner.invoke(app, ["key", "new", "ben", "--no-passphrase", "--email", "ben at home"])
    assert (bad.exit_code, bad.output) == (1, "Error: 'ben at home' is not a mail address (write it as "
                                              "name@example.org)\n")
    assert not (tmp_path / "home" / "keys" / "ben").exists()  # nothing written
    own = tmp_path / "id_ed25519"
    own.write_bytes((tmp_path / "home" / "keys" / "ann").read_bytes())
    own.chmod(0o600)
    added = runner.invoke(app, ["key", "add", "bob", "--from", str(own), "--email", "bob@example.org"])
    assert added.exit_code == 0, added.output
    assert runner.invoke(app, ["contact", "list"]).output == ("ann              ann@example.org\n"
                                                               "bob              bob@example.org\n")
