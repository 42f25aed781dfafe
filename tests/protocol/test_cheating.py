"""Cheaters with their own valid keys, through the public interface: each attack of issue 9 played, and
each one caught, named and recorded (or made impossible), never blamed on the party that exposes it."""

import base64
import json
import random
import shutil

import pytest
from typer.testing import CliRunner

from engine.sarcophagus.actions import Place
from engine.sarcophagus.hidden import layout_tiles
from pbem import crypto
from pbem.cli import app
from pbem.errors import BadGenesis, BadOpening, IllegalMove, NotOwed, SealError
from pbem.presentation.terminal import next_line
from pbem.protocol.entries import apply_entry, replay
from pbem.protocol.genesis import new_game
from pbem.protocol.session import Session
from pbem.protocol.verify import verify
from pbem.record.canonical import canonical
from pbem.record.models import GameFile, Genesis, core_id, from_json, payload, to_json

from engine_support import layout_with
from pbem_support import identity, played_game, sessions_for, start_play

runner = CliRunner()


def place_false(session: Session, value: int) -> None:
    """A modified client: places a coin of `value` on the first tile the rules allow, held or not, and opens
    nothing on its own. Nothing stops it at placement: the value is sealed."""
    rep = session.rep
    pos = rep.game.legal_actions(rep.state, session.name)[0].pos
    apply_entry(rep, session.entry_for(Place(pos, value), session.name))


def play_with_a_cheat(rep, cheat: str, value: int = 5, limit: int = 400):
    """Everyone plays greedy through their own sessions; `cheat` places only coins of `value`."""
    from engine.sarcophagus.driver import greedy_policy

    sessions = start_play(rep)
    rng = random.Random(3)
    dealer = rep.referee or rep.players[0]
    for _ in range(limit):
        owed = rep.duties()
        if not owed:
            return sessions
        duty = owed[0]
        if duty.what == "move" and duty.who == cheat:
            place_false(sessions[cheat], value)
        elif duty.what in ("move", "discard"):
            player = sessions[duty.who]
            actions = list(rep.game.legal_actions(rep.state, duty.who, player.knowledge()))
            player.act(greedy_policy(rep.state, duty.who, actions, rng))
            player.automatic()
        else:  # a referee settles every reveal and opening; at a table each player opens their own
            sessions[duty.who if duty.who in sessions and not rep.referee else dealer].automatic()
    raise AssertionError("the game did not end")


@pytest.mark.slow
def test_false_coins_in_table_mode_end_in_a_verdict_signed_by_the_cheater_themselves():
    rep = played_game("table", players=("ann", "ben"), finish=False)
    play_with_a_cheat(rep, "ann")
    verdict = rep.verdict
    assert verdict is not None and verdict.against == "ann" and verdict.by == "ann"
    assert "placed a coin they did not hold" in verdict.reason and "ann had no coin of that value" in verdict.reason
    # the entry that proves it is in the file, every verifier re-checks it, and the game is over
    checked = verify(from_json(to_json(rep.record).encode()))
    assert checked.verdict == verdict and not checked.duties() and checked.outcome() is None
    assert next_line(checked) == f"Game over: {verdict}"
    assert rep.entries[-1].action.startswith("open ")  # ann's own (true) opening convicts her


def test_a_referee_catches_a_false_coin_in_its_next_entry():
    rep = played_game("referee", players=("ann", "ben", "cat"), finish=False)
    play_with_a_cheat(rep, "ann")
    verdict = rep.verdict
    assert verdict is not None and (verdict.against, verdict.by) == ("ann", "ref")
    authors = [e.author for e in rep.entries]
    false_coin = max(i for i, e in enumerate(rep.entries[:verdict.seq - 1]) if e.author == "ann")
    assert "ref" not in authors[false_coin + 1:verdict.seq - 1]  # no referee entry between the cheat and the verdict
    assert rep.entries[-1].action.startswith("verdict open ")
    assert verify(from_json(to_json(rep.record).encode())).verdict == verdict
    # a single-suit player holds one 5: her second 5 convicts, long before any tie-break or audit
    assert "ann's 2nd coin opened as 5, but ann had no coin of that value left" in verdict.reason


