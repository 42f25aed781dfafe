"""Red team of the generic trust layer: cheaters with their own valid keys (a player, the creator, a table
player's dealer program, the referee) sign entries through the public interface against both games, each
attack refused with a precise error or convicted by a verdict, never blamed on an honest party."""

import base64
import copy
import functools
import random

import pytest
from typer.testing import CliRunner

from engine.contract import DEALER
from engine.path_of_pharaohs.cards import card_name, full_deck
from pbem import crypto
from pbem.cli import app
from pbem.errors import BadGenesis, BadOpening, IllegalMove, NotOwed, SealError, UsageError, WrongGame
from pbem.protocol.commitments import SEED, commit
from pbem.protocol.dealing import item_salt, restocked, stock_key
from pbem.protocol.entries import apply_entry, replay
from pbem.protocol.genesis import new_game, start
from pbem.protocol.session import Session
from pbem.protocol.verify import verify
from pbem.record.canonical import canonical
from pbem.record.models import GameFile, Genesis, core_id, payload, to_json
from pbem.transport import turns

from pbem_support import identity, played_game, sessions_for, start_play
from pop_support import FOUR, play_until, pop_game, sealed_blob

MODES = ["table", "referee"]


def _roomy(rep) -> bool:
    """Room for every attack below: a deal of two cards or more; a steal of two cards, the thief holding two."""
    what, state = rep.duties()[0].what, rep.state
    if what == "deal":
        return len(rep.game.legal_actions(state, DEALER)[0].slots) >= 2
    if what == "steal":
        return len(state.hands[state.victim]) >= 2 and len(state.hands[state.turn]) >= 2
    return True


@functools.cache
def _record_at(mode: str, what: str) -> GameFile:
    """A Path of Pharaohs record stopped where the next duty is `what` (found by trying a few games)."""
    for seed in range(60):
        rep, sessions = pop_game(mode, seed=seed, finish=False)
        if play_until(rep, sessions, lambda rep: rep.state is not None and bool(rep.duties())
                      and rep.duties()[0].what == what and _roomy(rep), random.Random(seed)):
            return rep.record
    raise AssertionError(f"no game reached a {what}")


def at(mode: str, what: str):
    """A fresh replay of that record, every participant's session on it, and the dealer's program."""
    rep = replay(_record_at(mode, what))
    sessions = sessions_for(rep)
    dealer = sessions[rep.referee or (rep.state.mover if rep.state.mover else rep.players[0])]
    return rep, sessions, dealer


def refused(rep, entry, error, message: str) -> None:
    """The entry is refused with exactly this error, and the replay is left as it was."""
    def snapshot():
        return (rep.seq, rep.head, {k: copy.copy(item) for k, item in rep.items.items()}, list(rep.stock),
                list(rep.seeded), rep.restocks, list(rep.contributions), rep.seed_commitment, rep.verdict)
    before = snapshot()
    with pytest.raises(error) as caught:
        apply_entry(rep, entry)
    expected = f"entry {rep.seq + 1} by {entry.author}: {message}"
    assert str(caught.value) == expected, f"{caught.value} instead of {expected}"
    assert snapshot() == before


# ---------------------------------------------------------------- the dealer's draws and reveals

