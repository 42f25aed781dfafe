"""Turn blocks: they extend a copy, refuse what does not extend it, and survive what mail does to text."""

import random
import textwrap

import pytest

from pbem.errors import BadSignature, Equivocation, WrongGame
from pbem.protocol.bots import bot_turn
from pbem.protocol.entries import replay
from pbem.protocol.session import Session
from pbem.record.models import GameFile
from pbem.transport import turns
from pbem.transport.mail import compose
from pbem.transport.mailbox import items

from pbem_support import identity, played_game

BOOK = {"ann": "ann@example.org", "ben": "ben@example.org", "cat": "cat@example.org"}


@pytest.fixture(scope="module")
def game():
    return played_game(players=("ann", "ben", "cat"), seed=5)


def upto(rep, seq):
    return replay(GameFile.model_construct(genesis=rep.genesis, entries=list(rep.entries[:seq])))


@pytest.mark.slow
def test_a_turn_extends_a_copy_once(game):
    copy = upto(game, 10)
    turn = turns.parse(turns.find_blocks(turns.to_block(turns.make(game, 10)))[0].model_dump_json().encode())
    grown = turns.extend(copy, turn)
    assert grown.seq == game.seq and grown.head == game.head
    assert copy.seq == 10  # the copy it grew from is untouched
    assert turns.extend(grown, turn) is None  # the same mail read again: nothing new
    assert turns.extend(grown, turns.make(game, 4)) is None  # an older, overlapping turn: nothing new


def test_a_turn_that_overlaps_the_copy_adds_only_what_is_missing(game):
    grown = turns.extend(upto(game, 12), turns.make(game, 8))
    assert grown.seq == game.seq and grown.head == game.head


def test_a_turn_beyond_the_copy_waits_for_the_mail_between(game):
    with pytest.raises(turns.MissingEntries, match="starts after entry 15, but the copy here stops at entry 10"):
        turns.extend(upto(game, 10), turns.make(game, 15))


def test_a_turn_of_another_game_is_refused(game):
    other = played_game(players=("ann", "ben", "cat"), seed=6, finish=False)
    Session(other, "ann", identity("ann")).automatic()  # the table reveals the apex: entry 1
    with pytest.raises(WrongGame, match="belongs to another game"):
        turns.extend(upto(game, 0), turns.make(other, 0))


def test_a_second_version_of_an_entry_is_equivocation(game):
    seq = next(e.seq for e in game.entries[5:] if e.commitments)  # a placement, with a fresh salt each time
    rival = upto(game, seq - 1)
    author = game.entries[seq - 1].author
    bot_turn(Session(rival, author, identity(author)), "greedy", random.Random(2))  # fresh salts: a new entry
    with pytest.raises(Equivocation, match=f"{author} signed two different entries for seq {seq}"):
        turns.extend(upto(game, seq + 3), turns.make(rival, seq - 1))


def test_a_tampered_entry_is_refused(game):
    turn = turns.make(game, 10)
    bad = turn.entries[0].model_copy(update={"action": turn.entries[0].action + " "})
    with pytest.raises(BadSignature):
        turns.extend(upto(game, 10), turn.model_copy(update={"entries": [bad, *turn.entries[1:]]}))


def test_turn_sizes_stay_small(game):
    # one player's run of entries (a move and the reveals it causes) is a few KB, not the whole game
    block = turns.to_block(turns.make(game, game.seq - 3))
    assert len(block) < 6000 < len(turns.to_block(turns.make(game, 0)))


# ---------------------------------------------------------------- what mail clients do to the text

def quoted(text):
    return "".join(f"> {line}\n" for line in text.splitlines())


def rewrapped(text):
    """A client that reflows each paragraph at 72 columns, breaking long words too."""
    return "\n\n".join(textwrap.fill(p, 72, break_long_words=True) for p in text.split("\n\n"))


def joined_and_cut(text):
    """A client that joins each paragraph's lines into one and cuts it every 72 characters."""
    return "\n\n".join(textwrap.fill(p.replace("\n", ""), 72, break_long_words=True) for p in text.split("\n\n"))


def crlf(text):
    return text.replace("\n", "\r\n")


@pytest.mark.parametrize("mangle", [quoted, lambda t: quoted(quoted(t)), rewrapped, lambda t: quoted(rewrapped(t)),
                                    joined_and_cut, lambda t: quoted(joined_and_cut(t)), crlf],
                         ids=["quoted", "quoted-twice", "rewrapped-72", "rewrapped-quoted", "joined-cut-72",
                              "joined-cut-quoted", "crlf"])
def test_the_block_survives_the_mail_client(game, mangle):
    body = compose(game, "ann", game.seq - 6, book=BOOK).get_content()
    found = items("mail", mangle(body).encode())
    assert [f.item for f in found] == [turns.make(game, game.seq - 6)]


@pytest.mark.parametrize("encoding", ["quoted-printable", "base64"])
def test_the_block_survives_transfer_encodings(game, encoding):
    mail = compose(game, "ann", game.seq - 6, book=BOOK)
    body = mail.get_content()
    if encoding == "base64":
        mail.set_content(body, cte="base64")
        assert "-----BEGIN PBEM TURN" not in mail.as_string()  # only a decoder sees the block
    else:
        mail.set_content(body.replace("-----\n", "-----  \n"), cte="quoted-printable")  # trailing spaces: =20
        assert "=20" in mail.as_string() or "=3D" in mail.as_string()
    raw = crlf(mail.as_string()).encode()
    assert [f.item for f in items("mail", raw)] == [turns.make(game, game.seq - 6)]


def test_a_damaged_block_is_named(game):
    body = compose(game, "ann", game.seq - 6, book=BOOK).get_content()
    lines = body.splitlines()
    middle = next(i for i, line in enumerate(lines) if line.startswith("-----BEGIN")) + 3
    lines[middle] = lines[middle][:10] + ("B" if lines[middle][10] == "A" else "A") + lines[middle][11:]
    found = items("mail", "\n".join(lines).encode())
    assert [str(f.item) for f in found] == ["the armored turn block is damaged (was it cut, or edited?)"]