def test_a_false_accusation_or_an_unopenable_claim_by_a_player_is_refused():
    rep = played_game("referee", players=("ann", "ben"), finish=False)
    sessions = start_play(rep)
    sessions[rep.duties()[0].who].act(rep.game.parse_action("3"))
    ref = sessions["ref"]
    value, salt = ref._open_item("#0")
    honest = ref.sign({"action": f"verdict open #0={value}", "openings": {"#0": salt}})
    with pytest.raises(IllegalMove, match="these openings prove nothing against anyone"):
        apply_entry(replay(rep.record), honest)
    lie = ref.sign({"action": f"verdict open #0={(value + 1) % 6}", "openings": {"#0": salt}})
    with pytest.raises((BadOpening, IllegalMove)):
        apply_entry(replay(rep.record), lie)
    claim = sessions["ben"].sign({"action": "verdict unopenable #0"})
    with pytest.raises(NotOwed, match="only the referee"):
        apply_entry(replay(rep.record), claim)


def splice(victim: bytes, decoy: bytes) -> bytes:
    """The victim's age file with its first recipient stanza replaced by the decoy's first one."""
    head, rest = victim.split(b"\n--- ", 1)
    stanzas = head.split(b"\n-> ")
    stanzas[1] = decoy.split(b"\n--- ", 1)[0].split(b"\n-> ")[1]
    return b"\n-> ".join(stanzas) + b"\n--- " + rest


def test_the_referee_opens_nothing_carried_over_from_another_game():
    """The decryption-oracle attack: mallory copies alice's sealed coin from game 1 into a game of her own
    where she sits as 'alice', and forces the referee to act."""
    ref = identity("ref")
    alice, mallory = identity("ann"), identity("ben")
    one = new_game("sarcophagus", {}, [("alice", alice.public), ("bob", identity("cat").public)], "ref", ref,
                   ("ref", ref.public))
    for name, key in (("alice", alice), ("bob", identity("cat"))):
        Session(one, name, key).automatic()
    Session(one, "ref", ref).automatic()
    first = one.first
    Session(one, first, {"alice": alice, "bob": identity("cat")}[first]).act(one.game.parse_action("4"))
    stolen = one.entries[-1]
    # game 2: mallory's own key in the seat called alice, the same referee
    two = new_game("sarcophagus", {}, [("alice", mallory.public), ("mal", identity("dan").public)], "ref", ref,
                   ("ref", ref.public))
    two_sessions = {"alice": Session(two, "alice", mallory), "mal": Session(two, "mal", identity("dan")),
                    "ref": Session(two, "ref", ref)}
    while two.duties()[0].what != "move":
        duty = two.duties()[0]
        two_sessions[duty.who if duty.who in two_sessions else "ref"].automatic()
    mover = two.duties()[0].who
    # alice's blob opens only for alice and the referee; mallory swaps alice's recipient stanza for one of
    # her own, so the header names the seat's key and the referee as the rules want
    victim = base64.b64decode(stolen.sealed["#0"])
    decoy = crypto.seal(b"{}", [two.roster[mover], ref.public])
    copied = two_sessions[mover].sign({"action": "@1a", "commitments": {"#0": stolen.commitments["#0"]},
                                       "sealed": {"#0": base64.b64encode(splice(victim, decoy)).decode()}})
    apply_entry(two, copied)  # nobody but the referee can tell
    two_sessions["ref"].automatic()
    assert two.entries[-1].action == "verdict unopenable #0" and two.verdict.against == mover
    assert not any(e.action.startswith("open") or (e.openings and "#0" in e.openings) for e in two.entries)


def test_a_copied_invitation_is_refused_by_the_referee_before_it_deals():
    ref, alice = identity("ref"), identity("ann")
    one = new_game("sarcophagus", {}, [("alice", alice.public), ("bob", identity("cat").public)], "alice", alice,
                   ("ref", ref.public), layout=layout_tiles(layout_with(seed=5)), first="alice")
    body = payload(one.genesis)
    body["players"] = [{"name": "alice", "key": " ".join(identity("ben").public.line().split()[:2])},
                       body["players"][1]]  # mallory's key in alice's seat; nonce, commitments, sealed deal copied
    body["game_id"] = core_id(body)
    signature = base64.b64encode(identity("ben").sign(canonical(body))).decode()
    two = replay(GameFile(genesis=Genesis.model_validate({**body, "signature": signature}), entries=[]))
    with pytest.raises(SealError, match="cannot open the dealer's secret sealed by alice with ref's key for this game"):
        Session(two, "ref", ref).automatic()


