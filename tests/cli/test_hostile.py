"""Hostile input, as an attacker would send it (with valid keys or none), through the commands as people
type them: one clear `Error: ...` line, a bounded time, nothing written, and the good input beside the
bad one still applied (issue 21)."""

import json
import os
import shutil
import signal
from contextlib import contextmanager
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import app
from pbem.judge.__main__ import main as judge_main

from engine_support import layout_with
from judge_support import fast_cli

runner = CliRunner()
LAYOUT = layout_with({"1a": "sun-3", "2a": "moon-4", "2b": "arms-4", "3a": "crown-2", "3b": "crown-ace"})
BOUND = 20
"""Seconds any one command may take here: the hangs this guards against were forever, or 149 s."""


class Hang(BaseException):
    """Not an Exception: the CLI runner must not swallow it."""


@contextmanager
def within(seconds: float):
    def stop(signum, frame):
        raise Hang(f"still running after {seconds} s")

    old = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def invoke(home: Path, *args):
    with within(BOUND):
        return runner.invoke(app, [str(a) for a in args], env={"PBEM_HOME": str(home), "PBEM_PASSPHRASE": None,
                                                               "PBEM_GAMES": None})


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """ann and ben, each with a key and an address book; ann made a game (ben first) and mailed it to ben
    (invitation.eml): made once, copied for each test."""
    base = tmp_path_factory.mktemp("table")
    here = Path.cwd()
    os.chdir(base)
    try:
        _make(base)
    finally:
        os.chdir(here)
    return base


def _make(base: Path) -> None:
    keys = {name: invoke(base / name, "key", "new", name, "--no-passphrase").output.splitlines()[-1]
            for name in ("ann", "ben")}
    for name in ("ann", "ben"):
        for other in ("ann", "ben"):
            invoke(base / name, "contact", "add", other, f"{other}@example.org")
    layout = LAYOUT.to_names()
    layout["first"] = "ben"
    (base / "layout.json").write_text(json.dumps(layout))
    assert invoke(base / "ann", "new", "sarcophagus", "-o", "game.json", "--as", "ann", "--player", "ann",
                  f"--player=ben={keys['ben']}", "--layout", "layout.json").exit_code == 0
    assert invoke(base / "ann", "mail", "game.json", "--as", "ann", "-o", "invitation.eml").exit_code == 0


@pytest.fixture
def table(made, tmp_path, monkeypatch):
    """`table(NAME, *ARGS)` runs pbem as NAME in a copy of `made`, within the time bound."""
    fast_cli(monkeypatch)
    shutil.copytree(made, tmp_path, dirs_exist_ok=True, symlinks=True)
    monkeypatch.chdir(tmp_path)
    return lambda name, *args: invoke(tmp_path / name, *args)


def copy_of(tmp_path, name):
    return next((tmp_path / name / "games-files").glob("*.json"))


def maildir(path: Path, mails: dict[str, bytes]) -> Path:
    for sub in ("new", "cur", "tmp"):
        (path / sub).mkdir(parents=True, exist_ok=True)
    for name, data in mails.items():
        (path / "new" / name).write_bytes(data)
    return path


def nested_parts(depth: int) -> bytes:
    head = "".join(f'Content-Type: multipart/mixed; boundary="b{i}"\n\n--b{i}\n' for i in range(depth))
    tail = "".join(f"--b{i}--\n" for i in reversed(range(depth)))
    return f"From: eve@example.org\nSubject: [pbem] #1\n{head}Content-Type: text/plain\n\nhello\n{tail}".encode()


def files_under(path: Path) -> dict[str, bytes]:
    return {str(p.relative_to(path)): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()}


# ---------------------------------------------------------------- mail

