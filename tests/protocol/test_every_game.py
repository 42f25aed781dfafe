"""The conformance test every registered game passes (OpenSpiel's random-playout test, through the trust
layer): whole games among random bots in both dealer modes, each action's notation round-tripping, every
duty of a known kind, and a record that verifies with its end audit. The tests' third game, Closest
(tests/third_game/, written through docs/adding-a-game.md alone), is plugged in for these tests and plays
through them as the two real games do."""

import json
import random
from contextlib import nullcontext

import pytest

from engine import GAMES
from engine.contract import DEALER, DUTY_KINDS, InvalidSetup, players_problem
from pbem.protocol.genesis import new_game
from pbem.protocol.verify import verify
from pbem.record.models import from_json, to_json

from pbem_support import identity, sessions_for
from third_game import plugged_in

THIRD = "closest"
PLAYERS = {"sarcophagus": ("ann", "ben", "cat"), "path-of-pharaohs": ("ann", "ben", "cat"), THIRD: ("ann", "ben")}


@pytest.fixture(params=sorted(PLAYERS))
def name(request):
    """Each game's name, the third game registered while its test runs."""
    with plugged_in() if request.param == THIRD else nullcontext():
        yield request.param


def test_every_registered_game_is_covered_here():
    assert set(PLAYERS) == set(GAMES) | {THIRD}
    with plugged_in():
        assert set(PLAYERS) == set(GAMES)
    assert THIRD not in GAMES


@pytest.mark.parametrize("mode", ["table", "referee"])
@pytest.mark.slow
def test_a_random_game_through_the_trust_layer(name, mode):
    game, players, rng = GAMES[name], PLAYERS[name], random.Random(11)
    referee = ("ref", identity("ref").public) if mode == "referee" else None
    creator = "ref" if referee else players[0]
    rep = new_game(name, {}, [(n, identity(n).public) for n in players], creator, identity(creator), referee)
    sessions = sessions_for(rep)
    dealer = sessions[rep.referee or players[0]]
    random_bot = game.policy("random")
    for _ in range(5000):
        owed = rep.duties()
        if not owed:
            break
        duty = owed[0]
        assert duty.what in DUTY_KINDS + ("join", "deal", "audit")
        if duty.who == DEALER or duty.what in ("join", "open") or duty.who not in sessions:
            (sessions[duty.who] if duty.what == "join" else dealer if duty.who == DEALER else
             sessions[duty.who]).automatic()
            continue
        session = sessions[duty.who]
        known = session.knowledge()
        actions = list(game.legal_actions(rep.state, duty.who, known))
        assert actions, f"{duty} has no legal action"
        action = random_bot(rep.state, duty.who, actions, rng, known)
        text = game.format_action(action)
        assert game.format_action(game.parse_action(text)) == text
        session.act(action)
    else:
        raise AssertionError("the game did not end")
    checked = verify(from_json(to_json(rep.record).encode()))
    assert checked.outcome() is not None and checked.verdict is None and checked.entries[-1].action == "audit"
    assert checked.over and set(checked.outcome().scores) == set(players)


def test_every_game_takes_the_count_of_players_its_definition_gives(name):
    """`pbem new` and the demo answer a count from the game's `min_players` and `max_players`: its rules
    take exactly those counts, and refuse another in the same words."""
    game = GAMES[name]
    options = game.parse_options({})
    for count in (game.min_players, game.max_players):
        seats = [f"p{n}" for n in range(count)]
        assert game.duties(game.setup(options, seats, seats[0]))
        assert players_problem(game, count) is None
    for count in (game.min_players - 1, game.max_players + 1):
        seats = [f"p{n}" for n in range(count)]
        with pytest.raises(InvalidSetup) as refused:
            game.setup(options, seats, seats[0])
        assert str(refused.value) == players_problem(game, count)
        assert str(refused.value).startswith(f"{game.title} is for {game.min_players} ")