@pytest.mark.parametrize("mode", MODES)
def test_a_dealer_deals_exactly_the_cards_owed_into_fresh_slots_sealed_to_the_receiver_alone(mode):
    rep, sessions, dealer = at(mode, "deal")
    action = dealer.dealer_action()
    honest = dealer.entry_for(action, DEALER)
    slots, player = list(action.slots), action.player
    other = next(name for name in FOUR if name != player)
    owed = f"deal exactly {len(slots)} cards, into slots #{slots[0]} to #{slots[-1]}"
    blobs = [honest.sealed[f"#{slot}"] for slot in slots]
    fewer = f"deal {player} " + " ".join(f"#{slot}" for slot in slots[:-1])
    refused(rep, dealer.sign({"action": fewer, "sealed": dict(zip([f"#{s}" for s in slots[:-1]], blobs))}),
            IllegalMove, f"{fewer}: {owed}")
    more = honest.action + f" #{slots[-1] + 1}"
    refused(rep, dealer.sign({"action": more, "sealed": {**honest.sealed, f"#{slots[-1] + 1}": blobs[0]}}),
            IllegalMove, f"{more}: {owed}")
    reused = f"deal {player} " + " ".join(f"#{i}" for i in range(len(slots)))  # slots of cards dealt before
    refused(rep, dealer.sign({"action": reused, "sealed": {f"#{i}": blob for i, blob in enumerate(blobs)}}),
            IllegalMove, f"{reused}: {owed}")
    elsewhere = honest.action.replace(f"deal {player} ", f"deal {other} ")
    refused(rep, dealer.sign({"action": elsewhere, "sealed": honest.sealed}), IllegalMove,
            f"{elsewhere}: the dealer owes cards to {player}")
    # a stock item sealed too, or a drawn card opened for all: exactly the draws' sealed values, nothing opened
    top = rep.stock[0]
    wanted = ", ".join(sorted(honest.sealed))
    refused(rep, dealer.sign({"action": honest.action, "sealed": {**honest.sealed, top: blobs[0]}}), IllegalMove,
            f"this action carries sealed values for exactly: {wanted}")
    refused(rep, dealer.sign({"action": honest.action, "sealed": honest.sealed,
                              "openings": {top: dealer._dealer_salt(top)}}),
            IllegalMove, "this action carries openings for exactly: none")
    # the private form (cards named) is not the record's
    private = rep.game.format_action(action)
    refused(rep, dealer.sign({"action": private, "sealed": honest.sealed}), IllegalMove,
            f"{private}: the record holds an action complete and public, as {honest.action!r}")
    # the true card and salt, sealed to the receiver and another (the referee too, in referee mode)
    last = f"#{slots[-1]}"
    value, salt = dealer.dealer_values()[rep.stock[len(slots) - 1]], dealer._dealer_salt(rep.stock[len(slots) - 1])
    for extra in [other] + ([rep.referee] if rep.referee else []):
        leak = sealed_blob(rep, last, value, salt, [player, extra])
        refused(rep, dealer.sign({"action": honest.action, "sealed": {**honest.sealed, last: leak}}), IllegalMove,
                f"the item dealt as {last} must be sealed to {player}, and to nobody else")
    # a player signs the dealer's act: at a table any player deals, so only in referee mode is it refused
    if mode == "referee":
        refused(rep, sessions[player].sign({"action": honest.action, "sealed": honest.sealed}), NotOwed,
                f"{honest.action}: {player} may not act for dealer")
    apply_entry(rep, honest)  # and the honest deal still goes through on the same replay
    assert [item.readers for key, item in rep.items.items() if key in honest.sealed] == [(player,)] * len(slots)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.slow
def test_the_stock_is_opened_top_first(mode):
    rep, _, dealer = at(mode, "reveal")
    top, second = rep.stock[:2]
    values = dealer.dealer_values()
    honest = dealer.entry_for(dealer.dealer_action(), DEALER)
    assert honest.action == f"reveal {values[top]}" and set(honest.openings) == {top}
    skip = f"reveal {values[second]}"
    refused(rep, dealer.sign({"action": skip, "openings": {second: dealer._dealer_salt(second)}}), IllegalMove,
            f"this action carries openings for exactly: {top}")
    if values[second] != values[top]:
        refused(rep, dealer.sign({"action": skip, "openings": {top: dealer._dealer_salt(second)}}), BadOpening,
                f"{top}={values[second]} does not match the item committed in the deal")
    refused(rep, dealer.sign({"action": honest.action, "openings": {**honest.openings,
                                                                   second: dealer._dealer_salt(second)}}),
            IllegalMove, f"this action carries openings for exactly: {top}")
    refused(rep, dealer.sign({"action": honest.action.upper(), "openings": honest.openings}), IllegalMove,
            f"{honest.action.upper()}: the record holds an action complete and public, as {honest.action!r}")


