"""Every check a genesis must pass before a game starts, each met by a genesis its author signed
honestly but built wrong (the id re-derived, so only the check under test can refuse it)."""

import base64
import random
from collections.abc import Callable

import pytest

from engine.sarcophagus.driver import deal
from engine.sarcophagus.hidden import layout_tiles
from pbem import crypto
from pbem.errors import BadGenesis, UnknownSigner
from pbem.protocol.genesis import new_game, start
from pbem.record.canonical import canonical
from pbem.record.models import Genesis, core_id, payload

from pbem_support import identity, played_game


def signed(body: dict, signer: str, keep_id: bool = False) -> Genesis:
    """The genesis `body` as its author would sign it, the game id derived from it (unless `keep_id`)."""
    if not keep_id:
        body["game_id"] = core_id(body)
    body["author"] = signer
    signature = base64.b64encode(identity(signer).sign(canonical(body))).decode()
    return Genesis.model_validate({**body, "signature": signature})


def refused(rep, change: Callable[[dict], None], message: str, signer: str | None = None, keep_id: bool = False):
    body = payload(rep.genesis)
    change(body)
    with pytest.raises(BadGenesis, match=message) as caught:
        start(signed(body, signer or rep.genesis.author, keep_id))
    assert (caught.value.seq, caught.value.author) == (0, signer or rep.genesis.author)


def sealed_to(*names: str) -> str:
    return base64.b64encode(crypto.seal(b"{}", [identity(n).public for n in names])).decode()


@pytest.fixture(scope="module")
def table():
    return played_game("table", players=("ann", "ben"), finish=False, started=False)


@pytest.fixture(scope="module")
def refereed():
    return played_game("referee", players=("ann", "ben"), finish=False, started=False)


def test_an_honest_genesis_starts_and_a_resigned_copy_of_it_too(table):
    body = payload(table.genesis)
    assert start(signed(body, "ann")).genesis == table.genesis


def test_the_roster_names_each_participant_once_with_a_key_of_their_own(table):
    def rename(name):
        return lambda body: body["players"][1].update(name=name)

    refused(table, rename("ann"), "the name 'ann' is used twice or reserved")
    refused(table, rename("dealer"), "the name 'dealer' is used twice or reserved")
    refused(table, lambda body: body["players"][1].update(key=body["players"][0]["key"]),
            "two participants share one key")
    body = payload(table.genesis)
    with pytest.raises(UnknownSigner, match="'cat' is not in the roster"):
        start(signed(body, "cat"))


def test_the_game_id_is_the_hash_of_the_invitation(table):
    refused(table, lambda body: body.update(game_id="0" * 32), "the game id is not derived from the genesis",
            keep_id=True)


def test_a_table_genesis_seals_its_key_to_every_player_and_the_dealers_secret_to_that_key(table):
    refused(table, lambda body: body["dealer"].update(table_key=base64.b64encode(b"k" * 31).decode()),
            "the table key is not an X25519 key")
    refused(table, lambda body: body["sealed"].pop("dealer"),
            "a table-mode genesis seals the dealer's secret and the table key")
    refused(table, lambda body: body["sealed"].update(table_key=sealed_to("ann")),
            "the table key must be sealed to every player, and to nobody else")
    refused(table, lambda body: body["sealed"].update(dealer=sealed_to("ann", "ben")),
            "the dealer's secret must be sealed to the table key alone")
    refused(table, lambda body: body.pop("seed"),
            "the seed of a joint deal is committed by the dealer: in the genesis only if the dealer made it")


def test_a_referee_genesis_seals_the_dealers_secret_to_the_referee_alone(refereed):
    refused(refereed, lambda body: body["sealed"].update(table_key=sealed_to("ann", "ben")),
            "a referee-mode genesis seals the dealer's secret only if it holds the deal")
    refused(refereed, lambda body: body["sealed"].update(dealer=sealed_to("ann")),
            "the dealer's secret must be sealed to the referee alone")


def test_a_chosen_deal_commits_to_every_hidden_item():
    chosen = new_game("sarcophagus", {}, [(n, identity(n).public) for n in ("ann", "ben")], "ann", identity("ann"),
                      None, layout=layout_tiles(deal(random.Random(1))), first="ben")

    def drop_one(body):
        body["commitments"].pop(sorted(body["commitments"])[0])

    refused(chosen, drop_one, "a chosen deal commits to every hidden item and names a player to move first")


def test_the_games_own_setup_rules_are_checked_at_the_genesis(table):
    refused(table, lambda body: body.update(options={"two_player": "maybe"}),
            "option two_player is one of pooled, seats, not 'maybe'")
    refused(table, lambda body: body.update(options={"speed": "fast"}), "unknown option 'speed'")
    refused(table, lambda body: body.update(game="chess"), "unknown game 'chess'")
