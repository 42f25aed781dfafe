"""Attacks on the mail judge through its public interface (issues 32 and 33): what a stranger who knows only
its address, a cheating player with their own valid key, and a cheating game creator can make it do, by
mail through a real SMTP server (aiosmtpd) into its Maildir, with the pbem command line and game files.

A test that shows the judge holds is a regression test. A test marked xfail(strict=True) is a hole that
is still open: it asserts what the judge should do, fails today, and its reason says what happens."""

from __future__ import annotations

import json
import shutil
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from types import SimpleNamespace

import pytest

from pbem import api
from pbem.judge import config as judge_config
from pbem.judge.service import Judge
from pbem.record.canonical import canonical
from pbem.transport import armor

from judge_support import cli, fast_cli, hosted_game, ok, players_act, setup_players, start_game, write_config
from mail_support import smtp_server
from paths_support import EXAMPLES

PLAYERS = ["ann", "ben", "cat"]


@pytest.fixture
def hosted(base, monkeypatch):
    """ann's game hosted by the judge (judge_support.hosted_game), the SMTP server also delivering to a
    bystander, victim@elsewhere.example, who plays no part in any game."""
    yield from hosted_game(base, monkeypatch, PLAYERS, {"victim@elsewhere.example": base / "mail" / "victim"})


def received(server) -> list[EmailMessage]:
    return [message_from_bytes(r, policy=policy.default) for r in server.received]


def answers(server) -> list[EmailMessage]:
    return [m for m in received(server) if m["Auto-Submitted"] == "auto-replied"]


def judge_copy(base) -> Path:
    return next((base / "judge-home" / "games-files").glob("*.json"))


def judge_entries(base) -> list[dict]:
    return json.loads(judge_copy(base).read_text())["entries"]


def folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def turn_mail(game_id: str, genesis_hash: str, entries: list[dict], after: int = 0, prev: str = "0" * 64,
              sender: str = "ben <ben@example.org>", extra: str = "") -> bytes:
    """A turn mail as anyone can write it: an armored pbem-turn/1 block naming a game and the entry it follows."""
    turn = {"format": "pbem-turn/1", "game_id": game_id, "genesis": genesis_hash, "after": after, "prev": prev,
            "entries": entries}
    return (f"From: {sender}\r\nTo: judge <judge@example.org>\r\n{extra}Subject: [pbem] a turn\r\n\r\n".encode()
            + armor.wrap("TURN", canonical(turn)).encode())


def example_entries() -> list[dict]:
    """Entries of another game: well formed, signed by other keys (they verify nowhere here)."""
    return json.loads((EXAMPLES / "table-3-players.json").read_text())["entries"]


# ---------------------------------------------------------------- (b) a player: the evidence kept of a fork


@pytest.mark.slow
def test_a_forked_turn_costs_the_judge_no_more_disk_than_the_mail_itself(base, hosted):
    """Anyone who has seen one mail of a game (its id and genesis hash are in every turn block) sends turns
    that follow entry 0 with another `prev`. Such a rival history is evidence of a fork only if its entries
    verify: these do not, so each is refused as a bad turn and nothing is kept (it was kept whole, a new
    file for each mail, never removed: a HOLE found by this test)."""
    config, box = hosted.config, hosted.box
    lines: list[str] = []
    judge = Judge(judge_config.load(config), log=lines.append)
    judge.once()  # the invitation
    entries = example_entries()
    sent = 0
    for i in range(3):
        data = turn_mail(hosted.game_id, hosted.genesis_hash, entries[:3] * 600 + [entries[10 + i]])
        sent += len(data)
        (box / "new" / f"1{i}.fork").write_bytes(data)
    judge.once()
    assert sum(" refused mail 1" in line and "refused a turn: " in line for line in lines) == 3, lines
    kept = folder_bytes(base / "judge-home" / "games-files" / "forks")
    assert kept <= 4 * sent, f"{sent} bytes of mail made the judge keep {kept} bytes of evidence"


# ---------------------------------------------------------------- (a, b) answers: never to a stranger


def _add_header(path: Path, line: str) -> None:
    data = path.read_bytes()
    path.write_bytes(line.encode() + b"\r\n" + data)