def test_a_player_cannot_make_a_referee_game_whose_deal_they_know():
    rep = played_game("referee", players=("ann", "ben"), finish=False, started=False)
    assert rep.genesis.author == "ref"
    player_made = new_game("sarcophagus", {}, [("ann", identity("ann").public), ("ben", identity("ben").public)],
                           "ann", identity("ann"), ("ref", identity("ref").public))
    assert player_made.genesis.seed is None and "dealer" not in player_made.genesis.sealed
    sessions = sessions_for(player_made)
    sessions["ref"].automatic()  # the referee joins first: its seed, sealed to itself
    assert player_made.deal_text == "joint deal (seed committed by ref, shuffled with every join)"
    with pytest.raises(SealError):
        sessions["ann"].dealer_secret()
    chosen = new_game("sarcophagus", {}, [("ann", identity("ann").public), ("ben", identity("ben").public)],
                      "ann", identity("ann"), ("ref", identity("ref").public),
                      layout=layout_tiles(layout_with(seed=1)), first="ann")
    assert chosen.deal_text == "deal chosen by ann"


def test_a_coin_sealed_away_from_the_referee_or_a_table_key_kept_by_its_creator_is_refused():
    rep = played_game("referee", players=("ann", "ben"), finish=False)
    mover = rep.duties()[0].who
    session = sessions_for(rep)[mover]
    honest = session.entry_for(Place(0, 3), mover)
    key = next(iter(honest.sealed))
    only_mine = base64.b64encode(crypto.seal(b"{}", [identity(mover).public])).decode()
    forged = session.sign({"action": "@1a", "commitments": honest.commitments, "sealed": {key: only_mine}})
    with pytest.raises(IllegalMove, match=f"must be sealed to {mover} and the referee ref, and to nobody else"):
        apply_entry(rep, forged)

    table = played_game("table", players=("ann", "ben"), finish=False, started=False)
    body = payload(table.genesis)
    body["sealed"] = {**body["sealed"], "table_key": base64.b64encode(crypto.seal(
        canonical({"game": body["game_id"], "table_key": "00" * 32}), [identity("ann").public])).decode()}
    signature = base64.b64encode(identity("ann").sign(canonical(body))).decode()
    data = json.loads(to_json(table.record))
    data["genesis"] = {**body, "signature": signature}
    with pytest.raises(BadGenesis, match="the table key must be sealed to every player"):
        verify(from_json(json.dumps(data).encode()))


def test_a_false_deal_is_convicted_by_the_next_players_program():
    rep = played_game("table", players=("ann", "ben", "cat"), finish=False, started=False)
    sessions = sessions_for(rep)
    sessions["ben"].join()
    sessions["cat"].join()
    # cat's modified program deals from a seed of its choosing, not the committed one
    cat = sessions["cat"]
    real = cat.dealer_secret()
    cat._secret = {**real, "seed": "11" * 32}
    cat.deal()
    assert rep.dealt_by == "cat" and rep.verdict is None  # nobody without the seed can tell yet
    sessions["ann"].automatic()  # ann's program holds the seed (table key): it proves the deal false
    assert rep.entries[-1].action == "verdict deal" and rep.entries[-1].author == "ann"
    assert (rep.verdict.against, rep.verdict.by) == ("cat", "ann")
    assert verify(from_json(to_json(rep.record).encode())).verdict == rep.verdict
    # and a verdict against an honest deal is refused
    honest = played_game("table", players=("ann", "ben"), finish=False)
    seed = sessions_for(honest)["ann"].dealer_secret()["seed"]
    with pytest.raises(IllegalMove, match="the posted deal is exactly what the seed gives"):
        apply_entry(honest, sessions_for(honest)["ann"].sign({"action": "verdict deal", "openings": {"seed": seed}}))


@pytest.mark.slow
def test_the_deal_is_the_specified_shuffle_of_the_seed_and_every_join():
    rep = played_game("table", players=("ann", "ben", "cat"))
    seed = next(e for e in rep.entries if e.action == "audit").openings["seed"]
    from pbem.protocol.seeds import seeded_deal

    dealt, _, _ = seeded_deal(rep, seed)
    revealed = {}
    for e in rep.entries:
        if e.action.startswith("reveal"):
            for pair in e.action.split()[1:]:
                if "=" in pair:
                    pos, tile = pair.split("=")
                    revealed["under-" + pos if "sarcophagus" in e.action else pos] = tile
    assert revealed == dealt.named and dealt.first == rep.first and rep.entries[-1].action == "audit"
    assert len(rep.contributions) == 3 and len(set(rep.contributions)) == 3


def cli(home, *args):
    return runner.invoke(app, [str(a) for a in args], env={"PBEM_HOME": str(home), "PBEM_PASSPHRASE": None})