# ---------------------------------------------------------------- a Thief's steal

@pytest.mark.parametrize("mode", MODES)
@pytest.mark.slow
def test_a_steal_moves_unopened_cards_of_the_victim_picked_among_chances_choices(mode):
    rep, sessions, dealer = at(mode, "steal")
    thief, victim = rep.state.mover, rep.players[rep.state.victim]
    honest = dealer.entry_for(dealer.dealer_action(), DEALER)
    taken = sorted(honest.sealed, key=lambda key: int(key[1:]))
    blob = honest.sealed[taken[0]]
    take_two = f"take 2 distinct slots from {victim}'s hand"
    own = sorted((k for k, item in rep.items.items() if item.readers == (thief,) and item.value is None),
                 key=lambda key: int(key[1:]))[:2]
    steal_own = "steal " + " ".join(own)
    refused(rep, dealer.sign({"action": steal_own, "sealed": dict.fromkeys(own, blob)}), IllegalMove,
            f"{steal_own}: {take_two}")
    played = min((k for k, item in rep.items.items() if k.startswith("#") and item.value is not None),
                 key=lambda key: int(key[1:]))
    with_played = "steal " + " ".join(sorted([played, taken[0]], key=lambda key: int(key[1:])))
    refused(rep, dealer.sign({"action": with_played, "sealed": dict.fromkeys([played, taken[0]], blob)}),
            IllegalMove, f"{with_played}: {take_two}")
    one = f"steal {taken[0]}"
    refused(rep, dealer.sign({"action": one, "sealed": {taken[0]: blob}}), IllegalMove, f"{one}: {take_two}")
    stock = f"steal {taken[0]} {rep.stock[0]}"  # a stock key is no slot of the notation
    with pytest.raises(IllegalMove, match="write each card as its slot"):
        apply_entry(rep, dealer.sign({"action": stock, "sealed": {taken[0]: blob, rep.stock[0]: blob}}))
    backwards = "steal " + " ".join(reversed(taken))
    refused(rep, dealer.sign({"action": backwards, "sealed": honest.sealed}), IllegalMove,
            f"{backwards}: the record holds an action complete and public, as {honest.action!r}")
    to_victim = sealed_blob(rep, taken[0], "5", "00" * 32, [victim])
    refused(rep, dealer.sign({"action": honest.action, "sealed": {**honest.sealed, taken[0]: to_victim}}),
            IllegalMove, f"the item given as {taken[0]} must be sealed to {thief}, and to nobody else")
    if mode == "referee":  # the thief's own program may not pick
        refused(rep, sessions[thief].sign({"action": honest.action, "sealed": honest.sealed}), NotOwed,
                f"{honest.action}: {thief} may not act for dealer")
    apply_entry(rep, honest)
    assert rep.seeded[-1].what == "pick by chance" and rep.seeded[-1].seq == rep.seq


# ---------------------------------------------------------------- a reshuffle

@pytest.mark.parametrize("mode", MODES)
@pytest.mark.slow
def test_a_reshuffle_commits_exactly_the_discards_under_the_next_number(mode):
    rep, _, dealer = at(mode, "shuffle")
    honest = dealer.entry_for(dealer.dealer_action(), DEALER)
    number = rep.restocks + 1
    keys = [stock_key(number, i) for i in range(len(rep.state.discards))]
    assert set(honest.commitments) == set(keys) and not rep.stock
    exactly = "this action carries commitments for exactly: " + ", ".join(sorted(keys))
    commitments = [honest.commitments[key] for key in keys]
    for forged in ({k: honest.commitments[k] for k in keys[:-1]},
                   {**honest.commitments, stock_key(number, len(keys)): commitments[0]},
                   {stock_key(0, i): c for i, c in enumerate(commitments)},
                   {stock_key(number + 1, i): c for i, c in enumerate(commitments)},
                   {**honest.commitments, SEED: commitments[0]}):
        refused(rep, dealer.sign({"action": "shuffle", "commitments": forged}), IllegalMove, exactly)
    refused(rep, dealer.sign({"action": "shuffle", "commitments": honest.commitments,
                              "sealed": {keys[0]: "AAAA"}}), IllegalMove, "this action carries sealed values for exactly: none")


