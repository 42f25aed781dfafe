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
    from pbem.api import playing as gameplay
    from pbem.crypto.keyring import create_key, key_dir

    names = ["ann", "ben", "cat", "dan", "ref"]
    KEYS.mkdir(exist_ok=True)
    for name in names:
        create_key(name, None)
        for suffix in ("", ".pub"):
            (KEYS / f"{name}{suffix}").write_bytes((key_dir() / f"{name}{suffix}").read_bytes())
    four = ["ann", "ben", "cat", "dan"]
    games = [("sarcophagus", "table-3-players.json", ["ann", "ben", "cat"], None),
             ("sarcophagus", "referee-2-players.json", ["ann", "ben"], "ref"),
             ("path-of-pharaohs", "pharaohs-table-4-players.json", four, None),
             ("path-of-pharaohs", "pharaohs-referee-4-players.json", four, "ref")]
    for game, filename, players, referee in games:
        path = HERE / filename
        rep, _ = gameplay.create(game, path, referee or players[0], players, referee, [], None, None, force=True)
        random.seed(filename)
        while rep.duties():
            duty = rep.duties()[0]
            who = duty.who if duty.who != "dealer" else (referee or players[0])
            rep = gameplay.take_turn(path, who, [], bot="greedy").rep
        print(f"{filename}: {rep.seq} entries")


if __name__ == "__main__":
    main()