def test_every_game_has_a_presentation_that_keeps_the_protocol(name):
    """A game's presentation is found by its name alone (no registry in pbem/ to edit): each registered
    game has one, with every member the Protocol asks for, and its page's files."""
    from pbem.presentation.games import Presentation, generic, presentation
    from pbem.presentation.html import static

    shown = presentation(name)
    assert shown is not generic, f"{name} has no module {name.replace('-', '_')}.py in pbem/presentation/games/"
    members = [m for m in dir(Presentation) if not m.startswith("_")] + list(Presentation.__annotations__)
    assert [m for m in members if not hasattr(shown, m)] == []
    assert all(static(shown.HTML_STATIC + suffix) is not None for suffix in (".js", ".css", ".svg"))


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["table", "referee"])
def test_a_whole_game_by_mail_then_pbem_verify(name, mode, tmp_path, monkeypatch):
    """Each participant with their own home and Maildir plays only through `pbem mail`, `pbem inbox` and
    `pbem play --send` (the referee too, a program's way), a real SMTP server (aiosmtpd) delivering the
    mails, in a game with a deadline (`--late-after`); after the first mail each is a turn block, not the
    file, and replies to the one before. Then everyone's `pbem status` has the game over with nothing owed,
    and `pbem verify` checks every copy, which are one history byte for byte. (This was also played as
    tests/mail/test_mail_e2e.py, Sarcophagus at a table: the same game, once.)"""
    from typer.testing import CliRunner

    from pbem.cli import app

    from mail_support import smtp_server

    runner, players, bot = CliRunner(), PLAYERS[name], GAMES[name].bots[0]
    everyone = players + (("ref",) if mode == "referee" else ())
    creator = everyone[-1] if mode == "referee" else players[0]
    monkeypatch.chdir(tmp_path)

    def as_player(who, port, *args):
        env = {"PBEM_HOME": str(tmp_path / who), "PBEM_SMTP": f"127.0.0.1:{port}", "PBEM_SMTP_SECURITY": "none",
               "PBEM_PASSPHRASE": None, "PBEM_GAMES": None}
        result = runner.invoke(app, [str(a) for a in args], env=env)
        assert result.exit_code == 0, result.output
        return result.output

    with smtp_server({f"{n}@example.org": tmp_path / "mail" / n for n in everyone}) as (port, server):
        keys = {}
        for who in everyone:
            keys[who] = as_player(who, port, "key", "new", who, "--no-passphrase").splitlines()[-1]
            for other in everyone:
                as_player(who, port, "contact", "add", other, f"{other}@example.org")
        referee = [f"--referee=ref={keys['ref']}"] if mode == "referee" else []
        as_player(creator, port, "new", name, "-o", "game.json", "--as", creator,
                  *[f"--player={n}={keys[n]}" for n in players], *referee, "--late-after", "72h")
        assert as_player(creator, port, "mail", "game.json", "--as", creator, "--send").startswith("Sent to ")
        seen = dict.fromkeys(everyone, -1)
        for _ in range(2000):  # each reads their mail when some arrived, and plays what they owe
            arrived = {n: len(list((tmp_path / "mail" / n).glob("*/*"))) for n in everyone}
            readers = [n for n in everyone if arrived[n] != seen[n]]
            if not readers:
                break
            for who in readers:
                seen[who] = arrived[who]
                owed = [line.split() for line in as_player(who, port, "inbox", tmp_path / "mail" / who).splitlines()
                        if line.startswith("    pbem play ")]
                if owed:  # the inbox says what to run: pbem play PATH --as NAME --mail
                    assert owed[0][3:5] == ["--as", who]
                    as_player(who, port, "play", owed[0][2], "--as", who, "--bot", bot, "--send")
        later = list(server.received[1:])

    for who in everyone:  # everyone's status: the game is over, nobody owes anything
        status = json.loads(as_player(who, 0, "status", "--json"))
        assert [(g["finished"], g["i_owe"], g["me"]) for g in status["games"]] == [(True, False, [who])]

    copies = [next((tmp_path / n / "games-files").glob(f"{name}-*.json")) for n in everyone]
    checked = runner.invoke(app, ["verify", *map(str, copies)], env={"PBEM_HOME": str(tmp_path / players[0])})
    assert checked.exit_code == 0, checked.output
    assert [line.split(": ", 1)[1].split(",")[:2] for line in checked.output.splitlines()] == \
        [["valid", " finished"]] * len(everyone)
    assert len({c.read_bytes() for c in copies}) == 1  # one history, byte for byte
    assert later and all(b"BEGIN PBEM TURN" in m and b"filename=" not in m for m in later)
    assert all(b"In-Reply-To:" in m for m in later)  # one thread
