"""What people read: the board in a terminal, what happened, who is next, the game log."""

from __future__ import annotations

from engine.contract import DEALER

from .protocol import Replay

SUIT_COLOURS = {"sun": "yellow", "moon": "blue", "crown": "magenta", "arms": "red"}


def _style(text: str, suit: str | None, colour: bool) -> str:
    if not colour or suit not in SUIT_COLOURS:
        return text
    import typer

    return typer.style(text, fg=SUIT_COLOURS[suit], bold=True)


def who_is(rep: Replay, who: str) -> str:
    """A duty holder as people say it: the dealer is the referee, or any player at a table."""
    if who != DEALER:
        return who
    return rep.referee if rep.mode == "referee" else "any player (the table deals)"


def next_duty(rep: Replay) -> tuple[list[str], str, str] | None:
    """Who owes the next act (as people name them), its kind and its words; None when nothing is owed."""
    duties = rep.duties()
    if not duties:
        return None
    if rep.referee and all(d.what == "open" for d in duties):
        # the referee holds every coin's opening and settles a tie-break or the audit in one entry
        owners = " and ".join(d.who for d in duties)
        detail = duties[0].detail.replace("your coins", f"the coins of {owners}").replace("you placed", "placed")
        return [rep.referee], "open", detail
    return list(dict.fromkeys(who_is(rep, d.who) for d in duties)), duties[0].what, duties[0].detail


def next_line(rep: Replay) -> str:
    owed = next_duty(rep)
    if owed is None:
        return "Game over: " + result_text(rep) if rep.outcome() else "Nothing is owed."
    holders, what, detail = owed
    return f"Next: {', '.join(holders)} ({what}: {detail})"


def result_text(rep: Replay) -> str:
    result = rep.outcome()
    if result is None:
        return "in progress"
    scores = ", ".join(f"{p} {s}" for p, s in result.scores.items())
    verb = "share the win" if len(result.winners) > 1 else "wins"
    return f"{scores}; {' and '.join(result.winners)} {verb}"


def _short(tile: str | None) -> str:
    if tile is None:
        return "??"
    suit, rank = tile.split("-")
    return suit[0].upper() + {"null": "n", "ace": "a"}.get(rank, rank)


def board(rep: Replay, shown: dict, colour: bool) -> str:
    """The pyramid as a small map, then every tile with its coins, hands, claims and duties."""
    lines = [f"Sarcophagus, {rep.mode} mode, {', '.join(rep.players)}; entry {rep.seq}",
             "Map: tile (S=sun M=moon C=crown A=arms; n=null a=ace; ░░ face down) and its number of coins", ""]
    for row in range(1, 7 if shown["pyramid"] else 1):
        cells = []
        for col in "abcdef"[:row]:
            pos = f"{row}{col}"
            spot = shown["pyramid"].get(pos)
            if spot is None:
                cells.append("     ")
                continue
            suit = spot["tile"].split("-")[0] if spot["tile"] else None
            cell = f"[{_short(spot['tile']) if spot['tile'] else '░░'}{len(spot['coins']) or '·'}]"
            cells.append(_style(cell, suit, colour))
        lines.append((" " * (3 * (6 - row)) + " ".join(cells)).rstrip())
    lines += ["", "Tiles:" if shown["pyramid"] else "The pyramid is empty."]
    for pos, spot in shown["pyramid"].items():
        coins = " ".join(f"{c['owner']}:{'?' if c['value'] is None else c['value']}" for c in spot["coins"])
        tile = spot["tile"] or "face down"
        suit = spot["tile"].split("-")[0] if spot["tile"] else None
        if spot["tile"] or spot["coins"]:
            lines.append(f"  {pos}  {_style(f'{tile:<10}', suit, colour)} {coins}".rstrip())
    buried = [f"{pos} ({spot['status']}{', ' + spot['holder'] if spot['holder'] else ''}"
              f"{', ' + spot['tile'] if spot['tile'] else ''})" for pos, spot in shown["sarcophagus"].items()]
    lines.append("Sarcophagus: " + "; ".join(buried))
    lines.append("Hands: " + ", ".join(f"{p} {n} coin{'s' * (n != 1)}" for p, n in shown["hands"].items()))
    for seat, values in shown.get("my_hand", {}).items():
        lines.append(f"Your hand ({seat}): {' '.join(map(str, values)) or 'empty'}")
    for player, tiles in shown["claimed"].items():
        lines.append(f"{player} holds: {', '.join(tiles) or 'nothing yet'}")
    lines += ["", next_line(rep)]
    return "\n".join(lines)


def log_text(rep: Replay, path: str) -> str:
    """The game as readable movetext with a header, one entry a line, what it caused beneath."""
    g = rep.genesis
    options = " ".join(f"{k}={v}" for k, v in sorted(g.options.items())) or "defaults"
    header = [
        ("Game", g.game), ("GameId", g.game_id), ("Players", ", ".join(rep.players)),
        ("Dealer", f"referee {rep.referee}" if rep.referee else "table"), ("Options", options),
        ("First", g.first), ("Entries", str(rep.seq)), ("Result", result_text(rep)), ("FinalHash", rep.head),
    ]
    lines = [f'[{key} "{value}"]' for key, value in header] + [""]
    events: dict[int, list] = {}
    for seq, event in rep.events:
        events.setdefault(seq, []).append(event)
    for entry in rep.entries:
        lines.append(f"{entry.seq:>4}. {entry.author:<8} {entry.action}")
        lines += [f"        {event}" for event in events.get(entry.seq, [])]
    return "\n".join(lines)
