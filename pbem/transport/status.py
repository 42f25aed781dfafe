"""Every game in a folder of local copies at a glance: whose duty, since when, who is late; a cache
keyed by each file's size and time keeps `pbem status` fast over many games."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from pbem.crypto import PublicKey
from pbem.crypto.keyring import home, list_keys
from pbem.errors import PbemError
from pbem.record.canonical import parse_json
from pbem.record.deadlines import now as clock_now
from pbem.record.models import GameFile
from pbem.record.reading import read_optional
from pbem.transport import copies
from pbem.transport.advice import mail_command
from pbem.transport.copies import write_note

if TYPE_CHECKING:
    from pbem.protocol.replay import Replay
from pbem.record.status import GameSummary, OwedDuty, Status

TABLE = "the table"
"""Who owes a table-mode reveal: any player's program does it when it next acts."""


def holders(rep: Replay) -> dict[str, str]:
    """Who answers for a duty now, by name, and what: the referee deals in referee mode, the table
    otherwise; in referee mode a player's opening is the referee's (it holds every opening), as the
    deadlines count it (pbem.protocol.absence.answerable)."""
    from pbem.protocol.absence import owing

    return {who: duty.what for who, duty in owing(rep).items()}


def summary(rep: Replay, path: str = "") -> GameSummary:
    """What status shows of a verified game."""
    from pbem.presentation.terminal import result_text

    g = rep.genesis
    times = [g.time] + [e.time for e in rep.entries]
    people = list(g.players) + ([g.dealer.referee] if g.dealer.referee else [])
    over = rep.over
    began = rep.began if g.deadlines else rep.held  # under a policy: the start its clocks count from
    return GameSummary(path=path, game=g.game, game_id=g.game_id, players=rep.players, referee=rep.referee,
                keys={p.name: p.key for p in people}, entries=rep.seq, finished=over,
                result=result_text(rep) if over else None, deadline_hours=g.deadline_hours,
                deadlines=g.deadlines is not None, absences=[str(a) for a in rep.absences],
                duties=[_owed(rep, who, what, began[who], times[began[who]]) for who, what in holders(rep).items()])


def _owed(rep: Replay, who: str, what: str, since_entry: int, since: int | None) -> OwedDuty:
    """A duty as status shows it, with its deadline, reminders and absence time under a deadline policy."""
    from pbem.protocol.absence import duty_clock, next_recorder

    times = duty_clock(rep, who) if not rep.over else None
    if times is None:
        return OwedDuty(party=who, what=what, since_entry=since_entry, since=since)
    return OwedDuty(party=who, what=what, since_entry=since_entry, since=since, deadline=times.deadline,
                    absent_from=times.absent_from, reminders=times.reminders_due(times.deadline),
                    recorder=next_recorder(rep, who))


def summarize(record: GameFile, path: str = "") -> GameSummary:
    """Verify a record and say what status shows of it."""
    from pbem.protocol.verify import verify

    return summary(verify(record), path)


def note(path: Path, game: GameSummary) -> None:
    """Cache what a copy just written holds, so the next listing need not verify it again."""
    info = path.stat()
    cache = _load_cache()
    cache[str(path)] = {"stamp": [info.st_size, info.st_mtime_ns], "game": _dump(game)}
    try:
        write_note(_cache_path(), json.dumps(cache).encode())
    except OSError:
        pass


_NEW_FIELDS: dict[str, Any] = {"deadlines": False, "absences": []}
_NEW_DUTY_FIELDS: dict[str, Any] = {"deadline": None, "absent_from": None, "reminders": [], "reminder_due": False,
                                    "absent_due": False, "recorder": None}


def _dump(game: GameSummary) -> dict[str, Any]:
    """A summary as the cache keeps it: the fields deadlines added are left out while they hold nothing, so a
    game without a deadline policy is cached exactly as before."""
    data = game.model_dump()
    for key, empty in _NEW_FIELDS.items():
        if data[key] == empty:
            del data[key]
    for duty in data["duties"]:
        for key, empty in _NEW_DUTY_FIELDS.items():
            if duty[key] == empty:
                del duty[key]
    return data


def judged(game: GameSummary, my_keys: list[PublicKey], now: int) -> GameSummary:
    """The game as seen by me at `now`: my names, my duties first, who is late."""
    me = [name for name, line in game.keys.items() if any(k.line().split()[:2] == line.split()[:2] for k in my_keys)]
    limit = game.deadline_hours * 3600 if game.deadline_hours else None

    def late(d: OwedDuty) -> bool:
        if d.deadline is not None:
            return now > d.deadline
        return bool(limit and d.since is not None and now - d.since > limit)

    duties = [d.model_copy(update={"mine": d.party in me, "late": late(d),
                                   "reminder_due": not late(d) and any(t <= now for t in d.reminders),
                                   "absent_due": d.absent_from is not None and now >= d.absent_from})
              for d in game.duties]
    duties.sort(key=lambda d: not d.mine)
    return game.model_copy(update={"me": me, "duties": duties, "i_owe": any(d.mine for d in duties),
                                   "shared": copies.shared(game.game_id)})


def _cache_path() -> Path:
    return home() / "status-cache.json"


def _load_cache() -> dict[str, Any]:
    try:
        data = parse_json(read_optional(_cache_path(), "a status cache", 64 * 1024 * 1024) or b"{}")
        return data if isinstance(data, dict) else {}
    except (PbemError, ValueError):
        return {}