@pytest.mark.slow
def test_a_referee_that_stacks_a_reshuffle_convicts_itself_in_the_audit():
    """The referee posts the discards in an order of its choosing and deals from it consistently: nothing
    shows until the end, when the audit's seed gives another order."""
    rep, sessions, ref = at("referee", "shuffle")
    seed, number = ref.dealer_secret()["seed"], rep.restocks + 1
    fair = restocked(rep.genesis_hash, seed, rep.contributions, number, [card_name(c) for c in rep.state.discards])
    stacked = fair[::-1]  # its own order
    assert stacked != fair
    items = {stock_key(number, i): card for i, card in enumerate(stacked)}
    apply_entry(rep, ref.sign({"action": "shuffle", "commitments": {
        key: commit(rep.genesis.nonce, DEALER, key, card, item_salt(seed, key)) for key, card in items.items()}}))
    ref.dealer_values()
    ref._dealer_items.update(items)  # its modified program deals from the stacked order
    play_until(rep, sessions, lambda rep: False, random.Random(3))
    assert rep.entries[-1].action == "audit" and rep.verdict is not None
    assert (rep.verdict.against, rep.verdict.by) == ("ref", "ref")
    assert rep.verdict.reason.startswith(f"posted reshuffle {number} (entry ")
    assert verify(rep.record).verdict == rep.verdict


# ---------------------------------------------------------------- the audit and verdicts

@pytest.mark.parametrize("mode", MODES)
@pytest.mark.slow
def test_the_audit_comes_last_from_the_dealer_with_the_committed_seed(mode):
    rep, sessions, dealer = at(mode, "move")
    seed = dealer.dealer_secret()["seed"]
    refused(rep, dealer.sign({"action": "audit", "openings": {SEED: seed}}), NotOwed,
            "audit: nothing is owed of the kind now")
    rep, sessions, _ = at(mode, "move")
    play_until(rep, sessions, lambda rep: rep.duties()[0].what == "audit", random.Random(5))
    dealer = sessions[rep.referee or "cat"]
    if mode == "referee":
        refused(rep, sessions["ann"].sign({"action": "audit", "openings": {SEED: seed}}), NotOwed,
                "audit: ann may not act for the dealer")
    refused(rep, dealer.sign({"action": "audit", "openings": {SEED: "ab" * 32}}), BadOpening,
            "the opened seed does not match the dealer's commitment")
    refused(rep, dealer.sign({"action": "audit", "openings": {SEED: seed, "#0": "ab" * 32}}),
            IllegalMove, "this action carries openings for exactly: seed")
    refused(rep, dealer.sign({"action": "audit ", "openings": {SEED: seed}}), IllegalMove,
            "'audit ': the record holds this act as 'audit'")
    refused(rep, sessions["ann"].sign({"action": "stop"}), NotOwed,
            f"stop: the game is over: waiting for {'the referee ref' if mode == 'referee' else 'any player (the table deals)'}"
            " to open the dealer's seed")
    dealer.audit()
    assert rep.seed == seed and rep.over
    refused(rep, dealer.sign({"action": "audit", "openings": {SEED: seed}}), NotOwed,
            "audit: nothing is owed of the kind now")
    refused(rep, dealer.sign({"action": "verdict deal", "openings": {SEED: seed}}), IllegalMove,
            "verdict deal: the posted deal is exactly what the seed gives")
    assert verify(rep.record).seed == seed


