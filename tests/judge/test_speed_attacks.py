"""Today's speed-ups that touch trust, attacked as a cheating player would: the memo of opened blobs
(age.unseal), the plain reading of judge.toml beside its strict model, and pre-receive reading each game
file of a push once. Each attack here must be refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pbem.crypto.age import X25519Identity, seal, unseal
from pbem.crypto.keys import Identity
from pbem.errors import NotForYou, UsageError
from pbem.judge import config

from git_support import GAME, PLAYERS, assert_private, push, run
from judge_support import cli, ok

# ---------------------------------------------------------------- the memo of opened blobs


def test_a_blob_opened_by_an_ed25519_key_does_not_open_from_memory_for_an_x25519_key_of_the_same_scalar():
    """The memo is keyed by the opener's private scalar; an X25519 identity made of an ed25519 key's
    scalar is the same X25519 key, yet it cannot open an ssh-ed25519 stanza (age ties that stanza to the
    ssh key's tag and tweak): what the ed25519 key opened must not be handed to it from memory."""
    me = Identity.generate()
    blob = seal(b'{"value": 7}', [me.public])
    assert unseal(blob, me) == b'{"value": 7}'  # now in memory
    twin = X25519Identity(me.x25519_scalar())
    for _ in range(2):  # and a refusal is not kept either way
        with pytest.raises(NotForYou):
            unseal(blob, twin)
    assert unseal(blob, me) == b'{"value": 7}'


# ---------------------------------------------------------------- judge.toml: plain reading vs the model

ODD_TOML = [
    'home = "h"\nkey = "k"\naddress = "judge@example.org"\nhome = "g"\n',  # a key twice: not TOML
    'home = "h"\nkey = "k"\naddress = "judge@example.org"\nmailbox.maildir = "m"\n[mailbox]\npoll_seconds = 5\n',
    'home = "h"\nkey = "k"\naddress = "judge@example.org"\n[git]\nbranch = "main"\n[git]\ngames = "g/"\n',
    'home = "h"\nkey = "k"\naddress = "judge@example.org"\n[mailbox]\nmaildir = "m"\npoll_seconds = 1979-05-27\n',
    'home = 1979-05-27T07:32:00Z\nkey = "k"\naddress = "judge@example.org"\n',
    'home = ["h"]\nkey = "k"\naddress = "judge@example.org"\n',
    'home = "h"\nkey = "k"\naddress = "judge\\u2028@example.org"\n',
    'home = "h"\nkey = "k"\naddress = "judge\\u0085@example.org"\n',
    'home = "h"\nkey = "k"\naddress = "judge\\u3000@example.org"\n',
    'home = "h"\nkey = "k"\naddress = "judge\\u200b@example.org"\n',  # not a space to either: taken
    'home = "h\\u0000"\nkey = "k"\naddress = "judge@example.org"\n',
    'home = "h\u00e9\u4e2d"\nkey = "k"\naddress = "judge@example.org"\n',
    'home = "h"\nkey = "k"\naddress = "judge@example.org"\n[contacts]\n"ann\u0661" = "a@b"\n',
    'home = "h"\nkey = "k"\naddress = "judge@example.org"\n[contacts]\n"\u0430nn" = "a@b"\n',  # Cyrillic a
    'home = "h"\nkey = "k"\naddress = "judge@example.org"\n[contacts]\n"ANN" = "a@b"\n',
    'home = "h"\nkey = "k"\naddress = "judge@example.org"\n[git]\nbranch = "ma\u0131n"\n',
    'home = "h"\nkey = "k"\naddress = "judge@example.org"\n[git]\ngames = "g\u00e9/"\n',
    'home = "h"\nkey = "k"\naddress = "judge@example.org"\n[git.extra]\nx = 1\n',
    'home = "h"\nkey = "k"\naddress = "judge@example.org"\n[smtp]\nserver = "s"\nuser = ["u"]\n',
    'home = "h"\nkey = "k"\naddress = "judge@example.org"\n[smtp]\nserver = "s"\nsecurity = "tls\\n"\n',
    'home = "h"\nkey = "k"\naddress = "judge@example.org"\n[mailbox]\nimap = "imaps://x"\npoll_seconds = -0.0\n',
    'home = "h"\nkey = "k"\naddress = "judge@example.org"\n[mailbox]\nimap = "IMAPS://x"\n',
    'home = "h"\nkey = "k"\naddress = "judge@example.org"\n[mailbox]\nimap = " imaps://x"\n',
    'home = "h"\nkey = "k"\naddress = "judge@example.org"\n[[contacts]]\nann = "a@b"\n',
    'home = "h"\nkey = "k"\naddress = "judge@example.org"\ncontacts = {ann = "a@b", ben = {x = "y"}}\n',
    'home = "h"\nkey = "k"\naddress = "judge@example.org"\nmailbox = {maildir = "m", poll_seconds = 86400}\n',
]


@pytest.mark.parametrize("text", ODD_TOML)
def test_an_odd_judge_toml_reads_as_the_strict_model_reads_it(tmp_path: Path, text: str):
    """Whatever the plain reading makes of a file, the strict model's word stands: the same settings,
    or the same refusal."""
    import tomllib

    path = tmp_path / "judge.toml"
    path.write_text(text, encoding="utf-8")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        with pytest.raises(UsageError, match="not valid TOML"):
            config.load(path)
        return
    try:
        expected = config.modelled(data, path)
    except UsageError as refusal:
        with pytest.raises(UsageError) as got:
            config.load(path)
        assert str(got.value) == str(refusal)
        return
    assert config.plain(data) in (None, expected)
    loaded = config.load(path)
    assert (loaded.address, loaded.git, loaded.contacts, loaded.imap, loaded.poll) == (
        expected["address"], expected["git"], expected["contacts"],
        expected["mailbox"]["imap"] if expected["mailbox"] else None,
        expected["mailbox"]["poll_seconds"] if expected["mailbox"] else 60.0)


# ---------------------------------------------------------------- pre-receive


@pytest.mark.slow
def test_a_push_may_not_rename_a_game_file_while_rolling_it_back(table):
    """A rename hides the old path's history from a check by path: the game is still found by its id."""
    base, _, works = table
    ann = works["ann"]
    run(ann, "pull", "-q", "--rebase")
    old = run(ann, "log", "--reverse", "--format=%H", "--", GAME).stdout.split()[0]
    run(ann, "rm", "-q", GAME)
    (ann / "games").mkdir(exist_ok=True)
    (ann / "games" / "renamed.json").write_text(run(ann, "show", f"{old}:{GAME}").stdout)
    done = push(ann, "rename and roll back")
    lines = assert_private(done, base)
    assert done.returncode != 0, done.stderr
    assert f"Error: refs/heads/main: {GAME} deleted: a game file is never removed" in lines
    assert any("games/renamed.json: this file stops at entry 0, but entry" in line for line in lines), lines


@pytest.mark.slow
def test_a_push_may_not_replace_a_game_file_with_another_game(table):
    """Ann makes a new game of her own and writes it over the refereed game's file: the refereed game is
    gone from the branch as surely as if its file were deleted, which is refused."""
    base, _, works = table
    ann = works["ann"]
    run(ann, "pull", "-q", "--rebase")
    keys = {n: ok(cli(base / n, 0, "key", "show", n)).splitlines()[-1] for n in PLAYERS}
    other = base / "other.json"
    ok(cli(base / "ann", 0, "new", "path-of-pharaohs", "-o", other, "--as", "ann",
           *[f"--player={n}={keys[n]}" for n in PLAYERS]))
    (ann / GAME).write_bytes(other.read_bytes())
    done = push(ann, "a game of my own in its place")
    lines = assert_private(done, base)
    assert done.returncode != 0 and lines and all(line.startswith("Error: ") for line in lines), done.stderr
    assert any(f"main: {GAME}: it held the game " in line and "a game file holds one game for good" in line
               for line in lines), lines


# ---------------------------------------------------------------- the web judge's pages kept per seat and entry


@pytest.fixture(scope="module")
def web_judge():
    from judge_support import memory_folder
    from web_client_support import WebJudge

    for base in memory_folder():
        with WebJudge(base) as running:
            yield running


@pytest.mark.slow
def test_a_seats_kept_page_goes_to_that_seat_alone_and_never_outlives_its_entry(web_judge):
    """Pages are kept per game, head and seat: another seat's session gets no page of a seat it does not
    hold (nor by posting there), every seat's page follows each entry at once, and the page an entry's
    answer carries is the poster's, as its own GET gives it, never another seat's hand."""
    from web_client_support import entry_for, seated

    seats = ["ann", "ben", "cat"]
    _, clients, plays = seated(web_judge, "sarcophagus", *seats)

    def check_pages(seq: int) -> dict[str, dict]:
        pages = {name: clients[name].state(plays[name]) for name in seats}
        assert {name: (page["seat"], page["seq"]) for name, page in pages.items()} == {n: (n, seq) for n in seats}
        for name in seats:  # ann's session, kept pages or not, gets nothing of ben's or cat's
            for other in seats:
                if other != name:
                    peek = clients[name].state(plays[other])
                    assert peek == {"ok": True, "holds": False, "key": clients[other].keys[other].public.line()}
        return pages

    pages, moves = check_pages(0), 0
    while moves < 8:
        owing = [n for n in seats if pages[n]["offers"]]
        assert owing, pages
        poster = owing[0]
        entry = entry_for(clients[poster].keys[poster], pages[poster], pages[poster]["offers"][0])
        for other in seats:  # posted through another seat's session: refused, no page in the answer
            if other != poster:
                status, answer = clients[other].post("/api" + plays[poster] + "/entry", {"entry": entry})
                assert status == 403 and "state" not in answer, answer
        status, answer = clients[poster].post("/api" + plays[poster] + "/entry", {"entry": entry})
        assert status == 200 and answer["ok"], answer
        assert answer["state"]["seq"] >= answer["seq"]  # the duties after it are in the page: the judge's join, its deal
        pages = check_pages(answer["state"]["seq"])
        assert answer["state"] == pages[poster]
        moves += 1
    assert pages["ann"]["seq"] > 3  # dealt: each seat's page shows its own hand
    assert len({json.dumps([pages[n]["board"], pages[n]["sealedToMe"]]) for n in seats}) == 3
