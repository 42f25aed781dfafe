"""The judge's post-receive hook on a repository you control: it does the referee's duties in every game
on the protected branch as it stands now and commits them on top. An entry the judge signed counts as
seen only once its commit is on the branch; until then it waits in the judge's home (`git-pending/`),
and the next run commits those very bytes; a push landing between its reading the branch and its
commit makes it commit the same entries again on the new tip."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pbem import api
from pbem.judge.git import GAMES, MAX_BLOB, BranchMoved, blob, branch_tip, commit_files, game_files, shown
from pbem.judge.git_games import BranchGame, seen_problem, sign_duties

ATTEMPTS = 5
"""How often post-receive commits again when a push lands between its reading the branch and its commit."""
PENDING = "git-pending"
"""In the judge's home: the game files holding entries it signed whose commit is not on the branch yet."""


def post_receive(repo: Path, updates: list[tuple[str, str, str]], key: Path, home: Path,
                 branch: str = "refs/heads/main", games: str = GAMES, log: list[str] | None = None,
                 signed: Callable[[str, dict[int, str]], None] | None = None) -> str | None:
    """Sign the referee's duties of every game on `branch` as it stands now, and commit them on top.
    Returns the new commit, or None when the judge owed nothing (or its entries wait for the next push).
    Run in a transaction of the judge's store holding its lock for the repository, with PBEM_HOME set to
    its home; `signed` records each place it signs there."""
    log = log if log is not None else []
    if not any(ref == branch for _, _, ref in updates) and not _pending_games(home):
        return None
    identity = api.load_identity(str(key))
    for _ in range(ATTEMPTS):
        tip = branch_tip(repo, branch)
        if tip is None:
            return None
        made_now = _sign(repo, tip, key, identity, home, games, log, signed)
        if not made_now:
            return None
        message = "judge: the referee's duties in " + ", ".join(made_now)
        try:
            made = commit_files(repo, tip, {path: game.data for path, game in made_now.items()}, branch, message)
        except BranchMoved:
            log.append("a push landed meanwhile: the judge commits the same entries on the new tip")
            continue
        for game in made_now.values():
            api.remember(game.rep)  # on the branch now: seen
            _drop_pending(home, game.rep.genesis.game_id)
        return made
    log.append("the branch kept moving: the judge's entries wait, and the next push commits them")
    return None


def _sign(repo: Path, tip: str, key: Path, identity: api.Identity, home: Path, games: str,
          log: list[str], signed: Callable[[str, dict[int, str]], None] | None = None) -> dict[str, BranchGame]:
    """path -> the game file to commit: the entries already signed and waiting, else the duties owed now."""
    found: dict[str, BranchGame] = {}
    for game_id, game in _branch_games(repo, tip, games, log).items():
        api.remember(game.rep)  # on the branch: seen
        waiting = _pending(home, game_id, log)
        if waiting is not None and _proper_prefix(game.rep.hashes, waiting.rep.hashes):
            found[game.path] = BranchGame(game.path, waiting.data, waiting.rep)  # the very bytes signed before
            log.append(f"committing {shown(game.path)} entries {game.rep.seq + 1}-{waiting.rep.seq}, signed before")
            continue
        if waiting is not None:
            _drop_pending(home, game_id)
            if waiting.rep.hashes != game.rep.hashes[:len(waiting.rep.hashes)]:
                log.append(f"dropped the judge's entries of {shown(game.path)} from entry {_fork(waiting, game)}: a push "
                           "took their place first, and they were never on the branch")
        problem = seen_problem(game.rep)
        if problem:
            log.append(f"error {shown(game.path)}: {problem}")
            continue
        duties = sign_duties(game, key, identity, log)
        if duties is not None:
            if signed is not None:  # one entry a place, whichever process signs: the store refuses a second
                signed(game_id, {seq: duties.rep.hashes[seq] for seq in range(game.rep.seq + 1, duties.rep.seq + 1)})
            api.write_file(_pending_path(home, game_id), duties.data)  # before the commit: a crash keeps it
            found[game.path] = duties
    return found


def _fork(one: BranchGame, other: BranchGame) -> int:
    return next(seq for seq, (a, b) in enumerate(zip(one.rep.hashes, other.rep.hashes)) if a != b)


def _proper_prefix(short: list[str], long: list[str]) -> bool:
    return len(short) < len(long) and long[:len(short)] == short


def _branch_games(repo: Path, tip: str, games: str, log: list[str]) -> dict[str, BranchGame]:
    """game id -> its file on the branch, verified; a game in two files is acted on in neither."""
    found: dict[str, BranchGame] = {}
    twice: set[str] = set()
    for path, sha in sorted(game_files(repo, tip, games).items()):
        try:
            data = blob(repo, sha)
            rep = api.verify_record(api.read_record(data))
        except api.PbemError as exc:
            log.append(f"error {shown(path)}: {exc}")
            continue
        game_id = rep.genesis.game_id
        if game_id in found:
            twice.add(game_id)
            log.append(f"error {shown(path)}: the game is in {shown(found[game_id].path)} too: the judge acts on neither")
        found[game_id] = BranchGame(path, data, rep)
    return {game_id: game for game_id, game in found.items() if game_id not in twice}


def _pending_path(home: Path, game_id: str) -> Path:
    folder = home / PENDING
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    return folder / f"{game_id}.json"


def _pending_games(home: Path) -> list[str]:
    folder = home / PENDING
    return sorted(p.stem for p in folder.glob("*.json")) if folder.is_dir() else []


def _pending(home: Path, game_id: str, log: list[str]) -> BranchGame | None:
    """The game file with the entries signed for this game and not yet on the branch, if any."""
    path = home / PENDING / f"{game_id}.json"
    if not path.exists():
        return None
    try:
        data = api.read_file(path, "the judge's entries waiting for a commit", MAX_BLOB)
        return BranchGame(path.name, data, api.verify_record(api.read_record(data)))
    except api.PbemError as exc:
        log.append(f"error: the judge's waiting entries of game {api.short_id(game_id)} cannot be read ({exc}): "
                   "dropped; they were never on the branch")
        _drop_pending(home, game_id)
        return None


def _drop_pending(home: Path, game_id: str) -> None:
    (home / PENDING / f"{game_id}.json").unlink(missing_ok=True)