def test_a_name_that_is_no_participant_in_a_valid_turns_cc_never_earns_its_address_an_answer(base, hosted):
    config, port, server, box = hosted.config, hosted.port, hosted.server, hosted.box
    lines: list[str] = []
    judge = Judge(judge_config.load(config), log=lines.append)
    judge.once()  # the invitation
    players_act(base, port, ["ben"], {})  # ben joins: a valid turn
    [join] = list((box / "new").iterdir())
    _add_header(join, "Cc: zed <victim@elsewhere.example>")  # zed plays no part in the game
    judge.once()
    assert [e["author"] for e in judge_entries(base)][:2] == ["judge", "ben"], lines
    (box / "new" / "2.forged").write_bytes(
        b"From: zed <victim@elsewhere.example>\r\nTo: judge@example.org\r\nSubject: buy cheap pills at evil.example\r\n\r\n"
        b"-----BEGIN PBEM TURN-----\r\nH4sIAAAAAAAA/damaged\r\n-----END PBEM TURN-----\r\n")
    judge.once()
    assert [m["To"] for m in answers(server)] == [], lines
    assert not any(" answered " in line for line in lines), lines


# ---------------------------------------------------------------- (b) deadlines: a player's backdated entry


@pytest.fixture
def sarcophagus(base, monkeypatch):
    """ann and ben's Sarcophagus game with the judge as referee and the game's default deadlines (48 h a turn,
    24 h of grace), the judge on an injected clock; played until the first mover owes their first move."""
    fast_cli(monkeypatch)
    monkeypatch.chdir(base)
    monkeypatch.delenv("PBEM_NOW", raising=False)
    names = ["ann", "ben"]
    boxes = {f"{n}@example.org": base / "mail" / n for n in [*names, "judge"]}
    with smtp_server(boxes) as (port, server):
        keys = setup_players(base, port, names)
        config = write_config(base, port, maildir=base / "mail" / "judge")
        start_game(base, port, "sarcophagus", names, keys, base / "game.json", "--deadlines", "default")
        start = api.open_game(base / "game.json").genesis.time
        now = [float(start)]
        lines: list[str] = []
        judge = Judge(judge_config.load(config), log=lines.append, clock=lambda: now[0])
        seen: dict[str, int] = {}
        for _ in range(8):
            judge.once()  # sets PBEM_NOW to its clock: the players' commands below sign at the same time
            game = api.open_game(judge_copy(base))
            if any(d.what == "move" for d in game.duties()):
                break
            players_act(base, port, names, seen)
        yield SimpleNamespace(judge=judge, now=now, lines=lines, port=port, names=names, seen=seen, game=game,
                              server=server)


def _at(s, t: float) -> list[str]:
    s.now[0] = t
    s.lines.clear()
    s.judge.last_sweep = float("-inf")
    s.judge.once()
    return list(s.lines)


def _move_needs_no_referee(base, port, mover: str) -> bool:
    """Whether the mover's next move (the greedy bot's, as players_act plays it) is followed by the next
    player's duty rather than the referee's: tried in a copy of the mover's home, nothing sent."""
    trial = base / "trial"
    shutil.rmtree(trial, ignore_errors=True)
    shutil.copytree(base / mover, trial)
    read = ok(cli(trial, port, "inbox", base / "mail" / mover))
    [command] = [line.split() for line in read.splitlines() if line.startswith("    pbem play ")]
    ok(cli(trial, port, "play", command[2], "--as", mover, "--bot", "greedy", "--seed", "1"))
    after = api.open_game(next((trial / "games-files").glob("*.json")))
    return bool(after.duties()) and all(d.who != mover and d.what == "move" for d in after.duties())


@pytest.mark.slow
def test_a_move_dated_back_by_its_player_does_not_shorten_the_next_players_time(base, sarcophagus, monkeypatch):
    s = sarcophagus
    for _ in range(16):  # honest moves until the mover's move is one the referee answers nothing to
        game = api.open_game(judge_copy(base))
        [mover] = [d.who for d in game.duties() if d.what == "move"]
        if _move_needs_no_referee(base, s.port, mover):
            break
        assert players_act(base, s.port, [mover], s.seen) == 1
        s.judge.once()
    [other] = [n for n in s.names if n != mover]
    what, _, clock = api.duty_clocks(game)[mover]
    assert what == "move" and clock.absent_from - clock.since == 72 * 3600
    s.now[0] = clock.since + 71 * 3600  # the mover waits 71 hours, an hour short of his own absence ...
    monkeypatch.setenv("PBEM_NOW", str(clock.since))  # ... and signs his move dated when his turn began
    assert players_act(base, s.port, [mover], s.seen) == 1
    arrived = s.now[0]
    _at(s, arrived)  # the judge applies the move, and owes nothing after it: the other player moves
    game = api.open_game(judge_copy(base))
    assert game.entries[-1].author == mover and game.entries[-1].time == clock.since
    what, _, theirs = api.duty_clocks(game)[other]
    assert what == "move" and theirs.since == clock.since
    late = _at(s, arrived + 3600 + 60)  # an hour later: the honest player has had an hour of their 72
    assert not any(f"{other} absent" in line for line in late), late
    assert not api.open_game(judge_copy(base)).entries[-1].action.startswith(f"absent {other}")


