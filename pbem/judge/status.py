"""`pbem judge status`: one line per game the judge holds (from its store): the game, its players, its
length, who owes what, and how far the parties have been mailed; then what waits in the outbox."""

from __future__ import annotations

import os

from pbem.judge import library
from pbem.judge.config import Config
from pbem.judge.service import open_memory


def lines(config: Config) -> list[str]:
    os.environ["PBEM_HOME"] = str(config.home)
    store = open_memory(config, library.clock_now())
    out = []
    for game_id in store.game_ids():
        try:
            with store.db.transaction(lock=[game_id]) as tx:
                path = store.sync(tx, game_id)
            assert path is not None
            rep = library.open_game(path)
        except library.PbemError as exc:
            out.append(f"{library.short_id(game_id)}: Error: {exc}")
            continue
        mailed = library.mailed_up_to(rep.genesis.game_id)
        owed = rep.duties()
        doing = "game over" if rep.over else ", ".join(f"{d.who} to {d.what}" for d in owed[:3]) or "nothing owed"
        out.append(f"{rep.genesis.game} {library.short_id(rep.genesis.game_id)}  {', '.join(rep.players)}  "
                   f"#{rep.seq}  {doing}  (mailed up to #{mailed if mailed is not None else '-'})")
    if not out:
        return [f"No games in {config.database}."]
    unsent = store.unsent_count()
    return out + ([f"{unsent} mail{'s' * (unsent != 1)} in the outbox, not sent yet."] if unsent else [])