def test_a_mail_of_2000_nested_parts_is_refused_once_and_the_turn_beside_it_applied(table, tmp_path):
    box = maildir(tmp_path / "box", {"1.invitation": (tmp_path / "invitation.eml").read_bytes(),
                                     "2.nested": nested_parts(2000)})
    read = table("ben", "inbox", "box")
    print("OUT", repr(read.output))
    copy = copy_of(tmp_path, "ben")
    assert read.exit_code == 1
    assert read.output.splitlines()[:3] == [
        f"Updated {copy}: the invitation.",
        "Error: box/2.nested: not read: more than 64 multipart or message parts (a pbem mail has one or two)",
        "Read 2 mails: 1 game updated."]
    again = table("ben", "inbox", "box")  # said once, then set aside: not parsed on every run
    assert again.exit_code == 0, again.output
    assert again.output.splitlines()[0] == "Read 2 mails: nothing new (1 set aside, as said before: --again reads " \
                                           "it again)."
    forced = table("ben", "inbox", box, "--again")
    assert forced.exit_code == 1 and "Error: " + str(box) + "/2.nested: not read: more than 64" in forced.output


def test_a_mail_of_begin_lines_and_no_end_is_read_in_linear_time(table, tmp_path):
    """400 KiB of BEGIN lines took 149 s: each BEGIN looked for an END to the end of the mail."""
    begins = b"Subject: x\n\n" + b"-----BEGIN PBEM TURN-----\n-----BEGIN PBEM GAME-----\n" * 8000
    maildir(tmp_path / "box", {"1.invitation": (tmp_path / "invitation.eml").read_bytes(), "2.begins": begins})
    read = table("ben", "inbox", "box")
    print("OUT", repr(read.output))
    assert (read.exit_code, read.output.splitlines()[:2]) == (0, [f"Updated {copy_of(tmp_path, 'ben')}: the invitation.",
                                                                  "Read 2 mails: 1 game updated."])
    (tmp_path / "begins.eml").write_bytes(begins)  # a saved mail given as the game file
    shown = table("ben", "show", "begins.eml")
    assert (shown.exit_code, shown.output) == (1, "Error: begins.eml: the armored game block is incomplete (missing "
                                                  "its END line)\n")


def test_a_gzip_bomb_in_every_block_is_cut_at_one_budget_per_mail(table, tmp_path):
    from pbem.transport import armor

    bomb = armor.wrap("TURN", b" " * (8 * 1024 * 1024))  # 8 MiB of spaces: about 11 KB armored
    mail = b"Subject: x\n\n" + (bomb * 40).encode()
    maildir(tmp_path / "box", {"1.invitation": (tmp_path / "invitation.eml").read_bytes(), "2.bombs": mail})
    read = table("ben", "inbox", "box")
    print("OUT", repr(read.output))
    errors = [line for line in read.output.splitlines() if line.startswith("Error: ")]
    assert read.exit_code == 1 and read.output.startswith(f"Updated {copy_of(tmp_path, 'ben')}: the invitation.\n")
    assert errors[0] == "Error: box/2.bombs: file is empty"  # the spaces, unpacked: no JSON in them
    assert errors[2:] == ["Error: box/2.bombs: the armored turn block is not read: the blocks before it in this mail "
                          "unpacked to the most one mail may hold"] * 38


def test_a_mailbox_or_mail_that_is_a_pipe_or_a_device_is_refused_and_the_others_read(table, tmp_path):
    os.mkfifo(tmp_path / "pipe")
    box = maildir(tmp_path / "box", {})
    os.mkfifo(box / "new" / "1.pipe")
    (box / "new" / "2.zero").symlink_to("/dev/zero")
    (box / "new" / "3.random").symlink_to("/dev/urandom")
    read = table("ben", "inbox", "pipe", "box", "invitation.eml")
    assert read.exit_code == 1
    assert read.output.splitlines()[:5] == [
        f"Updated {copy_of(tmp_path, 'ben')}: the invitation.",
        "Error: pipe is a named pipe, not a mailbox (pbem reads regular files only)",
        "Error: box/new/1.pipe is a named pipe, not a mail (pbem reads regular files only)",
        "Error: box/new/2.zero is a device, not a mail (pbem reads regular files only)",
        "Error: box/new/3.random is a device, not a mail (pbem reads regular files only)"]
    again = table("ben", "inbox", "box")
    assert (again.exit_code, again.output.splitlines()[0]) == (0, "Read 3 mails: nothing new (3 set aside, as said "
                                                                  "before: --again reads them again).")


