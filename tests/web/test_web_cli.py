"""`pbem judge invite` as the judge's operator types it: the links it prints, one a browser seat, and one
`Error:` line with exit status 1 for what it cannot make a table of."""

from __future__ import annotations

import hashlib
import re
import sqlite3

import pytest

from judge_support import cli, fast_cli, memory_folder, ok, write_config

base = pytest.fixture(memory_folder)


@pytest.fixture
def config(base, monkeypatch):
    fast_cli(monkeypatch)
    return write_config(base, 2525, maildir=base / "mail" / "judge")


def test_invite_prints_one_link_a_browser_seat_and_names_the_players_by_mail(base, config):
    key = ok(cli(base / "ben", 0, "key", "new", "ben", "--no-passphrase")).splitlines()[-1]
    out = ok(cli(base / "op", 0, "judge", "invite", config, "path-of-pharaohs", "ann", "ben", "cat", "--key", f"ben={key}",
                 "--mail", "ben=ben@example.org", "--url", "https://pbem.example.org/"))
    lines = out.splitlines()
    assert re.fullmatch(r"Table [0-9a-f]{16}: path-of-pharaohs with ann, ben, cat; the judge referees it as judge\.",
                        lines[0])
    assert re.fullmatch(r"ann: https://pbem\.example\.org/join/[A-Za-z0-9_-]{43}", lines[1])
    assert lines[2] == "ben: by mail, ben@example.org"
    assert re.fullmatch(r"cat: https://pbem\.example\.org/join/[A-Za-z0-9_-]{43}", lines[3])
    assert lines[1] != lines[3] and lines[4:] == ["Each link takes its seat once; the game starts when every seat is taken."]
    tokens = [line.rsplit("/", 1)[1] for line in (lines[1], lines[3])]
    with sqlite3.connect(base / "judge-home" / "judge.db") as db:  # only each capability's hash is kept
        stored = db.execute("SELECT token_hash, name, key, used FROM web_seats ORDER BY name").fetchall()
    assert stored == [(hashlib.sha256(t.encode()).hexdigest(), n, None, None) for t, n in zip(tokens, ["ann", "cat"])]


@pytest.mark.parametrize(("args", "error"), [
    (["chess", "ann", "ben"], "Error: no game 'chess': pbem plays sarcophagus, path-of-pharaohs"),
    (["sarcophagus", "ann"], "Error: Sarcophagus is for 2 to 4 players, not 1"),
    (["sarcophagus", "ann", "ben", "--option", "rows=99"],
     "Error: unknown option 'rows' (options: two_player, bottom_edge_free)"),
    (["sarcophagus", "ann", "ann"], "Error: each seat needs a name of its own, and not 'judge' (the judge's)"),
    (["sarcophagus", "ann", "judge"], "Error: each seat needs a name of its own, and not 'judge' (the judge's)"),
    (["sarcophagus", "ann", "b c"], "Error: 'b c' is not a name pbem takes (letters, digits, - and _)"),
    (["sarcophagus", "ann", "ben", "--mail", "dan=dan@example.org"],
     "Error: 'dan=dan@example.org': give NAME=ADDRESS for one of the seats"),
    (["sarcophagus", "ann", "ben", "--key", "ben=ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA== ben"],
     "Error: a player by mail needs --mail NAME=ADDRESS: ben"),
    (["sarcophagus", "ann", "ben", "--key", "ben=nowhere.pub", "--mail", "ben=ben@example.org"],
     "Error: no such file: nowhere.pub"),
])
def test_invite_refuses_what_it_cannot_make_a_table_of(base, config, args, error):
    result = cli(base / "op", 0, "judge", "invite", config, *args)
    assert (result.exit_code, result.output.splitlines()[:1]) == (1, [error]), result.output


def test_web_says_in_one_line_why_it_cannot_start(base, config):
    import socket

    result = cli(base / "op", 0, "judge", "web", base / "missing.toml")
    assert (result.exit_code, result.output) == (1, f"Error: no judge configuration at {base / 'missing.toml'}\n")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        result = cli(base / "op", 0, "judge", "web", config, "--port", taken.getsockname()[1])
    assert (result.exit_code, result.output) == (1, "Error: Address already in use\n")


def test_tables_lists_the_seats_and_relink_replaces_a_lost_link(base, config):
    key = ok(cli(base / "cat", 0, "key", "new", "cat", "--no-passphrase")).splitlines()[-1]
    out = ok(cli(base / "op", 0, "judge", "invite", config, "sarcophagus", "ann", "ben", "cat", "--key", f"cat={key}",
                 "--mail", "cat=cat@example.org"))
    table, old = out.split()[1].rstrip(":"), out.splitlines()[2].split(": ")[1]
    assert ok(cli(base / "op", 0, "judge", "tables", config)).splitlines() == [
        f"{table} sarcophagus: ann (free), ben (free), cat (by mail); waiting for its seats", "1 table."]
    new = ok(cli(base / "op", 0, "judge", "relink", config, table, "ben", "--url", "https://pbem.example.org"))
    lines = new.splitlines()
    assert re.fullmatch(r"ben: https://pbem\.example\.org/join/[A-Za-z0-9_-]{43}", lines[0])
    assert lines[1:] == ["The seat's old link takes nothing any more."]
    with sqlite3.connect(base / "judge-home" / "judge.db") as db:
        hashes = {row[0] for row in db.execute("SELECT token_hash FROM web_seats WHERE name = 'ben'")}
    assert hashes == {hashlib.sha256(lines[0].rsplit("/", 1)[1].encode()).hexdigest()}
    assert hashlib.sha256(old.rsplit("/", 1)[1].encode()).hexdigest() not in hashes
    for args, error in (([table, "cat"], f"Error: no browser seat 'cat' at table {table}"),
                        (["0" * 16, "ben"], "Error: no browser seat 'ben' at table 0000000000000000")):
        result = cli(base / "op", 0, "judge", "relink", config, *args)
        assert (result.exit_code, result.output) == (1, error + "\n")