# ---------------------------------------------------------------- (b) one place, one entry: races, replays, restarts


def test_one_turn_mailed_three_times_around_a_restart_is_applied_once_and_the_judge_signs_each_place_once(
        base, hosted):
    """The join that makes the judge deal arrives twice at once (a mail client's retry, or a player racing
    himself), and once more after the judge restarted: the deal is signed once, mailed once, and the copies
    are known; the judge's other duties go on as before."""
    config, port, server, box = hosted.config, hosted.port, hosted.server, hosted.box
    lines: list[str] = []
    judge = Judge(judge_config.load(config), log=lines.append)
    judge.once()
    players_act(base, port, ["ben"], {})
    judge.once()
    players_act(base, port, ["cat"], {})
    [join] = list((box / "new").iterdir())
    data = join.read_bytes()
    (box / "new" / (join.name + "-again")).write_bytes(data)
    judge.once()
    deals = [line for line in lines if " signed " in line]
    assert len(deals) == 2, lines  # its join, then (after cat's join) the deal and what it reveals
    assert sum(" waiting mail " in line or " refused mail " in line for line in lines) == 0, lines
    again = Judge(judge_config.load(config), log=lines.append)  # restarted
    (box / "new" / "9.replayed").write_bytes(data)
    lines.clear()
    again.once()
    again.once()
    assert not any(" signed " in line or " refused " in line for line in lines), lines
    signed = api.open_game(judge_copy(base))
    from judge_support import signed_by

    mailed = signed_by(server.received, "judge")
    assert all(len(hashes) == 1 for hashes in mailed.values()), mailed
    places = again.store.places_signed()
    assert sorted(p for (_, p) in places) == [e.seq for e in signed.entries if e.author == "judge"]
    assert {p for (_, p) in mailed} == {p for (_, p) in places}
    assert not list((box / "new").iterdir())


# ---------------------------------------------------------------- (a, b) the database: what one mail can make it learn


def _join_naming_other_games(base, hosted, games: int, headers: str = ""):
    """The judge reads the invitation; ben joins, and his join's mail, before the judge reads it, gets
    `headers` and turn blocks of `games` made-up games added. The judge, its log, and the mail."""
    lines: list[str] = []
    judge = Judge(judge_config.load(hosted.config), log=lines.append)
    judge.once()
    players_act(base, hosted.port, ["ben"], {})
    [join] = list((hosted.box / "new").iterdir())
    blocks = b"".join(turn_mail(f"{i:032x}", "0" * 64, example_entries()[:1]).split(b"\r\n\r\n", 1)[1]
                      for i in range(games))
    join.write_bytes(headers.encode() + join.read_bytes().rstrip(b"\r\n") + b"\r\n\r\n" + blocks)
    judge.once()
    return judge, lines, join


def test_a_valid_turn_teaches_the_judge_only_its_own_games_participants_addresses(base, hosted):
    cc = ", ".join(f"x{i} <x{i}@elsewhere.example>" for i in range(50))
    judge, lines, _ = _join_naming_other_games(base, hosted, 7, f"Cc: {cc}\r\n")
    assert [e["author"] for e in judge_entries(base)][:2] == ["judge", "ben"], lines  # the join applied
    learned = judge.store.addresses()
    assert learned == {hosted.game_id: {n: f"{n}@example.org" for n in PLAYERS}}, \
        f"{sum(len(v) for v in learned.values())} addresses learned for {len(learned)} games"


def test_a_player_cannot_claim_another_players_address_in_a_game_before_its_invitation_reaches_the_judge(
        base, hosted):
    config, port, server, box = hosted.config, hosted.port, hosted.server, hosted.box
    [invitation] = list((box / "new").iterdir())
    invitation.rename(box / "new" / "5.invitation")  # on its way to the judge
    start_game(base, port, "sarcophagus", ["ben", "ann"], hosted.keys, base / "bens-game.json")  # a game of ben's
    for own in [p for p in (box / "new").iterdir() if p.name != "5.invitation"]:
        own.unlink()  # ben writes the mail of his game himself:
    mail = EmailMessage()
    mail["From"], mail["To"] = "ben <ben@example.org>", "judge <judge@example.org>"
    mail["Cc"] = "ann <ann@example.org>, cat <ben@example.org>"
    mail["Subject"] = "a game of mine"
    block = turn_mail(hosted.game_id, hosted.genesis_hash, example_entries()[:1]).split(b"\r\n\r\n", 1)[1]
    mail.set_content(block.decode())  # a turn of ann's game, which the judge does not host yet
    mail.add_attachment((base / "bens-game.json").read_bytes(), maintype="application", subtype="json",
                        filename="game.json")
    (box / "new" / "1.ben").write_bytes(bytes(mail))
    lines: list[str] = []
    judge = Judge(judge_config.load(config), log=lines.append)
    judge.once()
    assert sum(" applied " in line for line in lines) == 2, lines  # both invitations
    assert judge.store.addresses()[hosted.game_id]["cat"] == "cat@example.org"
    ours = [m for m in received(server) if m["X-Pbem-Game"] == hosted.game_id]
    assert ours and all("cat@example.org" in f"{m['To']} {m['Cc']}" for m in ours), [(m["To"], m["Cc"]) for m in ours]


