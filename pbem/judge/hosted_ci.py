"""The judge on hosted CI, where only a workflow runs (GitHub, GitLab.com): `ci_referee` acts only on the
protected branch, and its memory is the repository's history. Every version of every game file in it is
read: a file at HEAD behind or forked from any valid earlier version is refused, and so is a game that
was there once and is gone. Before it signs, it reads every ref it can see, and never signs a second
entry for a place where its key signed one (docs/git.md says what this withstands, and what it does not).
Built on the plumbing of git.py and git_games.py, as the hooks of a repository you control are.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from pbem.judge import library
from pbem.judge.git import GAMES, REGULAR, ZERO, GitError, blob, game_files, git, shown
from pbem.judge.git_games import BranchGame, Version, read_version, sign_duties, stands, verifies


def _versions(repo: Path, revs: list[str], games: str) -> Iterator[tuple[str, str, str, str]]:
    """(commit, ref it was reached from, path, blob) of every game file version in the history of `revs`,
    newest first, each blob once. Read with -z: any path, however odd, is read as it is."""
    out = git(repo, "log", "-z", "--format=%H %S", "--raw", "--no-abbrev", "--no-renames", "-m", "--source",
              "--stdin", "--", games, data="\n".join(revs).encode() + b"\n").decode(errors="surrogateescape")
    seen: set[str] = set()
    commit = source = ""
    tokens = iter(out.split("\0"))
    for token in tokens:
        token = token.lstrip("\n")
        if not token.startswith(":"):
            if token:
                commit, _, source = token.partition(" ")
            continue
        path = next(tokens, "")
        sha = token.split()[3]
        if sha == ZERO or sha in seen or token.split()[1] not in REGULAR or not path.endswith(".json") \
                or "/forks/" in path:
            continue
        seen.add(sha)
        yield commit, source, path, sha


def _shallow(repo: Path) -> None:
    if git(repo, "rev-parse", "--is-shallow-repository").strip() == b"true":
        raise GitError("the history is shallow: check out the whole history (actions/checkout: fetch-depth: 0)")


def history(repo: Path, games: str = GAMES, until: str = "HEAD") -> dict[str, list[Version]]:
    """Every version of every game file ever in the history of `until`, by game id (any path: a game
    copied to a new name is still the same game)."""
    _shallow(repo)
    versions: dict[str, list[Version]] = {}
    for commit, _, path, sha in _versions(repo, [until], games):
        version = read_version(repo, path, sha, f"commit {commit[:12]}")
        if isinstance(version, Version):
            versions.setdefault(version.record.genesis.game_id, []).append(version)
    return versions


def ci_check(repo: Path, games: str = GAMES) -> list[str]:
    """The reasons HEAD must not be acted on: a game file behind or forked from any valid earlier
    version in the history, a game that is gone or in two files, or a file that does not verify."""
    problems = []
    current: dict[str, list[Version]] = {}
    for path, sha in sorted(game_files(repo, "HEAD", games).items()):
        version = read_version(repo, path, sha, "HEAD")
        if isinstance(version, str):
            problems.append(version)
            continue
        try:
            library.verify_record(version.record)
        except library.PbemError as exc:
            problems.append(f"{shown(path)}: {exc}")
            continue
        current.setdefault(version.record.genesis.game_id, []).append(version)
    for game_id, files in current.items():
        if len(files) > 1:
            problems.append(f"game {library.short_id(game_id)} is in {len(files)} files at HEAD "
                            f"({', '.join(v.where.split(' (')[0] for v in files)}): a game has one file")
    for game_id, earlier in history(repo, games).items():
        if game_id not in current:
            problems.append(f"game {library.short_id(game_id)} ({earlier[0].where}) is gone from HEAD: a game file "
                            "is never removed")
            continue
        for now in current[game_id]:
            for old in earlier:
                how = stands(now.hashes, old.hashes)
                if how is not None and verifies(old):
                    problems.append(f"{now.where.split(' (')[0]}: {how} as in {old.where}: refused")
    return problems


def running_on() -> str | None:
    """The ref this CI run is on: GITHUB_REF (GitHub), CI_COMMIT_BRANCH (GitLab, a branch's pipeline), else
    the checkout's own branch (None: HEAD is detached)."""
    if os.environ.get("GITHUB_REF"):
        return os.environ["GITHUB_REF"]
    if os.environ.get("CI_COMMIT_BRANCH"):
        return "refs/heads/" + os.environ["CI_COMMIT_BRANCH"]
    return None


def _checkout_branch(repo: Path) -> str | None:
    try:
        return git(repo, "symbolic-ref", "-q", "HEAD").decode(errors="surrogateescape").strip() or None
    except GitError:
        return None


def ci_branch_problem(repo: Path, branch: str) -> str | None:
    """Why this run must not act (None: it runs on the protected branch). A reveal signed on any other
    branch would be one more for its place: a player could push a branch per try and keep the best."""
    ref = running_on() or _checkout_branch(repo)
    if ref == f"refs/heads/{branch}":
        return None
    where = f"on {shown(ref)}" if ref else "on a detached HEAD"
    return (f"the judge acts only on the protected branch {branch}, and this run is {where}: refused "
            "(run it on that branch alone; docs/git.md)")


def ci_referee(repo: Path, key: Path, games: str = GAMES, log: list[str] | None = None,
               branch: str = "main") -> list[str]:
    """Hosted CI: on the protected branch only, check the history, then do the referee's duties in the
    work tree's game files (the workflow commits and pushes them). Raises GitError with every problem
    when it must not act: another branch, a HEAD behind or forked from its history, or a place where
    the judge's key already signed an entry, on any ref, that HEAD's file does not hold."""
    problem = ci_branch_problem(repo, branch)
    if problem:
        raise GitError(problem)
    problems = ci_check(repo, games)
    if problems:
        raise GitError("refused to act: " + "; ".join(problems))
    log = log if log is not None else []
    identity = library.load_identity(str(key))
    signed: dict[str, BranchGame] = {}
    for path, sha in sorted(game_files(repo, "HEAD", games).items()):
        data = blob(repo, sha)
        head = BranchGame(path, data, library.verify_record(library.read_record(data)))
        duties = sign_duties(head, key, identity, log)
        if duties is not None:
            problems += _signed_elsewhere(repo, games, head, duties)
            signed[path] = duties
    if problems:
        raise GitError("refused to act: " + "; ".join(problems))
    for path, game in signed.items():
        target = repo / path
        if target.is_symlink():
            raise GitError(f"{shown(path)} is a symbolic link in the work tree: refused to write through it")
        library.write_file(target, game.data)
    return list(signed)


def _ref_tips(repo: Path) -> list[str]:
    """Every branch, remote-tracking branch and tag this checkout has that names a commit."""
    out = git(repo, "for-each-ref", "--format=%(refname)%00%(objecttype)%00%(*objecttype)",
              "refs/heads", "refs/remotes", "refs/tags").decode(errors="surrogateescape")
    tips = []
    for line in out.splitlines():
        name, kind, peeled = (line.split("\0") + ["", ""])[:3]
        if "commit" in (kind, peeled) and not name.endswith("/HEAD"):
            tips.append(name)
    return tips


def _signed_elsewhere(repo: Path, games: str, head: BranchGame, now: BranchGame) -> list[str]:
    """The places where the judge is about to sign while an entry by its key at that place, a different
    one, is on some ref: it never signs two entries for one place."""
    referee = head.rep.referee
    places = range(head.rep.seq + 1, now.rep.seq + 1)
    problems = []
    for _, ref, path, sha in _versions(repo, _ref_tips(repo), games):
        version = read_version(repo, path, sha, ref)
        if isinstance(version, str) or version.record.genesis.game_id != head.rep.genesis.game_id:
            continue
        theirs = [s for s in places if s < len(version.hashes) and version.record.entries[s - 1].author == referee
                  and version.hashes[s] != now.rep.hashes[s]]
        genuine = _genuine(version.record, theirs)
        if genuine:
            problems.append(f"{shown(head.path)}: entry {genuine[0]} of this game was already signed by the judge on "
                            f"{shown(ref)}, and HEAD's file does not hold it: refused to sign another for its place")
    return problems


def _genuine(record: library.GameFile, places: list[int]) -> list[int]:
    """Those of `places` where the record's entry verifies, with every entry before it."""
    while places:
        try:
            library.verify_record(record.model_copy(update={"entries": record.entries[:places[-1]]}))
            return places
        except library.PbemError as exc:
            bad = getattr(exc, "seq", None)
            places = [s for s in places if bad is not None and s < bad and s != places[-1]]
    return []
