"""Helpers for the absence tests (docs/deadlines.md): games under a deadline policy, made through the library
every front end calls or at the command line; a clock set by hand through PBEM_NOW; what every program does
unasked; and games brought to an absence's points (a discard owed, a half-signed absence, a card that does
not open)."""

from __future__ import annotations

from typer.testing import CliRunner

from engine.contract import DEALER
from engine.path_of_pharaohs.actions import Discard
from engine.path_of_pharaohs.cards import HAND_LIMIT
from pbem.cli import app
from pbem.crypto.keyring import key_dir
from pbem.protocol.commitments import b64
from pbem.protocol.entries import apply_entry
from pbem.protocol.genesis import new_game
from pbem.protocol.verify import verify
from pbem.record.canonical import canonical
from pbem.record.deadlines import HOUR, DeadlinePolicy
from pbem.record.models import Entry, GameFile, to_json

from cli_support import make_keys, write_layout
from clock_support import clocked
from pbem_support import identity, sessions_for
from pop_support import sealed_blob

POLICY = DeadlinePolicy(turn_hours=48, open_hours=24, referee_hours=12, reminders=[12], grace_hours=24)
T0 = 1_800_000_000
ABSENT_AFTER = (48 + 24) * HOUR
CLI_POLICY = "turn=48,open=24,referee=12,grace=24,remind=12"  # POLICY as `pbem new --deadlines` takes it


class Clock:
    """The time every program here signs at: PBEM_NOW, moved on by hand."""

    def __init__(self, monkeypatch):
        self.monkeypatch, self.now = monkeypatch, T0
        self.set(T0)

    def set(self, t: int) -> None:
        self.now = t
        self.monkeypatch.setenv("PBEM_NOW", str(t))

    def advance(self, seconds: int) -> None:
        self.set(self.now + seconds)


def game(name: str, mode: str, players, policy=POLICY):
    referee = ("ref", identity("ref").public) if mode == "referee" else None
    creator = "ref" if referee else players[0]
    rep = new_game(name, {}, [(n, identity(n).public) for n in players], creator, identity(creator), referee,
                   deadlines=policy)
    return rep, sessions_for(rep)


def run_duties(rep, sessions, skip=()) -> None:
    """Every program (but those of `skip`) does what needs no decision (joins, the deal, the dealer's acts,
    openings)."""
    for _ in range(50):
        before = rep.seq
        for name, session in sessions.items():
            if name not in skip:
                session.automatic()
        if rep.seq == before:
            return


def mover(rep) -> str:
    duty = rep.duties()[0]
    assert duty.what in ("move", "discard"), duty
    return duty.who


def others(rep, name):
    return [p for p in rep.players if p != name]


def signed_at(session, body, when: int) -> Entry:
    """An entry as a cheater's own program would sign it, with any time it likes (an honest program never
    signs a time earlier than the entry before)."""
    rep = session.rep
    body = {"game_id": rep.genesis.game_id, "seq": rep.seq + 1, "prev": rep.head, "author": session.name,
            **{k: v for k, v in body.items() if v}, "time": when}
    return Entry.model_validate({**body, "signature": b64(session.identity.sign(canonical(body)))})


def check_replays(rep):
    """Whatever the programs wrote, every verifier reads the same: the file replays to the same place."""
    again = verify(GameFile.model_validate_json(to_json(rep.record)))
    assert again.seq == rep.seq and again.absences == rep.absences and again.verdict == rep.verdict
    return again


def half_signed(clock):
    """A 3-player Sarcophagus table whose mover is late past the grace, and the first of the two who
    record it has signed their absence: the game, its sessions, the late one, the signers in order."""
    rep, sessions = game("sarcophagus", "table", ("ann", "ben", "cat"))
    run_duties(rep, sessions)
    late = mover(rep)
    first, second = others(rep, late)
    clock.advance(ABSENT_AFTER)
    sessions[first].record_absence(late)
    return rep, sessions, late, first, second