def collect(paths: list[Path], now: int | None = None) -> Status:
    """The status of every game file given, mine first, then by how long they have waited."""
    from pbem.errors import PbemError
    from pbem.record.gamefile import load

    now = clock_now() if now is None else now
    my_keys = [key for _, key in list_keys()]
    cache, fresh = _load_cache(), {}
    games, problems = [], []
    for path in paths:
        try:
            info = path.stat()
            stamp = [info.st_size, info.st_mtime_ns]
            hit = cache.get(str(path))
            try:
                game = GameSummary.model_validate(hit["game"]) if hit and hit.get("stamp") == stamp else None
            except (ValidationError, TypeError, KeyError):
                game = None
            if game is None:
                game = summarize(load(path)[0], str(path))
            fresh[str(path)] = {"stamp": stamp, "game": _dump(game)}
            games.append(judged(game, my_keys, now))
        except (PbemError, OSError) as exc:
            problems.append(f"{path}: {exc}")
    if fresh != cache:
        try:
            write_note(_cache_path(), json.dumps(fresh).encode())
        except OSError:
            pass  # a cache that cannot be written only costs time
    games.sort(key=lambda g: (not g.i_owe, g.finished, min((d.since or now for d in g.duties), default=now)))
    return Status(now=now, i_owe=any(g.i_owe for g in games), games=games, problems=problems)


def _ago(seconds: int) -> str:
    if seconds < 3600:
        return f"{max(seconds // 60, 0)} min"
    if seconds < 48 * 3600:
        return f"{seconds // 3600} h"
    return f"{seconds // 86400} days"


def duty_text(duty: OwedDuty, now: int) -> str:
    when = f" for {_ago(now - duty.since)}" if duty.since is not None else f" since entry {duty.since_entry}"
    if duty.absent_due:
        mark = " LATE, may be recorded absent"
    elif duty.late:
        mark = " LATE"
    elif duty.deadline is not None:
        mark = f", due in {_ago(duty.deadline - now)}" + (" (reminder due)" if duty.reminder_due else "")
    else:
        mark = ""
    return f"{'you (' + duty.party + ')' if duty.mine else duty.party} to {duty.what}{when}{mark}"


def line(game: GameSummary, now: int) -> str:
    """One game on one line: a mark if I owe, the game, players, entry count, and whose duty it is."""
    mark = "*" if game.i_owe else " "
    head = f"{mark} {game.game} {game.game_id[:8]}  {', '.join(game.players)}  #{game.entries}"
    if game.finished:
        return f"{head}  finished: {game.result}"
    deadline = f"  (deadline {game.deadline_hours} h)" if game.deadline_hours and not game.deadlines else ""
    return f"{head}  " + "; ".join(duty_text(d, now) for d in game.duties) + deadline + offer_text(game) + \
        unsent_text(game)


def offers(game: GameSummary) -> list[OwedDuty]:
    """The duties whose party one of my names may record absent now (`pbem absent`)."""
    return [d for d in game.duties if d.absent_due and d.recorder in game.me]


def offer_text(game: GameSummary) -> str:
    """What a status line adds when I may record someone absent: the command to do it (the game named by
    its short id, as the line shows it)."""
    return "".join(f"; you ({d.recorder}) may record {d.party} absent: pbem absent {copies.short_id(game.game_id)} "
                   f"{d.party} --as {d.recorder}" for d in offers(game))


def unsent_text(game: GameSummary) -> str:
    """What a status line adds when this machine holds entries nobody else has had by mail (the game named by
    its short id, as the line shows it: pbem/transport/lookup.py finds it)."""
    if not game.me or game.shared is None or game.entries <= game.shared:
        return ""
    return f"; written here, not sent: {mail_command(copies.short_id(game.game_id), game.me[0])}"


def late_parties(game: GameSummary) -> list[str]:
    return [d.party for d in game.duties if d.late]


def late_line(record: GameFile, now: int | None = None) -> str:
    """What `pbem show` adds for a game with a deadline: who is late, or that nobody is; under a deadline
    policy, each duty's deadline, the reminders due and who may be recorded absent, and the absences."""
    now = clock_now() if now is None else now
    game = judged(summarize(record), [], now)
    if game.deadlines:
        owed = "; ".join(duty_text(d, now) for d in game.duties if d.deadline is not None)
        lines = [f"Deadlines: {owed or 'nothing owed is on a clock'}."]
        return "\n".join(lines + [f"Absent: {text}." for text in game.absences])
    late = [duty_text(d, now) for d in game.duties if d.late]
    return f"Deadline {game.deadline_hours} h a duty: " + ("; ".join(late) if late else "nobody is late.")


def parse_deadline(text: str) -> int:
    """Hours from '72h', '3d' or '72'."""
    from pbem.errors import UsageError

    number, unit = (text[:-1], text[-1]) if text[-1:] in ("h", "d") else (text, "h")
    if not number.isdigit() or not 0 < int(number) * (24 if unit == "d" else 1) <= 24 * 365:
        raise UsageError(f"--late-after {text!r}: write hours or days, e.g. 72h or 3d (at most a year)")
    return int(number) * (24 if unit == "d" else 1)


__all__ = ["Status", "collect", "judged", "late_parties", "line", "summarize"]

