"""A judge that cheats a browser seat's key (issue 36): it makes the table's game with a key of its own in
cat's place while telling cat's page the key cat took, or tells fay's page another referee key than the
game's. Before it signs anything, a seat's page checks the game's signed genesis (its game id is the hash of
every player's key): it refuses, says so in one sentence, and posts nothing; the honest seat plays on. Then
the check itself (genesisFlaw in pbem/web/static/entries.js) against each way a genesis can fail to bind."""

from __future__ import annotations

import json

import pytest

from pbem.api.browser import _invitation
from pbem.crypto import Identity
from pbem.record.models import payload_hash

from paths_support import TESTS
from web_client_support import WebJudge, ready, sign, take_seat, text_of, wait
from web_support import shared_node


def not_yours(seat: str) -> str:
    return f"The judge's game does not hold your key for {seat}: do not play it (nothing was signed or sent)."


NOT_REFEREES = ("The judge's game does not hold the referee's key this page would seal your secrets to: do not "
                "play it (nothing was signed or sent).")


class CheatingJudge(WebJudge):
    """`pbem judge web` that swaps cat's key in the genesis and names another referee key to fay's page."""

    program = (str(TESTS / "cheating_web_judge.py"),)


@pytest.fixture(scope="module")
def judge(base):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PBEM_TEST_SWAP_SEAT", "cat")
        patch.setenv("PBEM_TEST_REFEREE_SEAT", "fay")
        with CheatingJudge(base) as running:
            yield running


def offered_join(browser) -> None:
    """Wait until the page offers the seat's join (the game begun and the seats before it joined)."""
    wait(browser, lambda b: ready(b)["offers"] == ["join"])


@pytest.mark.slow
def test_a_page_refuses_a_game_that_does_not_hold_its_key_and_posts_nothing(judge, browser):
    """Two tables: ann then cat (the genesis holds the judge's key in cat's place), dan then fay (fay's page is
    told another referee key). The honest seat joins first (a Sarcophagus join is owed in turn order), then
    the cheated seat's page refuses."""
    from selenium.webdriver.common.by import By

    tables = [(judge.invite("sarcophagus", "ann", "cat"), "ann", "cat", not_yours("cat")),
              (judge.invite("sarcophagus", "dan", "fay"), "dan", "fay", NOT_REFEREES)]
    pages = {}
    for links, honest, cheated, _ in tables:
        for name in (honest, cheated):
            browser.switch_to.new_window("tab")
            pages[name] = browser.current_window_handle
            take_seat(browser, links[name])
    for _, honest, cheated, refusal in tables:
        browser.switch_to.window(pages[honest])
        offered_join(browser)
        assert sign(browser) == "Signed and accepted by the judge: entry 1."
        browser.switch_to.window(pages[cheated])
        offered_join(browser)
        # the page sees its own key in the judge's view: only the signed genesis shows the cheat
        assert text_of(browser, "key-state").startswith(f"This browser holds {cheated}'s key")
        wait(browser, lambda b, refusal=refusal: text_of(b, "message") == refusal)
        assert browser.execute_script("return [...document.querySelectorAll('#options .option')]"
                                      ".every(b => b.disabled)")
        # a player who forces the button on is refused when signing, before the page signs anything
        browser.execute_script("document.querySelectorAll('#options .option').forEach(b => { b.disabled = false; });"
                               "document.getElementById('message').textContent = '';")
        browser.find_element(By.CSS_SELECTOR, "#options .option").click()
        browser.find_element(By.ID, "sign").click()
        wait(browser, lambda b: text_of(b, "message") and not b.execute_script(
            "return document.getElementById('turn').dataset.busy"))
        assert text_of(browser, "message") == refusal
    log = judge.log.read_text()
    assert "entry 1 posted by ann in a browser" in log and "entry 1 posted by dan in a browser" in log
    assert not any(f"by {name} in a browser" in log or f"{name} posted" in log for name in ("cat", "fay")), log
    games = [json.loads(path.read_text()) for path in judge.export()]
    assert sorted(entry["author"] for game in games for entry in game.get("entries", [])) == ["ann", "dan"]


JS_FLAW = """
const key = pbem.PublicKey.parse(input.key);
return pbem.genesisFlaw(input.genesis, input.reported, input.seat, key);"""


def test_the_check_refuses_every_genesis_that_does_not_bind_the_seat_and_referee_keys():
    node = shared_node()
    judge, ann, ben = Identity.generate(), Identity.generate(), Identity.generate()
    rep = _invitation("sarcophagus", [("ann", ann.public), ("ben", ben.public)], judge, [], None)
    genesis = rep.genesis.model_dump(exclude_none=True)
    reported = {"gameId": rep.genesis.game_id, "genesisHash": payload_hash(rep.genesis), "referee": "judge",
                "refereeKey": judge.public.line()}

    def flaw(seat="ann", key=ann, genesis=genesis, **changed):
        return node.call(JS_FLAW, {"genesis": genesis, "reported": {**reported, **changed}, "seat": seat,
                                   "key": key.public.line()})

    assert flaw() is None and flaw("ben", ben) is None
    not_anns = not_yours("ann")
    assert flaw(key=ben) == not_anns  # the genesis holds another key in ann's place
    assert flaw("dan", ann) == not_yours("dan")  # no such seat in it
    forged = {**genesis, "players": [{"name": "ann", "key": ben.public.line()}, genesis["players"][1]]}
    assert flaw(genesis=forged) == not_anns  # ann's key written in, but the game id is the hash of the real one
    assert flaw(genesis={**forged, "game_id": "0" * 32}, gameId="0" * 32) == not_anns
    assert flaw(gameId="0" * 32) == not_anns  # entries would name another game than this genesis
    assert flaw(genesisHash="0" * 64) == not_anns  # commitments would bind to another genesis
    assert flaw(genesis=None) == not_anns
    assert flaw(refereeKey=ben.public.line()) == NOT_REFEREES  # secrets sealed to another "referee"
    assert flaw(referee="ben") == NOT_REFEREES
    assert flaw(refereeKey="ssh-ed25519 AAAA") == not_anns  # a key line that does not parse holds nobody's key