def test_verdicts_that_prove_nothing_about_a_pharaohs_card_are_refused():
    """Players commit nothing in Path of Pharaohs: a card's opening proves no false choice, and a dealt card
    is the dealer's, not a player's secret the referee could call unopenable."""
    rep, sessions, ref = at("referee", "move")
    mover = rep.duties()[0].who
    for author in (ref, sessions[next(name for name in FOUR if name != mover)]):  # nobody moves for the mover
        refused(rep, author.sign({"action": "stop"}), NotOwed, f"stop: {author.name} may not act for {mover}")
    card = min((k for k, item in rep.items.items() if item.readers == (mover,)), key=lambda key: int(key[1:]))
    value, salt = sessions[mover]._open_item(card)
    for author in (ref, sessions[mover]):
        refused(rep, author.sign({"action": f"verdict open {card}={value}", "openings": {card: salt}}), IllegalMove,
                f"verdict open {card}={value}: these openings prove nothing against anyone")
    refused(rep, ref.sign({"action": f"verdict unopenable {card}"}), IllegalMove,
            f"verdict unopenable: there is no unopened {card} sealed to the referee")
    refused(rep, ref.sign({"action": f"verdict unopenable {rep.stock[0]}"}), IllegalMove,
            f"verdict unopenable: there is no unopened {rep.stock[0]} sealed to the referee")
    seed = ref.dealer_secret()["seed"]
    refused(rep, ref.sign({"action": "verdict deal", "openings": {SEED: seed}}), IllegalMove,
            "verdict deal: the posted deal is exactly what the seed gives")
    refused(rep, ref.sign({"action": "verdict  deal", "openings": {SEED: seed}}), IllegalMove,
            "'verdict  deal': the record holds this act as 'verdict deal'")


# ---------------------------------------------------------------- keys, texts and games mixed up

def test_keys_a_player_cannot_commit_under_and_act_texts_in_one_form_only():
    """Sarcophagus: a coin is committed under the key its placement names, never the dealer's `seed` or a
    stock key; a verdict's text is canonical (`#0=05` is not `#0=5`)."""
    rep = played_game("referee", players=("ann", "ben"), finish=False)
    sessions = start_play(rep)
    mover = sessions[rep.duties()[0].who]
    place = rep.game.legal_actions(rep.state, mover.name)[0]
    honest = mover.entry_for(type(place)(place.pos, 3), mover.name)
    [(key, commitment)] = honest.commitments.items()
    for other in (SEED, "s0.5", "1a"):
        refused(rep, mover.sign({"action": honest.action, "commitments": {other: commitment},
                                 "sealed": {other: honest.sealed[key]}}),
                IllegalMove, f"this action carries commitments for exactly: {key}")
    apply_entry(rep, honest)
    ref = sessions["ref"]
    _, salt = ref._open_item(key)
    refused(rep, ref.sign({"action": f"verdict open {key}=03", "openings": {key: salt}}), IllegalMove,
            f"'verdict open {key}=03': the record holds this act as 'verdict open {key}=3'")
    for text in (f"verdict open {SEED}=3", "verdict open s0.5=3"):
        refused(rep, ref.sign({"action": text, "openings": {text.split()[2][:-2]: salt}}), IllegalMove,
                f"{text}: these openings prove nothing against anyone")
    refused(rep, ref.sign({"action": f"verdict unopenable {SEED}"}), IllegalMove,
            f"verdict unopenable: there is no unopened {SEED} sealed to the referee")