def test_two_tied_players_answering_one_mail_do_not_fork_the_game(tmp_path, monkeypatch):
    """Both tied players get the same file by email and run pbem play: only the first owes an opening."""
    monkeypatch.chdir(tmp_path)
    homes = {name: tmp_path / name for name in ("ann", "ben")}
    keys = {name: cli(home, "key", "new", name, "--no-passphrase").output.splitlines()[-1] for name, home in homes.items()}
    (tmp_path / "layout.json").write_text(json.dumps({**layout_with({"1a": "sun-3"}).to_names(), "first": "ann"}))
    assert cli(homes["ann"], "new", "sarcophagus", "-o", "g.json", "--as", "ann", "--player", "ann",
               f"--player=ben={keys['ben']}", "--layout", "layout.json").exit_code == 0
    assert cli(homes["ben"], "play", "g.json", "--as", "ben").exit_code == 0
    assert cli(homes["ann"], "play", "g.json", "--as", "ann", "3", "1@1a").exit_code == 0
    tied = cli(homes["ben"], "play", "g.json", "--as", "ben", "2", "0@1a")
    assert tied.output.splitlines()[-1] == "Next: ann (open: open your coins on 1a for the tie-break)"
    # the mail goes to both; ben runs pbem play on his copy at the same time as ann on hers
    (tmp_path / "ben-copy.json").write_bytes((tmp_path / "g.json").read_bytes())
    waiting = cli(homes["ben"], "play", "ben-copy.json", "--as", "ben")
    assert (waiting.exit_code, waiting.output.splitlines()[0]) == (0, "Nothing written: ben owes nothing now.")
    assert (tmp_path / "ben-copy.json").read_bytes() == (tmp_path / "g.json").read_bytes()
    assert cli(homes["ann"], "play", "g.json", "--as", "ann").exit_code == 0
    assert cli(homes["ben"], "play", "g.json", "--as", "ben").output.splitlines()[1].startswith("  tie on 1a: ")
    assert cli(homes["ben"], "verify", "g.json").exit_code == 0


def test_a_referee_with_a_memory_refuses_a_rolled_back_game(tmp_path, monkeypatch):
    """Try a move, let the referee reveal, roll back, try another: the referee's history refuses it."""
    monkeypatch.chdir(tmp_path)
    home, ann_home = tmp_path / "home", tmp_path / "ann-home"  # the referee's machine; ann's own
    for name in ("ann", "ben", "ref"):
        cli(home, "key", "new", name, "--no-passphrase")
    shutil.copytree(home / "keys", ann_home / "keys")
    (tmp_path / "layout.json").write_text(json.dumps({**layout_with({"1a": "sun-3"}).to_names(), "first": "ann"}))
    cli(home, "new", "sarcophagus", "-o", "g.json", "--as", "ref", "--player", "ann", "--player", "ben",
        "--referee", "ref", "--layout", "layout.json")
    cli(ann_home, "play", "g.json", "--as", "ann")
    cli(home, "play", "g.json", "--as", "ben")
    assert cli(home, "referee", "g.json", "--as", "ref").exit_code == 0  # the apex
    shutil.copy("g.json", "before.json")
    assert cli(ann_home, "play", "g.json", "--as", "ann", "3").exit_code == 0
    assert cli(home, "referee", "g.json", "--as", "ref").output.startswith("  2a is ")  # what ann wanted to see
    shutil.copy("before.json", "g.json")  # ann rolls back, and forgets on her own machine that she did
    shutil.rmtree(ann_home / "games", ignore_errors=True)
    assert cli(ann_home, "play", "g.json", "--as", "ann", "0").exit_code == 0
    refused = cli(home, "referee", "g.json", "--as", "ref")
    assert refused.exit_code == 1 and "forked" in refused.output
    assert not any(e.author == "ref" and e.seq > 6 for e in from_json((tmp_path / "g.json").read_bytes()).entries)


@pytest.mark.slow
def test_a_convicted_game_as_the_commands_show_it(tmp_path, monkeypatch):
    rep = played_game("table", players=("ann", "ben"), finish=False)
    play_with_a_cheat(rep, "ben", value=4)
    (tmp_path / "g.json").write_text(to_json(rep.record))
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    checked = runner.invoke(app, ["verify", str(tmp_path / "g.json")])
    assert checked.exit_code == 0
    assert checked.output.startswith(f"{tmp_path / 'g.json'}: valid, finished, {rep.seq} entries. Game over: "
                                     "VERDICT: ben forfeits: placed a coin they did not hold: ")
    shown = json.loads(runner.invoke(app, ["show", str(tmp_path / "g.json"), "--json"]).output)
    assert shown["status"] == "forfeit" and shown["duties"] == []
    assert shown["verdict"] == {"against": "ben", "reason": rep.verdict.reason, "entry": rep.seq, "by": "ben"}
