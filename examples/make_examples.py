"""Regenerate the example games (run from the repository root): python examples/make_examples.py

The keys in examples/test-keys/ are TEST KEYS, published on purpose: never use them for a real game."""

from __future__ import annotations

import os
import random
import tempfile
from pathlib import Path

HERE = Path(__file__).parent
KEYS = HERE / "test-keys"


def main() -> None:
    os.environ["PBEM_HOME"] = tempfile.mkdtemp(prefix="pbem-examples-")
    from pbem import api

    names = ["ann", "ben", "cat", "dan", "ref"]
    KEYS.mkdir(exist_ok=True)
    for name in names:
        api.create_key(name, None)
        for suffix in ("", ".pub"):
            (KEYS / f"{name}{suffix}").write_bytes((api.key_dir() / f"{name}{suffix}").read_bytes())
    four = ["ann", "ben", "cat", "dan"]
    games = [("sarcophagus", "table-3-players.json", ["ann", "ben", "cat"], None),
             ("sarcophagus", "referee-2-players.json", ["ann", "ben"], "ref"),
             ("path-of-pharaohs", "pharaohs-table-4-players.json", four, None),
             ("path-of-pharaohs", "pharaohs-referee-4-players.json", four, "ref")]
    for game, filename, players, referee in games:
        path = HERE / filename
        rep, _ = api.new_game(game, path, referee or players[0], players, referee, force=True)
        random.seed(filename)
        while rep.duties():
            duty = rep.duties()[0]
            who = duty.who if duty.who != "dealer" else (referee or players[0])
            rep = api.play(path, who, bot="greedy").rep
        print(f"{filename}: {rep.seq} entries")


if __name__ == "__main__":
    main()