def test_a_players_join_commits_no_seed_and_a_referees_seed_is_sealed_to_itself_alone():
    rep = new_game("path-of-pharaohs", {}, [(n, identity(n).public) for n in FOUR], "ann", identity("ann"),
                   ("ref", identity("ref").public))
    sessions = sessions_for(rep)
    seed = "cd" * 32
    commitment = commit(rep.genesis.nonce, DEALER, SEED, seed, "")
    to_ben = base64.b64encode(crypto.seal(canonical({"game": rep.genesis_hash, "seed": seed}),
                                          [identity("ben").public])).decode()
    refused(rep, sessions["ref"].sign({"action": "join", "contribution": "ab" * 32, "commitments": {SEED: commitment},
                                       "sealed": {SEED: to_ben}}),
            IllegalMove, "the referee's seed must be sealed to the referee alone")
    assert rep.contributions == [rep.genesis.contribution] and rep.seed_commitment is None
    sessions["ref"].join()  # the honest join still fits after the refused one
    refused(rep, sessions["ben"].sign({"action": "join", "contribution": "ab" * 32, "commitments": {SEED: commitment}}),
            IllegalMove, "this action carries commitments for exactly: none")


def test_entries_of_a_sarcophagus_game_mean_nothing_in_a_pharaohs_game():
    rep, sessions, _ = at("table", "move")
    sarcophagus = played_game("table", players=FOUR, finish=False)
    refused(rep, sarcophagus.entries[-1].model_copy(update={"seq": rep.seq + 1}), WrongGame,
            "this entry belongs to another game")
    placer = Session(sarcophagus, sarcophagus.duties()[0].who, identity(sarcophagus.duties()[0].who))
    placement = placer.entry_for(sarcophagus.game.legal_actions(sarcophagus.state, placer.name, placer.knowledge())[0],
                                 placer.name)
    mover = sessions[rep.duties()[0].who]  # the same content, signed by a seat of the Pharaohs game
    refused(rep, mover.sign({"action": placement.action, "commitments": placement.commitments,
                             "sealed": placement.sealed}),
            IllegalMove, f"{placement.action!r}: write the cards as e.g. 5, 3+3, 7-1 or W6 before the @")


# ---------------------------------------------------------------- genesis

def _resigned_genesis(genesis: Genesis, signer: str, **changes) -> Genesis:
    body = {**payload(genesis), **changes}
    body["game_id"] = core_id(body)
    body["signature"] = base64.b64encode(identity(signer).sign(canonical(body))).decode()
    return Genesis.model_validate(body)


NO_CHOSEN_DEAL = ("Path of Pharaohs has no chosen deal: its stock is reshuffled and picked from by chance, which "
                  "only a joint deal's seed can do")


def test_a_pharaohs_genesis_needs_3_to_6_players_and_a_joint_deal(tmp_path):
    rep = new_game("path-of-pharaohs", {}, [(n, identity(n).public) for n in FOUR[:3]], "ann", identity("ann"),
                   ("ref", identity("ref").public))
    seats = [{"name": p.name, "key": p.key} for p in rep.genesis.players]
    more = [{"name": f"p{i}", "key": " ".join(crypto.Identity.from_seed(bytes([60 + i]) * 32).public.line().split()[:2])}
            for i in range(4)]
    for players in (seats[:2], seats + more):
        with pytest.raises(BadGenesis, match=rf"Path of Pharaohs is for 3 to 6 players, not {len(players)}$"):
            start(_resigned_genesis(rep.genesis, "ann", players=players))
    deck = {stock_key(0, i): card_name(card) for i, card in enumerate(full_deck((5, 5, 5, 5)))}
    with pytest.raises(UsageError) as caught:
        new_game("path-of-pharaohs", {}, [(n, identity(n).public) for n in FOUR], "ann", identity("ann"),
                 ("ref", identity("ref").public), layout=deck, first="ann")
    assert str(caught.value) == NO_CHOSEN_DEAL
    # the creator crafts one anyway: every stock card committed in the genesis, sealed to the referee
    nonce = rep.genesis.nonce
    chosen = {"deal": "chosen", "first": "ann", "seed": None,
              "commitments": {key: commit(nonce, DEALER, key, card, "00" * 32) for key, card in deck.items()}}
    body = {k: v for k, v in {**payload(rep.genesis), **chosen}.items() if v is not None}
    body["game_id"] = core_id(body)
    body["sealed"] = {"dealer": base64.b64encode(crypto.seal(canonical({"game": body["game_id"]}),
                                                             [identity("ref").public])).decode()}
    body["signature"] = base64.b64encode(identity("ann").sign(canonical(body))).decode()
    crafted = GameFile(genesis=Genesis.model_validate(body), entries=[])
    path = tmp_path / "chosen.json"
    path.write_text(to_json(crafted))
    result = CliRunner().invoke(app, ["verify", str(path)])
    assert (result.exit_code, result.output) == (1, f"Error: {path}: the genesis by ann: {NO_CHOSEN_DEAL}\n")