def test_a_forked_whole_file_never_moves_what_is_recorded_as_shared(table, tmp_path):
    """ann plays on two machines; the second one's game, forked at ann's move, comes back to the first."""
    assert table("ben", "inbox", "invitation.eml").exit_code == 0
    assert table("ben", "play", copy_of(tmp_path, "ben"), "--as", "ben", "3", "2@2a", "--mail").exit_code == 0
    short = copy_of(tmp_path, "ben").stem.split("-")[1]
    assert table("ann", "inbox", f"sarcophagus-{short}-6.eml").exit_code == 0
    shutil.copytree(tmp_path / "ann", tmp_path / "ann2")
    copy, copy2 = copy_of(tmp_path, "ann"), copy_of(tmp_path, "ann2")
    assert table("ann", "play", copy, "--as", "ann", "3", "2@2b").exit_code == 0  # entries 7-9, not mailed yet
    assert table("ann2", "play", copy2, "--as", "ann", "3", "2@3a").exit_code == 0
    assert table("ann2", "mail", copy2, "--as", "ann", "--attach", "-o", "rival.eml").exit_code == 0
    before = copy.read_bytes()
    read = table("ann", "inbox", "rival.eml")
    assert read.exit_code == 1 and copy.read_bytes() == before
    assert [line.split(": ", 3)[:3] for line in read.output.splitlines() if line.startswith("Error: ")] == [
        ["Error", "FORK", "rival.eml (sarcophagus-" + short + ".json)"], ["Error", "FORK", "rival.eml"]]
    mailed = table("ann", "mail", copy, "--as", "ann", "-o", "next.eml")  # ann's entries 7-9 still go out
    assert (mailed.exit_code, mailed.output) == (0, f"Wrote next.eml to ben <ben@example.org>: [pbem sarcophagus "
                                                    f"{short}] #9: ben to move\n")
    assert f"ann signed entries 7-9 of Sarcophagus {short}" in (tmp_path / "next.eml").read_text()


# ---------------------------------------------------------------- files

def test_a_game_file_that_is_a_pipe_a_device_a_folder_or_too_large_is_refused_before_reading(table, tmp_path):
    os.mkfifo(tmp_path / "pipe.json")
    (tmp_path / "zero.json").symlink_to("/dev/zero")  # committed in a games repository, say
    (tmp_path / "random.json").symlink_to("/dev/urandom")
    (tmp_path / "folder.json").mkdir()
    with open(tmp_path / "huge.json", "wb") as handle:
        handle.truncate(33 * 1024 * 1024)  # sparse: no time to write
    refusals = {"pipe.json": "is a named pipe, not a game file (pbem reads regular files only)",
                "zero.json": "is a device, not a game file (pbem reads regular files only)",
                "random.json": "is a device, not a game file (pbem reads regular files only)",
                "folder.json": "is a folder, not a game file",
                "huge.json": "is too large to be a game file (over 32 MB)"}
    for name, why in refusals.items():
        for command in (["verify"], ["show"], ["html", "-o", "page.html"], ["log"], ["play", "--as", "ben", "3"]):
            result = table("ben", command[0], name, *command[1:])
            assert (result.exit_code, result.output) == (1, f"Error: {name} {why}\n"), command
    assert not (tmp_path / "page.html").exists()
    both = table("ann", "verify", "game.json", "pipe.json")  # the good file beside the bad one is still checked
    assert both.exit_code == 1 and both.output.splitlines()[0].startswith("game.json: valid, in progress, 0 entries.")
    assert both.output.splitlines()[1] == "Error: pipe.json is a named pipe, not a game file (pbem reads regular files only)"


def test_key_files_address_book_and_configuration_that_are_pipes_or_devices(table, tmp_path, capsys):
    (tmp_path / "zero-key").symlink_to("/dev/zero")
    played = table("ben", "play", "game.json", "--as", "ben", "--key", "./zero-key", "3")
    assert (played.exit_code, played.output) == (1, "Error: zero-key is a device, not a key file (pbem reads regular "
                                                    "files only)\n")
    book = tmp_path / "ann" / "contacts.json"
    book.unlink()
    os.mkfifo(book)
    listed = table("ann", "contact", "list")
    assert (listed.exit_code, listed.output) == (1, f"Error: {book} is a named pipe, not an address book (pbem reads "
                                                    "regular files only)\n")
    os.mkfifo(tmp_path / "judge.toml")
    with within(BOUND):
        assert judge_main(["status", str(tmp_path / "judge.toml")]) == 1
    assert capsys.readouterr().err == (f"Error: {tmp_path / 'judge.toml'} is a named pipe, not a judge configuration "
                                       "(pbem reads regular files only)\n")
    pub = tmp_path / "ann" / "keys" / "cat.pub"
    os.mkfifo(pub)
    assert table("ann", "key", "list").output.splitlines()[0].startswith("ann ")  # the pipe is passed over


