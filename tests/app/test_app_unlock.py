"""`pbem app` started without a terminal asks in the page, over its protected channel, for what it needs
once: the passphrase of a protected key and the SMTP login's password. A wrong passphrase unlocks
nothing; the right ones are kept in the app's memory only (never in a file) and used: the key reads and
signs, the password logs in to a real SMTP server (aiosmtpd with AUTH). No browser needed: the page's
own requests, sent as its script sends them."""

from __future__ import annotations

import pytest
from aiosmtpd.smtp import AuthResult

from pbem.crypto import Identity
from pbem.transport.contacts import add

from app_support import App, at_home, near_the_end
from mail_support import smtp_server

pytestmark = pytest.mark.slow

PASSPHRASE, PASSWORD = "correct horse", "s3cret-horse"


@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")  # the test server, on localhost
def test_the_page_asks_once_for_a_passphrase_and_the_smtp_password_and_uses_them(tmp_path):
    from pbem.crypto.keyring import create_key
    from pbem.transport import copies
    from pbem.transport.store import Copies

    home = tmp_path / "ann" / "home"
    with at_home(home):
        _, ann = create_key("ann", PASSPHRASE.encode())
        add("ann", "ann@pbem.test")
        add("ben", "ben@pbem.test")
    rep = near_the_end("sarcophagus", ["ann", "ben"], {"ann": ann, "ben": Identity.from_seed(b"b" * 32)}, 2)
    with at_home(home):
        Copies(copies.folder()).put(rep)  # a copy never mailed: its first mail carries the whole game
    logins = []

    def authenticator(server, session, envelope, mechanism, auth_data):
        logins.append((auth_data.login, auth_data.password))
        return AuthResult(success=auth_data.password == PASSWORD.encode(), handled=False)

    boxes = {"ben@pbem.test": tmp_path / "ben" / "Maildir"}
    with smtp_server(boxes, authenticator=authenticator, auth_required=True, auth_require_tls=False) as (port, _):
        env = {"PBEM_HOME": str(home), "PBEM_SMTP": f"localhost:{port}", "PBEM_SMTP_SECURITY": "none",
               "PBEM_SMTP_USER": "ann"}
        app = App(home, App.launch(App.environment(env), ("pbem.cli", "app")))  # the command, as a person types it
        try:
            page = app.get("/")
            assert "Passphrase of your key ann" in page and "The SMTP password for ann" in page
            game = f"/game/{rep.genesis.game_id}"
            assert "None of your unlocked keys plays in this game" in app.get(game)
            status, answer = app.post("/unlock", {"name": "ann", "passphrase": "wrong horse"})
            assert status == 400 and "Nothing was written" in answer["message"]
            assert "Passphrase of your key ann" in app.get("/")
            status, answer = app.post("/unlock", {"name": "ann", "passphrase": PASSPHRASE})
            assert (status, answer["message"]) == (200, "Key ann unlocked (kept in memory until the app stops).")
            status, answer = app.post("/unlock", {"name": "smtp:ann", "passphrase": PASSWORD})
            assert status == 200
            page = app.get("/")
            assert "Passphrase of your key" not in page and "SMTP password" not in page
            assert "You play as ann." in app.get(game)
            status, answer = app.post(f"{game}/send", {})
            assert status == 200 and answer["message"].startswith("Sent to ben <ben@pbem.test>"), answer
            assert logins == [(b"ann", PASSWORD.encode())]
            status, answer = app.post("/unlock", {"name": "ann", "passphrase": PASSPHRASE})
            assert status == 400  # unlocked once: nothing is asked again
        finally:
            app.stop()
    for path in tmp_path.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            assert PASSPHRASE.encode() not in data and PASSWORD.encode() not in data, path