# ---------------------------------------------------------------- what a refused entry leaves behind

def test_a_turn_refused_half_way_changes_nothing_an_honest_turn_needs():
    """A mail's turn with a genuine move then a forged entry is refused; the same genuine move arriving in
    the next mail is accepted (the refused turn left no card marked opened in the reader's copy)."""
    rep, sessions, _ = at("table", "move")
    local = replay(rep.record)  # the reader's copy
    mover = sessions[rep.duties()[0].who]
    opening = next(a for a in rep.game.legal_actions(rep.state, mover.name, mover.knowledge())
                   if rep.game.secrets(rep.state, mover.name, a).opens)
    mover.act(opening)
    genuine = rep.entries[-1]
    forged = mover.sign({"action": "stop", "openings": {"#0": "00" * 32}})

    def turn(*entries):
        return turns.TurnBlock(format=turns.FORMAT, game_id=rep.genesis.game_id, genesis=rep.hashes[0],
                          after=local.seq, prev=local.head, entries=list(entries))
    with pytest.raises(IllegalMove, match="this action carries openings for exactly: none"):
        turns.extend(local, turn(genuine, forged))
    assert turns.extend(local, turn(genuine)).entries[-1] == genuine


# ---------------------------------------------------------------- a card sealed badly by the dealer

def test_a_card_misdealt_at_a_table_is_read_from_the_seed_and_named_in_referee_mode():
    rep, _, dealer = at("table", "deal")
    action = dealer.dealer_action()
    honest = dealer.entry_for(action, DEALER)
    last = f"#{action.slots[-1]}"
    garbage = sealed_blob(rep, last, "W", "00" * 32, [action.player])  # addressed right, its content false
    apply_entry(rep, dealer.sign({"action": honest.action, "sealed": {**honest.sealed, last: garbage}}))
    receiver = Session(rep, action.player, identity(action.player))
    assert receiver.knowledge()[action.slots[-1]] == action.cards[-1]  # the seed's card, not the blob's
    rep, _, ref = at("referee", "deal")
    action = ref.dealer_action()
    honest = ref.entry_for(action, DEALER)
    last = f"#{action.slots[-1]}"
    garbage = sealed_blob(rep, last, "W", "00" * 32, [action.player])
    apply_entry(rep, ref.sign({"action": honest.action, "sealed": {**honest.sealed, last: garbage}}))
    with pytest.raises(SealError) as caught:
        Session(rep, action.player, identity(action.player)).knowledge()
    assert str(caught.value) == f"the sealed value of {last} does not match its commitment (sealed by ref)"


@pytest.mark.parametrize("mode", MODES)
def test_the_deal_is_posted_once_not_again_when_the_game_owes_cards(mode):
    """Path of Pharaohs's own duty to deal cards is also called "deal": the trust layer's `deal first=` is
    owed only before the game starts. (It was accepted then, posting the same deal again and setting the
    game back to its start, a reset the audit could not see: the same seed gives the same deal.)"""
    rep, sessions, dealer = at(mode, "deal")
    posted = next(entry for entry in rep.entries if entry.action.startswith("deal first="))
    for author in {dealer.name, rep.players[-1]} if mode == "table" else {dealer.name}:
        refused(rep, sessions[author].sign({"action": posted.action, "commitments": posted.commitments}), NotOwed,
                "deal: nothing is owed of the kind now")
