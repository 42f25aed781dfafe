"""Moving in: a judge home of files, from before the judge kept its memory in a database (its copies with
their marks, addresses.json, answered.json, deadlines.json, waiting.json), taken into the store. Nothing
is removed: the files stay where they were."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pbem.judge import library
from pbem.judge.store import Store

SINGULAR = {"games": "game", "addresses": "address", "answers": "answer", "deadline notes": "deadline note",
            "waiting mails": "waiting mail"}


def moved_text(counts: dict[str, int]) -> str:
    """What `import_home` moved, in words: "1 game, 3 addresses, ..."."""
    return ", ".join(f"{n} {what if n != 1 else SINGULAR[what]}" for what, n in counts.items())


def import_home(store: Store, home: Path, now: float) -> dict[str, int]:
    """Take a judge home of files (before the database) into the store: its copies with their marks,
    the addresses learned, the answers, the deadline notes, the waiting mails. Nothing is removed."""
    counts = {"games": 0, "addresses": 0, "answers": 0, "deadline notes": 0, "waiting mails": 0}
    for path in library.copies_in(store.games):
        with store.db.transaction() as tx:
            record = library.load(path)
            if store.held(tx, record.genesis.game_id) is None:
                store.save(tx, path, now)
                counts["games"] += 1
    for game_id, names in _notes(home / "addresses.json").items():
        for name, address in dict(names).items():
            counts["addresses"] += store.learn(str(game_id), str(name), str(address))
    for address, at in _notes(home / "answered.json").items():
        store.note_answer(str(address), float(at))
        counts["answers"] += 1
    for game_id, items in _notes(home / "deadlines.json").items():
        with store.db.transaction() as tx:
            done = store.deadlines_done(tx, str(game_id))
            for item in items:
                if str(item) not in done:
                    store.note_deadline(tx, str(game_id), str(item))
                    counts["deadline notes"] += 1
    for name, (game_id, after) in _notes(home / "waiting.json").items():
        if store.take(str(name), now) is not None:
            store.settle(None, str(name), "waiting", str(game_id), int(after))
            counts["waiting mails"] += 1
    return counts


def _notes(path: Path) -> dict[str, Any]:
    """A JSON note of a judge home of files; empty when it is missing or damaged."""
    try:
        data = json.loads(library.read_file(path, "a judge's note", 64 * 1024 * 1024))
    except (library.PbemError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}
