"""Path of Pharaohs through the trust layer: hands known to their owners alone, a deck nobody chose, a
Thief's pick nobody controls, and an end audit that accounts for all 80 cards. Each attack is played
by a participant's modified program with their own valid keys."""

import base64
import random
from collections import Counter

import pytest
from typer.testing import CliRunner

from engine.contract import DEALER
from engine.path_of_pharaohs.board import card_total
from engine.path_of_pharaohs.cards import card_name, full_deck
from pbem import crypto
from pbem.cli import app
from pbem.errors import BadOpening, IllegalMove, NotOwed, SealError
from pbem.protocol.commitments import commit
from pbem.protocol.dealing import item_salt, restocked, stock_key
from pbem.protocol.entries import apply_entry
from pbem.protocol.seeds import seeded_deal
from pbem.protocol.session import Session
from pbem.protocol.verify import verify
from pbem.record.canonical import canonical
from pbem.record.models import from_json, to_json

from pbem_support import identity
from pop_support import FOUR, play_until, pop_game


def seeded_values(rep) -> dict:
    """Every dealer item's card as the opened seed gives it, recomputed here from pbem.dealing alone."""
    _, values, _ = seeded_deal(rep, rep.seed)
    for posted in rep.seeded:
        if posted.what.startswith("reshuffle"):
            number, cards = posted.context
            order = restocked(rep.genesis_hash, rep.seed, rep.contributions, number, cards)
            values.update({stock_key(number, i): card for i, card in enumerate(order)})
    return values


@pytest.mark.parametrize("mode", ["table", "referee"])
@pytest.mark.slow
def test_a_whole_game_verifies_and_its_audit_accounts_for_all_80_cards(mode):
    rep, _ = pop_game(mode)
    checked = verify(from_json(to_json(rep.record).encode()))
    assert checked.outcome() is not None and checked.entries[-1].action == "audit" and checked.seed
    dealt, _, _ = seeded_deal(checked, checked.seed)
    assert Counter(dealt.stock) == Counter(card_name(card) for card in full_deck((5, 5, 5, 5)))
    assert len(dealt.stock) == 80 and card_total(checked.state) == 80
    values = seeded_values(checked)
    nonce = checked.genesis.nonce
    for key, item in checked.items.items():  # every card, played or still hidden, is the seed's
        assert item.commitment == commit(nonce, DEALER, item.key, values[item.key], item_salt(checked.seed, item.key))
        assert item.value in (None, values[item.key]), key


def test_each_hand_is_sealed_to_its_owner_alone():
    rep, sessions = pop_game("referee", finish=False)
    play_until(rep, sessions, lambda rep: rep.duties()[0].what == "move", random.Random(1))
    for name in FOUR:
        hand = sessions[name].knowledge()
        assert len(hand) == 5 and set(hand) == set(rep.state.hands[rep.players.index(name)])
    ann_card = next(key for key, item in rep.items.items() if item.readers == ("ann",))
    with pytest.raises(SealError, match=f"cannot open the sealed value of {ann_card} with ben's key"):
        Session(rep, "ben", identity("ben"))._open_item(ann_card)
    shown = rep.game.view(rep.state, "ben", sessions["ben"].knowledge())
    assert shown["hands"] == dict.fromkeys(FOUR, 5) and len(shown["my_hand"]) == 5


def test_a_player_who_lies_about_a_card_is_refused_and_named(tmp_path):
    rep, sessions = pop_game("table", finish=False)
    play_until(rep, sessions, lambda rep: rep.duties()[0].what == "move", random.Random(2))
    mover = rep.duties()[0].who
    cheat = sessions[mover]
    slot, card = min(cheat.knowledge().items())
    lie = (card + 1) % 10 if card <= 9 else 5  # a value card the slot does not hold
    salt = cheat._open_item(f"#{slot}")[1]  # the true card's salt: all a modified program has
    forged = cheat.sign({"action": f"{lie}#{slot}@1m", "openings": {f"#{slot}": salt}})
    with pytest.raises(BadOpening, match=f"by {mover}: #{slot}={lie} does not match the item committed in the deal"):
        apply_entry(rep, forged)
    # a card from another player's hand
    other = next(name for name in FOUR if name != mover)
    theirs = rep.state.hands[rep.players.index(other)][0]
    with pytest.raises(IllegalMove, match=f"#{theirs} is not in your hand"):
        apply_entry(rep, cheat.sign({"action": f"3#{theirs}@1m", "openings": {f"#{theirs}": "00" * 32}}))
    # and the file holding the lie is refused by every program, which names the liar
    path = tmp_path / "g.json"
    path.write_text(to_json(rep.record.model_copy(update={"entries": [*rep.entries, forged]})))
    result = CliRunner().invoke(app, ["verify", str(path)])
    assert result.exit_code == 1
    assert result.output == (f"Error: {path}: entry {rep.seq + 1} by {mover}: #{slot}={lie} does not match the item "
                             "committed in the deal\n")