# ---------------------------------------------------------------- names and the address book

def test_names_with_a_control_character_or_a_path_separator_are_refused(table, tmp_path):
    keys = tmp_path / "ann" / "keys"
    before = sorted(p.name for p in keys.iterdir())
    rule = "lower-case letters, digits, '-' and '_', starting with a letter, at most 32 characters"
    for name in ("cat\n", "cat\r", "cat\x1b[2J", "../cat", "cat/x", "Cat"):
        made = table("ann", "key", "new", name, "--no-passphrase")
        assert (made.exit_code, made.output) == (1, f"Error: {name!r} is not a usable name: {rule}\n")
        added = table("ann", "contact", "add", name, "cat@example.org")
        assert (added.exit_code, added.output) == (1, f"Error: {name!r} is not a usable name: {rule}\n")
    assert sorted(p.name for p in keys.iterdir()) == before
    new = table("ann", "new", "sarcophagus", "-o", "other.json", "--as", "ann", "--player", "ann", "--player", "b/en")
    assert (new.exit_code, new.output) == (1, f"Error: 'b/en' is not a usable player name: {rule}\n")
    (keys / "eve\n.pub").write_text((keys / "ann.pub").read_text())  # put there by hand: not listed
    assert [line.split()[0] for line in table("ann", "key", "list").output.splitlines()] == ["ann"]
    assert table("ann", "key", "new", "cat", "--no-passphrase").exit_code == 0  # the good name beside them


def test_a_hand_edited_address_book_with_a_line_break_is_one_clear_error(table, tmp_path):
    book = tmp_path / "ann" / "contacts.json"
    book.write_text(json.dumps({"contacts": {"ann": {"email": "ann@example.org"},
                                             "ben": {"email": "ben@example.org\r\nBcc: eve@example.org"}}}))
    said = (f"Error: the address book {book} is damaged: the address of ben: 'ben@example.org\\r\\nBcc: "
            "eve@example.org' is not a mail address (write it as name@example.org): fix or remove it\n")
    mailed = table("ann", "mail", "game.json", "--as", "ann", "-o", "out.eml", "--since", "0")
    assert (mailed.exit_code, mailed.output) == (1, said) and not (tmp_path / "out.eml").exists()
    assert table("ann", "contact", "list").output == said
    book.write_text(json.dumps({"contacts": {"ann\n": {"email": "ann@example.org"}}}))
    assert table("ann", "contact", "list").output == (f"Error: the address book {book} is damaged: 'ann\\n' is not a "
                                                      "usable name: fix or remove it\n")
    book.write_text(json.dumps({"contacts": {"ann": {"email": "ann@example.org"}, "ben": {"email": "ben@example.org"}}}))
    assert table("ann", "mail", "game.json", "--as", "ann", "-o", "out.eml", "--since", "0").exit_code == 0


# ---------------------------------------------------------------- the judge reads through the same gate