def a_card_that_does_not_open():
    """A referee-mode Path of Pharaohs game whose referee seals the last card of its first deal so that
    it does not open for its receiver: the game, its sessions, the deal and the card's key."""
    rep, sessions = game("path-of-pharaohs", "referee", ("ann", "ben", "cat"))
    for player in rep.players:
        sessions[player].automatic()
    ref = sessions["ref"]
    ref.deal()
    while rep.duties()[0].what != "deal":
        ref.act(ref.dealer_action())
    action = ref.dealer_action()  # the first cards dealt: the referee still owes the others theirs
    honest = ref.entry_for(action, DEALER)
    last = f"#{action.slots[-1]}"
    garbage = sealed_blob(rep, last, "W", "00" * 32, [action.player])
    apply_entry(rep, ref.sign({"action": honest.action, "sealed": {**honest.sealed, last: garbage}}))
    return rep, sessions, action, last


# ---------------------------------------------------------------- Path of Pharaohs' discard

def to_a_discard(clock, mode):
    """A Path of Pharaohs game where a player was recorded absent from a move (they stop, are dealt 3 cards)
    and now owes the discard down to seven."""
    rep, sessions = game("path-of-pharaohs", mode, ("ann", "ben", "cat"))
    run_duties(rep, sessions)
    late = mover(rep)
    clock.advance(ABSENT_AFTER)
    for name in ([rep.referee] if rep.referee else others(rep, late)):
        sessions[name].record_absence(late)
    run_duties(rep, sessions)
    assert rep.duties()[0].what == "discard" and rep.duties()[0].who == late
    return rep, sessions, late


def false_discard(rep, signer, late):
    """The discard an entitled recorder with the hand in view would sign to hurt `late`: their HIGHEST cards,
    each opened truly (the kind and the count are right, and the openings match the deal)."""
    cards = signer.knowledge(as_dealer=True).cards
    hand = rep.state.hands[rep.state.turn]
    highest = sorted(hand, key=lambda slot: (cards[slot], slot), reverse=True)[:len(hand) - HAND_LIMIT]
    act = Discard(tuple(cards[slot] for slot in highest), tuple(highest))
    assert act != rep.game.absence_act(rep.state, late, signer.knowledge(as_dealer=True))
    return rep.game.format_action(act), {f"#{slot}": signer._salt_of(f"#{slot}") for slot in highest}


def install_key(name):
    """A test identity in this home's key directory, as `pbem key new` would leave one."""
    key_dir().mkdir(parents=True, exist_ok=True)
    (key_dir() / name).write_bytes(identity(name).to_openssh(None))
    (key_dir() / name).chmod(0o600)
    (key_dir() / f"{name}.pub").write_text(identity(name).public.line() + "\n")


# ---------------------------------------------------------------- at the command line

runner = CliRunner()


def pbem(*args):
    """A command as a user types it, the clock's warning (PBEM_NOW) checked and taken out."""
    return clocked(runner.invoke(app, [str(a) for a in args]))


def cli_game(home, players=("ann", "ben"), first="ben", referee=False, policy=CLI_POLICY):
    """A Sarcophagus game made and joined at the command line under a deadline policy, on cli_support's
    LAYOUT; in referee mode the referee has turned up the apex."""
    make_keys(*players, *(["ref"] if referee else []))
    layout = write_layout(home / "layout.json", first)
    creator = "ref" if referee else players[0]
    args = ["new", "sarcophagus", "-o", "game.json", "--as", creator, "--layout", layout, "--deadlines", policy]
    args += [arg for p in players for arg in ("--player", p)] + (["--referee", "ref"] if referee else [])
    result = pbem(*args)
    assert result.exit_code == 0, result.output
    for p in players:
        if p != creator:
            assert pbem("play", "game.json", "--as", p).exit_code in (0, 3)
    if referee:
        assert pbem("referee", "game.json", "--as", "ref").exit_code == 0