def test_a_dealt_card_must_be_sealed_to_its_receiver_alone_and_only_the_dealer_deals():
    rep, sessions = pop_game("referee", finish=False)
    play_until(rep, sessions, lambda rep: rep.duties()[0].what == "deal" and rep.state is not None, random.Random(1))
    ref = sessions["ref"]
    action = ref.dealer_action()
    honest = ref.entry_for(action, DEALER)
    key = sorted(honest.sealed)[0]
    other = next(name for name in FOUR if name != action.player)
    elsewhere = base64.b64encode(crypto.seal(canonical({"game": rep.genesis_hash}), [identity(other).public])).decode()
    forged = ref.sign({"action": honest.action, "sealed": {**honest.sealed, key: elsewhere}})
    with pytest.raises(IllegalMove, match=f"the item dealt as {key} must be sealed to {action.player}, and to nobody"):
        apply_entry(rep, forged)
    with pytest.raises(NotOwed, match="ann may not act for dealer"):
        apply_entry(rep, sessions["ann"].sign({"action": honest.action, "sealed": honest.sealed}))


def _table_game_until(what: str):
    for seed in range(40):
        rep, sessions = pop_game("table", seed=seed, finish=False)
        if play_until(rep, sessions, lambda rep: bool(rep.duties()) and rep.duties()[0].what == what, random.Random(seed)):
            return rep, sessions
    raise AssertionError(f"no game reached a {what}")


def test_a_thief_who_picks_the_cards_is_convicted_by_the_next_program():
    rep, sessions = _table_game_until("steal")
    thief = sessions[rep.state.mover]
    fair = thief.dealer_action()
    choices = list(rep.game.legal_actions(rep.state, DEALER, thief.knowledge(as_dealer=True)))
    assert len(choices) > 1 and fair in choices
    chosen = next(choice for choice in choices if choice != fair)  # the thief's modified program chooses
    apply_entry(rep, thief.entry_for(chosen, DEALER))
    assert rep.verdict is None  # legal: only the seed tells the pick was not chance's
    honest = sessions[next(name for name in FOUR if name != thief.name)]
    honest.automatic()
    assert rep.entries[-1].action == "verdict deal" and rep.verdict.against == thief.name
    assert "posted pick by chance" in rep.verdict.reason
    assert verify(from_json(to_json(rep.record).encode())).verdict == rep.verdict


@pytest.mark.slow
def test_a_reshuffle_in_an_order_the_seed_does_not_give_is_convicted():
    rep, sessions = _table_game_until("shuffle")
    dealer = sessions[rep.state.mover]
    honest = dealer.entry_for(dealer.dealer_action(), DEALER)
    keys = sorted(honest.commitments, key=lambda k: int(k.split(".")[1]))
    values = [honest.commitments[k] for k in keys]
    swapped = dict(zip(keys, values[1:] + values[:1]))  # the same cards, stacked in another order
    apply_entry(rep, dealer.sign({"action": honest.action, "commitments": swapped}))
    sessions[next(name for name in FOUR if name != dealer.name)].automatic()
    assert rep.verdict is not None and rep.verdict.against == dealer.name and "reshuffle" in rep.verdict.reason


def test_in_referee_mode_moves_after_a_thief_wait_for_the_referees_pick():
    from pbem.api.turns import waiting_for_others

    for seed in range(40):
        rep, sessions = pop_game("referee", seed=seed, finish=False)
        if play_until(rep, sessions, lambda rep: bool(rep.duties()) and rep.duties()[0].what == "steal",
                      random.Random(seed)):
            break
    else:
        raise AssertionError("no game reached a steal")
    thief = rep.state.mover
    assert waiting_for_others(rep, thief)  # `pbem play ... T@ben stop` writes the Thief and leaves `stop`
    with pytest.raises(Exception, match="the dealer must move"):
        sessions[thief].act(rep.game.parse_action("stop"))