# ---------------------------------------------------------------- (a) a stranger's flood of forged mail


@pytest.mark.slow
def test_a_flood_of_forged_bad_mail_earns_one_answer_an_hour_to_a_participant_and_none_to_anyone_else(
        base, hosted):
    """Twenty damaged turns forged From: a participant, twenty from strangers, twenty from the participant
    marked Auto-Submitted, across a restart: one answer, to the participant; the game goes on."""
    config, port, server, box = hosted.config, hosted.port, hosted.server, hosted.box
    lines: list[str] = []
    judge = Judge(judge_config.load(config), log=lines.append)
    judge.once()  # the invitation: ann's, ben's and cat's addresses learned
    damaged = b"-----BEGIN PBEM TURN-----\r\nH4sIAAAAAAAA/damaged\r\n-----END PBEM TURN-----\r\n"
    for i in range(20):
        (box / "new" / f"1{i:02}.a").write_bytes(b"From: ben <ben@example.org>\r\nSubject: x\r\n\r\n" + damaged)
        (box / "new" / f"1{i:02}.b").write_bytes(
            f"From: s{i} <victim@elsewhere.example>\r\nSubject: x\r\n\r\n".encode() + damaged)
        (box / "new" / f"1{i:02}.c").write_bytes(
            b"From: cat <cat@example.org>\r\nAuto-Submitted: auto-replied\r\nSubject: x\r\n\r\n" + damaged)
    judge.once()
    restarted = Judge(judge_config.load(config), log=lines.append)
    (box / "new" / "2.a").write_bytes(b"From: ben <ben@example.org>\r\nSubject: x\r\n\r\n" + damaged)
    restarted.once()
    assert [m["To"] for m in answers(server)] == ["ben@example.org"]
    assert sum(" refused mail " in line for line in lines) == 61 and not list((box / "new").iterdir())
    assert not any((base / "judge-home" / "quarantine").iterdir())
    players_act(base, port, ["ben"], {})
    restarted.once()
    assert [e["author"] for e in judge_entries(base)][:2] == ["judge", "ben"]


def test_a_strangers_game_attached_under_a_path_for_a_name_writes_nothing_into_the_judges_home(base, hosted):
    """A whole game of strangers (valid, signed, none of the judge's keys in it), attached under a file name
    that climbs out of every folder: not kept, nothing written beside the copies or the database (only
pbem inbox's note that this game was said once)."""
    config, box = hosted.config, hosted.box
    lines: list[str] = []
    judge = Judge(judge_config.load(config), log=lines.append)
    judge.once()
    home = base / "judge-home"
    before = sorted(str(p.relative_to(home)) for p in home.rglob("*") if "unhosted" not in p.parts)
    mail = EmailMessage()
    mail["From"], mail["To"], mail["Subject"] = "ann <ann@example.org>", "judge@example.org", "a game"
    mail.set_content("see attached")
    mail.add_attachment((EXAMPLES / "referee-2-players.json").read_bytes(), maintype="application", subtype="json",
                        filename="../../../judge-home/judge.db")
    (box / "new" / "1.foreign").write_bytes(bytes(mail))
    judge.once()
    assert any("set aside mail 1.foreign: " in line for line in lines), lines
    after = sorted(str(p.relative_to(home)) for p in home.rglob("*") if "unhosted" not in p.parts)
    assert set(after) - set(before) <= {"mail/not-mine.json", "status-cache.json"}, after  # notes of pbem inbox
    assert not [p for p in after if p.startswith("games-files") and p not in before]
    assert judge.store.game_ids() == [hosted.game_id]


def test_a_mail_naming_more_games_than_a_pbem_mail_does_is_refused_before_any_lock_is_taken(base, hosted):
    """Each game a mail names is a lock the judge holds while it applies it (PostgreSQL: an advisory lock):
    a mail naming tens of thousands would exhaust the lock table. More than 8 is refused unapplied."""
    _, lines, join = _join_naming_other_games(base, hosted, 60)
    assert [line.split(" ", 1)[1] for line in lines if " refused " in line] == [
        f"refused mail {join.name}: it names 61 games: a pbem mail names 8 at most"]
    assert [e["author"] for e in judge_entries(base)] == ["judge"]  # nothing of it applied
