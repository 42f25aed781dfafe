"""`pbem judge status`: one line per game the judge holds: the game, its players, its length, who owes
what, and how far the parties have been mailed."""

from __future__ import annotations

import os

from pbem.judge import library
from pbem.judge.config import Config


def lines(config: Config) -> list[str]:
    os.environ["PBEM_HOME"] = str(config.home)
    out = []
    for path in library.copies_in(config.games):
        try:
            rep = library.open_game(path)
        except library.PbemError as exc:
            out.append(f"{path.name}: Error: {exc}")
            continue
        mailed = library.mailed_up_to(rep.genesis.game_id)
        owed = rep.duties()
        doing = "game over" if rep.over else ", ".join(f"{d.who} to {d.what}" for d in owed[:3]) or "nothing owed"
        out.append(f"{rep.genesis.game} {library.short_id(rep.genesis.game_id)}  {', '.join(rep.players)}  "
                   f"#{rep.seq}  {doing}  (mailed up to #{mailed if mailed is not None else '-'})")
    return out or [f"No games in {config.games}."]