@pytest.mark.slow
def test_the_judge_sets_hostile_mail_aside_and_plays_the_good_game(tmp_path, monkeypatch):
    from pbem.judge import config as judge_config
    from pbem.judge.service import Judge

    from judge_support import setup_players, start_game, write_config
    from mail_support import smtp_server

    players = ["ann", "ben", "cat"]
    boxes = {f"{n}@example.org": tmp_path / "mail" / n for n in [*players, "judge"]}
    with smtp_server(boxes) as (port, _server):
        fast_cli(monkeypatch)
        monkeypatch.chdir(tmp_path)
        keys = setup_players(tmp_path, port, players)
        config = write_config(tmp_path, port, maildir=tmp_path / "mail" / "judge")
        start_game(tmp_path, port, "path-of-pharaohs", players, keys, tmp_path / "game.json")
        new = tmp_path / "mail" / "judge" / "new"
        (new / "01.nested").write_bytes(nested_parts(2000))
        (new / "02.begins").write_bytes(b"Subject: x\n\n" + b"-----BEGIN PBEM TURN-----\n" * 16000)
        os.mkfifo(new / "03.pipe")
        (new / "04.zero").symlink_to("/dev/zero")
        lines: list[str] = []
        judge = Judge(judge_config.load(config), log=lines.append)
        with within(BOUND):
            judge.once()
        said = {line.split(" ", 4)[3].rstrip(":"): line.split(" ", 2)[2] for line in lines if " mail 0" in line}
        assert said == {
            "01.nested": "mail 01.nested: not read: more than 64 multipart or message parts (a pbem mail has one or two)",
            "02.begins": "mail 02.begins: no pbem turn or game in it",
            "03.pipe": f"mail 03.pipe: {new / '03.pipe'} is a named pipe, not a mail (pbem reads regular files only)",
            "04.zero": f"mail 04.zero: {new / '04.zero'} is a device, not a mail (pbem reads regular files only)"}, lines
        assert any(line.split(" ")[1] == "mailed" for line in lines), lines  # the good game went on: joined
        assert not list(new.iterdir())  # all set aside in cur/, the good mail too (read)


@pytest.mark.slow
def test_a_key_file_asking_for_endless_kdf_rounds_is_refused_before_any(table, tmp_path):
    import base64

    from pbem.crypto import Identity

    pem = Identity.from_seed(b"\x03" * 32).to_openssh(b"pw").decode().splitlines()
    blob = bytearray(base64.b64decode("".join(pem[1:-1])))
    at = blob.index(b"bcrypt") + 6 + 4 + 4 + 16  # the KDF name, the options' length, the salt's: then the rounds
    blob[at:at + 4] = (2**31).to_bytes(4, "big")
    (tmp_path / "slow-key").write_text("\n".join([pem[0], base64.b64encode(bytes(blob)).decode(), pem[-1]]) + "\n")
    (tmp_path / "slow-key").chmod(0o600)
    with within(BOUND):
        played = runner.invoke(app, ["play", "game.json", "--as", "ben", "--key", "./slow-key", "3"],
                               env={"PBEM_HOME": str(tmp_path / "ben"), "PBEM_PASSPHRASE": "pw"})
    assert (played.exit_code, played.output) == (1, "Error: key slow-key asks for 2147483648 rounds of its passphrase's "
                                                    "KDF, over the 1024 pbem allows (ssh-keygen makes 16; -a sets more)\n")


def test_json_and_toml_nested_deep_or_of_escaped_quotes_are_refused_in_linear_time(table, tmp_path, capsys):
    """Found by the fuzz harness: 400 KB of \\" took the depth check quadratic time (20 s for 40 KB); a
    nested address book, note or judge.toml stopped json or tomllib with a RecursionError."""
    (tmp_path / "quotes.json").write_bytes(b"[" + b'\\"' * 200_000)
    (tmp_path / "deep.json").write_bytes(b'{"genesis": {"format": "pbem/3", "x": ' + b"[" * 100_000)
    checked = table("ann", "verify", "quotes.json", "deep.json", "game.json")
    assert checked.exit_code == 1
    assert checked.output.splitlines() == [
        "Error: quotes.json: not valid JSON (line 1, column 2: Expecting value)",
        "Error: deep.json: JSON nested deeper than 12 levels",
        checked.output.splitlines()[2]]
    assert checked.output.splitlines()[2].startswith("game.json: valid, in progress, 0 entries.")
    book = tmp_path / "ann" / "contacts.json"
    book.write_bytes(b'{"contacts": ' + b"[" * 100_000)
    assert table("ann", "contact", "list").output == f"Error: the address book {book} is damaged: fix or remove it\n"
    (tmp_path / "ben" / "mail").mkdir()
    for note in ("status-cache.json", "mail/x.json"):
        (tmp_path / "ben" / note).write_bytes(b"[" * 100_000)
    assert table("ben", "inbox", "invitation.eml").exit_code == 0  # damaged notes: as if there were none
    (tmp_path / "judge.toml").write_text("a = " + "[" * 5000)
    (tmp_path / "nul.toml").write_text('home = "a\\u0000b"\nkey = "k"\n')
    with within(BOUND):
        assert judge_main(["status", str(tmp_path / "judge.toml")]) == judge_main(["status", str(tmp_path / "nul.toml")]) == 1
    assert capsys.readouterr().err == (f"Error: {tmp_path / 'judge.toml'}: not valid TOML (nested too deep)\n"
                                       f"Error: {tmp_path / 'nul.toml'}: home: String should match pattern "
                                       "'^[^\\x00]*$'\n")


@pytest.mark.slow
def test_a_pushed_blob_too_large_for_a_game_file_is_refused_before_it_is_read(tmp_path, monkeypatch):
    import subprocess

    from pbem.judge import git as judge_git

    def git(cwd, *args):
        return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)

    fast_cli(monkeypatch)
    origin, work, home = tmp_path / "server.git", tmp_path / "work", tmp_path / "judge-home"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(origin))
    assert invoke(home, "key", "new", "judge", "--no-passphrase").exit_code == 0
    (tmp_path / "judge.toml").write_text(f'home = "{home}"\nkey = "{home / "keys" / "judge"}"\n'
                                         'address = "judge@example.org"\n')
    judge_git.install_hooks(origin, tmp_path / "judge.toml")
    git(tmp_path, "clone", "-q", str(origin), str(work))
    (work / "games").mkdir()
    (work / "games" / "huge.json").write_bytes(b" " * (33 * 1024 * 1024))
    git(work, "add", "-A")
    git(work, "-c", "user.name=eve", "-c", "user.email=eve@example.org", "commit", "-qm", "a huge game")
    with within(BOUND * 3):
        pushed = git(work, "push", "-q", "origin", "HEAD:main")
    assert pushed.returncode != 0 and ("remote: Error: games/huge.json (refs/heads/main): not a game file: 34603008 "
                                       "bytes, over the 32 MB a game file may be") in pushed.stderr


def test_terminal_escapes_from_a_game_file_or_a_mail_are_shown_not_obeyed(table, tmp_path):
    game = json.loads((tmp_path / "game.json").read_text())
    game["genesis"]["options"] = {"\x1b[2J\rUpdated everything": "x"}
    (tmp_path / "escapes.json").write_text(json.dumps(game))
    checked = table("ann", "verify", "escapes.json")
    assert checked.exit_code == 1 and "\x1b" not in checked.output and "\r" not in checked.output
    assert checked.output.startswith("Error: escapes.json: malformed game file at genesis.options.\\x1b[2J\\x0dUpdated "
                                     "everything.[key]: ")
    mail = (b'Subject: x\nContent-Type: multipart/mixed; boundary="b"\n\n--b\nContent-Type: application/json\n'
            b'Content-Disposition: attachment; filename="\x1b[2J\x1b[1Agame.json"\n\n{}\n--b--\n')
    maildir(tmp_path / "box", {"1.escapes": mail, "2.invitation": (tmp_path / "invitation.eml").read_bytes()})
    read = table("ben", "inbox", "box")
    assert "\x1b" not in read.output
    assert "Error: box/1.escapes (\\x1b[2J\\x1b[1Agame.json): not a pbem game file (no genesis object)" in read.output
    assert f"Updated {copy_of(tmp_path, 'ben')}: the invitation." in read.output


def test_a_charset_no_codec_is_named_by_is_read_as_utf8(table, tmp_path):
    """Found by the fuzz harness: a NUL in a charset name made the codec lookup raise ValueError."""
    block = (tmp_path / "invitation.eml").read_bytes()
    odd = b'Subject: x\nContent-Type: text/plain; charset="utf-8\x00\x00"\n\nhello\n'
    maildir(tmp_path / "box", {"1.odd": odd, "2.invitation": block})
    read = table("ben", "inbox", "box")
    assert (read.exit_code, read.output.splitlines()[:2]) == (0, [f"Updated {copy_of(tmp_path, 'ben')}: the invitation.",
                                                                  "Read 2 mails: 1 game updated."])
